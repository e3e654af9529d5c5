// Pins check `unsupported-value` and every fence: an answer token no window result holds is one
// finding (predicate = the token, subject the answer) and a token a result holds passes, both
// token-exact; user and system text exempt; the model's own earlier text and tool arguments never
// ground (they only classify `assistant-only`); an answer with no data token is not applicable (no
// finding); content not captured and every bound are unreachable reasons, never a silent pass;
// grounded tokens come back with the request and turn that last served them; and clean answers
// (dates, versions, ordinals, 24/7) raise nothing.
import { describe, it, expect } from 'vitest';
import { unsupportedValues, type UnsupportedValueInput, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';

const span = { traceId: 'ab971de46025cb7d8b0b22f5b48216e6', spanId: 'c4d1f00d2a9e7b10' };
const TURN1 = 'ab971de46025cb7d8b0b22f5b48216e6';
const SYSTEM = 'You are a backup triage assistant for customer acme.';
const USER = 'Is srv-db-04 protected?';
const MACHINES = '[{"machine":"srv-db-04","role":"db-primary"}]';
const JOBS = '[{"job":"nightly-db-primary-full","status":"ok","last_run":"2025-11-30T02:00:00Z","bytes":41200},{"job":"hourly-db-primary-wal","status":"ok"}]';
const ANSWER = 'srv-db-04 (db-primary) is protected. Jobs: nightly-db-primary-full and hourly-db-primary-wal, both OK.';

const results: WindowResult[] = [
  { text: MACHINES, toolName: 'list_machines', callId: 'call_bt_001', request: 2, turnTraceId: TURN1 },
  { text: JOBS, toolName: 'backup_jobs', callId: 'call_bt_002', request: 3, turnTraceId: TURN1 },
];

function run(answerText: string | undefined, over: Partial<UnsupportedValueInput> = {}) {
  return unsupportedValues({
    span,
    answerText,
    windowResults: results,
    exemptTexts: [SYSTEM, USER],
    bounds: { ...DEFAULT_EVIDENCE_BOUNDS },
    ...over,
  });
}

describe('unit: unsupported-value and every fence', () => {
  it('flags a number no tool returned, one finding per token, subject the answer', () => {
    const out = run('srv-db-04 is protected; the last full backup was 41,250 MB.');
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'unsupported-value', seam: 'answer', predicate: '41250', value: '41,250', subjects: [{ kind: 'answer', id: 'final' }], grounding: 'nowhere', span });
    expect(f.advisory).toBeUndefined();
    expect(f.message).toContain('"41,250"');
    expect(f.message).toContain('no tool result in the window it was written from contains that value');
    expect(f.message.endsWith('Nothing here blocked the answer.')).toBe(true);
    expect(f.witnesses.map((w) => w.stratum)).toEqual(['chosen', 'absent']);
    expect(out.tally).toMatchObject({ check: 'unsupported-value', seam: 'answer', checked: 2, findings: 1, notApplicable: 0, unreachable: 0 });
  });

  it('passes the same number when a tool returned it, thousands separators normalised', () => {
    const out = run('srv-db-04 is protected; the last full backup was 41,200 MB.');
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 2, findings: 0 });
  });

  it('the realistic clean answer passes with every token grounded by the result that served it', () => {
    const out = run(ANSWER);
    expect(out.findings).toEqual([]);
    expect(out.grounded).toEqual([{ key: 'srv-db-04', raw: 'srv-db-04', request: 2, turnTraceId: TURN1, toolName: 'list_machines', callId: 'call_bt_001' }]);
  });

  it('token-exact: a value that is only a substring of a result token is unsupported', () => {
    const out = run('The host is srv-db-0 and the WAL job is db-primary-wal-7.');
    expect(out.findings.map((f) => f.predicate)).toEqual(['srv-db-0', 'db-primary-wal-7']);
  });

  it('one finding per distinct token however often it repeats; findings <= checked', () => {
    const out = run('Job 98765 failed; 98765 again; 98,765.');
    expect(out.findings).toHaveLength(1);
    expect(out.tally).toMatchObject({ checked: 1, findings: 1 });
  });

  it('fence: user and system text exempt the tokens they contain', () => {
    const out = run('srv-db-04 and ticket INC-20417 are noted.', { exemptTexts: [SYSTEM, 'Re ticket inc-20417: is srv-db-04 ok?'] });
    expect(out.findings).toEqual([]);
    expect(out.exempt).toEqual(['inc-20417']);
    expect(out.grounded.map((g) => g.key)).toEqual(['srv-db-04']);
  });

  it("fence: the model's own earlier text and tool arguments never ground; they classify assistant-only", () => {
    const out = run('The restore point is rp-20251130.', { writtenTexts: ['I will check rp-20251130.', '{"restore_point":"rp-20251130"}'] });
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.grounding).toBe('assistant-only');
    expect(out.findings[0]!.message).toContain("the model's own earlier writing");
    expect(out.findings[0]!.witnesses.map((w) => w.stratum)).toEqual(['chosen', 'written', 'absent']);
  });

  it('zero delta: an answer with no data token is not applicable, no finding', () => {
    const out = run('Everything looks fine; both jobs are OK.');
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 1, unreachable: 0 });
    expect(out.incomplete).toBeUndefined();
  });

  it('content not captured (answer or input): unreachable with the reason, never a pass', () => {
    for (const out of [run(undefined), run(ANSWER, { inputCaptured: false })]) {
      expect(out.findings).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 0, unreachable: 1 });
      expect(out.tally.unreachableReasons).toEqual({ 'message content was not captured': 1 });
      expect(out.incomplete).toBe('message content was not captured');
    }
  });

  it('bound: more answer tokens than the bound checks the first ones and says the rest were not', () => {
    const answer = Array.from({ length: 8 }, (_, i) => `job-${9000 + i}`).join(', ');
    const out = run(answer, { bounds: { ...DEFAULT_EVIDENCE_BOUNDS, maxAnswerTokens: 3 } });
    expect(out.findings).toHaveLength(3);
    expect(out.tally.unreachable).toBe(1);
    expect(Object.keys(out.tally.unreachableReasons)[0]).toContain('more than 3 data tokens');
    expect(out.incomplete).toContain('more than 3 data tokens');
  });

  it('bound: a truncated index still grounds what it holds, and what it lacks is unreachable, not a finding', () => {
    const big = JSON.stringify(Array.from({ length: 40 }, (_, i) => `vol-${1000 + i}`));
    const out = run('vol-1000 is fine but vol-1039 and vol-7777 are not.', {
      windowResults: [{ text: big, toolName: 'volumes', request: 2 }],
      bounds: { ...DEFAULT_EVIDENCE_BOUNDS, maxIndexTokens: 10 },
    });
    expect(out.findings).toEqual([]);
    expect(out.grounded.map((g) => g.key)).toEqual(['vol-1000']);
    expect(out.tally).toMatchObject({ checked: 1, unreachable: 2 });
    expect(Object.keys(out.tally.unreachableReasons)[0]).toContain('more than 10 data tokens');
    expect(out.incomplete).toBeDefined();
  });

  it('grounded tokens carry the request and turn that LAST served them', () => {
    const out = run('srv-db-04 is protected.', {
      windowResults: [
        { text: MACHINES, toolName: 'list_machines', callId: 'c1', request: 2, turnTraceId: 'turn-1' },
        { text: '{"host":"srv-db-04","ok":true}', toolName: 'backup_status', callId: 'c9', request: 7, turnTraceId: 'turn-2' },
      ],
    });
    expect(out.grounded).toEqual([{ key: 'srv-db-04', raw: 'srv-db-04', request: 7, turnTraceId: 'turn-2', toolName: 'backup_status', callId: 'c9' }]);
  });

  it('an absence envelope\'s looked_for echo does not ground the value the model asked about', () => {
    const absent = JSON.stringify({ af_absent: true, looked_for: 'jobs for srv-db-99', checked: [{ what: 'the job catalog' }] });
    const out = run('srv-db-99 has no jobs.', { windowResults: [{ text: absent, toolName: 'backup_jobs', request: 2 }] });
    expect(out.findings.map((f) => f.predicate)).toEqual(['srv-db-99']);
  });

  it('quotes values: capped at the quoted-value bound', () => {
    const long = `id-${'7'.repeat(80)}`;
    const f = run(`See ${long}.`, { bounds: { ...DEFAULT_EVIDENCE_BOUNDS, quotedValueChars: 16 } }).findings[0]!;
    expect(f.value).toBe(long);
    expect(f.message).toContain(`"${long.slice(0, 16)}…"`);
  });
});

describe('false-positive pass: clean answers raise nothing', () => {
  const clean: [string, WindowResult[]][] = [
    ['The last full backup ran on 2025-11-30 at 02:00 and is OK.', results],
    ['The last full backup ran on November 30, 2025, in the 2025-11 cycle.', results],
    ['This is the 47th consecutive good night; support is 24/7 and the box has 32G of RAM on a 48-port switch.', results],
    ['srv-db-04 runs agent v7.4.2 on PostgreSQL 16.', [{ text: '{"host":"srv-db-04","agent_version":"v7.4.2","pg":"16"}', request: 2 }]],
    ['Retention is 30 days, 3 copies, 99% success over 12 months.', results],
    ['Both jobs are OK (nightly-db-primary-full, hourly-db-primary-wal).', results],
    ['Backed up 41,200 MB in 1,234 files.', [{ text: 'Backed up 41200 MB in 1234 files', request: 4 }]],
  ];
  for (const [answer, windowResults] of clean) {
    it(`no finding: ${answer}`, () => {
      const out = run(answer, { windowResults });
      expect(out.findings).toEqual([]);
      expect(out.tally.unreachable).toBe(0);
    });
  }
});
