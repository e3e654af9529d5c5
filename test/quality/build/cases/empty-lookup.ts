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
];
