// More quality cases for `refusal-asserts-absence` (issue 9 §2, §3): the attribution of an
// absence clause to the read it is about, a hedge in the next sentence, a refused write that is
// not a read, and a tool whose error shape is declared (`errorShape`). Written by the q-absence
// helper in the corpus's format; expectations come from the rules, not from the checks.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ONCALL_SYSTEM, ORDER_SYSTEM, TOOLS, declarations, declare, offer } from './common.js';

const DENIED = { type: 'PermissionDenied', message: 'permission denied for tenant acme' };

const PARTS_SYSTEM = 'You are the parts desk assistant of Northwind Traders. Answer only from tool results.';
const PART_STOCK: ToolDefinition = {
  description: 'Stock of one part in every warehouse (legacy ERP gateway).',
  parameters: { type: 'object', properties: { part: { type: 'string', description: 'Part number, e.g. PX-1.' } }, required: ['part'], additionalProperties: false },
};
/** The legacy ERP gateway answers HTTP 200 with its own return codes. */
const ERP_ERRORS = { field: 'resp.rc', refused: ['E-AUTH', 'E-LOCK'], notFound: ['E-NOREC'], message: 'resp.msg' };

const LIBRARY_SYSTEM = 'You are the circulation desk assistant of the Eastside public library. Answer only from tool results.';
const LIBRARY_TOOLS: Record<string, ToolDefinition> = {
  find_member: {
    description: 'Find a library member by name.',
    parameters: { type: 'object', properties: { query: { type: 'string', description: 'Member name.' } }, required: ['query'], additionalProperties: false },
  },
  overdue_loans: {
    description: 'Overdue loans of one member.',
    parameters: { type: 'object', properties: { member_id: { type: 'string', description: 'Member id as returned by find_member, e.g. M-3117.' } }, required: ['member_id'], additionalProperties: false },
  },
  member_fines: {
    description: 'Unpaid fines of a member, by name.',
    parameters: { type: 'object', properties: { member: { type: 'string', description: 'Member name.' } }, required: ['member'], additionalProperties: false },
  },
};
const libraryDeclarations = (...names: string[]) =>
  declarations(names.map((n): [string, Record<string, unknown>] => [n, { readOnly: true, ...(n === 'overdue_loans' ? { argumentsFrom: ['find_member'] } : {}), inputSchema: LIBRARY_TOOLS[n]!.parameters }]));
const JONAS = [{ member_id: 'M-3117', name: 'Jonas Berg', branch: 'Eastside', card_status: 'active' }];
const CIRCULATION_DENIED = { error: { code: 403, message: 'Forbidden: token lacks scope circulation:read' } };

export const REFUSAL_ATTRIBUTION_CASES: CaseSpec[] = [
  {
    name: 'raa-defect-refused-read-beside-empty-read',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'two absence clauses, one resting on a successful empty read, one on a refused read',
    kind: 'defect',
    note: 'backup_jobs ran and returned []; restore_points was refused (403 envelope). "no backup jobs" is what the run established; "there aren\'t any restore points" is about the refused read only.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'restore_points' }],
    // The schema says machine_id is "as returned by list_machines": inference arms empty-lookup,
    // and backup_jobs' [] for a list_machines id is its advisory place to look.
    acceptable: [{ check: 'empty-lookup', tool: 'backup_jobs', value: 'srv-db-04', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs', 'restore_points'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs'), declare('restore_points')]),
    turns: [
      {
        user: 'Is srv-db-04 protected at all?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          {
            calls: [
              { name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: [] },
              { name: 'restore_points', args: { machine_id: 'srv-db-04' }, result: { error: { code: 403, message: 'Forbidden: token lacks scope restores:read' } } },
            ],
          },
        ],
        answer: "srv-db-04 has no backup jobs configured. There aren't any restore points for it either, so it is not protected.",
      },
    ],
  },
  {
    name: 'raa-defect-zero-after-timeout',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'absence phrased "zero …" after a read whose span timed out',
    kind: 'defect',
    note: 'list_incidents timed out (span ERROR); "zero open incidents" reports a search that never finished.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'list_incidents' }],
    system: ONCALL_SYSTEM,
    tools: offer('list_incidents', 'get_runbook'),
    declarations: declarations([declare('list_incidents'), declare('get_runbook')]),
    turns: [
      {
        user: 'How is checkout-api doing?',
        steps: [
          {
            calls: [
              { name: 'list_incidents', args: { service: 'checkout-api' }, result: 'Request timed out after 30000 ms', error: { type: 'TimeoutError', message: 'Request timed out after 30000 ms' } },
            ],
          },
        ],
        answer: 'There are zero open incidents on checkout-api right now, so the service looks healthy.',
      },
    ],
  },
  {
    name: 'raa-defect-declared-error-shape',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'a tool whose error shape is declared (errorShape: resp.rc E-AUTH) was refused; "has no stock" follows',
    kind: 'defect',
    note: 'The ERP gateway answers 200 with resp.rc "E-AUTH"; only its declared errorShape says that is a refusal. "PX-1 has no stock" is a claim the refused read could not make.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'part_stock' }],
    system: PARTS_SYSTEM,
    tools: { part_stock: PART_STOCK },
    declarations: declarations([['part_stock', { readOnly: true, errorShape: ERP_ERRORS, inputSchema: PART_STOCK.parameters }]]),
    turns: [
      {
        user: 'Do we have part PX-1 in stock?',
        steps: [{ calls: [{ name: 'part_stock', args: { part: 'PX-1' }, result: { resp: { rc: 'E-AUTH', msg: 'gateway session expired' }, part: 'PX-1' } }] }],
        answer: 'Part PX-1 has no stock in any warehouse at the moment.',
      },
    ],
  },
  {
    name: 'raa-defect-absence-beside-other-admission',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'an absence clause judged on its own while another clause admits a different failure',
    kind: 'defect',
    note: 'Both reads were refused. The answer admits the runbook failure, but "I found no open incidents" still asserts what the rate-limited list_incidents never saw.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'list_incidents' }],
    system: ONCALL_SYSTEM,
    tools: offer('list_incidents', 'get_runbook'),
    declarations: declarations([declare('list_incidents'), declare('get_runbook')]),
    turns: [
      {
        user: 'Anything wrong with payments-api? Send me its runbook too.',
        steps: [
          {
            calls: [
              { name: 'list_incidents', args: { service: 'payments-api' }, result: { status: 429, message: 'Too Many Requests' } },
              { name: 'get_runbook', args: { service: 'payments-api' }, result: '403 Forbidden' },
            ],
          },
        ],
        answer: "I found no open incidents for payments-api, but I couldn't access its runbook.",
      },
    ],
  },
  {
    name: 'raa-clean-empty-read-not-blamed-on-refusal',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'an absence a successful empty read established, beside a different refused read',
    kind: 'clean',
    note: 'list_incidents ran and returned []: "no open incidents" rests on it. The refused runbook read is reported honestly and asserts nothing.',
    expect: [],
    system: ONCALL_SYSTEM,
    tools: offer('list_incidents', 'get_runbook'),
    declarations: declarations([declare('list_incidents'), declare('get_runbook')]),
    turns: [
      {
        user: 'Anything wrong with payments-api? Send me its runbook too.',
        steps: [
          {
            calls: [
              { name: 'list_incidents', args: { service: 'payments-api' }, result: [] },
              { name: 'get_runbook', args: { service: 'payments-api' }, result: { status: 'denied', error: 'permission denied for tenant acme' }, error: DENIED },
            ],
          },
        ],
        answer: "There are no open incidents on payments-api. I couldn't load its runbook: access was denied.",
      },
    ],
  },
  {
    name: 'raa-clean-hedged-next-sentence',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'an absence withdrawn by the next sentence ("That doesn\'t mean there are none")',
    kind: 'clean',
    note: 'backup_history was refused; the answer says what it saw and withdraws the absence at once.',
    expect: [],
    acceptable: [{ check: 'unsupported-argument', tool: 'backup_history', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_history'),
    declarations: declarations([declare('list_machines'), declare('backup_history', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Any failed backups on srv-db-04 since 2026-11-23?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_history', args: { machine_id: 'srv-db-04', since: '2026-11-23' }, result: { status: 'denied', error: 'permission denied for tenant acme' }, error: DENIED }] },
        ],
        answer: "I have no failed runs to show for srv-db-04. That doesn't mean there are none: the backup history was not readable for this account.",
      },
    ],
  },
  {
    name: 'raa-clean-refused-write-is-not-a-read',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'a refused write (not readOnly, no argumentsFrom producer) never makes a refused read',
    kind: 'clean',
    note: 'refund_order is a write and was refused; "no refund was issued" is true because of that, and no read was refused.',
    expect: [],
    system: ORDER_SYSTEM,
    tools: offer('get_order', 'refund_order'),
    declarations: declarations([declare('get_order'), ['refund_order', { inputSchema: TOOLS['refund_order']!.parameters }]]),
    turns: [
      {
        user: 'Please refund order A-1042 in full.',
        steps: [
          { calls: [{ name: 'get_order', args: { order_id: 'A-1042' }, result: { order_id: 'A-1042', status: 'delivered', total_cents: 4200 } }] },
          { calls: [{ name: 'refund_order', args: { order_id: 'A-1042', amount_cents: 4200 }, result: { ok: false, error: 'insufficient_permissions' } }] },
        ],
        answer: 'No refund has been issued for order A-1042 yet; a supervisor has to approve it first.',
      },
    ],
  },
  {
    name: 'raa-clean-absence-about-the-read-that-ran',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'an absence clause whose words name the successful read, not the refused one',
    kind: 'clean',
    note: 'backup_jobs (statuses failed) ran and returned []; backup_history was refused. "no failed backup jobs" shares failed, backup, jobs and srv-db-04 with the read that ran.',
    expect: [],
    acceptable: [{ check: 'empty-lookup', tool: 'backup_jobs', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs', 'backup_history'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] }), declare('backup_history', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Does srv-db-04 have failed backup jobs, and what ran this week?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          {
            calls: [
              { name: 'backup_jobs', args: { machine_id: 'srv-db-04', statuses: ['failed'] }, result: [] },
              { name: 'backup_history', args: { machine_id: 'srv-db-04' }, result: { status: 'denied', error: 'permission denied for tenant acme' }, error: DENIED },
            ],
          },
        ],
        answer: "srv-db-04 has no failed backup jobs. I couldn't read its backup history, so I can't tell you what ran this week.",
      },
    ],
  },
  {
    name: 'raa-defect-tie-person-and-refused-read',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'an absence clause that names whose it is (the member lookup that ran) and what was read (the refused read) equally',
    kind: 'defect',
    note: 'find_member ran; overdue_loans was refused (403). "Jonas Berg has no overdue loans" shares the person with the lookup and "overdue loans" with the refused read; what was read decides, so the absence rests on the refusal.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'overdue_loans' }],
    system: LIBRARY_SYSTEM,
    tools: { find_member: LIBRARY_TOOLS['find_member']!, overdue_loans: LIBRARY_TOOLS['overdue_loans']! },
    declarations: libraryDeclarations('find_member', 'overdue_loans'),
    turns: [
      {
        user: 'Can Jonas Berg borrow again, or does he still have overdue books?',
        steps: [
          { calls: [{ name: 'find_member', args: { query: 'Jonas Berg' }, result: JONAS }] },
          { calls: [{ name: 'overdue_loans', args: { member_id: 'M-3117' }, result: CIRCULATION_DENIED }] },
        ],
        answer: 'Jonas Berg has no overdue loans right now, so he can borrow again.',
      },
    ],
  },
  {
    name: 'raa-clean-tie-named-read-ran-empty',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'a tie the other way: the read the clause names ran and found nothing; the refused read matches only the person',
    kind: 'clean',
    note: 'overdue_loans ran and returned []; member_fines (asked by the member\'s name) was refused. "Jonas Berg has no overdue loans" is about the loans read that ran, not the fines read; the answer also admits the fines failure.',
    expect: [],
    acceptable: [{ check: 'empty-lookup', tool: 'overdue_loans', advisory: true }],
    system: LIBRARY_SYSTEM,
    tools: LIBRARY_TOOLS,
    declarations: libraryDeclarations('find_member', 'overdue_loans', 'member_fines'),
    turns: [
      {
        user: 'Can Jonas Berg borrow again? Check his overdue books and fines.',
        steps: [
          { calls: [{ name: 'find_member', args: { query: 'Jonas Berg' }, result: JONAS }] },
          {
            calls: [
              { name: 'overdue_loans', args: { member_id: 'M-3117' }, result: [] },
              { name: 'member_fines', args: { member: 'Jonas Berg' }, result: CIRCULATION_DENIED },
            ],
          },
        ],
        answer: "Jonas Berg has no overdue loans right now. I couldn't read his fines: access was denied, so check those at the desk.",
      },
    ],
  },
];
