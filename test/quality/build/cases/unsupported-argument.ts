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
  {
    name: 'ua-defect-made-up-id',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'an id that appears nowhere in the window (made up)',
    kind: 'defect',
    note: 'list_machines served srv-db-04 and srv-web-11; the model asked for srv-db-07.',
    expect: [{ check: 'unsupported-argument', tool: 'backup_status', value: 'srv-db-07' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'How are the backups of our database machines?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-07' }, result: { error: 'not_found', status: 404, message: 'machine srv-db-07 not found' } }] },
        ],
        answer: 'I could not get a status for the database machines; the backup service did not recognise the machine I asked for.',
      },
    ],
  },
  {
    name: 'ua-defect-wrong-producer',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'a value grounded only by a tool that is not a declared producer is advisory `wrong-producer`',
    kind: 'defect',
    note: 'backup_jobs takes machine ids from list_machines; srv-legacy-03 was served only by restore_points (a source machine field), so the id is real but of unknown standing.',
    expect: [{ check: 'unsupported-argument', tool: 'backup_jobs', value: 'srv-legacy-03', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'restore_points', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('restore_points'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Where do the restore points of srv-web-11 come from, and is that source backed up?',
        steps: [
          { calls: [{ name: 'restore_points', args: { machine_id: 'srv-web-11' }, result: [{ point: 'rp-20261129', source_machine: 'srv-legacy-03' }] }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-legacy-03' }, result: [{ job: 'legacy-weekly', status: 'ok' }] }] },
        ],
        answer: 'rp-20261129 of srv-web-11 comes from srv-legacy-03, which is backed up by legacy-weekly (ok).',
      },
    ],
  },
  {
    name: 'ua-defect-date-without-anchor',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'a date the model computed with no served anchor (no today, no timestamp) stays `nowhere`',
    kind: 'defect',
    note: 'Nothing in the window says what day it is; "since last Tuesday" turned into 2026-11-24 is a guess.',
    expect: [{ check: 'unsupported-argument', tool: 'backup_history', value: '2026-11-24' }],
    system: 'You are a backup triage assistant for customer acme. Answer only from tool results.',
    tools: offer('list_machines', 'backup_history'),
    declarations: declarations([declare('list_machines'), declare('backup_history', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Show me the backup runs of srv-db-04 since last Tuesday.',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_history', args: { machine_id: 'srv-db-04', since: '2026-11-24' }, result: [{ run: 'run-8810', state: 'ok' }, { run: 'run-8811', state: 'ok' }] }] },
        ],
        answer: 'srv-db-04 has two runs since last Tuesday, run-8810 and run-8811, both ok.',
      },
    ],
  },
  {
    name: 'ua-defect-integer-id-from-own-answer',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'an integer id the window holds only in the model\'s own earlier answer (`assistant-only`)',
    kind: 'defect',
    note: 'The app keeps only answers; in turn 2, customer 40213 appears only in what the model itself said.',
    expect: [
      { check: 'unsupported-argument', tool: 'list_orders', value: '40213' },
      { check: 'dangling-reference', advisory: false },
    ],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    system: ORDER_SYSTEM,
    memory: 'answers-only',
    tools: offer('find_customer', 'list_orders'),
    declarations: declarations([declare('find_customer'), declare('list_orders', { argumentsFrom: ['find_customer'] })]),
    turns: [
      {
        user: 'Is Maria Schmidt a customer?',
        steps: [{ calls: [{ name: 'find_customer', args: { query: 'Maria Schmidt' }, result: [{ customer_id: 40213, name: 'Maria Schmidt', email: 'maria.schmidt@example.de' }] }] }],
        answer: 'Yes, Maria Schmidt is customer 40213.',
      },
      {
        user: 'What did she order recently?',
        steps: [{ calls: [{ name: 'list_orders', args: { customer_id: 40213, limit: 5 }, result: [{ order_id: 'A-2207', placed: '2026-11-21', total_cents: 8990 }] }] }],
        answer: 'Her latest order is A-2207, placed on 2026-11-21.',
      },
    ],
  },
  {
    name: 'ua-clean-enum-and-small-integers',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'declared enum values and small non-id integers are never judged',
    kind: 'clean',
    note: 'statuses=["failed"] is a schema enum; window.days=7 is a count, not an identifier.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] }), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Any failed jobs on srv-db-04, and its status over the last week?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          {
            calls: [
              { name: 'backup_jobs', args: { machine_id: 'srv-db-04', statuses: ['failed'] }, result: [{ job: 'hourly-db-primary-wal', status: 'failed' }] },
              { name: 'backup_status', args: { machine_id: 'srv-db-04', window: { days: 7 } }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] },
            ],
          },
        ],
        answer: 'hourly-db-primary-wal failed on srv-db-04; the last successful backup was 2026-11-30T02:00:00Z.',
      },
    ],
  },
  {
    name: 'ua-clean-named-arguments-free-text',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: '`argumentsFrom` naming arguments leaves a free-text `query` unjudged',
    kind: 'clean',
    note: 'Only host comes from list_hosts; query is the model\'s own search text and is supposed to be new.',
    expect: [],
    system: ONCALL_SYSTEM,
    tools: offer('list_hosts', 'search_logs'),
    declarations: declarations([declare('list_hosts'), declare('search_logs', { argumentsFrom: { host: ['list_hosts'] } })]),
    turns: [
      {
        user: 'Did ledger-db run out of memory today?',
        steps: [
          { calls: [{ name: 'list_hosts', args: { service: 'ledger-db' }, result: [{ host: 'ledger-db-1', role: 'primary' }] }] },
          { calls: [{ name: 'search_logs', args: { host: 'ledger-db-1', query: 'oom-killer invoked' }, result: [{ line: 'Out of memory: Killed process 4121 (postgres)', at: '2026-11-30T06:14:00Z' }] }] },
        ],
        answer: 'Yes: ledger-db-1 logged an out-of-memory kill of postgres at 2026-11-30T06:14:00Z.',
      },
    ],
  },
  {
    name: 'ua-clean-case-folded-id',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'an id that differs from the served one only in letter case',
    kind: 'clean',
    note: 'The inventory serves SRV-DB-04 in upper case; the backup API is case-insensitive and the model lower-cased it.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which jobs protect the database server?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: [{ machine_id: 'SRV-DB-04', hostname: 'db-primary', protected: true }] }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: [{ job: 'nightly-db-primary-full', status: 'ok' }] }] },
        ],
        answer: 'SRV-DB-04 (db-primary) is protected by nightly-db-primary-full.',
      },
    ],
  },
  {
    name: 'ua-clean-integer-id-served',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'an integer id that a producer served as a number',
    kind: 'clean',
    note: 'find_customer served customer_id 40213; list_orders was called with exactly that number.',
    expect: [],
    system: ORDER_SYSTEM,
    tools: offer('find_customer', 'list_orders'),
    declarations: declarations([declare('find_customer'), declare('list_orders', { argumentsFrom: ['find_customer'] })]),
    turns: [
      {
        user: 'What did Maria Schmidt order recently?',
        steps: [
          { calls: [{ name: 'find_customer', args: { query: 'Maria Schmidt' }, result: [{ customer_id: 40213, name: 'Maria Schmidt' }] }] },
          { calls: [{ name: 'list_orders', args: { customer_id: 40213, limit: 3 }, result: [{ order_id: 'A-2207', placed: '2026-11-21', total_cents: 8990 }] }] },
        ],
        answer: 'Maria Schmidt (40213) last ordered A-2207 on 2026-11-21.',
      },
    ],
  },
  {
    name: 'ua-clean-id-from-user',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'an id the user typed is served, whatever the producer',
    kind: 'clean',
    note: 'The user names srv-web-11 directly; no producer call is needed.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'List the backup jobs of srv-web-11.',
        steps: [{ calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-web-11' }, result: [{ job: 'weekly-web-edge-config', status: 'ok' }] }] }],
        answer: 'srv-web-11 has one job, weekly-web-edge-config, last run ok.',
      },
    ],
  },
  {
    name: 'ua-clean-json-inside-json',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'an id served inside a JSON string inside a JSON result (walked, not read raw)',
    kind: 'clean',
    note: 'The event bus wraps its payload as a JSON string; srv-db-09 is served there, escaped once more.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Which machine was added last, and what jobs does it have?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: { event: 'machine.added', payload: JSON.stringify({ machine_id: 'srv-db-09', hostname: 'db-analytics', protected: true }) } }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-09' }, result: [{ job: 'nightly-db-analytics-full', status: 'ok' }] }] },
        ],
        answer: 'The last machine added is srv-db-09 (db-analytics); it has one job, nightly-db-analytics-full, last run ok.',
      },
    ],
  },
];
