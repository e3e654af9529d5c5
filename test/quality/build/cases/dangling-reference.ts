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
  {
    name: 'dr-defect-two-grounds-evicted',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'both declared grounds of a tool left the window: one finding naming both',
    kind: 'defect',
    note: 'backup_status takes ids from list_machines and backup_jobs; both results were dropped between turns and the model calls it from memory.',
    expect: [
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-argument', tool: 'backup_status', value: 'srv-db-04' },
    ],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    system: BACKUP_SYSTEM,
    memory: 'answers-only',
    tools: offer('list_machines', 'backup_jobs', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] }), declare('backup_status', { argumentsFrom: ['list_machines', 'backup_jobs'] })]),
    turns: [
      {
        user: 'Which jobs protect our database server?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }, { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: JOBS }] }],
        answer: 'srv-db-04 is protected by nightly-db-primary-full and hourly-db-primary-wal.',
      },
      {
        user: 'Did the last run of that server succeed?',
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] }] }],
        answer: 'Yes, srv-db-04 last succeeded at 2026-11-30T02:00:00Z.',
      },
    ],
  },
  {
    name: 'dr-defect-third-turn-dialogue-memory',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'a chat app that keeps the dialogue but not tool results: the ground is gone two turns later',
    kind: 'defect',
    note: 'The user named the machine in turn 1 only as "the database server"; in turn 3 the model calls backup_jobs with srv-db-04, an id the window holds only in its own earlier answer.',
    expect: [
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-argument', tool: 'backup_jobs', value: 'srv-db-04' },
    ],
    // The turn-3 answer repeats srv-db-04, which the window holds only in the model's own turn-1 answer.
    acceptable: [{ check: 'dangling-reference', advisory: true }, { check: 'unsupported-value', value: 'srv-db-04' }],
    system: BACKUP_SYSTEM,
    memory: 'dialogue',
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which machine is our database server?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
        answer: 'The database server is srv-db-04 (hostname db-primary); it is protected.',
      },
      { user: 'Is it the only protected one?', steps: [], answer: 'Yes, it is the only protected machine of acme.' },
      {
        user: 'Then list the jobs of the database server.',
        steps: [{ calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: JOBS }] }],
        answer: 'srv-db-04 runs nightly-db-primary-full and hourly-db-primary-wal, both ok.',
      },
    ],
  },
  {
    name: 'dr-defect-user-retyped-id',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'the ground left the window; the user retypes the id, the tool is still called without its ground',
    kind: 'defect',
    note: 'backup_jobs is declared to take ids from list_machines; the app dropped that result, so whether srv-web-11 still exists is unknown. The argument itself is grounded by the user.',
    expect: [{ check: 'dangling-reference', advisory: false }],
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
        user: 'Does srv-web-11 have any backup jobs at all?',
        steps: [{ calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-web-11' }, result: [{ job: 'weekly-web-edge-config', status: 'failed' }] }] }],
        answer: 'srv-web-11 has one job, weekly-web-edge-config, and its last run failed.',
      },
    ],
  },
  {
    name: 'dr-clean-ground-never-fetched',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'the ground was never fetched in this conversation (ordinary sequencing)',
    kind: 'clean',
    note: 'The user gave the id; list_machines was never called, so nothing left the window.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'List the backup jobs of srv-db-04.',
        steps: [{ calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: JOBS }] }],
        answer: 'srv-db-04 runs nightly-db-primary-full and hourly-db-primary-wal, both ok.',
      },
      {
        user: 'Thanks. Which one is the WAL job?',
        steps: [],
        answer: 'hourly-db-primary-wal is the WAL (write-ahead log) job.',
      },
    ],
  },
  {
    name: 'dr-clean-dependent-tool-not-offered',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'after the ground left, the app stops offering the dependent tool',
    kind: 'clean',
    note: 'In turn 2 only storage_usage is offered; the armed backup_jobs is not, so the model cannot fill it from memory.',
    expect: [],
    system: BACKUP_SYSTEM,
    memory: 'answers-only',
    tools: offer('list_machines', 'backup_jobs', 'storage_usage'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] }), declare('storage_usage')]),
    turns: [
      {
        user: 'Which of our machines are protected?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
        answer: 'srv-db-04 is protected; srv-web-11 is not.',
        tools: ['list_machines', 'backup_jobs'],
      },
      {
        user: 'How much storage does acme use overall?',
        steps: [{ calls: [{ name: 'storage_usage', args: { customer: 'acme' }, result: [{ machine_id: 'srv-db-04', size_gb: 1840, last_backup: '2026-11-30T02:00:00Z' }, { machine_id: 'srv-web-11', size_gb: 96.5, last_backup: '2026-11-29T02:00:00Z' }] }] }],
        answer: 'srv-db-04 uses 1840 GB and srv-web-11 uses 96.5 GB.',
        tools: ['storage_usage'],
      },
    ],
  },
  {
    name: 'dr-clean-undeclared-ground-evicted',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'a result that is not a declared ground leaves the window',
    kind: 'clean',
    note: 'storage_usage results were dropped between turns, but backup_jobs is declared to take ids only from list_machines, which was never called.',
    expect: [],
    system: BACKUP_SYSTEM,
    memory: 'answers-only',
    tools: offer('storage_usage', 'list_machines', 'backup_jobs'),
    declarations: declarations([declare('storage_usage'), declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'How much storage does acme use per machine?',
        steps: [{ calls: [{ name: 'storage_usage', args: { customer: 'acme' }, result: [{ machine_id: 'srv-db-04', size_gb: 1840, last_backup: '2026-11-30T02:00:00Z' }] }] }],
        answer: 'srv-db-04 uses 1840 GB.',
      },
      {
        user: 'Which jobs back up srv-db-04?',
        steps: [{ calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: JOBS }] }],
        answer: 'srv-db-04 runs nightly-db-primary-full and hourly-db-primary-wal.',
      },
    ],
  },
];
