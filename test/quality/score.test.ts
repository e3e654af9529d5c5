// Pins the scorer's counting rules on hand-made findings: an expectation takes one matching
// finding (TP) or is a miss (FN); leftovers are acceptable, advisory FP or FP; fields an
// expectation leaves out match anything; a case the CLI refused misses every expectation.

import { describe, expect, it } from 'vitest';
import { judgeCase, matches, type ActualFinding, type CaseExpected } from './score.js';

const finding = (over: Partial<ActualFinding>): ActualFinding => ({
  check: 'unsupported-argument',
  kind: 'unsupported-argument',
  tool: 'backup_jobs',
  predicate: 'args.machine_id',
  value: 'srv-db',
  advisory: false,
  grounding: 'nowhere',
  message: '',
  ...over,
});

const expected = (over: Partial<CaseExpected>): CaseExpected => ({
  case: 'c',
  check: 'unsupported-argument',
  class: 'x',
  kind: 'defect',
  shape: 'traceloop',
  expect: [],
  acceptable: [],
  note: '',
  ...over,
});

describe('quality scorer', () => {
  it('matches on the fields given, values case-insensitively against value or predicate', () => {
    expect(matches({ check: 'unsupported-argument' }, finding({}))).toBe(true);
    expect(matches({ check: 'unsupported-argument', tool: 'BACKUP_JOBS', value: 'SRV-DB' }, finding({}))).toBe(true);
    expect(matches({ check: 'unsupported-value', value: '41200' }, finding({ check: 'unsupported-value', predicate: '41200', value: '41,200' }))).toBe(true);
    expect(matches({ check: 'unsupported-argument', tool: 'backup_status' }, finding({}))).toBe(false);
    expect(matches({ check: 'unsupported-argument', advisory: true }, finding({}))).toBe(false);
    expect(matches({ check: 'result-columns', kind: 'missing-column' }, finding({ check: 'result-columns', kind: 'column-type-mismatch' }))).toBe(false);
  });

  it('counts TP, FN, FP, advisory FP and acceptable, each finding used once', () => {
    const r = judgeCase(
      expected({
        expect: [{ check: 'unsupported-argument', tool: 'backup_jobs' }, { check: 'refusal-asserts-absence' }],
        acceptable: [{ check: 'empty-lookup' }],
      }),
      [
        finding({}),
        finding({ value: 'srv-web' }),
        finding({ check: 'empty-lookup', kind: 'empty-lookup', advisory: true }),
        finding({ check: 'dangling-reference', kind: 'dangling-reference', advisory: true }),
      ],
    );
    expect(r.items.map((i) => `${i.verdict}:${i.check}`)).toEqual([
      'TP:unsupported-argument',
      'FN:refusal-asserts-absence',
      'FP:unsupported-argument',
      'acceptable:empty-lookup',
      'advisory FP:dangling-reference',
    ]);
    expect(r.pass).toBe(false);
  });

  it('passes a case that got exactly what was expected, and fails a refused one', () => {
    expect(judgeCase(expected({ expect: [{ check: 'unsupported-argument' }] }), [finding({})]).pass).toBe(true);
    const refused = judgeCase(expected({ expect: [{ check: 'unsupported-argument' }] }), [], 'declarations refused');
    expect(refused.pass).toBe(false);
    expect(refused.items.map((i) => i.verdict)).toEqual(['FN']);
  });
});
