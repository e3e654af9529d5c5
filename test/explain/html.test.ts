// The page as HTML text: the rows as written, the marks and the backtrack link to an existing
// section, the CSP that admits only the page's own style, and hostile telemetry that reaches the
// page only escaped (no tag, handler or script URL of its own; bidi and control characters shown
// as visible markers). The real-browser test is test/explain/browser.test.ts.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { explainTrace } from '../../src/explain/explain.js';
import { renderPage, pageCsp } from '../../src/explain/html.js';
import { escapeHtml, shownText, safeId } from '../../src/explain/escape.js';
import { DEMO_TURN_1, HOSTILE, demoDeclarations, demoRecord, hostileDemo } from './helpers.js';

const page = renderPage([explainTrace(demoRecord(), { declarations: demoDeclarations() })]);
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');

describe('escaping', () => {
  it('escapes the five specials and shows invisible characters as markers', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;');
    expect(shownText('a\u202Eb\u0000c\u200Bd')).toBe('a⟨U+202E⟩b⟨U+0000⟩c⟨U+200B⟩d');
    expect(safeId('ab"><x')).toBe('ab___x');
  });
});

describe('the demo page', () => {
  it('is one document with no script, no external asset and a CSP that admits only its own style', () => {
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).not.toMatch(/<script|<img|<link|<iframe|<object|<embed/i);
    expect(page).not.toMatch(/<[^>]*\s(src|on[a-z]+)=/i);
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    expect(pageCsp()).toContain(`style-src 'sha256-${hash}'`);
    expect(pageCsp()).toContain("default-src 'none'");
    expect(page).toContain(`content="${escapeHtml(pageCsp())}"`);
  });
  it('has the account rows as written, with their vouchers', () => {
    const t = text(page);
    expect(t).toContain('You asked');
    expect(t).toContain('\u201CWhat\'s the backup status of that machine?\u201D'.replace(/[\u201C\u201D]/g, '')); // <q> adds the quotes
    expect(t).toContain('It called backup_status (call call_bt_003).library');
    expect(t).toContain('backup_status returned an empty result without saying what it searched.');
    expect(t).toContain('Not sure: empty-undeclared.');
    expect(t).toContain('1 finding on this turn: see Anything wrong.');
    expect(page).toContain('data-template="found.empty-undeclared@1"');
  });
  it('highlights the value where it was chosen, written, absent and last served, linking back to an existing section', () => {
    expect(page).toMatch(/<mark class="chosen"[^>]*><bdi>db-primary-full<\/bdi><\/mark>/);
    expect(page).toMatch(/<mark class="written"/);
    expect(page).toMatch(/<mark class="absent"/);
    const href = /<a class="backtrack-link" href="#([^"]+)"/.exec(page)![1]!;
    expect(href).toBe('span-aa0b0c50ac8db839');
    expect(page).toContain(`<section id="${href}"`);
    // The earlier section marks the value as served there.
    const earlier = page.slice(page.indexOf(`<section id="${href}"`));
    expect(earlier.slice(0, earlier.indexOf('</section>'))).toMatch(/<mark class="served"/);
  });
  it('shows the final answer and the person\'s message, and no other content', () => {
    expect(page).toContain('That machine has no backup record.');
    // Tool results and the earlier answer are history: never on the page. (A finding may quote the
    // one served token its witness names — the `fragment` rule's whole token — but no more.)
    expect(page).not.toContain('hourly-db-primary-wal');
    expect(page).not.toContain('is protected. Jobs:');
    expect(page).not.toContain('You are a backup triage assistant');
  });
  it('renders several traces with distinct ids', () => {
    const both = renderPage([explainTrace(demoRecord(DEMO_TURN_1), { declarations: demoDeclarations() }), explainTrace(demoRecord(), { declarations: demoDeclarations() })]);
    const ids = [...both.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of both.matchAll(/href="#([^"]+)"/g)) expect(ids, m[1]).toContain(m[1]);
  });
});

describe('hostile telemetry', () => {
  const { record, declarations } = hostileDemo();
  const e = explainTrace(record, { declarations });
  const html = renderPage([e]);
  it('reaches the page (so the test means something)', () => {
    expect(e.account.rows[0]!.sentences[0]!.text).toContain('<script>');
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(html).toContain('⟨U+202E⟩');
    expect(e.account.turn).toContain('agent <script>');
    expect(e.account.tenant).toContain('tenant <script>');
  });
  it('adds no tag, handler, script URL or raw bidi/control character of its own', () => {
    expect(html).not.toMatch(/<script|<img|<a [^>]*href="javascript/i);
    expect(html).not.toMatch(/<[^>]* on[a-z]+=/i);
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f\u200B]/);
    // Every href is a fragment of this page.
    for (const m of html.matchAll(/href="([^"]*)"/g)) expect(m[1]).toMatch(/^#[0-9A-Za-z_-]+$/);
    // The placeholder a tool wrote is printed, not filled.
    expect(html).toContain('{{tool:code}}');
  });
  it('is well-nested: as many closing tags as opening ones for each element used', () => {
    for (const tag of ['section', 'article', 'p', 'li', 'ol', 'mark', 'bdi', 'code', 'q', 'table', 'tr', 'td', 'dl', 'dd', 'dt']) {
      const open = html.match(new RegExp(`<${tag}[ >]`, 'g'))?.length ?? 0;
      const close = html.match(new RegExp(`</${tag}>`, 'g'))?.length ?? 0;
      expect(close, tag).toBe(open);
    }
  });
  void HOSTILE;
});

describe('hostile coverage words (a tool declares them; they are shown)', () => {
  it('reach the page only escaped, with visible markers', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { decodeOtlpJsonText } = await import('../../src/otlp/json.js');
    const { FootprintCore } = await import('../../src/runs/footprint.js');
    const { annotatedSpans } = await import('../../src/explain/annotate.js');
    const { loadDeclarationsFile } = await import('../../src/declarations/load.js');
    const { ROOT } = await import('./helpers.js');
    const dir = join(ROOT, 'test', 'fixtures', 'scenarios');
    // The coverage list sits in a JSON string inside the attribute: encoded twice.
    const twice = JSON.stringify(JSON.stringify(HOSTILE).slice(1, -1)).slice(1, -1);
    const text = readFileSync(join(dir, 'declared-absence-gaps.otlp.json'), 'utf8').split('the offsite replica catalog (vault-us-2)').join(twice);
    const doc = decodeOtlpJsonText(text, 'hostile');
    const r = loadDeclarationsFile(join(dir, 'declarations.yaml'));
    if (!r.ok) throw new Error(r.errors.join());
    const spans = doc.spans.map((d) => d.span);
    const result = new FootprintCore({ declarations: r.declarations }).process({ spans, logs: doc.logs });
    const e = explainTrace({ traceId: 'aac71d214e75325a9b00c6167291da06', spans: annotatedSpans(spans, result), logs: doc.logs }, { declarations: r.declarations });
    const not = e.account.rows.find((x) => x.row === 'it-did-not-check')!.sentences.map((s) => s.text).join(' ');
    expect(not).toContain('<script>window.__pwned=1</script>');
    const html = renderPage([e]);
    expect(html).toContain('did not check <q><bdi>&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(html).not.toMatch(/<script|<img|<a [^>]*href="javascript/i);
    expect(html).not.toMatch(/<[^>]* on[a-z]+=/i);
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f\u200B]/);
    // The shown map shows the words (declared coverage) as data, never as markup.
    expect(Object.values(e.shown).some((l) => 'value' in l && String(l.value).includes('<script>'))).toBe(true);
  });
});
