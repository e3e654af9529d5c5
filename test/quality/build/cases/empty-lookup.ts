// Quality cases for `empty-lookup` (advisory; issue 9 §3, §4): an empty answer to a lookup made with
// a value a declared producer served, including not-found results, and the empty results that
// are no place to look (user-supplied values, values only a non-producer served).

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ORDER_SYSTEM, declarations, declare, offer } from './common.js';

export const EMPTY_LOOKUP_CASES: CaseSpec[] = [
  {
    name: 'el-defect-producer-value-empty-list',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'a producer-served id looked up and a bare `[]` came back',
    kind: 'defect',
    note: 'list_machines says srv-db-04 is protected, yet backup_jobs returns no jobs for it: a join or filter to look at.',
    expect: [{ check: 'empty-lookup', tool: 'backup_jobs', value: 'srv-db-04' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which backup jobs protect our database server?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: [] }] },
        ],
        answer: 'The database server srv-db-04 is marked protected, but backup_jobs lists no jobs for it.',
      },
    ],
  },
  {
    name: 'el-defect-not-found-for-served-id',
    shape: 'vercel',
    check: 'empty-lookup',
    class: 'a 404 not-found for a producer-served id is an absence read, so an empty lookup',
    kind: 'defect',
    note: 'list_orders served A-2291, get_order says it is not found: the tool established absence of something another tool just served.',
    expect: [{ check: 'empty-lookup', tool: 'get_order', value: 'A-2291' }],
    system: ORDER_SYSTEM,
    tools: offer('find_customer', 'list_orders', 'get_order'),
    declarations: declarations([declare('find_customer'), declare('list_orders', { argumentsFrom: ['find_customer'] }), declare('get_order', { argumentsFrom: ['list_orders'] })]),
    turns: [
      {
        user: 'What was in the latest order of customer 51877?',
        steps: [
          { calls: [{ name: 'list_orders', args: { customer_id: 51877, limit: 1 }, result: [{ order_id: 'A-2291', placed: '2026-11-28', total_cents: 4590 }] }] },
          { calls: [{ name: 'get_order', args: { order_id: 'A-2291' }, result: { error: 'not_found', status: 404, message: 'order A-2291 not found' } }] },
        ],
        answer: 'The latest order of customer 51877 is A-2291 from 2026-11-28, but its details are not found in the order service.',
      },
    ],
  },
  {
    name: 'el-clean-user-supplied-value',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'an empty lookup of a value the user typed (no producer served it as a whole token)',
    kind: 'clean',
    note: 'The user asked about srv-db-04; list_machines served only srv-db-04-replica. The empty result answers the user: there is no such machine here, and no producer served that value.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which backup jobs does srv-db-04 have?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: [{ machine_id: 'srv-db-04-replica', hostname: 'db-replica', protected: true }] }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: [] }] },
        ],
        answer: 'backup_jobs returns no jobs for srv-db-04. acme only has srv-db-04-replica in its machine list; did you mean that one?',
      },
    ],
  },
  {
    name: 'el-clean-value-from-non-producer',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'an empty lookup of a value that only a non-producer tool served',
    kind: 'clean',
    note: 'restore_points is not a declared producer of backup_jobs; only declared producers make an empty lookup a place to look.',
    expect: [],
    acceptable: [{ check: 'unsupported-argument', tool: 'backup_jobs', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('restore_points', 'backup_jobs'),
    declarations: declarations([declare('restore_points'), declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'srv-web-11 has restore points; which job makes them?',
        steps: [
          { calls: [{ name: 'restore_points', args: { machine_id: 'srv-web-11' }, result: [{ point: 'rp-20261129', source_machine: 'srv-legacy-03' }] }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-legacy-03' }, result: [] }] },
        ],
        answer: 'The restore point rp-20261129 of srv-web-11 came from srv-legacy-03, which has no backup jobs configured anymore.',
      },
    ],
  },
  {
    name: 'el-defect-empty-at-rowsat',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'an empty row set at the declared `rowsAt` key, for a producer-served id',
    kind: 'defect',
    note: 'volume_stats wraps its rows as {"volumes": []}; srv-db-04 was just listed with its storage, yet no volume comes back.',
    expect: [{ check: 'empty-lookup', tool: 'volume_stats', value: 'srv-db-04' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'volume_stats'),
    declarations: declarations([declare('list_machines'), declare('volume_stats', { argumentsFrom: ['list_machines'], rowsAt: 'volumes' })]),
    turns: [
      {
        user: 'What volumes does the database server have?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'volume_stats', args: { machine_id: 'srv-db-04' }, result: { machine_id: 'srv-db-04', volumes: [] } }] },
        ],
        answer: 'volume_stats returned no volumes for srv-db-04, which is odd for a database server; the inventory may be stale.',
      },
    ],
  },
  {
    name: 'el-defect-declared-absence',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'a declared absence (`af_absent`) for a producer-served id',
    kind: 'defect',
    note: 'The tool says what it checked and found nothing for srv-db-04, which list_machines just served as protected.',
    expect: [{ check: 'empty-lookup', tool: 'backup_jobs', value: 'srv-db-04' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which jobs protect the database server?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          {
            calls: [
              {
                name: 'backup_jobs',
                args: { machine_id: 'srv-db-04' },
                result: { af_absent: true, looked_for: 'backup jobs for srv-db-04', checked: [{ what: 'the job scheduler of site fra-1' }], not_checked: [{ what: 'the DR site scheduler', why: 'not connected', kind: 'scope' }] },
              },
            ],
          },
        ],
        answer: 'The fra-1 scheduler has no jobs for srv-db-04; the DR site scheduler was not checked.',
      },
    ],
  },
  {
    name: 'el-defect-empty-coverage-ledger',
    shape: 'vercel',
    check: 'empty-lookup',
    class: 'an empty `result` inside a coverage ledger, for a producer-served id',
    kind: 'defect',
    note: 'The ledger covers site fra-1 and returns no restore points for a machine the inventory calls protected.',
    expect: [{ check: 'empty-lookup', tool: 'restore_points', value: 'srv-db-04' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'restore_points'),
    declarations: declarations([declare('list_machines'), declare('restore_points', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Can I restore the database server to yesterday?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'restore_points', args: { machine_id: 'srv-db-04' }, result: { af_coverage: { checked: [{ what: 'site fra-1' }] }, result: [] } }] },
        ],
        answer: 'There are no restore points for srv-db-04 at site fra-1, so a restore to yesterday is not possible from there.',
      },
    ],
  },
  {
    name: 'el-clean-failed-call',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'a failed call (span ERROR) says nothing about existence',
    kind: 'clean',
    note: 'backup_jobs failed with an upstream error; that is not an empty result, and the answer says it failed.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which jobs protect the database server?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: { error: 'upstream scheduler unavailable' }, error: { type: 'UpstreamError', message: 'upstream scheduler unavailable' } }] },
        ],
        answer: 'I could not read the jobs of srv-db-04: the scheduler is unavailable right now. Please try again later.',
      },
    ],
  },
  {
    name: 'el-clean-filter-explains-empty',
    shape: 'vercel',
    check: 'empty-lookup',
    class: 'an empty result explained by the narrowing filter the user asked for ("failed only")',
    kind: 'clean',
    note: 'No failed jobs is good news, not a broken join: the empty list answers the filter.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Are any backup jobs of the database server failing?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04', statuses: ['failed'] }, result: [] }] },
        ],
        answer: 'No: srv-db-04 has no failing backup jobs.',
      },
    ],
  },
  {
    name: 'el-clean-producer-said-none',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'the producer itself said there would be nothing (unprotected, 0 jobs)',
    kind: 'clean',
    note: 'list_machines served srv-web-11 with protected=false and job_count=0; an empty job list agrees with it.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Confirm that the web edge machine has no backup jobs.',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: [{ machine_id: 'srv-web-11', hostname: 'web-edge', protected: false, job_count: 0 }] }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-web-11' }, result: [] }] },
        ],
        answer: 'Confirmed: srv-web-11 (web-edge) is unprotected and has no backup jobs.',
      },
    ],
  },
];
