// Pins the OTLP/JSON reader: every shared fixture decodes whole; ids, times, AnyValues and the
// wrappers Tempo and JSON-lines files use; garbage becomes diagnostics, never an exception.
import { describe, it, expect } from 'vitest';
import { decodeOtlpJsonText, normaliseId } from '../../src/otlp/json.js';
import { decodeAnyValue, encodeAnyValue } from '../../src/otlp/anyvalue.js';
import { LIBRARIES, SCENARIOS, loadFixture } from '../helpers/fixtures.js';

describe('unit: OTLP/JSON reader over every recorded fixture', () => {
  for (const lib of LIBRARIES)
    for (const scenario of SCENARIOS)
      it(`${lib} ${scenario} decodes with no diagnostics`, () => {
        const { doc, paths } = loadFixture(lib, scenario);
        expect(doc.diagnostics).toEqual([]);
        expect(doc.spans.length).toBeGreaterThan(3);
        for (const { span } of doc.spans) {
          expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
          expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
          expect(span.endTimeUnixNano).toBeGreaterThanOrEqual(span.startTimeUnixNano);
        }
        if (paths.some((p) => p.endsWith('.logs.otlp.json'))) expect(doc.logs.length).toBeGreaterThan(0);
      });
});

describe('unit: ids, values and wrappers', () => {
  it('accepts hex and base64 ids and refuses anything else', () => {
    expect(normaliseId('AB971DE46025CB7D8B0B22F5B48216E6', 16)).toBe('ab971de46025cb7d8b0b22f5b48216e6');
    const b64 = Buffer.from('a9b04d13ac76df2a', 'hex').toString('base64');
    expect(normaliseId(b64, 8)).toBe('a9b04d13ac76df2a');
    expect(normaliseId('xyz', 8)).toBeUndefined();
    expect(normaliseId(42, 8)).toBeUndefined();
  });
  it('decodes intValue as number or string, kvlists to objects, {} to null', () => {
    expect(decodeAnyValue({ intValue: '42' })).toBe(42);
    expect(decodeAnyValue({ intValue: 7 })).toBe(7);
    expect(decodeAnyValue({ intValue: '9007199254740993' })).toBe('9007199254740993');
    expect(decodeAnyValue({})).toBeNull();
    expect(decodeAnyValue({ kvlistValue: { values: [{ key: 'a', value: { arrayValue: { values: [{ boolValue: true }] } } }] } })).toEqual({ a: [true] });
    expect(decodeAnyValue(encodeAnyValue({ x: [1, 'two', 2.5, null] }))).toEqual({ x: [1, 'two', 2.5, null] });
  });
  it('reads Tempo `{trace: …}` and `{batches}` wrappers and JSON lines mixing spans and logs', () => {
    const span = { traceId: 'ab971de46025cb7d8b0b22f5b48216e6', spanId: 'a9b04d13ac76df2a', name: 's', startTimeUnixNano: '1', endTimeUnixNano: '2' };
    const tempo = JSON.stringify({ trace: { resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] } });
    expect(decodeOtlpJsonText(tempo, 't').spans).toHaveLength(1);
    const batches = JSON.stringify({ batches: [{ scopeSpans: [{ spans: [span] }] }] });
    expect(decodeOtlpJsonText(batches, 'b').spans).toHaveLength(1);
    const lines = [JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }), JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ traceId: span.traceId, spanId: span.spanId, body: { stringValue: 'x' } }] }] }] })].join('\n');
    const d = decodeOtlpJsonText(lines, 'l');
    expect(d.spans).toHaveLength(1);
    expect(d.logs).toHaveLength(1);
    expect(d.logs[0]!.body).toBe('x');
  });
  it('turns garbage into diagnostics and keeps the good spans of a mixed document', () => {
    const good = { traceId: 'ab971de46025cb7d8b0b22f5b48216e6', spanId: 'a9b04d13ac76df2a', name: 'ok' };
    const doc = { resourceSpans: [{ scopeSpans: [{ spans: [good, { traceId: 'nope', spanId: 'x' }, 17, { name: 'no ids' }] }] }] };
    const d = decodeOtlpJsonText(JSON.stringify(doc), 'mixed');
    expect(d.spans.map((s) => s.span.name)).toEqual(['ok']);
    expect(d.diagnostics.length).toBe(3);
    expect(decodeOtlpJsonText('', 'e').diagnostics[0]!.code).toBe('otlp.empty');
    expect(decodeOtlpJsonText('{"hello": 1}', 'h').diagnostics[0]!.code).toBe('otlp.not-otlp');
    // Not JSON lines either (its first line is not JSON): one broken document, said where it broke.
    expect(decodeOtlpJsonText('{not json\n[also not', 'g').diagnostics.map((x) => [x.code, x.message.slice(0, 6)])).toEqual([['otlp.json-invalid', 'g:1:2:']]);
  });
});

describe('unit: where a file that is not JSON broke', () => {
  const pretty = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [] }] }] }, null, 2);
  const message = (text: string) => decodeOtlpJsonText(text, 'f.json').diagnostics.map((d) => d.message);

  it('a truncated pretty-printed export: its last line, said truncated (not "line 1")', () => {
    const cut = pretty.slice(0, pretty.lastIndexOf('"spans"') + 12);
    const lines = cut.trimEnd().split('\n');
    expect(message(cut)).toEqual([`f.json:${lines.length}:${lines.at(-1)!.length + 1}: not JSON: the file ends before the document does (truncated?)`]);
    // The same on one line (a minified export cut short).
    const min = JSON.stringify(JSON.parse(pretty)).slice(0, 40);
    expect(message(min)).toEqual([`f.json:1:41: not JSON: the file ends before the document does (truncated?)`]);
  });

  it('a syntax error inside a document: its line and column', () => {
    expect(message('{"resourceSpans": [\n {"x": 1,,\n "y": 2}]}\n')).toEqual([expect.stringMatching(/^f\.json:2:10: not JSON \(/)]);
  });

  it('JSON lines: each bad line by its number, the good ones read', () => {
    const out = decodeOtlpJsonText('{"resourceSpans":[]}\n{"resourceSpans": [\n{"resourceLogs":[]}\n', 'f.jsonl');
    expect(out.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^f\.jsonl:2: not JSON \(/)]);
    expect(out.documents).toHaveLength(2);
  });
});
