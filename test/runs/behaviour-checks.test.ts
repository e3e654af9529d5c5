// Pins the behaviour checks of issue 28 inside the core, on quality-corpus recordings: with no
// declarations they run on what the trace shows (armedBy inferred), and with the app's
// execute_tool spans taken out (an app that instruments only its LLM client) they read the calls
// and results from the request windows and find the same defects. A bad tool schema becomes a
// diagnostic, never a thrown error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { FootprintCore } from '../../src/runs/footprint.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';

const CASES = 'test/quality/cases';

function spansOf(name: string, withToolSpans = true) {
  const doc = decodeOtlpJsonText(readFileSync(join(CASES, name, 'trace.otlp.json'), 'utf8'), name);
  return doc.spans.map((s) => s.span).filter((s) => withToolSpans || !s.name.startsWith('execute_tool'));
}

const BEHAVIOUR = new Set(['argument-schema', 'repeated-call', 'count-mismatch', 'status-contradiction', 'unconfirmed-action']);

/** The behaviour checks' findings (kind and arming) on a recording. */
function kindsOf(name: string, withToolSpans = true): string[] {
  const result = new FootprintCore().process({ spans: spansOf(name, withToolSpans) });
  return result.findings.filter((f) => BEHAVIOUR.has(f.kind)).map((f) => `${f.kind}:${f.armedBy ?? ''}`).sort();
}

describe('behaviour checks in the core, with no declarations', () => {
  const defects: [string, string][] = [
    ['ua-defect-cancel-refused-told-done', 'unconfirmed-action:inferred'],
    ['rc-defect-failed-booking-resent', 'repeated-call:inferred'],
    ['cm-defect-whole-miscounted', 'count-mismatch:inferred'],
    ['sc-defect-cancelled-told-active', 'status-contradiction:inferred'],
    ['as-defect-enum-outside', 'argument-schema:inferred'],
  ];
  for (const [name, kind] of defects) {
    it(`${name}: found with the app's tool spans, and from the windows alone`, () => {
      expect(spansOf(name).some((s) => s.name.startsWith('execute_tool'))).toBe(true);
      expect(kindsOf(name, true)).toContain(kind);
      expect(kindsOf(name, false)).toContain(kind);
    });
  }

  it('their clean look-alikes stay silent from the windows alone too', () => {
    for (const name of ['ua-clean-write-succeeded', 'rc-clean-retry-after-timeout', 'sc-clean-changed-by-write', 'as-clean-valid-call']) {
      expect(kindsOf(name, false), name).toEqual([]);
    }
  });
});

describe('a tool schema that cannot be compiled', () => {
  it('is a diagnostic of the batch, once, and the call is not judged', () => {
    const spans = spansOf('as-clean-valid-call');
    const declarations = { tools: { book_appointment: { inputSchema: { type: 'object', properties: { slot_id: { $ref: '#/definitions/Slot' } } } } } };
    const result = new FootprintCore({ declarations }).process({ spans });
    expect(result.findings.filter((f) => f.kind === 'argument-schema')).toEqual([]);
    const bad = result.diagnostics.filter((d) => d.code === 'argument-schema.bad-schema');
    expect(bad).toHaveLength(1);
    expect(bad[0]!.message).toMatch(/^the input schema of tool 'book_appointment' cannot be used to check its calls: .*Slot/);
  });
});
