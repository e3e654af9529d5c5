// Reader for the Vercel AI SDK's own telemetry (`ai` 4–6, scope `ai`): `ai.generateText` /
// `ai.streamText` (one per turn), `ai.generateText.doGenerate` / `ai.streamText.doStream` (one per
// LLM request, AI SDK prompt JSON in `ai.prompt.messages`) and `ai.toolCall` (one per execution).
// Must never throw, never parse in `claims`, never take a conversation id from anywhere but the
// span's own attributes, and never report unrecorded content (recordInputs/recordOutputs false)
// as an empty window.

import { idString, parseJsonOrRaw, reportSpan, str } from './attr-read.js';
import { toolExecutionOf } from './tool-status.js';
import { z } from 'zod';
import type { AgentTurn, LlmRequest, Message, ModelEvent, Part, Role, ToolCall, ToolDefinition, ToolExecution } from '../model/agent.js';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import { refOf } from '../model/telemetry.js';
import type { Convention, ReadContext } from './types.js';
import { ANY_ARRAY, readJsonAttribute } from './json-attribute.js';
import { GEN_AI_REQUEST_MODEL, GEN_AI_RESPONSE_ID, GEN_AI_RESPONSE_MODEL } from './keys-genai.js';
import {
  AI_METADATA_CONVERSATION_ID,
  AI_METADATA_SESSION_ID,
  AI_MODEL_ID,
  AI_OPERATION_ID,
  AI_PROMPT_MESSAGES,
  AI_PROMPT_TOOLS,
  AI_RESPONSE_ID,
  AI_RESPONSE_MODEL,
  AI_RESPONSE_PROVIDER_METADATA,
  AI_RESPONSE_REASONING,
  AI_RESPONSE_TEXT,
  AI_RESPONSE_TOOL_CALLS,
  AI_SCOPE_NAME,
  AI_TELEMETRY_FUNCTION_ID,
  AI_TOOL_CALL_ARGS,
  AI_TOOL_CALL_ID,
  AI_TOOL_CALL_INPUT,
  AI_TOOL_CALL_NAME,
  AI_TOOL_CALL_OUTPUT,
  AI_TOOL_CALL_RESULT,
  EXECUTION_DENIED_DEFAULT,
  SPAN_DO_GENERATE,
  SPAN_DO_STREAM,
  SPAN_GENERATE_TEXT,
  SPAN_STREAM_TEXT,
  SPAN_TOOL_CALL,
} from './keys-vercel-ai.js';

type SpanRole = 'turn' | 'request' | 'tool';

const SPAN_ROLES: ReadonlyMap<string, SpanRole> = new Map<string, SpanRole>([
  [SPAN_GENERATE_TEXT, 'turn'],
  [SPAN_STREAM_TEXT, 'turn'],
  [SPAN_DO_GENERATE, 'request'],
  [SPAN_DO_STREAM, 'request'],
  [SPAN_TOOL_CALL, 'tool'],
]);

/** O(1): the span name (or its `ai.operationId`) is a known operation and the span is the SDK's. */
function roleOf(span: SpanData): SpanRole | undefined {
  const byName = SPAN_ROLES.get(span.name);
  if (byName && span.scope.name === AI_SCOPE_NAME) return byName;
  const op = span.attributes[AI_OPERATION_ID];
  return typeof op === 'string' ? SPAN_ROLES.get(op) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Small helpers




function json(span: SpanData, ctx: ReadContext, key: string) {
  return { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key };
}


/** Tool-call arguments: an object (prompt messages, v4 `args`) or a JSON string (v5/v6 `input`, double-encoded). */
function toolArguments(v: unknown, span: SpanData, ctx: ReadContext, key: string): unknown {
  return typeof v === 'string' ? parseJsonOrRaw(v, span, ctx, key) : v;
}

function conversationIdOf(span: SpanData): string | undefined {
  return idString(span.attributes[AI_METADATA_CONVERSATION_ID]) ?? idString(span.attributes[AI_METADATA_SESSION_ID]);
}


// ---------------------------------------------------------------------------------------------
// ai.prompt.messages (LanguageModelV1/V2/V3 prompt)

const MessageJson = z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(z.unknown())]) });
const PartJson = z.looseObject({ type: z.string() });
const TextPartJson = z.looseObject({ text: z.string() });
const ToolCallPartJson = z.looseObject({ toolCallId: z.string().optional(), toolName: z.string(), input: z.unknown().optional(), args: z.unknown().optional() });
const ToolOutputJson = z.looseObject({ type: z.string(), value: z.unknown().optional(), reason: z.string().optional() });
const ToolResultPartJson = z.looseObject({ toolCallId: z.string().optional(), toolName: z.string().optional(), output: z.unknown().optional(), result: z.unknown().optional() });

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);

/** The tool-result value as the provider sends it to the model (v5/v6 `output`, v4 `result`). */
function toolResultValue(p: z.infer<typeof ToolResultPartJson>, span: SpanData, ctx: ReadContext): unknown {
  if (p.output !== undefined) {
    const o = ToolOutputJson.safeParse(p.output);
    if (!o.success) {
      reportSpan(span, ctx, 'warn', 'vercel-ai.tool-output-shape', `has a tool-result output without a type in ${AI_PROMPT_MESSAGES}; kept as recorded`);
      return p.output;
    }
    switch (o.data.type) {
      case 'text':
      case 'error-text':
      case 'json':
      case 'error-json':
      case 'content':
        return o.data.value;
      case 'execution-denied':
        return o.data.reason ?? EXECUTION_DENIED_DEFAULT;
      default:
        reportSpan(span, ctx, 'info', 'vercel-ai.tool-output-type', `has a tool-result output of unknown type "${o.data.type.slice(0, 40)}"; its value is kept`);
        return o.data.value ?? p.output;
    }
  }
  return p.result;
}

/** An AI SDK tool output that says the tool failed or was denied (`error-text`, `error-json`, `execution-denied`). */
function isErrorOutput(output: unknown): boolean {
  const type = output !== null && typeof output === 'object' ? (output as { type?: unknown }).type : undefined;
  return type === 'error-text' || type === 'error-json' || type === 'execution-denied';
}

function promptParts(role: Role, content: string | unknown[], span: SpanData, ctx: ReadContext, skipped: { n: number }): Part[] {
  if (typeof content === 'string') {
    if (role === 'tool') return [{ type: 'tool-result', result: content }];
    return [{ type: 'text', text: content }];
  }
  const parts: Part[] = [];
  for (const raw of content) {
    const head = PartJson.safeParse(raw);
    if (!head.success) {
      skipped.n++;
      continue;
    }
    switch (head.data.type) {
      case 'text': {
        const t = TextPartJson.safeParse(raw);
        if (!t.success) skipped.n++;
        else if (role === 'tool') parts.push({ type: 'tool-result', result: t.data.text });
        else parts.push({ type: 'text', text: t.data.text });
        break;
      }
      case 'tool-call': {
        const t = ToolCallPartJson.safeParse(raw);
        if (!t.success) {
          skipped.n++;
          break;
        }
        const args = t.data.input !== undefined ? t.data.input : t.data.args;
        parts.push({
          type: 'tool-call',
          ...(t.data.toolCallId ? { id: t.data.toolCallId } : {}),
          name: t.data.toolName,
          arguments: toolArguments(args, span, ctx, `${AI_PROMPT_MESSAGES} tool-call input`),
        });
        break;
      }
      case 'tool-result': {
        const t = ToolResultPartJson.safeParse(raw);
        if (!t.success) {
          skipped.n++;
          break;
        }
        parts.push({
          type: 'tool-result',
          ...(t.data.toolCallId ? { id: t.data.toolCallId } : {}),
          ...(t.data.toolName ? { name: t.data.toolName } : {}),
          result: toolResultValue(t.data, span, ctx),
          ...(isErrorOutput(t.data.output) ? { isError: true as const } : {}),
        });
        break;
      }
      default:
        // reasoning, file, image, tool-approval-*: nothing the frame reads as text.
        break;
    }
  }
  return parts;
}

function readPromptMessages(span: SpanData, ctx: ReadContext): Message[] | undefined {
  const list = readJsonAttribute(span.attributes[AI_PROMPT_MESSAGES], ANY_ARRAY, json(span, ctx, AI_PROMPT_MESSAGES));
  if (!list) return undefined;
  const bound = ctx.limits.maxMessagesPerRequest;
  if (list.length > bound) {
    reportSpan(span, ctx, 'warn', 'vercel-ai.messages-clipped', `${AI_PROMPT_MESSAGES} holds ${list.length} messages, past the ${bound}-message bound; only the first ${bound} were read`);
  }
  const out: Message[] = [];
  let badMessages = 0;
  const skipped = { n: 0 };
  for (let i = 0; i < list.length && i < bound; i++) {
    const m = MessageJson.safeParse(list[i]);
    if (!m.success || !ROLES.has(m.data.role)) {
      badMessages++;
      continue;
    }
    const role = m.data.role as Role;
    out.push({ role, parts: promptParts(role, m.data.content, span, ctx, skipped) });
  }
  if (badMessages > 0) reportSpan(span, ctx, 'warn', 'vercel-ai.message-shape', `has ${badMessages} message(s) of an unknown shape or role in ${AI_PROMPT_MESSAGES}; skipped`);
  if (skipped.n > 0) reportSpan(span, ctx, 'warn', 'vercel-ai.part-shape', `has ${skipped.n} content part(s) of a broken shape in ${AI_PROMPT_MESSAGES}; skipped`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// ai.prompt.tools and ai.response.toolCalls

const ToolJson = z.looseObject({
  type: z.string().optional(),
  name: z.string(),
  description: z.string().optional().nullable(),
  inputSchema: z.unknown().optional(),
  parameters: z.unknown().optional(),
});

function readTools(span: SpanData, ctx: ReadContext): ToolDefinition[] | undefined {
  let raw = span.attributes[AI_PROMPT_TOOLS];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') {
    // Not the SDK's shape (an array of JSON strings), but a collector may have flattened it.
    const whole = readJsonAttribute(raw, ANY_ARRAY, json(span, ctx, AI_PROMPT_TOOLS));
    if (!whole) return undefined; // recorded but unreadable: not known, which is not "no tools"
    raw = whole as AttrValue[];
  }
  if (!Array.isArray(raw)) {
    reportSpan(span, ctx, 'warn', 'vercel-ai.tools-shape', `attribute ${AI_PROMPT_TOOLS} is not an array; tool definitions not read`);
    return undefined;
  }
  const out: ToolDefinition[] = [];
  const bound = ctx.limits.maxMessagesPerRequest;
  for (let i = 0; i < raw.length && i < bound; i++) {
    const t = readJsonAttribute(raw[i], ToolJson, json(span, ctx, `${AI_PROMPT_TOOLS}[${i}]`));
    if (!t) continue;
    const schema = t.inputSchema !== undefined ? t.inputSchema : t.parameters;
    out.push({ name: t.name, ...(t.description ? { description: t.description } : {}), ...(schema !== undefined ? { inputSchema: schema } : {}) });
  }
  if (raw.length > bound) reportSpan(span, ctx, 'warn', 'vercel-ai.tools-clipped', `has ${raw.length} tool definitions, past the ${bound} bound; only the first ${bound} were read`);
  return out;
}

const ResponseToolCallJson = z.looseObject({ toolCallId: z.string().optional(), toolName: z.string(), input: z.unknown().optional(), args: z.unknown().optional() });

function readResponseToolCalls(span: SpanData, ctx: ReadContext): ToolCall[] | undefined {
  const list = readJsonAttribute(span.attributes[AI_RESPONSE_TOOL_CALLS], ANY_ARRAY, json(span, ctx, AI_RESPONSE_TOOL_CALLS));
  if (!list) return undefined;
  const out: ToolCall[] = [];
  let bad = 0;
  for (const raw of list) {
    const t = ResponseToolCallJson.safeParse(raw);
    if (!t.success) {
      bad++;
      continue;
    }
    const args = t.data.input !== undefined ? t.data.input : t.data.args;
    out.push({
      ...(t.data.toolCallId ? { id: t.data.toolCallId } : {}),
      name: t.data.toolName,
      arguments: toolArguments(args, span, ctx, `${AI_RESPONSE_TOOL_CALLS} input`),
    });
  }
  if (bad > 0) reportSpan(span, ctx, 'warn', 'vercel-ai.tool-call-shape', `has ${bad} tool call(s) of a broken shape in ${AI_RESPONSE_TOOL_CALLS}; skipped`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Span readers

function readRequest(span: SpanData, ctx: ReadContext): LlmRequest {
  const attrs = span.attributes;
  const messages = attrs[AI_PROMPT_MESSAGES] !== undefined ? readPromptMessages(span, ctx) : undefined;
  const toolDefinitions = readTools(span, ctx);

  // recordOutputs=false drops every output attribute; a recorded response carries at least one.
  const outputRecorded =
    attrs[AI_RESPONSE_TEXT] !== undefined ||
    attrs[AI_RESPONSE_TOOL_CALLS] !== undefined ||
    attrs[AI_RESPONSE_REASONING] !== undefined ||
    attrs[AI_RESPONSE_PROVIDER_METADATA] !== undefined;
  let toolCalls: ToolCall[] = [];
  let outputOk = outputRecorded;
  if (attrs[AI_RESPONSE_TOOL_CALLS] !== undefined) {
    const calls = readResponseToolCalls(span, ctx);
    if (calls) toolCalls = calls;
    else outputOk = false; // recorded but unreadable: the chosen calls are not known
  }
  const text = attrs[AI_RESPONSE_TEXT];
  const outputText = typeof text === 'string' && text !== '' ? [text] : [];
  if (text !== undefined && typeof text !== 'string') reportSpan(span, ctx, 'warn', 'vercel-ai.text-shape', `attribute ${AI_RESPONSE_TEXT} is not a string; not read`);

  const responseId = idString(attrs[AI_RESPONSE_ID]) ?? idString(attrs[GEN_AI_RESPONSE_ID]);
  if (!responseId) reportSpan(span, ctx, 'info', 'vercel-ai.response-id-missing', `has neither ${AI_RESPONSE_ID} nor ${GEN_AI_RESPONSE_ID}; the request cannot be matched by id`);
  const model = str(attrs[AI_RESPONSE_MODEL]) ?? str(attrs[GEN_AI_RESPONSE_MODEL]) ?? str(attrs[AI_MODEL_ID]) ?? str(attrs[GEN_AI_REQUEST_MODEL]);
  const conversationId = conversationIdOf(span);
  return {
    kind: 'llm-request',
    span: refOf(span),
    convention: 'vercel-ai',
    tenant: ctx.tenant,
    ...(conversationId ? { conversationId } : {}),
    ...(responseId ? { responseId } : {}),
    ...(model ? { model } : {}),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    inputContent: messages ? 'captured' : 'not-captured',
    outputContent: outputOk ? 'captured' : 'not-captured',
    input: messages ?? [],
    ...(toolDefinitions ? { toolDefinitions } : {}),
    outputText,
    toolCalls,
  };
}

function readToolCall(span: SpanData, ctx: ReadContext): ToolExecution | undefined {
  const attrs = span.attributes;
  const toolName = str(attrs[AI_TOOL_CALL_NAME]);
  if (!toolName) {
    reportSpan(span, ctx, 'warn', 'vercel-ai.tool-name-missing', `has no ${AI_TOOL_CALL_NAME}; not read`);
    return undefined;
  }
  const callId = idString(attrs[AI_TOOL_CALL_ID]);
  if (!callId) reportSpan(span, ctx, 'info', 'vercel-ai.tool-call-id-missing', `has no ${AI_TOOL_CALL_ID}; the execution cannot be matched to the model's call by id`);
  const argsKey = attrs[AI_TOOL_CALL_ARGS] !== undefined ? AI_TOOL_CALL_ARGS : AI_TOOL_CALL_INPUT;
  const resultKey = attrs[AI_TOOL_CALL_RESULT] !== undefined ? AI_TOOL_CALL_RESULT : AI_TOOL_CALL_OUTPUT;
  const rawArgs = attrs[argsKey];
  const rawResult = attrs[resultKey];
  // Both are JSON.stringify output; the parsed result is what the provider shows the model.
  const args = rawArgs === undefined ? undefined : parseJsonOrRaw(rawArgs, span, ctx, argsKey);
  const result = rawResult === undefined ? undefined : parseJsonOrRaw(rawResult, span, ctx, resultKey);
  const conversationId = conversationIdOf(span);
  return toolExecutionOf(span, ctx.tenant, 'vercel-ai', { toolName, callId, conversationId, arguments: args, result });
}

function readTurn(span: SpanData, ctx: ReadContext): AgentTurn {
  const conversationId = conversationIdOf(span);
  const agentName = str(span.attributes[AI_TELEMETRY_FUNCTION_ID]);
  return {
    kind: 'agent-turn',
    span: refOf(span),
    convention: 'vercel-ai',
    tenant: ctx.tenant,
    ...(conversationId ? { conversationId } : {}),
    ...(agentName ? { agentName } : {}),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
  };
}

export const vercelAi: Convention = {
  id: 'vercel-ai',
  claims(span: SpanData): boolean {
    return roleOf(span) !== undefined;
  },
  read(span: SpanData, ctx: ReadContext): ModelEvent[] {
    switch (roleOf(span)) {
      case 'turn':
        return [readTurn(span, ctx)];
      case 'request':
        return [readRequest(span, ctx)];
      case 'tool': {
        const t = readToolCall(span, ctx);
        return t ? [t] : [];
      }
      default:
        return [];
    }
  },
};
