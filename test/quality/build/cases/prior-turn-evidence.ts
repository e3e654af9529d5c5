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
  {
    name: 'pte-defect-usage-now',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'a "current" figure answered from the previous turn\'s result',
    kind: 'defect',
    note: 'Turn 2 asks for the usage now; the answer repeats the turn-1 storage figures without reading them again.',
    expect: [{ check: 'prior-turn-evidence' }],
    system: BACKUP_SYSTEM,
    memory: 'full',
    tools: offer('storage_usage'),
    declarations: declarations([declare('storage_usage')]),
    turns: [
      {
        user: 'How much storage does acme use per machine?',
        steps: [{ calls: [{ name: 'storage_usage', args: { customer: 'acme' }, result: [{ machine_id: 'srv-db-04', size_gb: 1840, measured_at: '2026-11-30T09:00:00Z' }] }] }],
        answer: 'srv-db-04 uses 1840 GB (measured 2026-11-30T09:00:00Z).',
      },
      { user: 'We just deleted old snapshots. What is the usage now?', steps: [], answer: 'srv-db-04 currently uses 1840 GB.' },
    ],
  },
  {
    name: 'pte-defect-still-protected',
    shape: 'otel-logs',
    check: 'prior-turn-evidence',
    class: '"still …?" answered by repeating the jobs an earlier turn served',
    kind: 'defect',
    note: 'The job names come from turn 1; nothing was called in turn 2 to see whether they still exist.',
    expect: [{ check: 'prior-turn-evidence' }],
    ...base,
    turns: [
      {
        user: 'Which jobs protect srv-db-04?',
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', job: 'nightly-db-primary-full', run: 'run-9001', state: 'ok' }] }] }],
        answer: 'srv-db-04 is protected by nightly-db-primary-full (run-9001 ok).',
      },
      { user: 'Someone changed the schedules this morning. Is it still protected?', steps: [], answer: 'Yes, srv-db-04 is still protected by nightly-db-primary-full; run-9001 was ok.' },
    ],
  },
  {
    name: 'pte-defect-three-turns-later',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'a value served two turns back, restated as the answer to a new question',
    kind: 'defect',
    note: 'Turn 3 reports the restore point of turn 1 as the latest one; no tool ran in turn 3.',
    expect: [{ check: 'prior-turn-evidence' }],
    system: BACKUP_SYSTEM,
    memory: 'full',
    tools: offer('restore_points'),
    declarations: declarations([declare('restore_points')]),
    turns: [
      {
        user: 'Which restore points does srv-db-04 have?',
        steps: [{ calls: [{ name: 'restore_points', args: { machine_id: 'srv-db-04' }, result: [{ point: 'rp-20261130', created: '2026-11-30T02:00:00Z' }] }] }],
        answer: 'srv-db-04 has one restore point, rp-20261130.',
      },
      { user: 'Thanks. I will start the maintenance now.', steps: [], answer: 'Good luck with the maintenance.' },
      { user: 'Maintenance is done. What is the latest restore point now?', steps: [], answer: 'The latest restore point of srv-db-04 is rp-20261130.' },
    ],
  },
  {
    name: 'pte-clean-mixed-fresh-value',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'a follow-up that reads something new and cites it beside an older value',
    kind: 'clean',
    note: 'Turn 2 reads backup_status again; one value of the answer is from this turn, so it is current.',
    expect: [],
    ...base,
    turns: [
      firstTurn,
      {
        user: 'Has run-9001 finished by now?',
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', state: 'ok', run: 'run-9001', finished: '2026-11-30T09:41:00Z' }] }] }],
        answer: 'Yes: run-9001 finished at 2026-11-30T09:41:00Z; the previous success was 2026-11-30T02:00:00Z.',
      },
    ],
  },
  {
    name: 'pte-clean-user-asks-to-recall',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'the user asks what was said before ("which run did you mention?")',
    kind: 'clean',
    note: 'Recalling the earlier answer is what the user asked for; nothing claims to be current.',
    expect: [],
    ...base,
    turns: [firstTurn, { user: 'Which run id did you mention earlier?', steps: [], answer: 'I mentioned run-9001.' }],
  },
];
