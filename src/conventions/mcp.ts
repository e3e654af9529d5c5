// The MCP semantic-conventions reader (`mcp-semconv`): a `tools/call {tool}` CLIENT span
// (`mcp.method.name` = tools/call) is one tool execution: its tool (`gen_ai.tool.name`, else the
// span name), its arguments and result when the instrumentation recorded them (opt-in in the
// convention: absent means not captured, never empty), and how it ended (`error.type`, `tool_error`
// when the result said `isError`, reads as a failed read). MCP carries no model call id: the core
// joins the execution to the model's call by trace and tool name (src/runs/call-join.ts). A result
// in MCP's CallToolResult form is read as its text, which is what an agent hands its model.
// Server spans describe the same call from the other side and are not read (the client's span is
// in the agent's trace); nor are other MCP methods. Must never throw.

import type { ToolExecution } from '../model/agent.js';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import type { Convention, ReadContext } from './types.js';
import { GEN_AI_TOOL_CALL_ARGUMENTS, GEN_AI_TOOL_CALL_ID, GEN_AI_TOOL_CALL_RESULT, GEN_AI_TOOL_NAME } from './keys-genai.js';
import { MCP_METHOD_NAME, MCP_TOOL_ERROR, MCP_TOOLS_CALL } from './keys-mcp.js';
import { type GenAiScope, isRecord, nonBlank, readJsonOrRaw, reportOn } from './genai-parts.js';
import { toolExecutionOf } from './tool-status.js';
import { conversationIdOf } from './genai-conversation.js';
import { spanToolDeclaration } from './genai-tools.js';

/** OTLP span kind SERVER. */
const KIND_SERVER = 2;
const NAME_PREFIX = `${MCP_TOOLS_CALL} `;

/**
 * MCP's CallToolResult (`{content: [{type: 'text', text}, …], isError?}`) as the text of its text
 * parts (JSON-decoded when it is JSON, as an agent's tool message would be read); anything else as
 * it is.
 */
export function mcpResultValue(v: unknown): unknown {
  if (!isRecord(v) || !Array.isArray(v.content)) return v;
  const texts: string[] = [];
  for (const part of v.content) {
    if (!isRecord(part) || part.type !== 'text' || typeof part.text !== 'string') return v;
    texts.push(part.text);
  }
  const text = texts.join('\n');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function readValue(raw: AttrValue | undefined, key: string, scope: GenAiScope): unknown {
  return raw === undefined || raw === null ? undefined : readJsonOrRaw(raw, key, scope);
}

export function readMcpToolCall(span: SpanData, ctx: ReadContext): ToolExecution {
  const scope: GenAiScope = { span, limits: ctx.limits, diagnostics: ctx.diagnostics };
  const a = span.attributes;
  let toolName = nonBlank(a[GEN_AI_TOOL_NAME]);
  if (toolName === undefined) {
    const fromName = span.name.startsWith(NAME_PREFIX) ? nonBlank(span.name.slice(NAME_PREFIX.length)) : undefined;
    reportOn(scope, 'warn', 'tool.name-missing', `MCP tools/call span has no ${GEN_AI_TOOL_NAME}; ${fromName !== undefined ? 'the tool name was taken from the span name' : 'the tool is unnamed'}`);
    toolName = fromName ?? '(unnamed tool)';
  }
  const result = readValue(a[GEN_AI_TOOL_CALL_RESULT], GEN_AI_TOOL_CALL_RESULT, scope);
  const ex = toolExecutionOf(span, ctx.tenant, 'mcp-semconv', {
    toolName,
    // Not in the convention; a span that has one (an app's own, or a normaliser's) is joined by it.
    callId: nonBlank(a[GEN_AI_TOOL_CALL_ID]),
    conversationId: conversationIdOf(a),
    arguments: readValue(a[GEN_AI_TOOL_CALL_ARGUMENTS], GEN_AI_TOOL_CALL_ARGUMENTS, scope),
    result: result === undefined ? undefined : mcpResultValue(result),
    declared: spanToolDeclaration(scope),
  });
  // A recorded result that says isError is a failed call even where error.type was left unset.
  if (ex.status !== 'error' && isRecord(result) && result.isError === true) {
    ex.status = 'error';
    const text = mcpResultValue(result);
    ex.errorMessage = typeof text === 'string' && text.trim() !== '' ? text.slice(0, 200) : MCP_TOOL_ERROR;
  }
  return ex;
}

export const mcp: Convention = {
  id: 'mcp-semconv',
  // Every MCP span is claimed (so an MCP span that also says execute_tool is never read twice, or
  // from the server's side, by the GenAI reader); only a client's tools/call becomes an event.
  claims(span: SpanData): boolean {
    return typeof span.attributes[MCP_METHOD_NAME] === 'string';
  },
  read(span: SpanData, ctx: ReadContext) {
    if (span.attributes[MCP_METHOD_NAME] !== MCP_TOOLS_CALL || span.kind === KIND_SERVER) return [];
    return [readMcpToolCall(span, ctx)];
  },
};
