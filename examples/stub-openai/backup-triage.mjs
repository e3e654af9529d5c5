// The backup-triage conversation the examples run (the same one test/live/live-*.test.ts
// and examples/backup-triage/ record): the system prompt, the two user turns, the tools offered,
// what the stub answers (in order) and what each tool returns, by the model's call id.
//
// Turn 2's window holds only the system prompt, the turn-1 answer and the new question (the app
// keeps final answers between turns). The model then calls backup_status with "db-primary-full",
// a fragment of a job name that only its own earlier answer contains: no tool result in the
// window supports it. footprint reports that as an `unsupported-argument` finding.

export const conversationId = 'conv-backup-triage-0001';
export const agentName = 'backup-triage';
export const model = 'gpt-4o-mini';

export const system = 'You are a backup triage assistant for customer acme. Answer only from tool results, and use the machine identifiers that list_machines returns.';

export const turns = ['Is srv-db-04 protected? List its backup jobs.', "What's the backup status of that machine?"];

/** What the stub answers, request by request (response ids end in the request number). */
export const script = [
  { id: 'chatcmpl-backup-triage-001', toolCalls: [{ id: 'call_bt_001', name: 'list_machines', arguments: { customer: 'acme' } }] },
  { id: 'chatcmpl-backup-triage-002', toolCalls: [{ id: 'call_bt_002', name: 'backup_jobs', arguments: { machine_id: 'srv-db-04' } }] },
  { id: 'chatcmpl-backup-triage-003', text: 'srv-db-04 (db-primary) is protected. Jobs: nightly-db-primary-full and hourly-db-primary-wal, both OK.' },
  { id: 'chatcmpl-backup-triage-004', toolCalls: [{ id: 'call_bt_003', name: 'backup_status', arguments: { machine_id: 'db-primary-full' } }] },
  { id: 'chatcmpl-backup-triage-005', text: 'That machine has no backup record.' },
];

/** The tools' results, by the model's call id (JSON text, as a tool would return it). */
const results = {
  call_bt_001: '[{"machine_id":"srv-db-04","hostname":"db-primary","protected":true},{"machine_id":"srv-web-11","hostname":"web-edge","protected":false}]',
  call_bt_002: '[{"job":"nightly-db-primary-full","status":"ok"},{"job":"hourly-db-primary-wal","status":"ok"}]',
  call_bt_003: '[]',
};

export function toolResult(callId) {
  const r = results[callId];
  if (r === undefined) throw new Error(`no scripted result for ${callId}`);
  return r;
}

/** The declarations: which tools' results each tool's arguments must come from. */
export const argumentsFrom = { backup_status: ['list_machines', 'backup_jobs'], backup_jobs: ['list_machines'] };
export const readOnly = { list_machines: true };

/** The three tools, in OpenAI Chat Completions form. */
export const tools = [
  {
    type: 'function',
    function: {
      name: 'list_machines',
      description: "List the customer's machines and whether each is protected by a backup plan.",
      parameters: { type: 'object', properties: { customer: { type: 'string', description: 'Customer account name.' } }, required: ['customer'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'backup_jobs',
      description: 'List the backup jobs configured for one machine.',
      parameters: {
        type: 'object',
        properties: {
          machine_id: { type: 'string', description: 'Machine identifier as returned by list_machines.' },
          statuses: { type: 'array', description: 'Only jobs whose last run has one of these statuses.', items: { type: 'string', enum: ['ok', 'failed', 'running'] } },
        },
        required: ['machine_id'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'backup_status',
      description: 'Latest backup status records for one machine.',
      parameters: {
        type: 'object',
        properties: {
          machine_id: { type: 'string', description: 'Machine identifier as returned by list_machines.' },
          window: { type: 'object', description: 'Look-back window.', properties: { days: { type: 'integer', minimum: 1, maximum: 90 } }, additionalProperties: false },
        },
        required: ['machine_id'],
        additionalProperties: false,
      },
    },
  },
];
