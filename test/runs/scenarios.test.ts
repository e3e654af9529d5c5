// Pins the full check catalog over the recorded scenario traces (test/fixtures/scenarios): each
// planted defect is reported exactly once with its kind, seam, tool and call, its clean
// counterpart reports nothing (false positives must be zero), and the final answer's standing
// and reasons are the ones the ground truth names.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FootprintCore } from '../../src/runs/footprint.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { spanKey } from '../../src/model/telemetry.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

const DIR = join(FIXTURES_DIR, 'scenarios');
const decl = (() => {
  const r = loadDeclarationsFile(join(DIR, 'declarations.yaml'));
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.declarations;
})();

interface ExpectedFinding {
  kind: string;
  seam: string;
  toolName?: string;
  toolCallId?: string;
  predicate: string;
  advisory?: boolean;
}
interface Expected {
  expectedFindings: ExpectedFinding[];
  expectedStanding: { standing: string; reasons: string[] };
}

const scenarios = readdirSync(DIR)
  .filter((f) => f.endsWith('.otlp.json'))
  .map((f) => f.replace('.otlp.json', ''))
  .sort();

function run(name: string) {
  const doc = decodeOtlpJsonText(readFileSync(join(DIR, `${name}.otlp.json`), 'utf8'), name);
  const expected = JSON.parse(readFileSync(join(DIR, `${name}.expected.json`), 'utf8')) as Expected;
  const spans = doc.spans.map((s) => s.span);
  const core = new FootprintCore({ declarations: decl });
  const result = core.process({ spans });
  return { doc, spans, expected, result };
}

describe('scenario: the check catalog over recorded traces', () => {
  it('has the 7 planted scenarios and their 7 clean counterparts', () => {
    expect(scenarios.filter((s) => s.endsWith('-clean'))).toHaveLength(7);
    expect(scenarios).toHaveLength(14);
  });

  for (const name of scenarios) {
    it(`${name}: reports exactly the planted findings`, () => {
      const { expected, result } = run(name);
      // Tool and call are compared where the ground truth names them (a claim's finding also names
      // the tool whose described result settled the fact; the ground truth leaves that open).
      const named = new Set(expected.expectedFindings.filter((f) => f.toolName).map((f) => f.kind));
      const got = result.findings.map((f) => ({
        kind: f.kind,
        seam: f.seam,
        ...(named.has(f.kind) ? { toolName: f.toolName, ...(f.toolCallId ? { toolCallId: f.toolCallId } : {}) } : {}),
        advisory: f.advisory === true,
      }));
      const want = expected.expectedFindings.map((f) => ({
        kind: f.kind,
        seam: f.seam,
        ...(f.toolName ? { toolName: f.toolName, ...(f.toolCallId ? { toolCallId: f.toolCallId } : {}) } : {}),
        advisory: f.advisory === true,
      }));
      const key = (x: object) => JSON.stringify(x, Object.keys(x).sort());
      expect(got.map(key).sort()).toEqual(want.map(key).sort());
      for (const f of result.findings) {
        expect(f.message).toMatch(/Nothing here blocked the (call|offer|result|answer)\.$/);
        expect(f.witnesses.length).toBeGreaterThan(0);
      }
    });

    it(`${name}: the final answer's standing and reasons`, () => {
      const { spans, expected, result } = run(name);
      const traces = [...new Set(spans.map((s) => s.traceId))];
      const last = traces[traces.length - 1]!;
      const standings = spans
        .filter((s) => s.traceId === last)
        .flatMap((s) => result.annotations.get(spanKey(s))?.events.filter((e) => e.name === 'footprint.answer.standing') ?? []);
      expect(standings).toHaveLength(1);
      const e = standings[0]!;
      expect(e.attributes['footprint.answer.standing']).toBe(expected.expectedStanding.standing);
      expect(e.attributes['footprint.answer.reasons']).toEqual(expected.expectedStanding.reasons);
      expect(String(e.attributes['footprint.answer.statement']).length).toBeGreaterThan(20);
    });
  }

  it('the unsupported value is the one no tool returned, and the grounded id passes', () => {
    const { result } = run('answer-unsupported-number');
    const f = result.findings.find((x) => x.kind === 'unsupported-value')!;
    expect(f.value).toBe('41,200');
  });

  it('column findings name the column, the declared type and the first offender', () => {
    const { result } = run('column-mismatch');
    const mismatch = result.findings.find((x) => x.kind === 'column-type-mismatch')!;
    expect(mismatch.predicate).toBe('size_gb');
    expect(mismatch.message).toContain('"1840"');
    expect(result.findings.find((x) => x.kind === 'missing-column')!.predicate).toBe('last_backup');
  });

  it('a dangling ground re-detected on a later request stays one finding', () => {
    const { result } = run('dangling-ground');
    expect(result.findings.filter((x) => x.kind === 'dangling-reference')).toHaveLength(1);
  });

  it('the disposition of every scenario turn lists all registered checks', () => {
    const { spans, result } = run('refusal-as-no-record');
    const d = spans.flatMap((s) => result.annotations.get(spanKey(s))?.events.filter((e) => e.name === 'footprint.disposition') ?? []);
    expect(d).toHaveLength(1);
    const rows = JSON.parse(String(d[0]!.attributes['footprint.disposition.checks'])) as { check: string }[];
    expect(rows.map((r) => r.check)).toEqual([
      'dangling-reference',
      'unsupported-argument',
      'argument-schema',
      'repeated-call',
      'empty-lookup',
      'result-columns',
      'unsupported-value',
      'prior-turn-evidence',
      'unsupported-claim',
      'refusal-asserts-absence',
      'count-mismatch',
      'status-contradiction',
      'unconfirmed-action',
    ]);
  });
});
