// Pins check `prior-turn-evidence` (advisory): one advisory finding (predicate 'grounding') when
// every grounded value of the answer was last served in an earlier turn, no tool was called this
// turn, and something says the data may have moved (the user asks about the present, a write after
// the read touched it, the tool is declared volatile); a pass when any value came from this turn, a
// tool ran this turn, or nothing could have moved the data (a confirmation turn); unreachable (never a
// pass) when nothing is grounded, the turn is unknown, a serving turn was not recorded, or the
// evidence was incomplete; the message embeds the exported ceiling sentence; and it composes with
// unsupported-value's grounded output.
import { describe, it, expect } from 'vitest';
import { priorTurnEvidence, PRIOR_TURN_EVIDENCE_CEILING, type PriorTurnEvidenceInput } from '../../src/checks/prior-turn-evidence.js';
import { unsupportedValues, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';
import type { GroundedToken } from '../../src/checks/unsupported-value.js';

const TURN1 = '11111111111111111111111111111111';
const TURN2 = '22222222222222222222222222222222';
const span = { traceId: TURN2, spanId: 'c4d1f00d2a9e7b10' };

const fromTurn1: GroundedToken[] = [
  { key: 'srv-db-04', raw: 'srv-db-04', request: 2, turnTraceId: TURN1, toolName: 'list_machines', callId: 'call_bt_001' },
  { key: '41200', raw: '41,200', request: 3, turnTraceId: TURN1, toolName: 'backup_jobs', callId: 'call_bt_002' },
];

function run(over: Partial<PriorTurnEvidenceInput> = {}) {
  return priorTurnEvidence({ span, grounded: fromTurn1, currentTurnTraceId: TURN2, toolCallsThisTurn: 0, userMessage: 'Is srv-db-04 still protected?', quotedValueChars: 64, ...over });
}

describe('unit: prior-turn-evidence and every fence', () => {
  it('every grounded value from an earlier turn and no tool this turn: one advisory finding', () => {
    const out = run();
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'prior-turn-evidence', seam: 'answer', predicate: 'grounding', advisory: true, value: 'srv-db-04', subjects: [{ kind: 'answer', id: 'final' }], span });
    expect(f.message).toContain('("srv-db-04" and 1 other value)');
    expect(f.message).toContain('the latest in request 3');
    expect(f.message).toContain(PRIOR_TURN_EVIDENCE_CEILING);
    expect(f.message.endsWith('Nothing here blocked the answer.')).toBe(true);
    expect(f.message).toContain('although this turn\'s user message asks about the present ("still")');
    expect(f.witnesses.at(-2)).toMatchObject({ predicate: 'tool-results-this-turn', value: '0', stratum: 'absent' });
    expect(f.witnesses.at(-1)).toMatchObject({ predicate: 'may-have-moved', provenance: 'this turn\'s user message asks about the present ("still")' });
    // Only the finding's own value is quoted (the core redacts exactly that one); the rest are counted.
    expect(f.witnesses.map((w) => w.value)).toEqual(['srv-db-04', '0', 'srv-db-04']);
    expect(f.witnesses[0]!.provenance).toContain('1 other grounded value too, the latest in request 3');
    expect(out.tally).toMatchObject({ check: 'prior-turn-evidence', seam: 'answer', checked: 1, findings: 1, unreachable: 0 });
  });

  it('a confirmation turn with nothing that could have moved the data: pass', () => {
    for (const userMessage of ['Yes, please proceed with the cancellation.', 'Cancel it now, please.', 'Could you double-check that detail?', "That's all I needed for now. Thanks?", undefined]) {
      const out = run({ ...(userMessage !== undefined ? { userMessage } : { userMessage: undefined }) });
      expect(out.findings, String(userMessage)).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 1, findings: 0, unreachable: 0 });
    }
  });

  it('a write after the read that names what the read was called with: one finding, the write as witness', () => {
    const readArguments = (callId: string) => (callId === 'call_bt_002' ? ['srv-db-04'] : []);
    const writes = [{ toolName: 'delete_job', callId: 'call_w_1', request: 5, values: ['srv-db-04'] }];
    const out = run({ userMessage: 'Yes, go ahead.', writes, readArguments });
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.witnesses.at(-1)!.provenance).toBe('the write delete_job (call call_w_1) in request 5, after the read that served "srv-db-04", was called with "srv-db-04"');
    // A write before the read, or one about something else, moved nothing the answer restates.
    expect(run({ userMessage: 'Yes, go ahead.', writes: [{ ...writes[0]!, request: 1 }], readArguments }).findings).toEqual([]);
    expect(run({ userMessage: 'Yes, go ahead.', writes: [{ ...writes[0]!, values: ['srv-web-01'] }], readArguments }).findings).toEqual([]);
  });

  it('a tool declared volatile: one finding', () => {
    const out = run({ userMessage: 'Thanks, and which jobs were those?', isVolatile: (t) => t === 'backup_jobs' });
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.witnesses.at(-1)!.provenance).toBe('backup_jobs is declared volatile: its data moves on its own');
  });

  it('one value served this turn: pass', () => {
    const out = run({ grounded: [...fromTurn1, { key: 'job-7781', raw: 'job-7781', request: 9, turnTraceId: TURN2 }] });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
  });

  it('a tool was called this turn: pass, even if every value is older', () => {
    const out = run({ toolCallsThisTurn: 1 });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
  });

  it('zero delta: no grounded value -> not applicable, no finding', () => {
    const out = run({ grounded: [] });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1, unreachable: 0, unreachableReasons: {} });
  });

  it('unknown current turn -> unreachable', () => {
    expect(run({ currentTurnTraceId: undefined }).tally.unreachableReasons).toEqual({ 'the turn the answer belongs to was not recorded': 1 });
  });

  it('a grounded value whose serving turn was not recorded -> unreachable, never a finding', () => {
    const out = run({ grounded: [...fromTurn1, { key: 'job-7781', raw: 'job-7781', request: 4 }] });
    expect(out.findings).toEqual([]);
    expect(out.tally.unreachable).toBe(1);
  });

  it('incomplete evidence -> unreachable with that reason', () => {
    const out = run({ incomplete: 'message content was not captured' });
    expect(out.findings).toEqual([]);
    expect(out.tally.unreachableReasons).toEqual({ 'message content was not captured': 1 });
  });

  it('composes with unsupported-value: a turn-2 answer repeating turn-1 results', () => {
    const uv = unsupportedValues({
      span,
      answerText: 'srv-db-04 is protected; nightly-db-primary-full wrote 41,200 MB.',
      windowResults: [
        { text: '[{"machine":"srv-db-04"}]', toolName: 'list_machines', callId: 'c1', request: 2, turnTraceId: TURN1 },
        { text: '[{"job":"nightly-db-primary-full","bytes":41200}]', toolName: 'backup_jobs', callId: 'c2', request: 3, turnTraceId: TURN1 },
      ],
      exemptTexts: ['And is it still protected?'],
      bounds: { ...DEFAULT_EVIDENCE_BOUNDS },
    });
    const out = run({ grounded: uv.grounded, ...(uv.incomplete ? { incomplete: uv.incomplete } : {}) });
    expect(uv.findings).toEqual([]);
    expect(out.findings).toHaveLength(1);
  });
});
