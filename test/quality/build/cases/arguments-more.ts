// More quality cases for `unsupported-argument` (issue 9 §4), for rules the first corpus lacked:
// the named `argumentsFrom` form (a free-text query of the same tool is not judged, a named
// argument still is), a quantity integer that is no identifier, and a value cut from a served id
// in the official instrumentation's log-record layout.

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ONCALL_SYSTEM, ORDER_SYSTEM, declarations, declare, offer } from './common.js';

const HOSTS = [
  { host: 'pg-07.eu-west.internal', role: 'primary' },
  { host: 'pg-08.eu-west.internal', role: 'replica' },
];

export const MORE_ARGUMENT_CASES: CaseSpec[] = [
  {
    name: 'ua-clean-named-form-free-text-query',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'named `argumentsFrom` (`{ host: [list_hosts] }`): the free-text `query` of the same tool is not judged',
    kind: 'clean',
    note: 'search_logs declares only its host as coming from list_hosts; the query is the model\'s own search text (an error class it knows), never served and never meant to be. The empty search of a served host is what empty-lookup points at (advisory, acceptable).',
    expect: [],
    acceptable: [{ check: 'empty-lookup', tool: 'search_logs', advisory: true }],
    system: ONCALL_SYSTEM,
    tools: offer('list_hosts', 'search_logs'),
    declarations: declarations([declare('list_hosts'), declare('search_logs', { argumentsFrom: { host: ['list_hosts'] } })]),
    turns: [
      {
        user: 'Did the primary database of the checkout service log statement timeouts today?',
        steps: [
          { calls: [{ name: 'list_hosts', args: { service: 'checkout-db' }, result: HOSTS }] },
          { calls: [{ name: 'search_logs', args: { host: 'pg-07.eu-west.internal', query: 'canceling statement due to statement_timeout SQLSTATE 57014' }, result: [] }] },
        ],
        answer: 'No statement timeouts were logged on the primary, pg-07.eu-west.internal, in the searched logs.',
      },
    ],
  },
  {
    name: 'ua-defect-named-form-host-made-up',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'named `argumentsFrom`: a named argument nothing served is still a finding',
    kind: 'defect',
    note: 'list_hosts served pg-07 and pg-08; the model searched pg-09, a host no tool returned. The query is free text and not judged.',
    expect: [{ check: 'unsupported-argument', tool: 'search_logs', value: 'pg-09.eu-west.internal' }],
    system: ONCALL_SYSTEM,
    tools: offer('list_hosts', 'search_logs'),
    declarations: declarations([declare('list_hosts'), declare('search_logs', { argumentsFrom: { host: ['list_hosts'] } })]),
    turns: [
      {
        user: 'Any replication errors on the checkout database hosts?',
        steps: [
          { calls: [{ name: 'list_hosts', args: { service: 'checkout-db' }, result: HOSTS }] },
          { calls: [{ name: 'search_logs', args: { host: 'pg-09.eu-west.internal', query: 'replication slot inactive' }, result: [] }] },
        ],
        answer: 'I searched the replica logs and found no replication errors.',
      },
    ],
  },
  {
    name: 'ua-clean-quantity-integer',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'an integer quantity of 4+ digits (`amount_cents`) is not an identifier',
    kind: 'clean',
    note: 'get_order served the order total as 129.99; the model refunds it as amount_cents=12999, a unit conversion, not an identifier it made up. The order id is served whole.',
    expect: [],
    system: ORDER_SYSTEM,
    tools: offer('get_order', 'refund_order'),
    declarations: declarations([declare('get_order'), ['refund_order', { argumentsFrom: ['get_order'], inputSchema: { type: 'object', properties: { order_id: { type: 'string' }, amount_cents: { type: 'integer' } } } }]]),
    turns: [
      {
        user: 'Please refund order A-2291 in full.',
        steps: [
          { calls: [{ name: 'get_order', args: { order_id: 'A-2291' }, result: { order_id: 'A-2291', status: 'delivered', total: 129.99, currency: 'EUR' } }] },
          { calls: [{ name: 'refund_order', args: { order_id: 'A-2291', amount_cents: 12999 }, result: { refund_id: 'RF-88120', state: 'queued' } }] },
        ],
        answer: 'Refund RF-88120 for order A-2291 is queued.',
      },
    ],
  },
  {
    name: 'ua-defect-fragment-log-records',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'a fragment of a served id in the log-record layout (`srv-web` of `srv-web-11`)',
    kind: 'defect',
    note: 'list_machines served srv-web-11; the model asked for the status of srv-web, a cut id that names no machine.',
    expect: [{ check: 'unsupported-argument', tool: 'backup_status', value: 'srv-web' }],
    acceptable: [{ check: 'empty-lookup', tool: 'backup_status' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'How are the backups of the web edge server doing?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-web' }, result: [] }] },
        ],
        answer: 'There are no backup status records for the web edge server.',
      },
    ],
  },
];
