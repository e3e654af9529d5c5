// More quality cases for `unsupported-argument` (issue 9 §4), for rules the first corpus lacked:
// the named `argumentsFrom` form (a free-text query of the same tool is not judged, a named
// argument still is), a quantity integer that is no identifier, and a value cut from a served id
// in the official instrumentation's log-record layout; a `YYYY-MM` month derived from today's
// date and the user's "last month" / "in March" (advisory), beside a month nobody asked for.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ONCALL_SYSTEM, ORDER_SYSTEM, declarations, declare, offer } from './common.js';

const HOSTS = [
  { host: 'pg-07.eu-west.internal', role: 'primary' },
  { host: 'pg-08.eu-west.internal', role: 'replica' },
];

const ENERGY_SYSTEM = 'You are the billing assistant of Rhein Energie. Today is 2027-01-12. Meter readings and bills are monthly; answer only from tool results.';
const ENERGY_TOOLS: Record<string, ToolDefinition> = {
  find_contract: {
    description: 'Find a supply contract by the holder\'s name.',
    parameters: { type: 'object', properties: { holder: { type: 'string', description: 'Contract holder name.' } }, required: ['holder'], additionalProperties: false },
  },
  monthly_bill: {
    description: 'The bill of one contract for one calendar month.',
    parameters: {
      type: 'object',
      properties: { contract_no: { type: 'string', description: 'Contract number as returned by find_contract.' }, month: { type: 'string', description: 'Billing month, YYYY-MM.' } },
      required: ['contract_no', 'month'],
      additionalProperties: false,
    },
  },
};
const energyDeclarations = () =>
  declarations([
    ['find_contract', { readOnly: true, inputSchema: ENERGY_TOOLS['find_contract']!.parameters }],
    ['monthly_bill', { readOnly: true, argumentsFrom: ['find_contract'], inputSchema: ENERGY_TOOLS['monthly_bill']!.parameters }],
  ]);
const CONTRACT = [{ contract_no: 'RE-5520-0917', holder: 'Lena Vogt', tariff: 'Grün 24' }];

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
  {
    name: 'ua-defect-month-nobody-asked-for',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: '"last month" asked on 2027-01-12, yet the billing month chosen is 2026-11 (two months back)',
    kind: 'defect',
    note: 'Today is served as 2027-01-12 and the user asked for last month (2026-12). 2026-11 is no served month and no month the user asked for: the bill shown is the wrong one.',
    expect: [{ check: 'unsupported-argument', tool: 'monthly_bill', value: '2026-11' }],
    system: ENERGY_SYSTEM,
    tools: ENERGY_TOOLS,
    declarations: energyDeclarations(),
    turns: [
      {
        user: 'How much was Lena Vogt\'s electricity bill last month?',
        steps: [
          { calls: [{ name: 'find_contract', args: { holder: 'Lena Vogt' }, result: CONTRACT }] },
          { calls: [{ name: 'monthly_bill', args: { contract_no: 'RE-5520-0917', month: '2026-11' }, result: { contract_no: 'RE-5520-0917', kwh: 312, amount_eur: 118.56 } }] },
        ],
        answer: "Lena Vogt's bill for last month was 118.56 EUR for 312 kWh.",
      },
    ],
  },
  {
    name: 'ua-clean-month-derived-last-month-and-march',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: '"last month" and "in March" asked on 2027-01-12 become month = "2026-12" and "2026-03" (advisory derived at most)',
    kind: 'clean',
    note: 'Both months follow from the served date and the user\'s own words; the arithmetic is the witness, so at most an advisory derived finding.',
    expect: [],
    acceptable: [{ check: 'unsupported-argument', tool: 'monthly_bill', advisory: true }],
    system: ENERGY_SYSTEM,
    tools: ENERGY_TOOLS,
    declarations: energyDeclarations(),
    turns: [
      {
        user: 'Compare Lena Vogt\'s electricity bill last month with the one in March.',
        steps: [
          { calls: [{ name: 'find_contract', args: { holder: 'Lena Vogt' }, result: CONTRACT }] },
          {
            calls: [
              { name: 'monthly_bill', args: { contract_no: 'RE-5520-0917', month: '2026-12' }, result: { contract_no: 'RE-5520-0917', kwh: 341, amount_eur: 129.58 } },
              { name: 'monthly_bill', args: { contract_no: 'RE-5520-0917', month: '2026-03' }, result: { contract_no: 'RE-5520-0917', kwh: 287, amount_eur: 109.06 } },
            ],
          },
        ],
        answer: 'Last month Lena Vogt paid 129.58 EUR for 341 kWh; in March it was 109.06 EUR for 287 kWh.',
      },
    ],
  },
];
