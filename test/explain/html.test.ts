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
import { threeTurns } from './conversation.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { annotatedSpans } from '../../src/explain/annotate.js';

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
  it('opens with the verdict and one plain sentence, then the rows as written, each with where it comes from in words', () => {
    const t = text(page.slice(page.indexOf('<main>')));
    const top = t.indexOf('Probably wrong');
    expect(top).toBeGreaterThan(0);
    expect(t.slice(top)).toMatch(/^Probably wrongThis turn · backup-triage\s*The reply That machine has no backup record\. is probably wrong: the backup status call found nothing for db-primary-full, which is only part of nightly-db-primary-full that backup jobs returned, and the cut-off value may be why\./);
    expect(t.indexOf('Probably wrong')).toBeLessThan(t.indexOf('You asked'));
    expect(t).toContain("What's the backup status of that machine?as asked"); // <q> adds the quotes
    expect(t).toContain('It answeredThat machine has no backup record.as answered');
    expect(t).toContain('It used backup_status.from the record');
    expect(t).toContain('backup_status returned an empty result without saying what it searched.');
    expect(t).toContain('Besides, it cannot be confirmed: a lookup came back empty without saying what it searched.');
    expect(t).not.toContain('empty-undeclared.');
    expect(page).toContain('data-template="found.empty-undeclared@1"');
    // The vouchers are explained where they appear.
    expect(t).toContain('Where each line comes from: from the record footprint-otel read it from the recorded trace;');
  });
  it('lists what is likely wrong in plain words, problems before places to look, each anchored for the trace viewer\'s link', () => {
    const items = [...page.matchAll(/<li id="finding-([0-9a-f]+)" tabindex="-1">(.*?)<\/li>/g)];
    expect(items).toHaveLength(2);
    expect(text(items[0]![2]!)).toMatch(/^ProblemThe backup status call used db-primary-full as the machine id/);
    expect(text(items[1]![2]!)).toMatch(/^Worth a lookThe backup status call found nothing for db-primary-full/);
  });
  it('folds the engineer detail (windows, ledger, findings as written, checks) into a <details>', () => {
    const open = page.indexOf('<details class="engineer"');
    expect(open).toBeGreaterThan(page.indexOf('<dl class="rows">'));
    const folded = page.slice(open, page.indexOf('</details>', open));
    for (const id of ['windows', 'ledger', 'findings', 'disposition']) expect(folded).toContain(`<section id="${id}"`);
    expect(text(folded)).toContain("unsupported-argument at choice — value db-primary-full on span 72a396a7302dd225'backup_status' was called with machine_id");
    expect(text(folded)).toContain('dangling-reference could not run: tool definitions were not recorded.');
    // Not in the part a support lead reads first.
    expect(text(page.slice(0, open))).not.toMatch(/unsupported-argument|call_bt_003|72a396a7302dd225/);
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
    expect(e.turns[0]!.rows[0]!.sentences[0]!.text).toContain('<script>');
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(html).toContain('⟨U+202E⟩');
    expect(e.turns[0]!.turn).toContain('agent <script>');
    expect(e.turns[0]!.tenant).toContain('tenant <script>');
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
    for (const tag of ['section', 'article', 'p', 'li', 'ol', 'ul', 'mark', 'bdi', 'code', 'q', 'table', 'tr', 'td', 'dl', 'dd', 'dt', 'details', 'summary', 'header', 'nav', 'div']) {
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
    const not = e.turns[0]!.rows.find((x) => x.row === 'it-did-not-check')!.sentences.map((s) => s.text).join(' ');
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

describe('a page of several turns', () => {
  const c = threeTurns({ oneTrace: true });
  const spans = c.doc.spans.map((d) => d.span);
  const result = new FootprintCore({ declarations: c.declarations }).process({ spans, logs: c.doc.logs });
  const html = renderPage([explainTrace({ traceId: c.traceIds[0]!, spans: annotatedSpans(spans, result), logs: c.doc.logs }, { declarations: c.declarations })]);
  it('opens with an index: one line per turn, what was asked and the verdict, bad turns first', () => {
    const nav = html.slice(html.indexOf('<nav class="index"'), html.indexOf('</nav>'));
    const lines = [...nav.matchAll(/<li>(.*?)<\/li>/g)].map((m) => text(m[1]!));
    expect(lines).toEqual([
      'Probably wrongTurn 2How much storage does srv-db-04 use?',
      "Probably wrongTurn 3What's the backup status of srv-db-04?",
      'No problem foundTurn 1Which of our machines are protected by a backup plan?',
    ]);
    expect(text(nav)).toMatch(/^3 turns on this page, problems first/);
  });
  it('shows the turns in the index\'s order, each link landing on its turn, ids unique', () => {
    const order = [...html.matchAll(/<article id="(t\d-)turn"/g)].map((m) => m[1]);
    expect(order).toEqual(['t2-', 't3-', 't1-']);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of html.matchAll(/href="#([^"]+)"/g)) expect(ids, m[1]).toContain(m[1]);
  });
});
