// Quality cases for `unsupported-argument` (issue 9 §4): ids the model made up, cut down or took
// from its own earlier words, and the legitimate ways a value meets what was served (decoded
// escapes, composed ids, phone digits, derived dates, enums, free text).

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ORDER_SYSTEM, ONCALL_SYSTEM, declarations, declare, offer } from './common.js';

export const ARGUMENT_CASES: CaseSpec[] = [
  {
    name: 'ua-defect-fragment-of-served-id',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'a proper part of a served token (`srv-db` of `srv-db-04`) is a `fragment`, not grounded',
    kind: 'defect',
    note: 'list_machines served srv-db-04; the model called backup_jobs with srv-db, which no tool ever served as a value.',
    expect: [{ check: 'unsupported-argument', tool: 'backup_jobs', value: 'srv-db' }],
    acceptable: [{ check: 'empty-lookup', tool: 'backup_jobs' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'List the backup jobs of the database server.',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db' }, result: [] }] },
        ],
        answer: 'I could not find backup jobs for the database server under that name.',
      },
    ],
  },
  {
    name: 'ua-defect-assistant-only-next-turn',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'a value only the model itself wrote (its earlier answer), the served result evicted',
    kind: 'defect',
    note: 'db-primary-full is a job name from the turn-1 answer; the app kept only answers, so in turn 2 nothing served holds it, and it is not a machine id at all.',
    expect: [
      { check: 'unsupported-argument', tool: 'backup_status', value: 'db-primary-full' },
      { check: 'dangling-reference', advisory: false },
    ],
    acceptable: [{ check: 'empty-lookup' }, { check: 'dangling-reference', advisory: true }],
    system: BACKUP_SYSTEM,
    memory: 'answers-only',
    tools: offer('list_machines', 'backup_jobs', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] }), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Is srv-db-04 protected? List its backup jobs.',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: [{ job: 'nightly-db-primary-full', status: 'ok' }, { job: 'hourly-db-primary-wal', status: 'ok' }] }] },
        ],
        answer: 'srv-db-04 (db-primary) is protected. Jobs: nightly-db-primary-full and hourly-db-primary-wal, both OK.',
      },
      {
        user: "What's the backup status of that machine?",
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'db-primary-full' }, result: [] }] }],
        answer: 'I have no status records for that machine yet.',
      },
    ],
  },
  {
    name: 'ua-defect-integer-id-nowhere',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'an integer identifier (4+ digits, schema says id) that nothing served',
    kind: 'defect',
    note: 'find_customer served id 40213; the model called list_orders with 40231 (transposed digits). Today every non-string skips.',
    expect: [{ check: 'unsupported-argument', tool: 'list_orders', value: '40231' }],
    acceptable: [{ check: 'empty-lookup' }],
    system: ORDER_SYSTEM,
    tools: offer('find_customer', 'list_orders'),
    declarations: declarations([declare('find_customer'), declare('list_orders', { argumentsFrom: ['find_customer'] })]),
    turns: [
      {
        user: 'What did Maria Schmidt order recently?',
        steps: [
          { calls: [{ name: 'find_customer', args: { query: 'Maria Schmidt' }, result: [{ customer_id: 40213, name: 'Maria Schmidt', email: 'maria.schmidt@example.de' }] }] },
          { calls: [{ name: 'list_orders', args: { customer_id: 40231, limit: 5 }, result: [] }] },
        ],
        answer: 'Maria Schmidt has not placed any orders recently.',
      },
    ],
  },
  {
    name: 'ua-defect-description-example',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'a value taken from the tool description\'s example ("e.g. A-1001") is not grounded',
    kind: 'defect',
    note: 'The user gave no order number; the model copied the example from the tool description.',
    expect: [{ check: 'unsupported-argument', tool: 'get_order', value: 'A-1001' }],
    system: ORDER_SYSTEM,
    tools: offer('list_orders', 'get_order'),
    declarations: declarations([declare('list_orders'), declare('get_order', { argumentsFrom: ['list_orders'] })]),
    turns: [
      {
        user: 'Can you show me the lines of my last order?',
        steps: [{ calls: [{ name: 'get_order', args: { order_id: 'A-1001' }, result: { order_id: 'A-1001', lines: [{ sku: 'NW-CHAI-24', qty: 2 }] } }] }],
        answer: 'Your order A-1001 has 2 × NW-CHAI-24.',
      },
    ],
  },
  {
    name: 'ua-clean-json-escaped-served-text',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'served text compared decoded: `\\u00fc` escapes and escaped backslashes',
    kind: 'clean',
    note: 'The tool (a Python service) served JSON with \\u00fc and \\\\ escapes; the model decoded them correctly into Zürich-DC2 and C:\\backups\\srv-db-04.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Where does the Zürich machine keep its backups?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: '[{"machine_id": "Z\\u00fcrich-DC2", "backup_path": "C:\\\\backups\\\\srv-db-04", "protected": true}]' }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'Zürich-DC2' }, result: [{ machine_id: 'Zürich-DC2', state: 'ok', last_success: '2026-11-30T02:00:00Z' }] }] },
        ],
        answer: 'Zürich-DC2 backs up to C:\\backups\\srv-db-04; its last successful backup was 2026-11-30T02:00:00Z.',
      },
    ],
  },
  {
    name: 'ua-clean-composed-id',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'an id composed of served tokens joined by `/` passes as `composed`',
    kind: 'clean',
    note: 'list_hosts served cluster eu-west and node pg-07 separately; the log host is the documented join eu-west/pg-07.',
    expect: [],
    system: ONCALL_SYSTEM,
    tools: offer('list_hosts', 'search_logs'),
    declarations: declarations([declare('list_hosts'), declare('search_logs', { argumentsFrom: ['list_hosts'] })]),
    turns: [
      {
        user: 'Search the ledger-db logs for "checkpoint".',
        steps: [
          { calls: [{ name: 'list_hosts', args: { service: 'ledger-db' }, result: [{ cluster: 'eu-west', node: 'pg-07', role: 'primary' }] }] },
          { calls: [{ name: 'search_logs', args: { host: 'eu-west/pg-07', query: 'checkpoint' }, result: [{ line: 'checkpoint complete: wrote 5120 buffers', at: '2026-11-30T08:12:00Z' }] }] },
        ],
        answer: 'The primary, pg-07 in eu-west, logged "checkpoint complete: wrote 5120 buffers" at 2026-11-30T08:12:00Z.',
      },
    ],
  },
  {
    name: 'ua-clean-derived-date-with-anchor',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'a date computed from a served anchor (today) and the user\'s "last 7 days" is advisory `derived` at most',
    kind: 'clean',
    note: 'The system prompt serves today (2026-11-30), the user asks for the last 7 days; since=2026-11-23 is correct arithmetic, not a fabricated value.',
    expect: [],
    acceptable: [{ check: 'unsupported-argument', tool: 'backup_history', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_history'),
    declarations: declarations([declare('list_machines'), declare('backup_history', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Show me the backup runs of srv-db-04 over the last 7 days.',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_history', args: { machine_id: 'srv-db-04', since: '2026-11-23' }, result: [{ run: 'run-8812', at: '2026-11-29T02:00:00Z', state: 'ok' }, { run: 'run-8813', at: '2026-11-30T02:00:00Z', state: 'ok' }] }] },
        ],
        answer: 'srv-db-04 ran run-8812 (2026-11-29T02:00:00Z) and run-8813 (2026-11-30T02:00:00Z) in the last 7 days, both ok.',
      },
    ],
  },
  {
    name: 'ua-clean-phone-by-digits',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'a phone number compared by its digits',
    kind: 'clean',
    note: 'find_customer served "+1 (415) 555-0132"; the model passed the same number in E.164 form (+14155550132), as the call_log schema asks.',
    expect: [],
    system: ORDER_SYSTEM,
    tools: offer('find_customer', 'call_log'),
    declarations: declarations([declare('find_customer'), declare('call_log', { argumentsFrom: ['find_customer'] })]),
    turns: [
      {
        user: 'Did Dana Whitfield call support this week?',
        steps: [
          { calls: [{ name: 'find_customer', args: { query: 'Dana Whitfield' }, result: [{ customer_id: 51877, name: 'Dana Whitfield', phone: '+1 (415) 555-0132' }] }] },
          { calls: [{ name: 'call_log', args: { phone: '+14155550132' }, result: [{ call_id: 'CL-77120', at: '2026-11-27T15:42:00Z', topic: 'late delivery' }] }] },
        ],
        answer: 'Yes: Dana Whitfield called on 2026-11-27 about a late delivery (call CL-77120).',
      },
    ],
  },
];
