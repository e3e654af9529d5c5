// Pins check `refusal-asserts-absence` and every fence: a refused or failed read this turn (by
// outcome or by the result's own refusal) plus an answer clause asserting negated existence about
// that read is one finding per refused read, naming tool, call id and error; an answer without
// such a clause passes; no refused read is not applicable (no finding, whatever the answer says);
// content not captured is unreachable. The issue 9 §2 rules (each phrasing, each fence, the
// attribution to a read, supersession, not-a-read) are pinned in refusal-absence-clauses.test.ts.
import { describe, it, expect } from 'vitest';
import { refusalAssertsAbsence, type RefusalAssertsAbsenceInput } from '../../src/checks/refusal-asserts-absence.js';
import type { LedgerRow } from '../../src/model/ledger.js';

const span = { traceId: 'ab971de46025cb7d8b0b22f5b48216e6', spanId: 'c4d1f00d2a9e7b10' };

function row(over: Partial<LedgerRow> = {}): LedgerRow {
  return {
    span: { traceId: span.traceId, spanId: '0000000000000b01' },
    traceId: span.traceId,
    request: 2,
    toolName: 'backup_jobs',
    callId: 'call_bt_002',
    arguments: { machine_id: 'srv-db-04' },
    result: [{ job: 'nightly-db-primary-full', status: 'ok' }],
    outcome: 'ran',
    reading: { emptiness: 'non-empty', shape: 'array', rows: 1 },
    startTimeUnixNano: 1n,
    source: 'span',
    ...over,
  };
}

const refused = row({
  toolName: 'backup_history',
  callId: 'call_bt_004',
  result: { status: 'denied', error: 'permission denied: tenant acme may not read history' },
  outcome: 'refused',
  errorMessage: 'permission denied: tenant acme may not read history',
  reading: { emptiness: 'unknown', shape: 'object', refusal: 'permission denied: tenant acme may not read history' },
});

function run(answerText: string | undefined, rows: LedgerRow[] = [row(), refused], over: Partial<RefusalAssertsAbsenceInput> = {}) {
  return refusalAssertsAbsence({ span, answerText, rows, quotedValueChars: 64, ...over });
}

describe('unit: refusal-asserts-absence and every fence', () => {
  it('a refusal reported as "no record" is one finding naming the refused read', () => {
    const out = run('There was No Record of a restore in the backup history for srv-db-04 last week.');
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'refusal-asserts-absence', seam: 'answer', toolName: 'backup_history', toolCallId: 'call_bt_004', predicate: 'call_bt_004', value: 'permission denied: tenant acme may not read history', subjects: [{ kind: 'tool', id: 'backup_history' }], span });
    expect(f.message).toBe(
      "The answer says \"There was No Record\", but 'backup_history' (call call_bt_004) was refused (\"permission denied: tenant acme may not read history\"), and a refused or failed read cannot establish that something does not exist: say the lookup could not be made, or make it again. Nothing here blocked the answer.",
    );
    expect(f.witnesses.map((w) => w.stratum)).toEqual(['chosen', 'result']);
    expect(out.tally).toMatchObject({ check: 'refusal-asserts-absence', seam: 'answer', checked: 1, findings: 1, notApplicable: 0 });
  });

  it('an answer that says the lookup could not be made passes', () => {
    const out = run('I could not read the backup history for srv-db-04: access was denied.');
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
  });

  it('zero delta: no refused or failed read -> not applicable, no finding, whatever the answer says', () => {
    const out = run('No record of a restore was found.', [row()]);
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 1, unreachable: 0 });
  });

  it('a failed read counts, and one with no error text says so', () => {
    const failed = row({ callId: 'call_bt_009', outcome: 'failed', reading: { emptiness: 'unknown', shape: 'none' }, result: undefined });
    const f = run('The job was not found.', [failed]).findings[0]!;
    expect(f.message).toContain('failed (no error text was recorded)');
    expect(f.value).toBeUndefined();
  });

  it("a result whose own status is a refusal counts even when the span's outcome is ran", () => {
    const statusRefused = row({ reading: { emptiness: 'unknown', shape: 'object', refusal: 'invalid: machine_id unknown' } });
    const out = run("That machine doesn't exist.", [statusRefused]);
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.value).toBe('invalid: machine_id unknown');
  });

  it('the quoted words run on through overlapping phrases ("There is no record")', () => {
    expect(run('There is no record of a restore.').findings[0]!.message.startsWith('The answer says "There is no record", but')).toBe(true);
  });

  it('one finding per refused read; a read without call id is named by its position', () => {
    const second = row({ callId: undefined, toolName: 'restore_points', outcome: 'failed', errorMessage: 'timeout after 30s' });
    const out = run('No backup history or restore points for srv-db-04.', [refused, row(), second]);
    expect(out.findings.map((f) => f.predicate)).toEqual(['call_bt_004', 'call#3']);
    expect(out.findings[1]!.message).toContain('its call #3 of this turn, with no recorded id');
    expect(out.tally).toMatchObject({ checked: 2, findings: 2 });
  });

  it('content not captured: unreachable per refused read', () => {
    const out = run(undefined);
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ unreachable: 1, unreachableReasons: { 'message content was not captured': 1 } });
  });

  it('the quoted words are the clause\'s absence words, curly apostrophes read as straight ones', () => {
    expect(run('We COULDN\u2019T   FIND any restore in the backup history of srv-db-04.').findings[0]!.message).toContain('The answer says "We COULDN\u2019T   FIND any restore"');
    expect(run('Both jobs are OK.').findings).toEqual([]);
    expect(run('The backup history is notfound-retry.').findings).toEqual([]);
  });
});
