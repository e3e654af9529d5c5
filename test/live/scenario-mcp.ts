// The two recorded conversations (backup-triage, clean-control) with their tools served by a real
// MCP server (`@modelcontextprotocol/sdk` low-level Server, the tools' JSON schemas as given) over
// Streamable HTTP on 127.0.0.1 (a real node:http server; the SDK's client transport): the app's
// agent loop (a real `openai` client against the OpenAI stub) sends each tool call the model chose
// to the MCP client inside footprint's traceTool span (carrying the model's call id), and sends the
// MCP result's text back as the tool message. The MCP server answers by tool name and arguments
// only (MCP has no model call id), and notes the trace context each call arrived with. Ground
// truth: expected.json.
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { traceAgentTurn, traceTool } from '../../src/trace/index.js';
import { expectedOf, MODEL, TOOLS, type ChatClient, type ScenarioName } from '../processor/scenario.js';

const key = (name: string, args: unknown) => `${name} ${JSON.stringify(args)}`;

/** What the server saw of one tools/call: the tool, and the trace context it ran in (propagated or not). */
export interface ServedCall {
  name: string;
  traceId: string | undefined;
  spanId: string | undefined;
}

/** A connected MCP client and a server on 127.0.0.1 serving the scenario's three tools over Streamable HTTP. */
export async function startMcp(scenario: ScenarioName): Promise<{ client: Client; url: string; sessionId: () => string | undefined; served: ServedCall[]; close: () => Promise<void> }> {
  const results = new Map(expectedOf(scenario).toolCalls.map((c) => [key(c.name, c.arguments), c.result]));
  const served: ServedCall[] = [];
  const server = new Server({ name: 'backup-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, inputSchema: t.function.parameters as { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const ctx = trace.getActiveSpan()?.spanContext();
    served.push({ name: req.params.name, traceId: ctx?.traceId, spanId: ctx?.spanId });
    const r = results.get(key(req.params.name, req.params.arguments ?? {}));
    if (r === undefined) return { isError: true, content: [{ type: 'text' as const, text: `no scripted result for ${key(req.params.name, req.params.arguments)}` }] };
    return { content: [{ type: 'text' as const, text: r }] };
  });
  const serverTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(serverTransport);
  const http: HttpServer = createServer((req, res) => void serverTransport.handleRequest(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const clientTransport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'backup-agent', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    url,
    sessionId: () => clientTransport.sessionId,
    served,
    close: async () => {
      await client.close();
      await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

export async function runMcpConversation(chat: ChatClient, mcp: Client, scenario: ScenarioName): Promise<string[]> {
  const exp = expectedOf(scenario);
  const system = (exp.requests[0]!.window[0] as { content: string }).content;
  const { tools } = await mcp.listTools();
  const offered = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  const memory: Record<string, unknown>[] = [{ role: 'system', content: system }];
  const answers: string[] = [];
  for (const turn of exp.turns) {
    const answer = await traceAgentTurn({ agentName: exp.agentName, conversationId: exp.conversationId, model: MODEL, provider: 'openai' }, async () => {
      const messages: Record<string, unknown>[] = [...memory, { role: 'user', content: turn.user }];
      for (let step = 0; step < 8; step++) {
        const resp = await chat.chat.completions.create({ model: MODEL, messages, tools: offered });
        const msg = resp.choices[0]!.message;
        if (!msg.tool_calls || msg.tool_calls.length === 0) return msg.content ?? '';
        messages.push({ role: 'assistant', content: null, tool_calls: msg.tool_calls.map((c) => ({ id: c.id, type: 'function', function: c.function })) });
        for (const c of msg.tool_calls) {
          const text = await traceTool(c.function.name, c.function.arguments, async () => {
            const r = await mcp.callTool({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as Record<string, unknown> });
            const parts = (r.content as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text ?? '');
            if (r.isError) throw new Error(parts.join('\n'));
            return parts.join('\n');
          }, { callId: c.id });
          messages.push({ role: 'tool', tool_call_id: c.id, content: text });
        }
      }
      throw new Error('agent loop did not finish');
    });
    memory.push({ role: 'assistant', content: answer });
    answers.push(answer);
  }
  return answers;
}
