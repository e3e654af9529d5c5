// Pins the answer standing: each reason folded from this turn's rows (declared-absent,
// coverage-gap, empty-undeclared, period-not-held / partly-held / unknown, refused-read) and from
// answer findings (value-unsupported, answer-check-failed; advisory ones never), the fold (any
// reason -> not-sure, a verdict and no reason -> consistent, no verdict -> not-assessed; never
// "known" from silence), and the statement: one clause per read in call order, what was searched
// "as sent by the model", every gap out loud and attributed, values quoted and capped, lists capped
// with "and N more", deterministic to the byte.
import { describe, it, expect } from 'vitest';
import { answerStanding, STATEMENT_LIST_ITEMS } from '../../src/checks/answer-standing.js';
import type { LedgerRow, ResultReading } from '../../src/model/ledger.js';
import type { Finding } from '../../src/model/finding.js';

const traceId = 'ab971de46025cb7d8b0b22f5b48216e6';
const span = { traceId, spanId: 'c4d1f00d2a9e7b10' };

function row(callId: string, reading: ResultReading, over: Partial<LedgerRow> = {}): LedgerRow {
  return {
    span: { traceId, spanId: '0000000000000b01' },
    traceId,
    request: 2,
    toolName: 'backup_jobs',
    callId,
    arguments: { machine_id: 'srv-db-04' },
    result: [{ job: 'nightly-db-primary-full', status: 'ok' }],
    outcome: 'ran',
    reading,
    startTimeUnixNano: 1n,
    source: 'span',
    ...over,
  };
}

const jobs = row('call_bt_002', { emptiness: 'non-empty', shape: 'array', rows: 2 });
const absent = row(
  'call_bt_003',
  {
    emptiness: 'declared-absent',
    shape: 'absence',
    absence: { lookedFor: 'restore points for srv-db-04 in November', tryInstead: 'Ask for the tape vault by name.' },
    coverage: {
      checked: [{ what: 'the disk catalog' }],
      notChecked: [{ what: 'the tape vault', why: 'offline since 2025-11-29', kind: 'existence' }],
      cannotCover: [],
    },
  },
  { toolName: 'restore_points', arguments: { machine_id: 'srv-db-04', month: '2025-11' } },
);
const empty = row('call_bt_004', { emptiness: 'undeclared-empty', shape: 'array', rows: 0 }, { toolName: 'failed_jobs', result: [] });
const refused = row(
  'call_bt_005',
  { emptiness: 'unknown', shape: 'object', refusal: 'permission denied' },
  { toolName: 'backup_history', outcome: 'refused', result: { status: 'denied', error: 'permission denied' } },
);

function finding(kind: string, value: string, advisory = false): Finding {
  return { kind, seam: 'answer', subjects: [{ kind: 'answer', id: 'final' }], predicate: value, value, message: '', witnesses: [], span, ...(advisory ? { advisory: true } : {}) };
}

describe('unit: answer standing — the fold', () => {
  it('a clean turn where a check ran: consistent, no reasons', () => {
    const out = answerStanding({ rows: [jobs], answerFindings: [], checksRan: 1 });
    expect(out).toEqual({
      standing: 'consistent',
      reasons: [],
      statement: `'backup_jobs' (call call_bt_002) was called with "{"machine_id":"srv-db-04"}" as sent by the model and returned 2 rows.`,
    });
  });

  it('no check verdict and no reason: not-assessed (never known from silence)', () => {
    expect(answerStanding({ rows: [jobs], answerFindings: [], checksRan: 0 }).standing).toBe('not-assessed');
    const none = answerStanding({ rows: [], answerFindings: [], checksRan: 0 });
    expect(none).toEqual({ standing: 'not-assessed', reasons: [], statement: 'No tool was called this turn, so the answer rests on no read of this turn.' });
  });

  it('a declared absence with not_checked items: declared-absent and coverage-gap -> not-sure', () => {
    const out = answerStanding({ rows: [jobs, absent], answerFindings: [], checksRan: 2 });
    expect(out.standing).toBe('not-sure');
    expect(out.reasons).toEqual(['declared-absent', 'coverage-gap']);
  });

  it('a declared absence with nothing unchecked: declared-absent only', () => {
    const full = row('c', { emptiness: 'declared-absent', shape: 'absence', absence: { lookedFor: 'x' }, coverage: { checked: [{ what: 'all' }], notChecked: [], cannotCover: [] } });
    expect(answerStanding({ rows: [full], answerFindings: [], checksRan: 1 }).reasons).toEqual(['declared-absent']);
  });

  it('a coverage ledger with cannot_cover on a non-empty result: coverage-gap', () => {
    const partial = row('c', { emptiness: 'non-empty', shape: 'coverage', rows: 3, coverage: { checked: [], notChecked: [], cannotCover: [{ what: 'eu-west-2', why: 'another tenant' }] } });
    expect(answerStanding({ rows: [partial], answerFindings: [], checksRan: 1 }).reasons).toEqual(['coverage-gap']);
  });

  it('a bare empty list: empty-undeclared', () => {
    expect(answerStanding({ rows: [empty], answerFindings: [], checksRan: 1 }).reasons).toEqual(['empty-undeclared']);
  });

  it('periods: not-held, partly-held and unknown are reasons; covered is not', () => {
    const period = (verdict: 'covered' | 'partly-held' | 'not-held' | 'unknown') =>
      row('p', {
        emptiness: 'non-empty',
        shape: 'absence',
        period: { queried: { from: '2025-11-01T00:00:00Z', to: '2025-11-30T23:59:59Z' }, held: verdict === 'unknown' ? 'unknown' : { from: '2025-11-15T00:00:00Z', to: '2025-12-01T00:00:00Z' }, verdict },
      });
    expect(answerStanding({ rows: [period('covered')], answerFindings: [], checksRan: 1 }).standing).toBe('consistent');
    expect(answerStanding({ rows: [period('not-held')], answerFindings: [], checksRan: 1 }).reasons).toEqual(['period-not-held']);
    expect(answerStanding({ rows: [period('partly-held')], answerFindings: [], checksRan: 1 }).reasons).toEqual(['period-partly-held']);
    const unknown = answerStanding({ rows: [period('unknown')], answerFindings: [], checksRan: 1 });
    expect(unknown.reasons).toEqual(['period-unknown']);
    expect(unknown.statement).toContain("whether the tool holds the period asked, 2025-11-01T00:00:00Z to 2025-11-30T23:59:59Z, is unknown, as the tool's result says");
    expect(answerStanding({ rows: [period('partly-held')], answerFindings: [], checksRan: 1 }).statement).toContain(
      "only part of the period asked, 2025-11-01T00:00:00Z to 2025-11-30T23:59:59Z, is held: the tool holds 2025-11-15T00:00:00Z to 2025-12-01T00:00:00Z, as the tool's result says",
    );
  });

  it('a refused or failed read: refused-read, and its words are quoted', () => {
    const out = answerStanding({ rows: [refused], answerFindings: [], checksRan: 1 });
    expect(out.reasons).toEqual(['refused-read']);
    expect(out.statement).toContain(`and was refused: "permission denied", as the tool's result says.`);
    const failed = row('f', { emptiness: 'unknown', shape: 'none' }, { outcome: 'failed', errorMessage: 'timeout after 30s', result: undefined });
    expect(answerStanding({ rows: [failed], answerFindings: [], checksRan: 1 }).statement).toContain(`and failed: "timeout after 30s", as the tool's span records.`);
  });

  it('an unsupported-value finding: value-unsupported, and the values are listed', () => {
    const out = answerStanding({ rows: [jobs], answerFindings: [finding('unsupported-value', '41,250')], checksRan: 1 });
    expect(out).toMatchObject({ standing: 'not-sure', reasons: ['value-unsupported'] });
    expect(out.statement).toContain('The answer states a value no tool result in its window held: "41,250".');
  });

  it('other non-advisory answer findings: answer-check-failed; advisory findings are never a reason', () => {
    expect(answerStanding({ rows: [jobs], answerFindings: [finding('unsupported-claim', 'failed')], checksRan: 1 }).reasons).toEqual(['answer-check-failed']);
    const adv = answerStanding({ rows: [jobs], answerFindings: [finding('prior-turn-evidence', 'x', true), finding('unsupported-claim', 'null', true)], checksRan: 2 });
    expect(adv).toMatchObject({ standing: 'consistent', reasons: [] });
  });

  it('reasons come out in their fixed order, each once', () => {
    const out = answerStanding({ rows: [refused, empty, absent, absent], answerFindings: [finding('unsupported-value', 'job-9999')], checksRan: 1 });
    expect(out.reasons).toEqual(['declared-absent', 'coverage-gap', 'empty-undeclared', 'value-unsupported', 'refused-read']);
  });

  it('any reason makes not-sure even when no check gave a verdict', () => {
    expect(answerStanding({ rows: [empty], answerFindings: [], checksRan: 0 }).standing).toBe('not-sure');
  });
});

describe('unit: answer standing — the statement', () => {
  it('one clause per read in call order, every gap out loud and attributed (byte-exact)', () => {
    const out = answerStanding({ rows: [jobs, absent, empty, refused], answerFindings: [], checksRan: 2 });
    expect(out.statement).toBe(
      [
        `'backup_jobs' (call call_bt_002) was called with "{"machine_id":"srv-db-04"}" as sent by the model and returned 2 rows.`,
        `'restore_points' (call call_bt_003) was called with "{"machine_id":"srv-db-04","month":"2025-11"}" as sent by the model and found nothing for "restore points for srv-db-04 in November", declared by the tool; it checked "the disk catalog", declared by the tool; it did not check "the tape vault" (offline since 2025-11-29), declared by the tool; it suggests "Ask for the tape vault by name.", declared by the tool.`,
        `'failed_jobs' (call call_bt_004) was called with "{"machine_id":"srv-db-04"}" as sent by the model and returned an empty result without saying what it searched.`,
        `'backup_history' (call call_bt_005) was called with "{"machine_id":"srv-db-04"}" as sent by the model and was refused: "permission denied", as the tool's result says.`,
      ].join(' '),
    );
  });

  it('deterministic: same input, same bytes', () => {
    const input = { rows: [jobs, absent, empty, refused], answerFindings: [finding('unsupported-value', '41,250')], checksRan: 2 };
    expect(answerStanding(input)).toEqual(answerStanding(structuredClone(input)));
  });

  it('quotes values: arguments capped at 64, gap text at 120, line breaks flattened', () => {
    const long = row('c', { emptiness: 'declared-absent', shape: 'absence', absence: { lookedFor: `jobs\nfor ${'x'.repeat(200)}` } }, { arguments: { q: 'y'.repeat(100) } });
    const s = answerStanding({ rows: [long], answerFindings: [], checksRan: 1 }).statement;
    expect(s).toContain(`"{"q":"${'y'.repeat(58)}…" as sent by the model`);
    expect(s).toContain(`for "jobs for ${'x'.repeat(111)}…", declared by the tool`);
    expect(s).not.toContain('\n');
  });

  it('lists are capped with "and N more"', () => {
    const many = row('c', { emptiness: 'non-empty', shape: 'coverage', rows: 1, coverage: { checked: [], notChecked: Array.from({ length: 15 }, (_, i) => ({ what: `shard-${i}` })), cannotCover: [] } });
    const s = answerStanding({ rows: [many], answerFindings: [], checksRan: 1 }).statement;
    expect(s).toContain(`"shard-11", and 3 more, declared by the tool`);
    expect(s).not.toContain('shard-12');
  });

  it('reads past the cap are counted, with how many had a gap', () => {
    const rows = [...Array.from({ length: STATEMENT_LIST_ITEMS }, (_, i) => row(`c${i}`, jobs.reading)), empty, jobs];
    const s = answerStanding({ rows, answerFindings: [], checksRan: 1 }).statement;
    expect(s.endsWith('And 2 more reads, not described here, 1 of them with a gap or refusal.')).toBe(true);
  });

  it('unrecorded arguments and results are said, not guessed', () => {
    const blind = row('c', { emptiness: 'unknown', shape: 'none' }, { arguments: undefined, result: undefined, callId: undefined });
    expect(answerStanding({ rows: [blind], answerFindings: [], checksRan: 0 }).statement).toBe(
      `'backup_jobs' was called with arguments that were not recorded, but its result was not recorded, so what it found cannot be told.`,
    );
  });

  it('a redacting quote function applies to values, never to tool names', () => {
    const s = answerStanding({ rows: [refused], answerFindings: [], checksRan: 1, quote: () => '(omitted)' }).statement;
    expect(s).toBe(`'backup_history' (call call_bt_005) was called with "(omitted)" as sent by the model and was refused: "(omitted)", as the tool's result says.`);
  });
});
