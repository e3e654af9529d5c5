// Pins readJsonAttribute's answers for the two shapes it checks without zod (ANY_VALUE, ANY_ARRAY):
// the same verdicts, values and diagnostic messages as zod gives for the same schemas built apart,
// on JSON strings and on structured values, and that a structured array is copied, never handed
// back as the span's own object.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { ANY_ARRAY, ANY_VALUE, readJsonAttribute } from '../../src/conventions/json-attribute.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import type { AttrValue, SpanData } from '../../src/model/telemetry.js';

const span: SpanData = {
  traceId: 'ab971de46025cb7d8b0b22f5b48216e6',
  spanId: '00000000000000a1',
  name: 'chat gpt-4o-mini',
  kind: 3,
  startTimeUnixNano: 1000n,
  endTimeUnixNano: 2000n,
  attributes: {},
  events: [],
  status: { code: 0 },
  resource: {},
  scope: { name: 'test' },
};

/** The schemas as a caller would build them apart: zod runs on these. */
const ZOD_ARRAY = z.array(z.unknown());
const ZOD_VALUE = z.unknown();

function read(value: AttrValue | undefined, schema: z.ZodType<unknown>) {
  const diagnostics = new DiagnosticList();
  const out = readJsonAttribute(value, schema, { limits: DEFAULT_LIMITS, diagnostics, span, key: 'gen_ai.input.messages' });
  return { out, diagnostics: diagnostics.items.map((d) => `${d.code}: ${d.message}`) };
}

describe('readJsonAttribute without zod for ANY_VALUE and ANY_ARRAY', () => {
  it('a window (JSON string of an array): the parsed array itself, as zod would give it', () => {
    const window = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Is srv-db-0042 protected?' }] }]);
    expect(read(window, ANY_ARRAY)).toEqual(read(window, ZOD_ARRAY));
    expect(read(window, ANY_ARRAY).out).toEqual(JSON.parse(window));
  });

  it('not an array: the same diagnostic, word for word, as zod gives', () => {
    for (const v of ['{"role":"user"}', '"text"', '42', 'null', '{}']) {
      const fast = read(v, ANY_ARRAY);
      expect(fast.out).toBeUndefined();
      expect(fast.diagnostics).toEqual(read(v, ZOD_ARRAY).diagnostics);
      expect(fast.diagnostics[0]).toMatch(/^attribute\.shape-invalid: span "chat gpt-4o-mini" .*expected array/);
    }
  });

  it('a structured array attribute is copied (the span keeps its own array), as zod copies it', () => {
    const attr = ['a', 'b'];
    const got = read(attr, ANY_ARRAY).out as unknown[];
    expect(got).toEqual(['a', 'b']);
    expect(got).not.toBe(attr);
    got.push('c');
    expect(attr).toEqual(['a', 'b']);
  });

  it('bad JSON, too large, too deep: the same diagnostics as before the schema is consulted', () => {
    const deep = '['.repeat(DEFAULT_LIMITS.maxJsonDepth + 2) + ']'.repeat(DEFAULT_LIMITS.maxJsonDepth + 2);
    for (const v of ['[{"role":', deep]) {
      expect(read(v, ANY_ARRAY)).toEqual(read(v, ZOD_ARRAY));
      expect(read(v, ANY_VALUE)).toEqual(read(v, ZOD_VALUE));
    }
    expect(read('[{"role":', ANY_ARRAY).diagnostics[0]).toMatch(/^attribute\.json-invalid/);
    expect(read(deep, ANY_ARRAY).diagnostics[0]).toMatch(/^attribute\.too-deep/);
  });

  it('any JSON value or structured value: ANY_VALUE and ANY_ARRAY answer exactly as zod does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, asString) => {
        const value = (asString ? JSON.stringify(v) : v) as AttrValue;
        expect(read(value, ANY_VALUE)).toEqual(read(value, ZOD_VALUE));
        expect(read(value, ANY_ARRAY)).toEqual(read(value, ZOD_ARRAY));
      }),
      { numRuns: 300 },
    );
  });
});
