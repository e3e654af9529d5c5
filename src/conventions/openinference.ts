// Reader for OpenInference spans (Arize `@arizeai/openinference-*`): LLM spans with flattened
// `llm.input_messages.{i}.message.*` / `llm.output_messages.*` / `llm.tools.*` keys, TOOL spans and
// AGENT spans, mapped into LlmRequest / ToolExecution / AgentTurn.
// Must never throw, never read flattened keys quadratically (one pass, grouped by index), never
// claim spans without `openinference.span.kind` (the app's GenAI spans belong to the genai reader),
// and never report hidden content (OPENINFERENCE_HIDE_*) as an empty window.

import { idString, parseJsonOrRaw, reportSpan, str } from './attr-read.js';
import { toolExecutionOf } from './tool-status.js';
import { z } from 'zod';
import type { AgentTurn, LlmRequest, Message, ModelEvent, Part, Role, ToolCall, ToolDefinition, ToolExecution } from '../model/agent.js';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import { refOf } from '../model/telemetry.js';
import type { Convention, ReadContext } from './types.js';
import { readJsonAttribute } from './json-attribute.js';
import { AnthropicRequestJson, anthropicWindowOf } from './anthropic-messages.js';
import { LcLlmInputJson, LcLlmOutputJson, LcToolOutputJson, lcOutputOf, lcToolOutputOf, lcWindowOf, readLcMessage } from './langchain-messages.js';
import {
  AGENT_NAME,
  INPUT_MIME_TYPE,
  INPUT_VALUE,
  LLM_INPUT_MESSAGES_PREFIX,
  LLM_MODEL_NAME,
  LLM_OUTPUT_MESSAGES_PREFIX,
  LLM_PROVIDER,
  LLM_REQUEST_MODEL_NAME,
  LLM_RESPONSE_MODEL_NAME,
  LLM_SYSTEM,
  LLM_TOOLS_PREFIX,
  MESSAGE_CONTENT,
  MESSAGE_CONTENTS_PREFIX,
  MESSAGE_CONTENT_TEXT,
  MESSAGE_CONTENT_TYPE,
  MESSAGE_FUNCTION_CALL_ARGUMENTS,
  MESSAGE_FUNCTION_CALL_NAME,
  MESSAGE_NAME,
  MESSAGE_ROLE,
  MESSAGE_TOOL_CALLS_PREFIX,
  MESSAGE_TOOL_CALL_ID,
  MIME_JSON,
  OI_KIND_AGENT,
  OI_KIND_LLM,
  OI_KIND_TOOL,
  OI_SPAN_KIND,
  OUTPUT_MIME_TYPE,
  OUTPUT_VALUE,
  REDACTED_VALUE,
  SESSION_ID,
  TEXT_CONTENT_TYPES,
  TOOL_CALL_FUNCTION_ARGUMENTS,
  TOOL_CALL_FUNCTION_NAME,
  TOOL_CALL_ID,
  TOOL_ID,
  TOOL_JSON_SCHEMA,
  TOOL_NAME,
} from './keys-openinference.js';

// ---------------------------------------------------------------------------------------------
// Small shared helpers






function mapRole(role: string | undefined): Role | undefined {
  switch (role) {
    case 'system':
    case 'developer':
      return 'system';
    case 'user':
    case 'human':
      return 'user';
    case 'assistant':
    case 'model':
    case 'ai':
      return 'assistant';
    case 'tool':
    case 'function':
      return 'tool';
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Flattened messages: one pass over the span's keys, grouped by index

interface FlatToolCall {
  id?: string;
  name?: string;
  arguments?: string;
}

interface FlatContent {
  type?: string;
  text?: string;
}

interface FlatMessage {
  role?: string;
  content?: string;
  name?: string;
  toolCallId?: string;
  functionCallName?: string;
  functionCallArguments?: string;
  contents: (FlatContent | undefined)[];
  toolCalls: (FlatToolCall | undefined)[];
}

interface FlatFamily {
  /** Sparse by index; indices >= the bound are not stored. */
  messages: (FlatMessage | undefined)[];
  /** Whether any key of the family was seen at all. */
  seen: boolean;
  /** Whether some index was past the bound. */
  clipped: boolean;
}

/** Parses a decimal index at `key[pos..]` up to the next '.'; returns [index, position after the dot]. */
function indexAt(key: string, pos: number): [number, number] | undefined {
  let n = 0;
  let i = pos;
  for (; i < key.length && i - pos < 10; i++) {
    const c = key.charCodeAt(i);
    if (c === 46 /* . */) break;
    if (c < 48 || c > 57) return undefined;
    n = n * 10 + (c - 48);
  }
  if (i === pos || i >= key.length || key.charCodeAt(i) !== 46) return undefined;
  return [n, i + 1];
}

function newFamily(): FlatFamily {
  return { messages: [], seen: false, clipped: false };
}

function messageAt(fam: FlatFamily, i: number): FlatMessage {
  let m = fam.messages[i];
  if (!m) {
    m = { contents: [], toolCalls: [] };
    fam.messages[i] = m;
  }
  return m;
}

/** Stores one `…{i}.<suffix>` key of a message family. `pos` points after the family prefix. */
function addMessageKey(fam: FlatFamily, key: string, pos: number, value: AttrValue, bound: number): void {
  fam.seen = true;
  const at = indexAt(key, pos);
  if (!at) return;
  const [i, rest] = at;
  if (i >= bound) {
    fam.clipped = true;
    return;
  }
  const v = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
  if (v === undefined) return;
  const m = messageAt(fam, i);
  const suffix = key.slice(rest);
  switch (suffix) {
    case MESSAGE_ROLE:
      m.role = v;
      return;
    case MESSAGE_CONTENT:
      m.content = v;
      return;
    case MESSAGE_NAME:
      m.name = v;
      return;
    case MESSAGE_TOOL_CALL_ID:
      m.toolCallId = v;
      return;
    case MESSAGE_FUNCTION_CALL_NAME:
      m.functionCallName = v;
      return;
    case MESSAGE_FUNCTION_CALL_ARGUMENTS:
      m.functionCallArguments = v;
      return;
  }
  if (suffix.startsWith(MESSAGE_CONTENTS_PREFIX)) {
    const k = indexAt(suffix, MESSAGE_CONTENTS_PREFIX.length);
    if (!k || k[0] >= bound) return;
    const c = (m.contents[k[0]] ??= {});
    const field = suffix.slice(k[1]);
    if (field === MESSAGE_CONTENT_TYPE) c.type = v;
    else if (field === MESSAGE_CONTENT_TEXT) c.text = v;
    return;
  }
  if (suffix.startsWith(MESSAGE_TOOL_CALLS_PREFIX)) {
    const j = indexAt(suffix, MESSAGE_TOOL_CALLS_PREFIX.length);
    if (!j || j[0] >= bound) return;
    const t = (m.toolCalls[j[0]] ??= {});
    const field = suffix.slice(j[1]);
    if (field === TOOL_CALL_ID) t.id = v;
    else if (field === TOOL_CALL_FUNCTION_NAME) t.name = v;
    else if (field === TOOL_CALL_FUNCTION_ARGUMENTS) t.arguments = v;
  }
}

interface Converted {
  messages: Message[];
  redacted: boolean;
}

function toolCallPart(tc: FlatToolCall, span: SpanData, ctx: ReadContext, key: string): Part | undefined {
  if (!tc.name) {
    reportSpan(span, ctx, 'warn', 'openinference.tool-call-unnamed', `has a tool call without a function name at ${key}; skipped`);
    return undefined;
  }
  return {
    type: 'tool-call',
    ...(tc.id ? { id: tc.id } : {}),
    name: tc.name,
    arguments: tc.arguments === undefined ? undefined : parseJsonOrRaw(tc.arguments, span, ctx, `${key}.${TOOL_CALL_FUNCTION_ARGUMENTS}`),
  };
}

function convertFamily(fam: FlatFamily, prefix: string, span: SpanData, ctx: ReadContext): Converted {
  const messages: Message[] = [];
  let redacted = false;
  let unknownRoles = 0;
  for (let i = 0; i < fam.messages.length; i++) {
    const fm = fam.messages[i];
    if (!fm) continue;
    // Anthropic sends a tool_result inside a user message; OpenInference flattens it as role user
    // with message.tool_call_id. It is a tool result, not the user's words.
    const role = fm.role === 'user' && fm.toolCallId !== undefined ? 'tool' : mapRole(fm.role);
    if (!role) {
      unknownRoles++;
      continue;
    }
    const parts: Part[] = [];
    const texts: string[] = [];
    if (fm.content !== undefined) {
      if (fm.content === REDACTED_VALUE) redacted = true;
      else texts.push(fm.content);
    }
    for (const c of fm.contents) {
      if (!c || c.text === undefined) continue;
      if (c.type !== undefined && !TEXT_CONTENT_TYPES.has(c.type)) continue;
      if (c.text === REDACTED_VALUE) redacted = true;
      else texts.push(c.text);
    }
    if (role === 'tool') {
      const name = fm.name ?? fm.functionCallName;
      for (const t of texts) parts.push({ type: 'tool-result', ...(fm.toolCallId ? { id: fm.toolCallId } : {}), ...(name ? { name } : {}), result: t });
    } else {
      for (const t of texts) parts.push({ type: 'text', text: t });
      for (let j = 0; j < fm.toolCalls.length; j++) {
        const tc = fm.toolCalls[j];
        if (!tc) continue;
        const p = toolCallPart(tc, span, ctx, `${prefix}${i}.${MESSAGE_TOOL_CALLS_PREFIX}${j}`);
        if (p) parts.push(p);
      }
      if (fm.functionCallName) {
        const p = toolCallPart({ name: fm.functionCallName, ...(fm.functionCallArguments !== undefined ? { arguments: fm.functionCallArguments } : {}) }, span, ctx, `${prefix}${i}.message`);
        if (p) parts.push(p);
      }
    }
    messages.push({ role, parts });
  }
  if (unknownRoles > 0) {
    reportSpan(span, ctx, 'warn', 'openinference.message-role-unknown', `has ${unknownRoles} ${prefix}* message(s) with a missing or unknown role; skipped`);
  }
  if (fam.clipped) {
    reportSpan(
      span,
      ctx,
      'warn',
      'openinference.messages-clipped',
      `has ${prefix}* messages past the ${ctx.limits.maxMessagesPerRequest}-message bound; only the first ${ctx.limits.maxMessagesPerRequest} were read`,
    );
  }
  return { messages, redacted };
}

// ---------------------------------------------------------------------------------------------
// input.value / output.value fallbacks (the whole request / response body, OpenAI shapes)

const ChatToolCallJson = z.looseObject({
  id: z.string().optional().nullable(),
  function: z.looseObject({ name: z.string(), arguments: z.string().optional().nullable() }).optional().nullable(),
});
const TextPartJson = z.looseObject({ type: z.string().optional(), text: z.string().optional(), refusal: z.string().optional() });
const ChatMessageJson = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.unknown())]).optional().nullable(),
  tool_calls: z.array(z.unknown()).optional().nullable(),
  tool_call_id: z.string().optional().nullable(),
  name: z.string().optional().nullable(),
});
const ResponsesItemJson = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), z.array(z.unknown())]).optional().nullable(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  output: z.unknown().optional(),
});
const RequestBodyJson = z.looseObject({
  messages: z.array(z.unknown()).optional(),
  instructions: z.string().optional().nullable(),
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
});
const ResponseBodyJson = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(z.unknown()).optional(),
  output: z.array(z.unknown()).optional(),
});

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const p of content) {
    const r = TextPartJson.safeParse(p);
    if (!r.success) continue;
    if (r.data.type !== undefined && !TEXT_CONTENT_TYPES.has(r.data.type)) continue;
    const t = r.data.text ?? r.data.refusal;
    if (t !== undefined) out.push(t);
  }
  return out;
}

/** One OpenAI Chat Completions message (request `messages[]` or `choices[].message`). */
function chatMessage(raw: unknown, span: SpanData, ctx: ReadContext, key: string): Message | undefined {
  const r = ChatMessageJson.safeParse(raw);
  if (!r.success) return undefined;
  const m = r.data;
  const role = mapRole(m.role);
  if (!role) return undefined;
  const parts: Part[] = [];
  const texts = textsOf(m.content);
  if (role === 'tool') {
    for (const t of texts) parts.push({ type: 'tool-result', ...(m.tool_call_id ? { id: m.tool_call_id } : {}), ...(m.name ? { name: m.name } : {}), result: t });
  } else {
    for (const t of texts) parts.push({ type: 'text', text: t });
    for (const tcRaw of m.tool_calls ?? []) {
      const tc = ChatToolCallJson.safeParse(tcRaw);
      if (!tc.success || !tc.data.function) continue;
      const args = tc.data.function.arguments;
      parts.push({
        type: 'tool-call',
        ...(tc.data.id ? { id: tc.data.id } : {}),
        name: tc.data.function.name,
        arguments: typeof args === 'string' ? parseJsonOrRaw(args, span, ctx, key) : undefined,
      });
    }
  }
  return { role, parts };
}

/** One Responses API input/output item. */
function responsesItem(raw: unknown, span: SpanData, ctx: ReadContext, key: string): Message | undefined {
  if (typeof raw === 'string') return { role: 'user', parts: [{ type: 'text', text: raw }] };
  const r = ResponsesItemJson.safeParse(raw);
  if (!r.success) return undefined;
  const it = r.data;
  if (it.type === 'function_call' && it.name) {
    return {
      role: 'assistant',
      parts: [{ type: 'tool-call', ...(it.call_id ? { id: it.call_id } : {}), name: it.name, arguments: it.arguments === undefined ? undefined : parseJsonOrRaw(it.arguments, span, ctx, key) }],
    };
  }
  if (it.type === 'function_call_output') {
    return { role: 'tool', parts: [{ type: 'tool-result', ...(it.call_id ? { id: it.call_id } : {}), result: it.output }] };
  }
  const role = mapRole(it.role);
  if (!role || (it.type !== undefined && it.type !== 'message')) return undefined;
  return { role, parts: textsOf(it.content).map((text) => ({ type: 'text', text })) };
}

/**
 * An Anthropic Messages request's window from input.value, when the span is Anthropic's
 * (`llm.system` / `llm.provider` = anthropic) and the body is a Messages request: it holds the
 * system prompt and every tool_result block, which the flattened keys do not.
 */
function anthropicInputOf(span: SpanData, ctx: ReadContext): Message[] | undefined {
  const a = span.attributes;
  if (str(a[LLM_SYSTEM]) !== 'anthropic' && str(a[LLM_PROVIDER]) !== 'anthropic') return undefined;
  const raw = a[INPUT_VALUE];
  if (typeof raw !== 'string' || raw === REDACTED_VALUE) return undefined;
  const mime = str(a[INPUT_MIME_TYPE]);
  if (mime !== undefined && mime !== MIME_JSON) return undefined;
  const body = readJsonAttribute(raw, AnthropicRequestJson, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key: INPUT_VALUE });
  if (!body) return undefined;
  const w = anthropicWindowOf(body, ctx.limits.maxMessagesPerRequest);
  if (w.clipped > 0) reportSpan(span, ctx, 'warn', 'openinference.messages-clipped', `${INPUT_VALUE} holds messages past the ${ctx.limits.maxMessagesPerRequest}-message bound; ${w.clipped} were not read`);
  return w.messages;
}

/** Whether a JSON attribute looks like LangChain's serialisation (cheap test before a parse). */
function looksLangChain(raw: AttrValue | undefined): raw is string {
  return typeof raw === 'string' && raw !== REDACTED_VALUE && raw.includes('"lc":1') && raw.includes('"constructor"');
}

/**
 * LangChain's serialised messages in input.value (`@arizeai/openinference-instrumentation-langchain`):
 * the window with every tool-call id, which the flattened keys drop.
 */
function langchainInputOf(span: SpanData, ctx: ReadContext): Message[] | undefined {
  const raw = span.attributes[INPUT_VALUE];
  if (!looksLangChain(raw)) return undefined;
  const body = readJsonAttribute(raw, LcLlmInputJson, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key: INPUT_VALUE });
  if (!body || !body.messages[0]!.some((m) => readLcMessage(m) !== undefined)) return undefined;
  const w = lcWindowOf(body, ctx.limits.maxMessagesPerRequest);
  if (w.clipped > 0) reportSpan(span, ctx, 'warn', 'openinference.messages-clipped', `${INPUT_VALUE} holds messages past the ${ctx.limits.maxMessagesPerRequest}-message bound; ${w.clipped} were not read`);
  if (w.skipped > 0) reportSpan(span, ctx, 'info', 'openinference.langchain-message-skipped', `${INPUT_VALUE} holds ${w.skipped} LangChain message(s) of a class or shape not read; skipped`);
  return w.messages;
}

function langchainOutputOf(span: SpanData, ctx: ReadContext): ReturnType<typeof lcOutputOf> {
  const raw = span.attributes[OUTPUT_VALUE];
  if (!looksLangChain(raw)) return undefined;
  const body = readJsonAttribute(raw, LcLlmOutputJson, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key: OUTPUT_VALUE });
  return body ? lcOutputOf(body) : undefined;
}

function inputFromRequestBody(span: SpanData, ctx: ReadContext): Message[] | undefined {
  const raw = span.attributes[INPUT_VALUE];
  if (typeof raw !== 'string' || raw === REDACTED_VALUE) return undefined;
  const mime = str(span.attributes[INPUT_MIME_TYPE]);
  if (mime !== undefined && mime !== MIME_JSON) return undefined;
  const body = readJsonAttribute(raw, RequestBodyJson, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key: INPUT_VALUE });
  if (!body) return undefined;
  const bound = ctx.limits.maxMessagesPerRequest;
  const out: Message[] = [];
  if (body.messages) {
    for (const m of body.messages) {
      if (out.length >= bound) break;
      const msg = chatMessage(m, span, ctx, `${INPUT_VALUE} messages`);
      if (msg) out.push(msg);
    }
    if (body.messages.length > bound) reportSpan(span, ctx, 'warn', 'openinference.messages-clipped', `${INPUT_VALUE} holds ${body.messages.length} messages, past the ${bound}-message bound; only the first ${bound} were read`);
    return out;
  }
  if (body.input !== undefined) {
    if (body.instructions) out.push({ role: 'system', parts: [{ type: 'text', text: body.instructions }] });
    const items = typeof body.input === 'string' ? [body.input] : body.input;
    for (const it of items) {
      if (out.length >= bound) break;
      const msg = responsesItem(it, span, ctx, `${INPUT_VALUE} input`);
      if (msg) out.push(msg);
    }
    return out;
  }
  reportSpan(span, ctx, 'info', 'openinference.input-unrecognised', `${INPUT_VALUE} holds neither Chat Completions messages nor a Responses input; the window is not known`);
  return undefined;
}

interface ResponseBody {
  id?: string;
  output?: Message[];
}

/** One choice of a chat completion body (built once, not per span). */
const FirstChoiceJson = z.looseObject({ message: z.unknown() });

function readResponseBody(span: SpanData, ctx: ReadContext, wantOutput: boolean): ResponseBody {
  const raw = span.attributes[OUTPUT_VALUE];
  if (typeof raw !== 'string' || raw === REDACTED_VALUE) return {};
  const mime = str(span.attributes[OUTPUT_MIME_TYPE]);
  if (mime !== undefined && mime !== MIME_JSON) return {};
  if (mime === undefined && !raw.trimStart().startsWith('{')) return {};
  const body = readJsonAttribute(raw, ResponseBodyJson, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key: OUTPUT_VALUE });
  if (!body) return {};
  const out: ResponseBody = body.id ? { id: body.id } : {};
  if (!wantOutput) return out;
  if (body.choices) {
    // OpenInference records the first choice only; so do we.
    const first = FirstChoiceJson.safeParse(body.choices[0]);
    const m = first.success ? chatMessage(first.data.message, span, ctx, `${OUTPUT_VALUE} choices.0`) : undefined;
    out.output = m ? [m] : [];
  } else if (body.output) {
    out.output = [];
    for (const it of body.output) {
      const m = responsesItem(it, span, ctx, `${OUTPUT_VALUE} output`);
      if (m) out.output.push(m);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tool definitions

const ToolSchemaJson = z.looseObject({
  type: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional().nullable(),
  parameters: z.unknown().optional(),
  /** Anthropic's own tool form (`@arizeai/openinference-instrumentation-anthropic` writes it as given). */
  input_schema: z.unknown().optional(),
  function: z
    .looseObject({ name: z.string(), description: z.string().optional().nullable(), parameters: z.unknown().optional() })
    .optional(),
});

function toolDefinition(raw: AttrValue, span: SpanData, ctx: ReadContext, key: string): ToolDefinition | undefined {
  const t = readJsonAttribute(raw, ToolSchemaJson, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key });
  if (!t) return undefined;
  const name = t.function?.name ?? t.name;
  if (!name) {
    reportSpan(span, ctx, 'warn', 'openinference.tool-unnamed', `attribute ${key} names no tool; skipped`);
    return undefined;
  }
  const description = t.function ? t.function.description : t.description;
  const schema = t.function ? t.function.parameters : (t.parameters ?? t.input_schema);
  return { name, ...(description ? { description } : {}), ...(schema !== undefined ? { inputSchema: schema } : {}) };
}

/**
 * The `llm.tools.{k}.tool.json_schema` definitions of a span that is not read as OpenInference:
 * the genainormalizer processor maps an LLM span's messages to gen_ai.* but leaves these as they
 * were (it has no mapping for them), so the GenAI reader takes them from here. Bounded like readLlm.
 */
export function openInferenceToolDefinitions(span: SpanData, ctx: ReadContext): ToolDefinition[] | undefined {
  const bound = ctx.limits.maxMessagesPerRequest;
  const tools: AttrValue[] = [];
  let seen = false;
  for (const key in span.attributes) {
    if (!key.startsWith(LLM_TOOLS_PREFIX)) continue;
    const at = indexAt(key, LLM_TOOLS_PREFIX.length);
    if (!at || key.slice(at[1]) !== TOOL_JSON_SCHEMA || at[0] >= bound) continue;
    seen = true;
    tools[at[0]] = span.attributes[key]!;
  }
  if (!seen) return undefined;
  const out: ToolDefinition[] = [];
  for (let k = 0; k < tools.length; k++) {
    const raw = tools[k];
    if (raw === undefined) continue;
    const d = toolDefinition(raw, span, ctx, `${LLM_TOOLS_PREFIX}${k}.${TOOL_JSON_SCHEMA}`);
    if (d) out.push(d);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Span readers

/** OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT's default in the OpenTelemetry JS SDK. */
const SDK_DEFAULT_ATTRIBUTE_COUNT_LIMIT = 128;

function readLlm(span: SpanData, ctx: ReadContext): LlmRequest {
  const attrs = span.attributes;
  const bound = ctx.limits.maxMessagesPerRequest;
  const input = newFamily();
  const output = newFamily();
  const tools: (AttrValue | undefined)[] = [];
  let toolsSeen = false;
  let toolsClipped = false;

  // The one pass over the span's keys.
  let keyCount = 0;
  for (const key in attrs) {
    keyCount++;
    const value = attrs[key]!;
    if (key.startsWith(LLM_INPUT_MESSAGES_PREFIX)) addMessageKey(input, key, LLM_INPUT_MESSAGES_PREFIX.length, value, bound);
    else if (key.startsWith(LLM_OUTPUT_MESSAGES_PREFIX)) addMessageKey(output, key, LLM_OUTPUT_MESSAGES_PREFIX.length, value, bound);
    else if (key.startsWith(LLM_TOOLS_PREFIX)) {
      toolsSeen = true;
      const at = indexAt(key, LLM_TOOLS_PREFIX.length);
      if (!at || key.slice(at[1]) !== TOOL_JSON_SCHEMA) continue;
      if (at[0] >= bound) toolsClipped = true;
      else tools[at[0]] = value;
    }
  }

  let inputMessages: Message[] = [];
  let inputContent: LlmRequest['inputContent'] = 'not-captured';
  if (input.seen) {
    const c = convertFamily(input, LLM_INPUT_MESSAGES_PREFIX, span, ctx);
    inputMessages = c.messages;
    if (c.redacted) {
      reportSpan(span, ctx, 'info', 'openinference.input-redacted', 'has redacted input text (OPENINFERENCE_HIDE_INPUT_TEXT); the window is not known');
    } else inputContent = 'captured';
    // The SDK keeps only the first OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT attributes (128 by default) and
    // drops the rest silently. OpenInference writes input.value before the flattened messages and
    // the output last, so a span that hit the limit holds a prefix of the window and no output.
    // Then (and only then) the whole request in input.value is the better record of the window.
    const anthropic = c.redacted ? undefined : anthropicInputOf(span, ctx);
    const langchain = c.redacted || anthropic !== undefined ? undefined : langchainInputOf(span, ctx);
    const suspect = anthropic === undefined && langchain === undefined && keyCount >= SDK_DEFAULT_ATTRIBUTE_COUNT_LIMIT || (!output.seen && attrs[OUTPUT_VALUE] === undefined);
    if (anthropic !== undefined) inputMessages = anthropic;
    else if (langchain !== undefined) inputMessages = langchain;
    else if (suspect && !c.redacted) {
      const fromBody = inputFromRequestBody(span, ctx);
      if (fromBody && fromBody.length > inputMessages.length) {
        inputMessages = fromBody;
        reportSpan(span, ctx, 'warn', 'openinference.attributes-dropped', `holds ${c.messages.length} flattened input messages but ${INPUT_VALUE} holds ${fromBody.length}: attributes were dropped (span attribute count limit?); the window is read from ${INPUT_VALUE}`);
      } else if (keyCount >= SDK_DEFAULT_ATTRIBUTE_COUNT_LIMIT) {
        reportSpan(span, ctx, 'info', 'openinference.attribute-limit', `has ${keyCount} attributes, the SDK's default count limit; later attributes may have been dropped`);
      }
    }
  } else {
    // No flattened messages (OPENINFERENCE_HIDE_INPUT_MESSAGES, or an instrumentation that writes
    // only the body): fall back to the whole request in input.value.
    const fromBody = inputFromRequestBody(span, ctx);
    if (fromBody) {
      inputMessages = fromBody;
      inputContent = 'captured';
    }
  }

  const outputText: string[] = [];
  const toolCalls: ToolCall[] = [];
  let outputContent: LlmRequest['outputContent'] = 'not-captured';
  let outMessages: Message[] | undefined;
  if (output.seen) {
    const c = convertFamily(output, LLM_OUTPUT_MESSAGES_PREFIX, span, ctx);
    outMessages = c.messages;
    if (c.redacted) reportSpan(span, ctx, 'info', 'openinference.output-redacted', 'has redacted output text (OPENINFERENCE_HIDE_OUTPUT_TEXT); the answer is not known');
    else outputContent = 'captured';
  }
  const body = readResponseBody(span, ctx, !output.seen);
  // LangChain's serialised answer keeps the tool-call ids (and the provider's response id) that
  // the flattened output keys drop; it is the better record when it is there and not hidden.
  const lcAnswer = outputContent === 'captured' || !output.seen ? langchainOutputOf(span, ctx) : undefined;
  if (lcAnswer) {
    outMessages = [{ role: 'assistant', parts: [...lcAnswer.texts.map((text) => ({ type: 'text' as const, text })), ...lcAnswer.toolCalls.map((c) => ({ type: 'tool-call' as const, ...c }))] }];
    outputContent = 'captured';
    if (!body.id && lcAnswer.id) body.id = lcAnswer.id;
  }
  if (!outMessages && body.output) {
    outMessages = body.output;
    outputContent = 'captured';
  }
  for (const m of outMessages ?? []) {
    if (m.role !== 'assistant') continue;
    for (const p of m.parts) {
      if (p.type === 'text') {
        if (p.text !== '') outputText.push(p.text);
      } else if (p.type === 'tool-call') toolCalls.push({ ...(p.id ? { id: p.id } : {}), name: p.name, arguments: p.arguments });
    }
  }

  let toolDefinitions: ToolDefinition[] | undefined;
  if (toolsSeen) {
    toolDefinitions = [];
    for (let k = 0; k < tools.length; k++) {
      const raw = tools[k];
      if (raw === undefined) continue;
      const d = toolDefinition(raw, span, ctx, `${LLM_TOOLS_PREFIX}${k}.${TOOL_JSON_SCHEMA}`);
      if (d) toolDefinitions.push(d);
    }
    if (toolsClipped) reportSpan(span, ctx, 'warn', 'openinference.tools-clipped', `has tool definitions past the ${bound} bound; only the first ${bound} were read`);
  }

  const conversationId = idString(attrs[SESSION_ID]);
  const model = str(attrs[LLM_MODEL_NAME]) ?? str(attrs[LLM_RESPONSE_MODEL_NAME]) ?? str(attrs[LLM_REQUEST_MODEL_NAME]);
  if (!body.id) reportSpan(span, ctx, 'info', 'openinference.response-id-missing', `has no response id in ${OUTPUT_VALUE}; the request cannot be matched by id`);
  return {
    kind: 'llm-request',
    span: refOf(span),
    convention: 'openinference',
    tenant: ctx.tenant,
    ...(conversationId ? { conversationId } : {}),
    ...(body.id ? { responseId: body.id } : {}),
    ...(model ? { model } : {}),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    inputContent,
    outputContent,
    input: inputMessages,
    ...(toolDefinitions ? { toolDefinitions } : {}),
    outputText,
    toolCalls,
  };
}

function readTool(span: SpanData, ctx: ReadContext): ToolExecution {
  const attrs = span.attributes;
  const toolName = str(attrs[TOOL_NAME]) || span.name;
  if (!str(attrs[TOOL_NAME])) reportSpan(span, ctx, 'info', 'openinference.tool-name-missing', `has no ${TOOL_NAME}; the span name is used`);
  const callId = idString(attrs[TOOL_ID]);
  const rawArgs = attrs[INPUT_VALUE];
  let args: unknown;
  if (typeof rawArgs === 'string' && rawArgs !== REDACTED_VALUE) {
    const mime = str(attrs[INPUT_MIME_TYPE]);
    const t = rawArgs.trimStart();
    args = mime === MIME_JSON || (mime === undefined && (t.startsWith('{') || t.startsWith('['))) ? parseJsonOrRaw(rawArgs, span, ctx, INPUT_VALUE) : rawArgs;
  } else if (rawArgs !== undefined && rawArgs !== REDACTED_VALUE) args = rawArgs;
  const rawResult = attrs[OUTPUT_VALUE];
  // The result stays the string the tool returned: that is what the model is shown. A LangChain
  // tool's output is its serialised ToolMessage: the content is what the model was shown, and the
  // message names the call (the TOOL span itself has no tool.id).
  let result: unknown = rawResult === REDACTED_VALUE ? undefined : rawResult;
  let id = callId;
  if (looksLangChain(rawResult)) {
    const body = readJsonAttribute(rawResult, LcToolOutputJson, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key: OUTPUT_VALUE });
    const msg = body ? lcToolOutputOf(body) : undefined;
    if (msg) {
      result = msg.result;
      id ??= msg.callId;
    }
  }
  const conversationId = idString(attrs[SESSION_ID]);
  return toolExecutionOf(span, ctx.tenant, 'openinference', { toolName, callId: id, conversationId, arguments: args, result });
}

function readAgent(span: SpanData, ctx: ReadContext): AgentTurn {
  const conversationId = idString(span.attributes[SESSION_ID]);
  const agentName = str(span.attributes[AGENT_NAME]) || span.name;
  return {
    kind: 'agent-turn',
    span: refOf(span),
    convention: 'openinference',
    tenant: ctx.tenant,
    ...(conversationId ? { conversationId } : {}),
    ...(agentName ? { agentName } : {}),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
  };
}

function kindOf(span: SpanData): string | undefined {
  const k = span.attributes[OI_SPAN_KIND];
  return typeof k === 'string' ? k.toUpperCase() : undefined;
}

export const openInference: Convention = {
  id: 'openinference',
  claims(span: SpanData): boolean {
    const k = kindOf(span);
    return k === OI_KIND_LLM || k === OI_KIND_TOOL || k === OI_KIND_AGENT;
  },
  read(span: SpanData, ctx: ReadContext): ModelEvent[] {
    switch (kindOf(span)) {
      case OI_KIND_LLM:
        return [readLlm(span, ctx)];
      case OI_KIND_TOOL:
        return [readTool(span, ctx)];
      case OI_KIND_AGENT:
        return [readAgent(span, ctx)];
      default:
        return [];
    }
  },
};
