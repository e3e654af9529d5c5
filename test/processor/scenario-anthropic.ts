// The two recorded conversations (backup-triage, clean-control) as an Anthropic Messages agent:
// the stub's script (tool_use blocks), the app loop around a real `@anthropic-ai/sdk` client
// (system as the top-level param, tool results as `tool_result` blocks in a user message, the
// window between turns kept to the final answers), and one `invoke_agent` / `execute_tool` span
// per turn / call through footprint's helpers. Ground truth: the fixtures' expected.json.
import { traceAgentTurn, traceTool } from '../../src/trace/index.js';
import { expectedOf, TOOLS, toolResult, type ScenarioName } from './scenario.js';
import type { ScriptedResponse } from './stub-openai.js';
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
