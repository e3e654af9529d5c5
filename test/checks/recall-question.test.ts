// Pins the recall-question fence of prior-turn-evidence: a user message asking what was said
// before makes an answer from earlier turns' results the one asked for; a question about the
// present never does, whatever else it says.
import { describe, it, expect } from 'vitest';
import { asksToRecall } from '../../src/checks/recall-question.js';
import { priorTurnEvidence } from '../../src/checks/prior-turn-evidence.js';

describe('asksToRecall', () => {
  it.each([
    'Which run id did you mention earlier?',
    'What did you say the failing machine was?',
    'Sorry, could you repeat the job id?',
    'Remind me which host had the full disk.',
    'What was the order number again?',
    'Can you give me that id once more? Say it again please.',
  ])('recall: %s', (text) => expect(asksToRecall(text)).toBe(true));

  it.each([
    'Is the run you mentioned still failing?',
    'Did you say run-9001 is still failing?',
    'What is the status of run-9001 now?',
    'Which run failed last night?',
    'You mentioned srv-db-04. Check its latest backup.',
    '',
  ])('not recall: %s', (text) => expect(asksToRecall(text)).toBe(false));

  it('an absent message is not a recall question', () => expect(asksToRecall(undefined)).toBe(false));
});

describe('prior-turn-evidence with the turn\'s user message', () => {
  const span = { traceId: 'b'.repeat(32), spanId: 'c'.repeat(16) };
  const grounded = [{ key: 'run-9001', raw: 'run-9001', request: 1, turnTraceId: 'a'.repeat(32), toolName: 'backup_history', callId: 'call_1' }];
  const base = { span, grounded, currentTurnTraceId: 'b'.repeat(32), toolCallsThisTurn: 0, quotedValueChars: 120 } satisfies Parameters<typeof priorTurnEvidence>[0];

  it('a recall question passes (checked, no finding); a present-tense question on the same evidence is the finding', () => {
    const recall = priorTurnEvidence({ ...base, userMessage: 'Which run id did you mention earlier?' });
    expect(recall.findings).toEqual([]);
    expect(recall.tally).toMatchObject({ checked: 1, findings: 0 });
    const current = priorTurnEvidence({ ...base, userMessage: 'Is that run still failing?' });
    expect(current.findings.map((f) => f.kind)).toEqual(['prior-turn-evidence']);
  });
});
