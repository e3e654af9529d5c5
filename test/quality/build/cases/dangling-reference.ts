// Quality cases for `dangling-reference` (issue 9 §6): a tool offered after the results its
// arguments come from left the window — one finding per request (grouped), and the ordinary
// sequences that must stay silent.

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, declarations, declare, offer } from './common.js';

const JOBS = [{ job: 'nightly-db-primary-full', status: 'ok' }, { job: 'hourly-db-primary-wal', status: 'ok' }];
const ARMED = ['backup_jobs', 'backup_status', 'backup_history', 'volume_stats', 'protection_summary', 'restore_points'];

export const DANGLING_CASES: CaseSpec[] = [
  {
    name: 'dr-defect-evicted-ground-called',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'ground evicted between turns and the dependent tool is called from memory',
    kind: 'defect',
    note: 'The app keeps only answers; in turn 2 backup_status is offered and called while no list_machines result is in the window, and srv-db-04 comes only from the model\'s own turn-1 answer.',
    expect: [
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-argument', tool: 'backup_status', value: 'srv-db-04' },
    ],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    system: BACKUP_SYSTEM,
    memory: 'answers-only',
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which of our machines are protected?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
        answer: 'srv-db-04 is protected; srv-web-11 is not.',
      },
      {
        user: 'And what is the latest backup status of the protected one?',
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] }] }],
        answer: 'srv-db-04 last backed up successfully at 2026-11-30T02:00:00Z.',
      },
    ],
  },
  {
    name: 'dr-defect-six-armed-tools-one-finding',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'one request offering six armed tools whose ground left: one grouped finding, not six',
    kind: 'defect',
    note: 'All six tools take machine ids from list_machines; a reviewer wants one finding naming them all (advisory: the request calls none of them), not six alerts.',
    expect: [{ check: 'dangling-reference', advisory: true }],
    system: BACKUP_SYSTEM,
    memory: 'answers-only',
    tools: offer('list_machines', ...ARMED),
    declarations: declarations([declare('list_machines'), ...ARMED.map((t) => declare(t, { argumentsFrom: ['list_machines'] }))]),
    turns: [
      {
        user: 'List our machines.',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
        answer: 'acme has srv-db-04 (protected) and srv-web-11 (not protected).',
      },
      { user: 'Thanks, that is all for now.', steps: [], answer: 'You are welcome.' },
    ],
  },
  {
    name: 'dr-clean-ground-fetched-again',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'the evicted ground is fetched again before the dependent call',
    kind: 'clean',
    note: 'In turn 2 the model calls list_machines again first; from then on the ground is in the window.',
    expect: [],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    system: BACKUP_SYSTEM,
    memory: 'answers-only',
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which of our machines are protected?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
        answer: 'srv-db-04 is protected; srv-web-11 is not.',
      },
      {
        user: 'List the jobs of the protected one.',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }, { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: JOBS }] }],
        answer: 'srv-db-04 runs nightly-db-primary-full and hourly-db-primary-wal, both ok.',
      },
    ],
  },
  {
    name: 'dr-clean-full-history-kept',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'the app keeps the whole history, so the ground never leaves the window',
    kind: 'clean',
    note: 'Turn 2 still holds the turn-1 list_machines result.',
    expect: [],
    system: BACKUP_SYSTEM,
    memory: 'full',
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which of our machines are protected?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
        answer: 'srv-db-04 is protected; srv-web-11 is not.',
      },
      {
        user: 'List the jobs of the protected one.',
        steps: [{ calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: JOBS }] }],
        answer: 'srv-db-04 runs nightly-db-primary-full and hourly-db-primary-wal, both ok.',
      },
    ],
  },
];
