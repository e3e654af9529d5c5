// Quality cases for `prior-turn-evidence` (advisory): an answer that only repeats values served in
// an earlier turn with no tool called now, and the answers that are current.

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, declarations, declare, offer } from './common.js';

const base = {
  system: BACKUP_SYSTEM,
  memory: 'full' as const,
  tools: offer('list_machines', 'backup_status'),
  declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
};
const firstTurn = {
  user: 'What is the backup status of srv-db-04?',
  steps: [
    { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
    { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'running', run: 'run-9001' }] }] },
  ],
  answer: 'srv-db-04 is running run-9001 right now; its last success was 2026-11-30T02:00:00Z.',
};

export const PRIOR_TURN_CASES: CaseSpec[] = [
  {
    name: 'pte-defect-status-now-from-old-result',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'asked "now", the answer repeats an earlier turn\'s result and calls nothing',
    kind: 'defect',
    note: 'The user asks for the current state an hour later; run-9001 was "running" in turn 1 and nothing was read again.',
    expect: [{ check: 'prior-turn-evidence' }],
    ...base,
    turns: [firstTurn, { user: 'Has it finished by now?', steps: [], answer: 'Not yet: srv-db-04 is still running run-9001.' }],
  },
  {
    name: 'pte-clean-read-again',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'the follow-up reads the status again this turn',
    kind: 'clean',
    note: 'backup_status is called again in turn 2; the answer rests on the fresh result.',
    expect: [],
    ...base,
    turns: [
      firstTurn,
      {
        user: 'Has it finished by now?',
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T09:41:00Z', state: 'ok', run: 'run-9001' }] }] }],
        answer: 'Yes: run-9001 on srv-db-04 finished successfully at 2026-11-30T09:41:00Z.',
      },
    ],
  },
  {
    name: 'pte-clean-no-values-restated',
    shape: 'otel-logs',
    check: 'prior-turn-evidence',
    class: 'a follow-up answer that states no data value at all',
    kind: 'clean',
    note: 'The user asks what the status field means; nothing from a result is repeated.',
    expect: [],
    ...base,
    turns: [firstTurn, { user: 'What does "running" mean there?', steps: [], answer: 'It means a backup is in progress and has not finished yet; I can check again whenever you like.' }],
  },
];
