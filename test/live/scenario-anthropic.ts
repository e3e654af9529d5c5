// The two recorded conversations (backup-triage, clean-control) as an Anthropic Messages agent:
// the stub's script (tool_use blocks), the app loop around a real `@anthropic-ai/sdk` client
// (system as the top-level param, tool results as `tool_result` blocks in a user message, the
// window between turns kept to the final answers), and one `invoke_agent` / `execute_tool` span
// per turn / call through footprint's helpers. Ground truth: the fixtures' expected.json.
import { traceAgentTurn, traceTool } from '../../src/trace/index.js';
import { expectedOf, TOOLS, toolResult, type ScenarioName } from '../processor/scenario.js';
import type { ScriptedResponse } from '../processor/stub-openai.js';
import { ANTHROPIC_MODEL } from './stub-anthropic.js';

export const anthropicMessageId = (scenario: ScenarioName, request: number): string => `msg_${scenario}-${String(request).padStart(3, '0')}`;

export function anthropicScriptOf(scenario: ScenarioName): ScriptedResponse[] {
  return expectedOf(scenario).requests.map((r) => {
    const id = anthropicMessageId(scenario, r.request);
    return r.response.toolCalls ? { id, toolCalls: r.response.toolCalls } : { id, text: r.response.text ?? '' };
  });
}

/** The recordings' tools in Anthropic's form. */
export const ANTHROPIC_TOOLS = TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters }));

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

/** The minimum of `@anthropic-ai/sdk`'s client this loop uses. */
export interface MessagesClient {
  messages: { create(body: Record<string, unknown>): Promise<{ content: Block[]; stop_reason: string }> };
}

export async function runAnthropicConversation(client: MessagesClient, scenario: ScenarioName, wrapTurn: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn()): Promise<string[]> {
  const exp = expectedOf(scenario);
  const system = (exp.requests[0]!.window[0] as { content: string }).content;
  const memory: Record<string, unknown>[] = [];
  const answers: string[] = [];
  for (const turn of exp.turns) {
    const answer = await wrapTurn(() =>
      traceAgentTurn({ agentName: exp.agentName, conversationId: exp.conversationId, model: ANTHROPIC_MODEL, provider: 'anthropic' }, async () => {
        const messages: Record<string, unknown>[] = [...memory, { role: 'user', content: turn.user }];
        for (let step = 0; step < 8; step++) {
          const resp = await client.messages.create({ model: ANTHROPIC_MODEL, max_tokens: 1024, system, messages, tools: ANTHROPIC_TOOLS });
          const uses = resp.content.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
          if (uses.length > 0) {
            messages.push({ role: 'assistant', content: resp.content });
            const results: Record<string, unknown>[] = [];
            for (const u of uses) {
              const result = await traceTool(u.name, JSON.stringify(u.input), async () => toolResult(scenario, u.id), { callId: u.id });
              results.push({ type: 'tool_result', tool_use_id: u.id, content: result });
            }
            messages.push({ role: 'user', content: results });
            continue;
          }
          return resp.content.filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('');
        }
        throw new Error('agent loop did not finish');
      }),
    );
    memory.push({ role: 'user', content: turn.user }, { role: 'assistant', content: answer });
    answers.push(answer);
  }
  return answers;
}

// ---------------------------------------------------------------------------------------------
// refused-read / refused-read-admitted: a failed tool call sent back as a `tool_result` with
// `is_error: true`, beside a successful call of the same parallel batch (two tool_use blocks in
// one message). The tool's error text states no refusal by itself ("locked by a maintenance
// window"), so only the call's own record of failure (the app's execute_tool span, status ERROR)
// can say the read failed. The defect's answer then says the jobs list is empty
// (refusal-asserts-absence on backup_jobs); the control admits the failure (no finding).

export type RefusedScenario = 'refused-read' | 'refused-read-admitted';
export const REFUSED_CONVERSATION_ID = 'conv-refused-read-0001';
export const REFUSED_ERROR = 'machine srv-db-04 is locked by a maintenance window until 06:00 UTC';
export const REFUSED_USER = 'How are srv-db-04 backups doing, and do any of its jobs fail?';
export const REFUSED_RESULTS: Record<string, string> = {
  call_rr_001: '[{"machine_id":"srv-db-04","hostname":"db-primary","protected":true},{"machine_id":"srv-web-11","hostname":"web-edge","protected":false}]',
  call_rr_002: '[{"machine_id":"srv-db-04","last_success":"2025-11-30T02:00:00Z","state":"ok"}]',
};
export const REFUSED_ANSWERS: Record<RefusedScenario, string> = {
  'refused-read': 'srv-db-04 (db-primary) last backed up successfully at 2025-11-30T02:00:00Z. It has no failing backup jobs.',
  'refused-read-admitted': `srv-db-04 (db-primary) last backed up successfully at 2025-11-30T02:00:00Z. I could not list its backup jobs: that call failed (${REFUSED_ERROR}), so I cannot say whether any of them fail.`,
};

export function refusedScriptOf(scenario: RefusedScenario): ScriptedResponse[] {
  const id = (n: number) => `msg_${scenario}-${String(n).padStart(3, '0')}`;
  return [
    { id: id(1), toolCalls: [{ id: 'call_rr_001', name: 'list_machines', arguments: { customer: 'acme' } }] },
    {
      id: id(2),
      toolCalls: [
        { id: 'call_rr_002', name: 'backup_status', arguments: { machine_id: 'srv-db-04' } },
        { id: 'call_rr_003', name: 'backup_jobs', arguments: { machine_id: 'srv-db-04', statuses: ['failed'] } },
      ],
    },
    { id: id(3), text: REFUSED_ANSWERS[scenario] },
  ] as ScriptedResponse[];
}

/** One turn; a tool whose scripted result is missing throws, and the app sends `is_error: true`. */
export async function runRefusedConversation(client: MessagesClient, scenario: RefusedScenario): Promise<string> {
  const system = (expectedOf('backup-triage').requests[0]!.window[0] as { content: string }).content;
  return traceAgentTurn({ agentName: 'backup-triage', conversationId: REFUSED_CONVERSATION_ID, model: ANTHROPIC_MODEL, provider: 'anthropic' }, async () => {
    const messages: Record<string, unknown>[] = [{ role: 'user', content: REFUSED_USER }];
    for (let step = 0; step < 8; step++) {
      const resp = await client.messages.create({ model: ANTHROPIC_MODEL, max_tokens: 1024, system, messages, tools: ANTHROPIC_TOOLS });
      const uses = resp.content.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
      if (uses.length === 0) return resp.content.filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('');
      messages.push({ role: 'assistant', content: resp.content });
      const results: Record<string, unknown>[] = [];
      for (const u of uses) {
        try {
          const result = await traceTool(u.name, JSON.stringify(u.input), async () => {
            const r = REFUSED_RESULTS[u.id];
            if (r === undefined) throw new Error(REFUSED_ERROR);
            return r;
          }, { callId: u.id });
          results.push({ type: 'tool_result', tool_use_id: u.id, content: result });
        } catch (e) {
          results.push({ type: 'tool_result', tool_use_id: u.id, is_error: true, content: (e as Error).message });
        }
      }
      messages.push({ role: 'user', content: results });
    }
    throw new Error('agent loop did not finish');
  });
}
