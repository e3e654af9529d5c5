// Pins check `unsupported-claim` and every fence: a structured answer's value that contradicts the
// settled fact (the LAST (entity, field) row in call order) is one finding and an equal one passes;
// "30" equals 30; null / "unknown" against a settled value is an advisory finding with the doubt
// ceiling; no fact row or an unknown settled value is unreachable; a missing field or a prose
// answer is not applicable; no claims declared means no output at all.
import { describe, it, expect } from 'vitest';
import { unsupportedClaims, CLAIM_DOUBT_CEILING, sameClaimValue, valueAtPath, type UnsupportedClaimInput } from '../../src/checks/unsupported-claim.js';
import type { LedgerRow, DescribedFact } from '../../src/model/ledger.js';

const span = { traceId: 'ab971de46025cb7d8b0b22f5b48216e6', spanId: 'c4d1f00d2a9e7b10' };

function described(callId: string, facts: DescribedFact[], start: bigint, request = 3): LedgerRow {
  return {
    span: { traceId: span.traceId, spanId: `e${callId.padStart(15, '0')}`.slice(0, 16) },
    traceId: span.traceId,
    request,
    toolName: 'backup_status',
    callId,
    arguments: { machine_id: 'srv-db-04' },
    result: { af_semantics: true },
    outcome: 'ran',
    reading: { emptiness: 'non-empty', shape: 'described', facts, provenance: { source: 'backup API', measuredAt: '2025-11-30T02:10:00Z' } },
    startTimeUnixNano: start,
    source: 'span',
  };
}

const rows = [
  described('call_bt_004', [{ entity: 'srv-db-04', field: 'status', value: 'failed' }, { entity: 'srv-db-04', field: 'retention_days', value: 14 }], 100n),
  described('call_bt_007', [{ entity: 'srv-db-04', field: 'status', value: 'ok', measuredAt: '2025-11-30T03:00:00Z' }, { entity: 'srv-db-04', field: 'retention_days', value: 30 }], 200n),
];

const claims = {
  'machine.status': { entity: 'srv-db-04', field: 'status' },
  'machine.retention_days': { entity: 'srv-db-04', field: 'retention_days' },
};

function run(answer: unknown, over: Partial<UnsupportedClaimInput> = {}) {
  return unsupportedClaims({
    span,
    answerText: typeof answer === 'string' ? answer : JSON.stringify(answer),
    claims,
    rows,
    quotedValueChars: 64,
    ...over,
  });
}

describe('unit: unsupported-claim and every fence', () => {
  it('a value contradicting the settled fact is one finding, with settled, claimed and earlier witnesses', () => {
    const out = run({ machine: { status: 'failed', retention_days: 30 } });
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'unsupported-claim', seam: 'answer', predicate: 'status', value: 'failed', subjects: [{ kind: 'entity', id: 'srv-db-04' }], toolName: 'backup_status', toolCallId: 'call_bt_007', span });
    expect(f.advisory).toBeUndefined();
    expect(f.message).toBe(
      "The answer's 'machine.status' claims \"failed\", but the run's settled fact status of srv-db-04 is \"ok\" (backup_status, call call_bt_007, request 3, measured at 2025-11-30T03:00:00Z), so one of them is wrong: check the answer against that result. Nothing here blocked the answer.",
    );
    expect(f.witnesses.map((w) => [w.stratum, w.value])).toEqual([
      ['result', 'ok'],
      ['chosen', 'failed'],
      ['result', 'failed'],
    ]);
    expect(out.tally).toMatchObject({ check: 'unsupported-claim', seam: 'answer', checked: 2, findings: 1, notApplicable: 0, unreachable: 0 });
  });

  it('the last row settles, in call order, whatever order the rows are given in', () => {
    const out = run({ machine: { status: 'ok', retention_days: 30 } }, { rows: [rows[1]!, rows[0]!] });
    expect(out.findings).toEqual([]);
    expect(out.tally.checked).toBe(2);
  });

  it('"30" equals 30, and 30 equals "30"; "30 days" does not', () => {
    expect(run({ machine: { retention_days: '30' } }).findings).toEqual([]);
    expect(sameClaimValue(30, '30')).toBe(true);
    expect(sameClaimValue(' ', 0)).toBe(false);
    expect(run({ machine: { retention_days: '30 days' } }).findings).toHaveLength(1);
  });

  it('null or "unknown" against a settled value: advisory finding with the doubt ceiling', () => {
    for (const v of [null, 'unknown', 'Unknown ']) {
      const out = run({ machine: { status: v } });
      expect(out.findings).toHaveLength(1);
      expect(out.findings[0]!.advisory).toBe(true);
      expect(out.findings[0]!.message).toContain(CLAIM_DOUBT_CEILING);
      expect(out.findings[0]!.message.endsWith('Nothing here blocked the answer.')).toBe(true);
    }
  });

  it('no fact row for the claim: unreachable, named', () => {
    const out = run({ machine: { status: 'ok' }, x: 1 }, { claims: { ...claims, x: { entity: 'srv-db-05', field: 'status' } } });
    expect(out.tally.unreachableReasons).toEqual({ 'no described result stated status of srv-db-05': 1 });
    expect(out.findings).toEqual([]);
  });

  it('a settled value that is itself unknown: unreachable', () => {
    const unknownRows = [described('c1', [{ entity: 'srv-db-04', field: 'status', value: 'unknown' }], 1n)];
    const out = run({ machine: { status: 'ok' } }, { rows: unknownRows, claims: { 'machine.status': claims['machine.status'] } });
    expect(out.tally).toMatchObject({ checked: 0, unreachable: 1 });
  });

  it('a missing answer field: not applicable', () => {
    const out = run({ machine: { status: 'ok' } });
    expect(out.tally).toMatchObject({ checked: 1, notApplicable: 1, findings: 0 });
  });

  it('a prose answer: not applicable for every claim ("the answer is not structured")', () => {
    const out = run('srv-db-04 is protected; its status is failed.');
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, notApplicable: 2 });
  });

  it('content not captured: unreachable per claim', () => {
    const out = run('', { answerText: undefined });
    expect(out.tally).toMatchObject({ unreachable: 2, unreachableReasons: { 'message content was not captured': 2 } });
  });

  it('zero delta: no claims declared -> no output at all', () => {
    for (const c of [undefined, {}]) {
      const out = run({ machine: { status: 'failed' } }, { claims: c });
      expect(out.findings).toEqual([]);
      expect(out.tally).toEqual({ check: 'unsupported-claim', seam: 'answer', checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {} });
    }
  });

  it('objects compare structurally with sorted keys; array paths are indexed', () => {
    const objRows = [described('c1', [{ entity: 'srv-db-04', field: 'window', value: { from: '02:00', to: '04:00' } }], 1n)];
    const c = { 'jobs.0.window': { entity: 'srv-db-04', field: 'window' } };
    expect(run({ jobs: [{ window: { to: '04:00', from: '02:00' } }] }, { rows: objRows, claims: c }).findings).toEqual([]);
    expect(run({ jobs: [{ window: { to: '05:00', from: '02:00' } }] }, { rows: objRows, claims: c }).findings).toHaveLength(1);
    expect(valueAtPath({ a: [1, { b: 2 }] }, 'a.1.b')).toBe(2);
    expect(valueAtPath({ a: [1] }, 'a.x')).toBeUndefined();
  });
  it('a JSON answer inside a Markdown code fence is the structured answer', () => {
    const fenced = 'Here is the status you asked for:\n\n```json\n{ "machine": { "status": "failed", "retention_days": 30 } }\n```\n\nLet me know if you need more.';
    const out = run(fenced);
    expect(out.findings.map((f) => [f.predicate, f.value])).toEqual([['status', 'failed']]);
    expect(out.tally).toMatchObject({ checked: 2, findings: 1, notApplicable: 0 });
    // A bare fence, a tilde fence and a fence after an unparseable one are read too.
    expect(run('```\n{"machine":{"status":"ok"}}\n```').tally).toMatchObject({ checked: 1, findings: 0 });
    expect(run('~~~json\n{"machine":{"status":"failed"}}\n~~~').findings).toHaveLength(1);
    expect(run('```json\n{ not json\n```\nthen\n```json\n{"machine":{"status":"failed"}}\n```').findings).toHaveLength(1);
  });

  it('fence: a code fence of another language, or prose with braces, is not a structured answer', () => {
    expect(run('```python\nprint({"machine": {"status": "failed"}})\n```').tally).toMatchObject({ checked: 0, notApplicable: 2 });
    expect(run('```yaml\n["machine"]\n```').tally).toMatchObject({ checked: 0, notApplicable: 2 });
    expect(run('The status is {failed}.').tally).toMatchObject({ checked: 0, notApplicable: 2 });
  });

  it('strings compare trimmed and case-insensitively ("OK" is "ok"), also inside arrays', () => {
    expect(run({ machine: { status: 'OK' } }).findings).toEqual([]);
    expect(run({ machine: { status: ' Ok ' } }).findings).toEqual([]);
    expect(sameClaimValue(['Failed', 'OK'], ['failed', 'ok'])).toBe(true);
    expect(sameClaimValue('OK', 'ok', true)).toBe(false);
    expect(run({ machine: { status: 'Failed' } }).findings).toHaveLength(1);
  });

  it('a claim declared exact compares strings exactly', () => {
    const exact = { 'machine.status': { entity: 'srv-db-04', field: 'status', exact: true } };
    const out = run({ machine: { status: 'OK' } }, { claims: exact });
    expect(out.findings.map((f) => f.value)).toEqual(['OK']);
    expect(run({ machine: { status: 'ok' } }, { claims: exact }).findings).toEqual([]);
  });
});
