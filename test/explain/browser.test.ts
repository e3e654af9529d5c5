// A real browser (Debian's chromium driven by playwright-core, no download) opens the page as a
// support lead would: the demo's (two turns, written by `check --html`) and a three-turn
// conversation held in ONE trace, served by `serve` with auth on and opened through the links the
// Docker stack wires — Jaeger's link pattern (a signed link, no sign-in) and Grafana's (the page's
// URL: the sign-in form, then a session). Asserted: the index and its bad-turn-first order, the
// verdict's plain sentence on top, the answer row, the folded engineer detail (a link into it
// opens it), keyboard reach and focus rings, no horizontal overflow at 390 px, the style under the
// CSP, and hostile telemetry that executes nothing. Screenshots at 1280 and 390 px go to
// test-results/explain/ (untracked); with FOOTPRINT_DOCS_SHOTS=1 the four in docs/ are rewritten.
// Needs /usr/bin/chromium (Debian package `chromium`).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runCheck } from '../../src/cli/check.js';
import { explainTrace } from '../../src/explain/explain.js';
import { renderPage } from '../../src/explain/html.js';
import { serviceFactory, type ServiceComponent } from '../../src/service/factory.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { ATTR_EXPLAIN_URL, EVENT_FINDING } from '../../src/findings/names.js';
import { testConfig, silentLog, startSink, downstreamTo, waitFor, type Sink } from '../service/helpers.js';
import { DEMO, ROOT, hostileDemo, jaegerUrl } from './helpers.js';
import { threeTurns } from './conversation.js';

// The functions passed to page.evaluate run in the page: its globals, typed loosely here (the
// project's tsconfig has no DOM lib, and must not get one for src/).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare function getComputedStyle(el: unknown, pseudo?: string): any;

// A browser on a loaded 2-core machine is slow: generous bounds per test and hook (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const ART = join(ROOT, 'test-results', 'explain');
const DOCS = process.env.FOOTPRINT_DOCS_SHOTS === '1' ? join(ROOT, 'docs') : undefined;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
let browser: Browser;

/** Debian's chromium: absent, the page tests are skipped and say why (as the Prometheus and Redis ones do); under CI, absent is a failure. */
const CHROMIUM = '/usr/bin/chromium';
const MISSING = !existsSync(CHROMIUM);
const MESSAGE = `${CHROMIUM} not found: install the Debian package (apt-get update && apt-get install -y chromium), as .ci/run does`;
if (MISSING && !process.env.CI) console.warn(`test/explain/browser.test.ts skipped: ${MESSAGE}`);

describe.runIf(MISSING && process.env.CI)('chromium under CI', () => {
  it('is installed', () => {
    throw new Error(MESSAGE);
  });
});

beforeAll(async () => {
  if (MISSING) return;
  mkdirSync(ART, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function open(url: string, width = 1280, headers: Record<string, string> = {}): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, extraHTTPHeaders: headers });
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

/** A screenshot into test-results (and docs/, when asked): full page at 1280, the first two screens at 390. */
async function shoot(page: Page, name: string, width: number): Promise<void> {
  const path = join(ART, name);
  if (width < 500) await page.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width, height: Math.min(1688, await page.evaluate(() => document.documentElement.scrollHeight)) } });
  else await page.screenshot({ path, fullPage: true });
  if (DOCS) copyFileSync(path, join(DOCS, name));
}

const inViewport = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const r = document.querySelector(sel)!.getBoundingClientRect();
    return r.top >= -1 && r.top < window.innerHeight;
  }, selector);

/** Nothing wider than the viewport: the page never scrolls sideways. */
const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

// innerText leaves out the quotation marks <q> draws (CSS generated content): expectations omit them.
const indexLines = (page: Page) => page.locator('nav.index li').allInnerTexts();

describe.skipIf(MISSING)('the demo page from check --html (two turns)', () => {
  const file = join(ART, 'demo.html');

  it('opens with an index, the bad turn first, and its verdict and plain sentence on top', async () => {
    const r = runCheck([join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json'), '--declarations', join(DEMO, 'declarations.yaml'), '--html', file]);
    expect(r.exitCode).toBe(0);
    const { page, problems } = await open(`file://${file}`);
    expect((await indexLines(page)).map((l) => l.replace(/\s+/g, ' '))).toEqual(["PROBABLY WRONG Turn 2 What's the backup status of that machine?", 'NO PROBLEM FOUND Turn 1 Is srv-db-04 protected? List its backup jobs.']);
    // The first turn on the page is the bad one, above the fold.
    const first = page.locator('article.turn').first();
    expect(await first.getAttribute('id')).toBe('t2-turn');
    expect(await first.locator('header.verdict .badge').innerText()).toBe('PROBABLY WRONG');
    expect((await first.locator('p.plain').innerText()).replace(/\s+/g, ' ')).toBe(
      'The reply That machine has no backup record. is probably wrong: the backup status call found nothing for db-primary-full, which is only part of nightly-db-primary-full that backup jobs returned, and the cut-off value may be why.',
    );
    expect(await inViewport(page, '#t2-summary')).toBe(true);
    expect(await page.locator('#t2-row-it-answered + dd').innerText()).toMatch(/^That machine has no backup record\.\s*as answered$/);
    expect(await page.locator('#t2-row-you-asked + dd').innerText()).toMatch(/^What's the backup status of that machine\?\s*as asked$/);
    expect(await page.locator('#t2-row-how-sure + dd').innerText()).toMatch(/^Not reliable: 1 problem was found on the way to this reply/);
    // The style ran under the CSP (else this border would be the default).
    expect(await page.locator('#t2-summary').evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(207, 34, 46)');
    // The engineer detail is folded.
    expect(await page.locator('#t2-engineer').evaluate((el) => el.open)).toBe(false);
    expect(await page.locator('#t2-span-72a396a7302dd225').isVisible()).toBe(false);
    expect(problems).toEqual([]);
    expect(await noOverflow(page)).toBe(true);
    // Table headers stay whole words on one line (the table scrolls in its box if it must).
    await page.locator('#t2-engineer > summary').click();
    const headers = await page.locator('#t2-engineer th').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight)));
    expect(headers.length).toBeGreaterThan(6);
    expect(headers.every((lines) => lines < 2)).toBe(true);
    expect(await noOverflow(page)).toBe(true);
    await page.locator('#t2-engineer > summary').click();
    await shoot(page, 'explain-demo-1280.png', 1280);
    await page.context().close();
  });

  it('at 390 px the rows stack, nothing overflows, and table headers do not break mid-word', async () => {
    const { page } = await open(`file://${file}`, 390);
    expect(await noOverflow(page)).toBe(true);
    const dt = await page.locator('#t2-row-you-asked').boundingBox();
    const dd = await page.locator('#t2-row-you-asked + dd').boundingBox();
    expect(dd!.y).toBeGreaterThan(dt!.y + dt!.height - 1); // below, not beside
    expect(dd!.width).toBeGreaterThan(300);
    await page.locator('#t2-engineer > summary').click();
    expect(await noOverflow(page)).toBe(true);
    // The tables stack too: no header row, each cell labelled by its header, on one line.
    expect(await page.locator('#t2-ledger thead').evaluate((el) => getComputedStyle(el).display)).toBe('none');
    expect(await page.locator('#t2-ledger td').first().evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"Tool: "');
    await page.locator('#t2-engineer > summary').click();
    await shoot(page, 'explain-demo-390.png', 390);
    await page.context().close();
  });

  it("a finding's details link opens the folded part; the backtrack link lands on the earlier span's section", async () => {
    const { page } = await open(`file://${file}`);
    await page.locator('#t2-turn ul.wrong a.more').first().click();
    expect(await page.locator('#t2-engineer').evaluate((el) => el.open)).toBe(true);
    const link = page.locator('#t2-span-72a396a7302dd225 a.backtrack-link');
    expect(await link.innerText()).toBe('request 3 (an earlier turn), span aa0b0c50ac8db839');
    await link.click();
    // Following a link to a fragment is a navigation the browser may finish after the click returns.
    await page.waitForFunction(() => window.location.hash === '#t2-span-aa0b0c50ac8db839', undefined, { timeout: 10_000 });
    expect(new URL(page.url()).hash).toBe('#t2-span-aa0b0c50ac8db839');
    expect(await inViewport(page, '#t2-span-aa0b0c50ac8db839')).toBe(true);
    expect(await page.locator('#t2-span-aa0b0c50ac8db839 mark.served').first().innerText()).toBe('db-primary-full');
    await page.context().close();
  });

  it('keyboard: Tab reaches the index links with a visible focus ring, Enter follows; the folded part opens with Enter', async () => {
    const { page } = await open(`file://${file}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#t2-turn');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#t1-turn');
    await page.keyboard.press('Enter');
    // Enter on a link starts a fragment navigation that may finish after the key press returns (CI saw '').
    await page.waitForFunction(() => window.location.hash === '#t1-turn', undefined, { timeout: 10_000 });
    expect(new URL(page.url()).hash).toBe('#t1-turn');
    expect(await inViewport(page, '#t1-turn')).toBe(true);
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.parentElement?.id === 't1-engineer');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('t1-engineer')?.open === true, undefined, { timeout: 10_000 });
    expect(await page.locator('#t1-engineer').evaluate((el) => el.open)).toBe(true);
    await page.context().close();
  });
});

describe.skipIf(MISSING)('served with auth on, opened through the links the Docker stack wires', () => {
  let svc: ServiceComponent;
  let sink: Sink;
  let base = '';
  const token = 'browser-test-token';
  const c = threeTurns({ oneTrace: true });
  const traceId = c.traceIds[0]!;
  beforeAll(async () => {
    sink = await startSink();
    const dir = join(ART, 'three-turns');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'declarations.yaml'), c.files['declarations.yaml']!);
    const created = serviceFactory.create(testConfig({ declarationsPath: join(dir, 'declarations.yaml'), auth: { token }, downstream: downstreamTo(sink), publicUrl: 'http://127.0.0.1:1' }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
    if (!created.ok) throw new Error(created.errors.join());
    svc = created.service;
    base = (await svc.start()).address;
    for (const [path, name] of [['/v1/traces', 'trace.otlp.json'], ['/v1/logs', 'logs.otlp.json']] as const) {
      const r = await fetch(`${base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: c.files[name]! });
      expect(r.status).toBe(200);
    }
    await waitFor(() => sink.spans.filter((s) => s.events.some((e) => e.name === EVENT_FINDING)).length >= 2);
  });
  afterAll(async () => {
    await svc?.shutdown();
    await sink?.close();
  });

  it("Jaeger's link (its pattern over the finding event) opens the page with no sign-in: index, bad turns first, the plain sentence", async () => {
    const ui = JSON.parse(readFileSync(join(ROOT, 'docker', 'jaeger', 'ui-config.json'), 'utf8')) as { linkPatterns: { url: string }[] };
    const event = sink.spans.flatMap((s) => s.events).find((e) => e.name === EVENT_FINDING && e.attributes['footprint.finding.kind'] === 'unsupported-argument')!;
    // The compose base (localhost:14318) is this test's service.
    const url = jaegerUrl(ui.linkPatterns[0]!.url, event.attributes).replace('http://localhost:14318', base);
    expect(url).toBe(String(event.attributes[ATTR_EXPLAIN_URL]).replace('http://127.0.0.1:1', base));
    const { page, problems } = await open(url);
    expect((await indexLines(page)).map((l) => l.replace(/\s+/g, ' '))).toEqual([
      'PROBABLY WRONG Turn 2 How much storage does srv-db-04 use?',
      "PROBABLY WRONG Turn 3 What's the backup status of srv-db-04?",
      'NO PROBLEM FOUND Turn 1 Which of our machines are protected by a backup plan?',
    ]);
    expect(await page.locator('article.turn').evaluateAll((els) => els.map((e) => e.id))).toEqual(['t2-turn', 't3-turn', 't1-turn']);
    // The link's anchor is the finding's line in plain words, in turn 3.
    const hash = new URL(url).hash;
    expect(await page.locator(`#t3-turn ${hash}`).innerText()).toMatch(/^PROBLEM\s*The backup status call used db-04 as the machine id, which is only part of srv-db-04, a cut-off value\./);
    expect(await inViewport(page, hash)).toBe(true);
    expect((await page.locator('#t3-summary p.plain').innerText()).replace(/\s+/g, ' ')).toBe(
      'The reply There is no backup on record for srv-db-04: its status is unknown. is probably wrong: the backup status call used db-04 as the machine id, which is only part of srv-db-04, a cut-off value.',
    );
    expect(await page.locator('#t2-row-it-answered + dd').innerText()).toMatch(/^srv-db-04 uses 1,512 GB of backup storage\./);
    expect(await noOverflow(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.goto(new URL(url).pathname.startsWith('/') ? `${base}${new URL(url).pathname}` : url);
    await shoot(page, 'explain-three-turns-1280.png', 1280);
    await page.context().close();
  });

  it("Grafana's link (the page's URL, no signature) shows the sign-in form; the token signs in and the page opens, also at 390 px", async () => {
    const { page, problems } = await open(`${base}/explain/${traceId}`, 390);
    expect(await page.locator('h1').innerText()).toBe('Explain this answer');
    expect(await page.locator('form.sign-in').count()).toBe(1);
    expect(await page.locator('article.turn').count()).toBe(0);
    await page.locator('#token').fill('not-the-token');
    await page.locator('form.sign-in button').click();
    expect(await page.locator('.notice').innerText()).toBe('That token was not accepted.');
    await page.locator('#token').fill(token);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/explain/${traceId}`);
    expect((await indexLines(page)).length).toBe(3);
    expect(await noOverflow(page)).toBe(true);
    const cookies = await page.context().cookies();
    expect(cookies.find((x) => x.name === 'footprint_explain')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/explain' });
    // The session holds on a reload; the JSON route still wants the bearer token.
    await page.reload();
    expect(await page.locator('article.turn').count()).toBe(3);
    // The sign-in form itself answers 401 (twice: before and after the wrong token); nothing else failed.
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    expect(problems).toHaveLength(2);
    await shoot(page, 'explain-three-turns-390.png', 390);
    const api = await page.goto(`${base}/api/explain/${traceId}`);
    expect(api!.status()).toBe(401);
    await page.context().close();
  });
});

describe.skipIf(MISSING)('hostile telemetry', () => {
  it('executes nothing and breaks no layout, at 1280 and 390 px', async () => {
    const { record, declarations } = hostileDemo();
    const file = join(ART, 'hostile.html');
    writeFileSync(file, renderPage([explainTrace(record, { declarations })]));
    for (const width of [1280, 390]) {
      const { page, problems } = await open(`file://${file}`, width);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.evaluate(() => document.querySelectorAll('script, img, iframe, object, embed, form').length)).toBe(0);
      const hrefs = await page.evaluate(() => [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.every((h) => h.startsWith('#'))).toBe(true);
      expect(await page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length)).toBe(0);
      const text = await page.locator('#row-you-asked + dd').innerText();
      expect(text).toContain('<script>window.__pwned=1</script>');
      expect(text).toContain('⟨U+202E⟩evil');
      expect(text).toContain('{{tool:code}}');
      await page.locator('#engineer > summary').click();
      expect(await noOverflow(page)).toBe(true);
      expect(await page.locator('dl.rows dt').allInnerTexts()).toEqual(
        width < 500
          ? ['YOU ASKED', 'IT ANSWERED', 'WHAT IS LIKELY WRONG', 'HOW SURE', 'WHAT IT LOOKED UP', 'WHAT IT FOUND', 'WHAT IT DID NOT CHECK']
          : ['You asked', 'It answered', 'What is likely wrong', 'How sure', 'What it looked up', 'What it found', 'What it did not check'],
      );
      expect(problems).toEqual([]);
      await page.screenshot({ path: join(ART, `hostile-${width}.png`), fullPage: true });
      await page.context().close();
    }
  });
});

