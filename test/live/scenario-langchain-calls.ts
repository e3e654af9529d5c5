// Three one-turn conversations for OpenLLMetry's LangChain instrumentation (issue 37), each with a
// defect and a control that differs only in the final answer:
// - refund: get_order runs, issue_refund throws (the payment provider refuses: the ToolNode turns
//   the error into a ToolMessage with status "error"), and the answer says the refund was issued
//   (unconfirmed-action); the control says it could not be;
// - refused-read: backup_jobs answers "permission denied: …" (the tool returns the API's refusal),
//   and the answer says srv-db-04 has no failing jobs (refusal-asserts-absence); the control admits;
// - declared-absence: the model cuts "db-primary-full" out of the job name backup_jobs served and
//   backup_status answers with a declared absence envelope (af_absent) for it (empty-lookup, advisory,
//   grounding fragment); the control calls it with the machine id and gets rows.
// Run as a LangGraph.js `createReactAgent` or a LangChain v1 `createAgent` over `@langchain/openai`'s
// ChatOpenAI against the OpenAI stub on loopback; each turn inside the app's own root span
// (`POST /chat`, carrying gen_ai.conversation.id), or, with `appSpan: false`, with no active span at all.
import { ChatOpenAI } from '@langchain/openai';
import { tool } from '@langchain/core/tools';
import { HumanMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { context, trace, SpanKind } from '@opentelemetry/api';
import { ATTR_FINDING_KIND, ATTR_FINDING_PREDICATE, ATTR_TOOL_CALL_ID, ATTR_TOOL_NAME } from '../../src/findings/names.js';
import type { Declarations } from '../../src/declarations/types.js';
import { declarations as backupDeclarations, MODEL, TOOLS } from '../processor/scenario.js';
import type { ScriptedResponse } from '../processor/stub-openai.js';

export type LcScenario = 'refund' | 'refund-admitted' | 'refused-read' | 'refused-read-admitted' | 'declared-absence' | 'declared-absence-clean';
export const LC_SCENARIOS: readonly LcScenario[] = ['refund', 'refund-admitted', 'refused-read', 'refused-read-admitted', 'declared-absence', 'declared-absence-clean'];
export type AgentKind = 'createReactAgent' | 'createAgent';

const SYSTEM = {
  orders: 'You are the customer support agent of a web shop. Use the tools; answer only from their results.',
  backup: 'You are a backup triage assistant for customer acme. Answer only from tool results, and use the machine identifiers that list_machines returns.',
};

export const REFUND_ERROR = 'payment provider refused the refund: the card on file expired';
export const DENIED = 'permission denied: backup jobs of srv-db-04 need the operator role';

interface Script {
  domain: keyof typeof SYSTEM;
  user: string;
  steps: { id: string; name: string; arguments: Record<string, unknown>; result: string | Error }[][];
  answer: string;
}

const ORDER = '{"order_id":"ORD-77812","customer":"Mara Lindqvist","total":42.1,"currency":"EUR","status":"delivered","items":[{"sku":"KTL-220","name":"electric kettle","qty":1}]}';
const MACHINES = '[{"machine_id":"srv-db-04","hostname":"db-primary","protected":true},{"machine_id":"srv-web-11","hostname":"web-edge","protected":false}]';
const JOBS = '[{"job":"nightly-db-primary-full","machine_id":"srv-db-04","last_status":"ok"},{"job":"hourly-db-primary-wal","machine_id":"srv-db-04","last_status":"ok"}]';
const ABSENT = '{"af_absent":true,"looked_for":"backup records for machine db-primary-full in the last 7 days","checked":[{"what":"the backup catalog of tenant acme (vault-eu-1)"}],"not_checked":[{"what":"the offsite replica catalog (vault-us-2)","why":"replication paused since 2026-11-27","kind":"existence"}]}';
const STATUS = '[{"machine_id":"srv-db-04","last_success":"2026-12-05T02:00:00Z","state":"ok"}]';

type Step = Script['steps'][number];
const REFUND_STEPS: Step[] = [[{ id: 'call_rf_001', name: 'get_order', arguments: { order_id: 'ORD-77812' }, result: ORDER }], [{ id: 'call_rf_002', name: 'issue_refund', arguments: { order_id: 'ORD-77812', amount: 42.1 }, result: new Error(REFUND_ERROR) }]];
const REFUSED_STEPS: Step[] = [[{ id: 'call_rr_001', name: 'list_machines', arguments: { customer: 'acme' }, result: MACHINES }], [{ id: 'call_rr_002', name: 'backup_jobs', arguments: { machine_id: 'srv-db-04', statuses: ['failed'] }, result: DENIED }]];
/** declared-absence and its control share the lookups before the one they differ in. */
const DA_FIRST_STEPS: Step[] = [[{ id: 'call_da_001', name: 'list_machines', arguments: { customer: 'acme' }, result: MACHINES }], [{ id: 'call_da_002', name: 'backup_jobs', arguments: { machine_id: 'srv-db-04' }, result: JOBS }]];

const SCRIPTS: Record<LcScenario, Script> = {
  refund: {
    domain: 'orders',
    user: 'Order ORD-77812 arrived broken. Please refund it to my card.',
    steps: REFUND_STEPS,
    answer: 'Your refund of €42.10 for order ORD-77812 has been issued to your card.',
  },
  'refund-admitted': {
    domain: 'orders',
    user: 'Order ORD-77812 arrived broken. Please refund it to my card.',
    steps: REFUND_STEPS,
    answer: `I could not refund order ORD-77812: the payment provider refused it (${REFUND_ERROR}). Could you add another card?`,
  },
  'refused-read': {
    domain: 'backup',
    user: 'Does srv-db-04 have any failing backup jobs?',
    steps: REFUSED_STEPS,
    answer: 'srv-db-04 (db-primary) has no failing backup jobs.',
  },
  'refused-read-admitted': {
    domain: 'backup',
    user: 'Does srv-db-04 have any failing backup jobs?',
    steps: REFUSED_STEPS,
    answer: `I could not list the backup jobs of srv-db-04: the call was refused (${DENIED}), so I cannot say whether any of them fail.`,
  },
  'declared-absence': {
    domain: 'backup',
    user: 'Is the full backup of srv-db-04 recent?',
    steps: [
      ...DA_FIRST_STEPS,
      [{ id: 'call_da_003', name: 'backup_status', arguments: { machine_id: 'db-primary-full', window: { days: 7 } }, result: ABSENT }],
    ],
    answer: 'The backup catalog holds no backup records for db-primary-full in the last 7 days; the offsite replica was not checked.',
  },
  'declared-absence-clean': {
    domain: 'backup',
    user: 'Is the full backup of srv-db-04 recent?',
    steps: [
      ...DA_FIRST_STEPS,
      [{ id: 'call_da_003', name: 'backup_status', arguments: { machine_id: 'srv-db-04', window: { days: 7 } }, result: STATUS }],
    ],
    answer: 'Yes: srv-db-04 last backed up successfully at 2026-12-05T02:00:00Z, and its state is ok.',
  },
};

export const conversationIdOf = (scenario: LcScenario) => `conv-lc-${scenario}-0001`;

export function lcScriptOf(scenario: LcScenario): ScriptedResponse[] {
  const s = SCRIPTS[scenario];
  const id = (n: number) => `chatcmpl-lc-${scenario}-${String(n).padStart(3, '0')}`;
  return [...s.steps.map((calls, i) => ({ id: id(i + 1), toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) })), { id: id(s.steps.length + 1), text: s.answer }];
}

const ORDER_TOOLS = [
  { name: 'get_order', description: 'Look up an order by its id.', schema: { type: 'object', properties: { order_id: { type: 'string', description: 'Order id, e.g. ORD-10001.' } }, required: ['order_id'], additionalProperties: false } },
  { name: 'issue_refund', description: 'Issue a refund for an order to the card it was paid with.', schema: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id', 'amount'], additionalProperties: false } },
];

/** The tools' declarations: the backup tools' (test/fixtures/declarations.yaml) and the order tools'. */
export function lcDeclarations(): Declarations {
  const d = backupDeclarations();
  return { ...d, tools: { ...d.tools, get_order: { readOnly: true }, issue_refund: { readOnly: false, argumentsFrom: ['get_order'] } } };
}

function toolsOf(scenario: LcScenario) {
  const s = SCRIPTS[scenario];
  const results = new Map(s.steps.flat().map((c) => [c.id, c.result]));
  const defs = s.domain === 'orders' ? ORDER_TOOLS : TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, schema: t.function.parameters }));
  return defs.map((t) =>
    tool(
      async (_input: unknown, config: { toolCall?: { id?: string } }) => {
        const r = results.get(config.toolCall?.id ?? '');
        if (r === undefined) throw new Error(`no scripted result for ${config.toolCall?.id}`);
        if (r instanceof Error) throw r;
        return r;
      },
      { name: t.name, description: t.description, schema: t.schema as Record<string, unknown> },
    ),
  );
}

/** Runs the one turn; returns the agent's answer. */
export async function runLcConversation(baseURL: string, scenario: LcScenario, kind: AgentKind, appSpan: boolean): Promise<string> {
  const s = SCRIPTS[scenario];
  const llm = new ChatOpenAI({ model: MODEL, apiKey: 'sk-stub', configuration: { baseURL }, maxRetries: 0, streaming: false });
  const tools = toolsOf(scenario);
  const agent = kind === 'createReactAgent' ? createReactAgent({ llm, tools, prompt: SYSTEM[s.domain] }) : createAgent({ model: llm, tools, systemPrompt: SYSTEM[s.domain] });
  const invoke = async () => {
    const out = await agent.invoke({ messages: [new HumanMessage(s.user)] }, { metadata: { session_id: conversationIdOf(scenario) } });
    const last = out.messages.at(-1)!;
    return typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
  };
  if (!appSpan) return context.with(trace.deleteSpan(context.active()), invoke);
  const tracer = trace.getTracer('support-app', '1.0.0');
  return tracer.startActiveSpan('POST /chat', { kind: SpanKind.SERVER, attributes: { 'gen_ai.conversation.id': conversationIdOf(scenario) } }, async (root) => {
    try {
      return await invoke();
    } finally {
      root.end();
    }
  });
}

/** What each scenario gives: [kind, tool, call id, predicate] of every finding, sorted. */
export const LC_EXPECTED: Record<LcScenario, string[][]> = {
  refund: [['unconfirmed-action', 'issue_refund', 'call_rf_002', 'issue']],
  'refund-admitted': [],
  'refused-read': [['refusal-asserts-absence', 'backup_jobs', 'call_rr_002', 'call_rr_002']],
  'refused-read-admitted': [],
  'declared-absence': [
    ['empty-lookup', 'backup_status', 'call_da_003', 'args.machine_id'],
    ['unsupported-argument', 'backup_status', 'call_da_003', 'args.machine_id'],
  ],
  'declared-absence-clean': [],
};

export const findingRow = (a: Record<string, unknown> | undefined) => [a?.[ATTR_FINDING_KIND], a?.[ATTR_TOOL_NAME], a?.[ATTR_TOOL_CALL_ID], a?.[ATTR_FINDING_PREDICATE]].map(String);
