// The two recorded conversations (backup-triage, clean-control) as a LangGraph.js ReAct agent:
// `createReactAgent` (a model node and a ToolNode) over `@langchain/openai`'s ChatOpenAI pointed
// at the OpenAI stub on loopback, with the recordings' three tools as LangChain tools (JSON
// schema), the system prompt as the agent's `prompt`, and the window between turns kept to the
// final answers (as the OpenAI apps do). The app writes no spans of its own: everything comes from
// the LangChain instrumentation under test. Ground truth: the fixtures' expected.json.
import { ChatOpenAI } from '@langchain/openai';
import { tool } from '@langchain/core/tools';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { trace, SpanKind } from '@opentelemetry/api';
import { expectedOf, MODEL, TOOLS, toolResult, type ScenarioName } from '../processor/scenario.js';

export function langchainTools(scenario: ScenarioName) {
  return TOOLS.map((t) =>
    tool(
      async (_input: unknown, config: { toolCall?: { id?: string } }) => {
        const id = config.toolCall?.id;
        if (!id) throw new Error('tool called without a tool call id');
        return toolResult(scenario, id);
      },
      { name: t.function.name, description: t.function.description, schema: t.function.parameters as Record<string, unknown> },
    ),
  );
}

/**
 * Runs the conversation. With `appSpan`, each turn runs inside the app's own root span (`POST /chat`,
 * carrying gen_ai.conversation.id), as an HTTP handler's span would be: the instrumentation's spans
 * become its children.
 */
export async function runLangGraphConversation(baseURL: string, scenario: ScenarioName, appSpan = false): Promise<string[]> {
  const exp = expectedOf(scenario);
  const system = (exp.requests[0]!.window[0] as { content: string }).content;
  const llm = new ChatOpenAI({ model: MODEL, apiKey: 'sk-stub', configuration: { baseURL }, maxRetries: 0, streaming: false });
  const agent = createReactAgent({ llm, tools: langchainTools(scenario), prompt: system, name: exp.agentName });
  const memory: BaseMessage[] = [];
  const answers: string[] = [];
  const tracer = trace.getTracer('support-app', '1.0.0');
  for (const turn of exp.turns) {
    const invoke = () =>
      agent.invoke(
        { messages: [...memory, new HumanMessage(turn.user)] },
        { metadata: { session_id: exp.conversationId, conversation_id: exp.conversationId }, configurable: { thread_id: exp.conversationId } },
      );
    const out = appSpan
      ? await tracer.startActiveSpan('POST /chat', { kind: SpanKind.SERVER, attributes: { 'gen_ai.conversation.id': exp.conversationId } }, async (root) => {
          try {
            return await invoke();
          } finally {
            root.end();
          }
        })
      : await invoke();
    const last = out.messages.at(-1)!;
    const answer = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
    memory.push(new AIMessage(answer));
    answers.push(answer);
  }
  return answers;
}
