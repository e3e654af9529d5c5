// A real browser (Debian's chromium driven by playwright-core, no download) opens the page: the
// demo's, written by `check --html`, and a multi-turn recording (Vercel AI SDK) served by
// `serve`. The rows read as written, the value is highlighted, the backtrack link lands on the
// earlier span's section, keyboard navigation reaches and follows it, the style loads under the
// CSP, and hostile telemetry executes nothing and breaks no layout. Screenshots go to
// test-results/explain/ (untracked). Needs /usr/bin/chromium (Debian package `chromium`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runCheck } from '../../src/cli/check.js';
import { explainTrace } from '../../src/explain/explain.js';
import { renderPage } from '../../src/explain/html.js';
import { serviceFactory, type ServiceComponent } from '../../src/service/factory.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { testConfig, silentLog } from '../service/helpers.js';
import { DEMO, ROOT, demoDeclarations, demoRecord, hostileDemo } from './helpers.js';

// The functions passed to page.evaluate run in the page: its globals, typed loosely here (the
// project's tsconfig has no DOM lib, and must not get one for src/).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare function getComputedStyle(el: unknown): any;

const ART = join(ROOT, 'test-results', 'explain');
const VERCEL = join(ROOT, 'test', 'fixtures', 'vercel-ai', 'backup-triage.otlp.json');
const VERCEL_TURN_2 = '0a73b28b973e686243e47d4c8d9d909c';
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ART, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function open(url: string, headers: Record<string, string> = {}): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, extraHTTPHeaders: headers });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(url);
  return { page, problems };
}

const inViewport = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const r = document.querySelector(sel)!.getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight;
  }, selector);

describe('the demo page from check --html', () => {
  const file = join(ART, 'demo.html');

  it('rows read as written, the value is highlighted, the style loads under the CSP', async () => {
    const r = runCheck([join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json'), '--declarations', join(DEMO, 'declarations.yaml'), '--html', file]);
    expect(r.exitCode).toBe(0);
    const { page, problems } = await open(`file://${file}`);
    const row = (name: string) => page.locator(`#t1-row-${name} + dd`).innerText();
    expect(await row('you-asked')).toMatch(/^“?What's the backup status of that machine\?”?\s*person$/);
    expect(await row('it-checked')).toMatch(/^It called backup_status \(call call_bt_003\)\.\s*library$/);
    expect(await row('it-found')).toMatch(/^backup_status returned an empty result without saying what it searched\.\s*library$/);
    expect(await row('how-sure')).toMatch(/^Not sure: empty-undeclared\.\s*library$/);
    expect(await page.locator('#t1-summary').innerText()).toMatch(/^BAD\s+1 finding on this turn: see Anything wrong\./);
    const chosen = page.locator('#t1-span-72a396a7302dd225 mark.chosen').first();
    expect(await chosen.innerText()).toBe('db-primary-full');
    expect(await chosen.isVisible()).toBe(true);
    expect(await chosen.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 216, 181)');
    expect(await page.locator('#t1-span-72a396a7302dd225 mark.written').count()).toBeGreaterThan(0);
    // The inline style ran under the CSP (else this border would be the default).
    expect(await page.locator('#t1-summary').evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(207, 34, 46)');
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(ART, 'demo.png'), fullPage: true });
    await page.context().close();
  });

  it('the backtrack link lands on the earlier span\'s section', async () => {
    const { page } = await open(`file://${file}`);
    const link = page.locator('#t1-span-72a396a7302dd225 a.backtrack-link');
    expect(await link.innerText()).toBe('request 3 (an earlier turn), span aa0b0c50ac8db839');
    await link.click();
    expect(new URL(page.url()).hash).toBe('#t1-span-aa0b0c50ac8db839');
    expect(await inViewport(page, '#t1-span-aa0b0c50ac8db839')).toBe(true);
    expect(await page.locator('#t1-span-aa0b0c50ac8db839').evaluate((el) => el.matches(':target'))).toBe(true);
    expect(await page.locator('#t1-span-aa0b0c50ac8db839 mark.served').first().innerText()).toBe('db-primary-full');
    await page.screenshot({ path: join(ART, 'demo-backtrack.png') });
    await page.context().close();
  });

  it('keyboard: Tab reaches the section links and the backtrack link, Enter follows them', async () => {
    const { page } = await open(`file://${file}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('The account');
    let reached = false;
    for (let i = 0; i < 200 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.classList.contains('backtrack-link') === true && document.activeElement.closest('#t1-span-72a396a7302dd225') !== null);
    }
    expect(reached).toBe(true);
    // A visible focus ring.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).hash).toBe('#t1-span-aa0b0c50ac8db839');
    expect(await inViewport(page, '#t1-span-aa0b0c50ac8db839')).toBe(true);
    await page.context().close();
  });
});

describe('a multi-turn recording served by `serve`', () => {
  let svc: ServiceComponent;
  let base = '';
  const token = 'browser-test-token';
  beforeAll(async () => {
    const created = serviceFactory.create(testConfig({ declarationsPath: join(ROOT, 'test', 'fixtures', 'declarations.yaml'), auth: { token } }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
    if (!created.ok) throw new Error(created.errors.join());
    svc = created.service;
    base = (await svc.start()).address;
    const r = await fetch(`${base}/v1/traces`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: readFileSync(VERCEL) });
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    await svc?.shutdown();
  });

  it('opens /explain/{traceId}: rows, highlighted value, backtrack into turn 1, no console error', async () => {
    const { page, problems } = await open(`${base}/explain/${VERCEL_TURN_2}`, { Authorization: `Bearer ${token}` });
    expect(await page.locator('#row-it-checked + dd').innerText()).toMatch(/It called backup_status \(call call_bt_003\)\./);
    expect(await page.locator('#row-anything-wrong + dd').innerText()).toMatch(/unsupported-argument at choice: 'backup_status' was called with machine_id = "db-primary-full"/);
    expect(await page.locator('mark.chosen').first().innerText()).toBe('db-primary-full');
    const link = page.locator('a.backtrack-link').first();
    const href = (await link.getAttribute('href'))!;
    await link.click();
    expect(new URL(page.url()).hash).toBe(href);
    expect(await inViewport(page, href)).toBe(true);
    expect(await page.locator(href).innerText()).toMatch(/an earlier turn of this conversation/);
    expect(problems).toEqual([]);
    await page.goto(`${base}/explain/${VERCEL_TURN_2}`);
    await page.screenshot({ path: join(ART, 'service-vercel-ai.png'), fullPage: true });
    await page.context().close();
  });
});

describe('hostile telemetry', () => {
  it('executes nothing and breaks no layout', async () => {
    const { record, declarations } = hostileDemo();
    const file = join(ART, 'hostile.html');
    writeFileSync(file, renderPage([explainTrace(record, { declarations })]));
    const { page, problems } = await open(`file://${file}`);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.evaluate(() => document.querySelectorAll('script, img, iframe, object, embed').length)).toBe(0);
    const hrefs = await page.evaluate(() => [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.every((h) => h.startsWith('#'))).toBe(true);
    // Every element that has an inline handler attribute: none.
    expect(await page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length)).toBe(0);
    // The hostile strings are there as text, with visible markers for bidi and control characters.
    const text = await page.locator('#row-you-asked + dd').innerText();
    expect(text).toContain('<script>window.__pwned=1</script>');
    expect(text).toContain('⟨U+202E⟩evil');
    expect(text).toContain('{{tool:code}}');
    // No horizontal overflow: long hostile strings wrap.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // The row titles still read left to right in order.
    expect(await page.locator('dl.rows dt').allInnerTexts()).toEqual(['You asked', 'It checked', 'It did not check', 'It found', 'How sure', 'Anything wrong', 'Checks that could not run']);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(ART, 'hostile.png'), fullPage: true });
    await page.context().close();
  });
});

describe('the single-trace demo page (the one in docs/)', () => {
  it('renders and is screenshotted', async () => {
    const file = join(ART, 'demo-turn2.html');
    writeFileSync(file, renderPage([explainTrace(demoRecord(), { declarations: demoDeclarations() })]));
    const { page, problems } = await open(`file://${file}`);
    expect(await page.locator('#row-you-asked + dd').innerText()).toMatch(/What's the backup status of that machine\?/);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(ART, 'demo-turn2.png'), fullPage: true });
    await page.context().close();
  });
});
