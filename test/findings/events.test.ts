// Pins how findings are written: values quoted (NFKC, control/format/bidi/zero-width characters
// removed, line breaks flattened, backticks, 64 code points), every attribute under the byte bound
// with witnesses dropped whole (and counted) rather than cut, redaction reaching every quoted
// occurrence, and an id that is stable for the same defect in the same trace.
import { describe, it, expect } from 'vitest';
import { quoteText, redactValue, hashValue, textRedactor } from '../../src/findings/quote.js';
import { findingId, findingIdentity, findingToEvent, fitBytes } from '../../src/findings/events.js';
import { dispositionEvent, dispositionRows, dispositionSentence } from '../../src/findings/disposition.js';
import { CHECK_CATALOG } from '../../src/checks/catalog.js';
import type { CheckTally, Finding } from '../../src/model/finding.js';

const span = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) };
const finding = (over: Partial<Finding> = {}): Finding => ({
  kind: 'unsupported-argument',
  seam: 'choice',
  subjects: [{ kind: 'tool', id: 'backup_status' }],
  predicate: 'args.machine_id',
  value: 'db-primary-full',
  message: `'backup_status' was called with machine_id = "db-primary-full". Nothing here blocked the call.`,
  witnesses: [{ subject: 'tool backup_status', predicate: 'args.machine_id', value: 'db-primary-full', stratum: 'chosen', provenance: 'call call_bt_003' }],
  span,
  toolName: 'backup_status',
  toolCallId: 'call_bt_003',
  grounding: 'assistant-only',
  ...over,
});
const opts = { redaction: 'quote' as const, quotedValueChars: 64, maxAttributeBytes: 2000 };

describe('unit: quoting values from telemetry', () => {
  it('NFKC-normalises, removes control, format, bidi and zero-width characters', () => {
    expect(quoteText('ｓｒｖ\u200b-db\u202e-04\u0007', 64)).toBe('srv-db-04');
    expect(quoteText('a\u2066b\u2069c\ufeff', 64)).toBe('abc');
  });
  it('flattens line breaks and turns backticks into apostrophes', () => {
    expect(quoteText('one\r\ntwo\nthree `x`', 64)).toBe("one two three 'x'");
  });
  it('caps at the given number of code points (not UTF-16 units) and marks the cut', () => {
    expect(quoteText('😀'.repeat(70), 64)).toBe(`${'😀'.repeat(64)}…`);
    expect(quoteText('x'.repeat(64), 64)).toBe('x'.repeat(64));
  });
  it('hash is stable and non-reversible; omit leaves nothing', () => {
    expect(hashValue('db-primary-full')).toBe(hashValue('db-primary-full'));
    expect(hashValue('db-primary-full')).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(redactValue('db-primary-full', 'omit', 64)).toBe('(omitted)');
    expect(redactValue('db-primary-full', 'quote', 64)).toBe('db-primary-full');
  });
});

describe('unit: finding events', () => {
  it('carry every wire-contract attribute', () => {
    const e = findingToEvent(finding(), 7n, opts);
    expect(e.name).toBe('footprint.finding');
    expect(e.timeUnixNano).toBe(7n);
    expect(e.attributes).toMatchObject({
      'footprint.finding.kind': 'unsupported-argument',
      'footprint.finding.seam': 'choice',
      'footprint.finding.predicate': 'args.machine_id',
      'footprint.finding.value': 'db-primary-full',
      'footprint.finding.grounding': 'assistant-only',
      'footprint.tool.name': 'backup_status',
      'footprint.tool.call.id': 'call_bt_003',
    });
    expect(JSON.parse(String(e.attributes['footprint.finding.witnesses']))[0].stratum).toBe('chosen');
  });
  it('the id is stable for the same defect in the same trace, and differs across traces and paths', () => {
    expect(findingId(finding())).toBe(findingId(finding({ message: 'other words', toolCallId: 'call_x' })));
    expect(findingId(finding())).not.toBe(findingId(finding({ span: { ...span, traceId: 'ef'.repeat(16) } })));
    expect(findingId(finding())).not.toBe(findingId(finding({ predicate: 'args.other' })));
    expect(findingIdentity(finding({ subjects: [{ kind: 'tool', id: 'b' }, { kind: 'ground', id: 'a' }] }))).toBe(
      findingIdentity(finding({ subjects: [{ kind: 'ground', id: 'a' }, { kind: 'tool', id: 'b' }] })),
    );
  });
  it('keeps every attribute under the byte bound: witnesses are dropped whole and counted, never cut', () => {
    const witnesses = Array.from({ length: 40 }, (_, i) => ({ subject: 'frame', predicate: 'p', value: `v${i}`, stratum: 'served' as const, provenance: 'é'.repeat(300) }));
    const e = findingToEvent(finding({ witnesses, message: 'm'.repeat(5000) }), 0n, opts);
    for (const v of Object.values(e.attributes)) if (typeof v === 'string') expect(Buffer.byteLength(v)).toBeLessThanOrEqual(2000);
    const w = JSON.parse(String(e.attributes['footprint.finding.witnesses'])) as { omitted?: number }[];
    expect(w.at(-1)!.omitted).toBeGreaterThan(0);
    expect(w.length - 1 + w.at(-1)!.omitted!).toBe(40);
  });
  it('fitBytes never splits a multi-byte character', () => {
    const s = fitBytes('€'.repeat(100), 50);
    expect(Buffer.byteLength(s)).toBeLessThanOrEqual(50);
    expect(s.endsWith('…')).toBe(true);
    expect(s).not.toContain('\ufffd');
  });
  it('redaction hash/omit replaces the value everywhere it is quoted, sensitive values too', () => {
    const f = finding({
      message: `claims "db-primary-full" but the settled fact is "srv-db-04". Nothing here blocked the answer.`,
      sensitive: ['srv-db-04'],
      witnesses: [{ subject: 'x', predicate: 'p', value: 'srv-db-04', stratum: 'result', provenance: 'settled "srv-db-04" and chosen "db-primary-full"' }],
    });
    for (const redaction of ['hash', 'omit'] as const) {
      const e = findingToEvent(f, 0n, { ...opts, redaction });
      const all = JSON.stringify(e.attributes);
      expect(all).not.toContain('db-primary-full');
      expect(all).not.toContain('srv-db-04');
    }
  });
});

describe('unit: the disposition event', () => {
  it('lists every registered check, zeros included, and says what could not run', () => {
    const rows = dispositionRows(CHECK_CATALOG, [
      { check: 'unsupported-argument', seam: 'choice', checked: 0, findings: 0, notApplicable: 0, unreachable: 2, unreachableReasons: { 'message content was not captured': 2 } },
      { check: 'empty-lookup', seam: 'write', checked: 1, findings: 1, notApplicable: 0, unreachable: 0, unreachableReasons: {} },
    ]);
    expect(rows.map((r) => r.check)).toEqual(CHECK_CATALOG.map((c) => c.id));
    expect(dispositionSentence(rows, 3)).toBe(
      `1 check ran on 3 LLM requests; 1 could not run: message content was not captured; 6 checks had nothing declared or applicable (dangling-reference, result-columns, unsupported-value, prior-turn-evidence, unsupported-claim, refusal-asserts-absence).`,
    );
    const e = dispositionEvent(rows, 3, 9n, 2000);
    expect(e.name).toBe('footprint.disposition');
    expect(e.attributes['footprint.disposition.unreachable']).toBe(2);
    expect(e.attributes['footprint.disposition.findings']).toBe(1);
    expect(JSON.parse(String(e.attributes['footprint.disposition.checks']))[1]).toMatchObject({ check: 'unsupported-argument', unreachable: 2, unreachable_reasons: { 'message content was not captured': 2 } });
  });
  it('says "everywhere" only of checks that ran somewhere and not elsewhere', () => {
    const rows: CheckTally[] = [
      { check: 'a', seam: 'choice' as const, checked: 2, findings: 0, notApplicable: 0, unreachable: 1, unreachableReasons: { 'r1': 1 } },
      { check: 'b', seam: 'offer' as const, checked: 0, findings: 0, notApplicable: 0, unreachable: 3, unreachableReasons: { 'r2': 3 } },
      { check: 'c', seam: 'write' as const, checked: 0, findings: 0, notApplicable: 4, unreachable: 0, unreachableReasons: {} },
    ];
    expect(dispositionSentence(rows, 5)).toBe('1 check ran on 5 LLM requests; 1 could not run everywhere: r1; 1 could not run: r2; 1 check had nothing declared or applicable (c).');
  });
});

describe('textRedactor: a string that holds a redacted value is redacted whole', () => {
  const r = textRedactor(['db-07'], 'hash', 80, ['nightly-db-07', '2026-12-04', 'refused']);
  const h = (s: string) => hashValue(s);
  it('the token around a value, never only the matched part; the hash of a known value is its own', () => {
    expect(r.text('called with machine_id = "db-07", which is only part of "nightly-db-07".')).toBe(`called with machine_id = "${h('db-07')}", which is only part of "${h('nightly-db-07')}".`);
    expect(r.text('the job nightly-db-07, then db-07.')).toBe(`the job ${h('nightly-db-07')}, then ${h('db-07')}.`);
    // Case and compatibility forms are the same value.
    expect(r.text('machine DB-07 is down')).toBe(`machine ${h('DB-07')} is down`);
  });
  it('every double-quoted segment is data and goes whole; a marker stays', () => {
    expect(r.text('the user asked for "last month" and "sha256:0123456789abcdef"')).toBe(`the user asked for "${h('last month')}" and "sha256:0123456789abcdef"`);
  });
  it('a witness value is looked for in text only when it looks like data; parts with digits on their own', () => {
    expect(r.text('computed from 2026-12-04 (system prompt); the read was refused')).toBe(`computed from ${h('2026-12-04')} (system prompt); the read was refused`);
  });
  it('a value shorter than 4 characters only as a whole token', () => {
    const s = textRedactor(['42'], 'omit', 80);
    expect(s.text('request 142 returned 42 rows')).toBe('request 142 returned (omitted) rows');
  });
  it('predicates: a place name stays, one holding a value or not a name goes whole', () => {
    expect(r.predicate('args.machine_id')).toBe('args.machine_id');
    expect(r.predicate('db-07')).toBe(h('db-07'));
    expect(r.predicate('1234')).toBe(h('1234'));
  });
  it('quote redacts nothing, and a finding without a value quotes only declarations', () => {
    const q = textRedactor(['db-07'], 'quote', 80);
    expect(q.text('x "db-07"')).toBe('x "db-07"');
    expect(q.value('a\u202Eb')).toBe('ab');
    expect(textRedactor([], 'hash', 80, ['list_machines']).text("results of 'list_machines'")).toBe("results of 'list_machines'");
  });
});
