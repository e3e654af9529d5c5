// Shared pieces of the quality case scripts: the tool definitions the model is offered (a backup
// triage agent, an order desk, an on-call assistant) and small builders for declarations. Data
// only; every case states its own expectations.

import type { ToolDefinition } from '../spec.js';

/** A string property of a tool's JSON Schema. */
export const str = (description: string) => ({ type: 'string', description });
/** A closed object schema. */
export const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
/** A tool definition with a closed object schema. */
export const tool = (description: string, properties: Record<string, unknown>, required: string[]): ToolDefinition => ({ description, parameters: obj(properties, required) });
/** A read-only tool's declaration entry, with its schema (and any more fields). */
export const readOnlyTool = (t: Record<string, ToolDefinition>, name: string, extra: Record<string, unknown> = {}): [string, Record<string, unknown>] => [name, { readOnly: true, ...extra, inputSchema: t[name]!.parameters }];

export const BACKUP_SYSTEM =
  'You are a backup triage assistant for customer acme. Today is 2026-11-30. Answer only from tool results, and use the machine identifiers that list_machines returns.';
export const ORDER_SYSTEM = 'You are the order desk assistant of Northwind Traders. Answer only from tool results and never guess an order or customer number.';
export const ONCALL_SYSTEM = 'You are the on-call assistant of the platform team. Today is 2026-11-30. Answer from tool results only; say so when a lookup fails.';

export const TOOLS: Record<string, ToolDefinition> = {
  list_machines: { description: "List the customer's machines and whether each is protected by a backup plan.", parameters: obj({ customer: str('Customer account name.') }, ['customer']) },
  backup_jobs: {
    description: 'List the backup jobs configured for one machine.',
    parameters: obj(
      {
        machine_id: str('Machine identifier as returned by list_machines.'),
        statuses: { type: 'array', description: 'Only jobs whose last run has one of these statuses.', items: { type: 'string', enum: ['ok', 'failed', 'running'] } },
      },
      ['machine_id'],
    ),
  },
  backup_status: {
    description: 'Latest backup status records for one machine.',
    parameters: obj({ machine_id: str('Machine identifier as returned by list_machines.'), window: { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 90 } } } }, ['machine_id']),
  },
  backup_history: {
    description: 'Backup runs of one machine since a date.',
    parameters: obj({ machine_id: str('Machine identifier as returned by list_machines.'), since: str('ISO date (YYYY-MM-DD).') }, ['machine_id']),
  },
  volume_stats: { description: 'Volumes of one machine with size and peak IOPS.', parameters: obj({ machine_id: str('Machine identifier as returned by list_machines.') }, ['machine_id']) },
  storage_usage: { description: 'Storage used per machine of a customer.', parameters: obj({ customer: str('Customer account name.') }, ['customer']) },
  protection_summary: { description: 'Protection facts for one machine.', parameters: obj({ machine_id: str('Machine identifier as returned by list_machines.') }, ['machine_id']) },
  restore_points: { description: 'Restore points of one machine.', parameters: obj({ machine_id: str('Machine identifier as returned by list_machines.') }, ['machine_id']) },
  find_customer: { description: 'Find a customer by name or e-mail.', parameters: obj({ query: str('Name or e-mail.') }, ['query']) },
  list_orders: { description: "List a customer's recent orders.", parameters: obj({ customer_id: { type: 'integer', description: 'Customer id as returned by find_customer.' }, limit: { type: 'integer', minimum: 1, maximum: 50 } }, ['customer_id']) },
  get_order: { description: 'One order with its lines, e.g. get_order("A-1001").', parameters: obj({ order_id: str('Order number as returned by list_orders, e.g. "A-1001".') }, ['order_id']) },
  refund_order: { description: 'Refund an order (writes).', parameters: obj({ order_id: str('Order number.'), amount_cents: { type: 'integer' } }, ['order_id']) },
  call_log: { description: 'Recent support calls from one phone number.', parameters: obj({ phone: str('Phone number in E.164 form (+15551234567), as find_customer returns it.') }, ['phone']) },
  list_incidents: { description: 'Open incidents of a service.', parameters: obj({ service: str('Service name.') }, ['service']) },
  get_runbook: { description: 'The runbook of a service.', parameters: obj({ service: str('Service name.') }, ['service']) },
  page_oncall: { description: 'Page the on-call engineer (writes).', parameters: obj({ service: str('Service name.'), message: str('Page text.') }, ['service', 'message']) },
  search_logs: { description: 'Search the logs of one host.', parameters: obj({ host: str('Host name as returned by list_hosts.'), query: str('Free-text search.') }, ['host', 'query']) },
  list_hosts: { description: 'Hosts of a service.', parameters: obj({ service: str('Service name.') }, ['service']) },
};

/** The tool definitions of the named tools, for a case's `tools`. */
export function offer(...names: string[]): Record<string, ToolDefinition> {
  return Object.fromEntries(names.map((n) => [n, TOOLS[n]!]));
}

/** A tool's declaration with its offered inputSchema attached. */
export function declare(name: string, extra: Record<string, unknown> = {}): [string, Record<string, unknown>] {
  return [name, { readOnly: true, ...extra, inputSchema: TOOLS[name]!.parameters }];
}

/** Declarations with answer values on (every case arms them, as the issue measured). */
export function declarations(tools: [string, Record<string, unknown>][], more: Record<string, unknown> = {}): Record<string, unknown> {
  return { tools: Object.fromEntries(tools), answers: { checkValues: true }, ...more };
}

export const MACHINES = [
  { machine_id: 'srv-db-04', hostname: 'db-primary', protected: true },
  { machine_id: 'srv-web-11', hostname: 'web-edge', protected: false },
];
