// App-side helpers, part 2: `traceChat`, an adapter that records one OpenAI Chat Completions call
// (request and response objects, typed structurally: no `openai` import) as a GenAI-semconv
// `chat {model}` span with JSON content attributes in the semconv parts shape.
// Must never alter the request or the response, never throw over an odd message shape (it records
// what it can), and never send anything anywhere but span attributes.

import { context, SpanKind, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import {
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OPERATION_NAME,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_RESPONSE_FINISH_REASONS,
  GEN_AI_RESPONSE_ID,
  GEN_AI_RESPONSE_MODEL,
  GEN_AI_TOOL_DEFINITIONS,
} from '../conventions/keys-genai.js';
import { currentTurn, helperTracer, runInSpan, turnAttributes } from './turn.js';

// GenAI keys the conventions module does not spell (the readers never need them).
const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
const GEN_AI_REQUEST_MAX_TOKENS = 'gen_ai.request.max_tokens';
const GEN_AI_REQUEST_TEMPERATURE = 'gen_ai.request.temperature';

/** The parts of `openai`'s ChatCompletionCreateParams this adapter reads. */
export interface ChatRequestLike {
  model: string;
  messages: readonly ChatMessageLike[];
  tools?: readonly { type?: string; function?: { name: string; description?: string; parameters?: unknown } }[];
  temperature?: number | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
}

export interface ChatToolCallLike {
  id?: string;
  type?: string;
  function?: { name: string; arguments?: string };
}

export interface ChatMessageLike {
  role: string;
  content?: string | readonly { type: string; text?: string }[] | null;
  tool_calls?: readonly ChatToolCallLike[] | null;
  tool_call_id?: string;
  name?: string;
}

/** The parts of `openai`'s ChatCompletion this adapter reads. */
export interface ChatResponseLike {
  id?: string;
  model?: string;
  choices?: readonly { index?: number; finish_reason?: string | null; message?: ChatMessageLike }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

export interface TraceChatOptions {
  /** `gen_ai.provider.name`. Default `openai`. */
  provider?: string;
  /** false: record no message content (only model, ids, finish reasons, usage). Default true. */
  captureContent?: boolean;
  tracer?: Tracer;
}

type Part =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id?: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id?: string; response: unknown }
  | { type: string };

interface SemconvMessage {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

function parseArguments(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function textParts(content: ChatMessageLike['content']): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  const out: Part[] = [];
  for (const p of content as readonly { type: string; text?: string }[]) {
    if (p && p.type === 'text' && typeof p.text === 'string') out.push({ type: 'text', content: p.text });
    else if (p && typeof p.type === 'string') out.push({ type: p.type });
  }
  return out;
}

function toolCallParts(calls: ChatMessageLike['tool_calls']): Part[] {
  if (!Array.isArray(calls)) return [];
  const out: Part[] = [];
  for (const c of calls as readonly ChatToolCallLike[]) {
    if (!c?.function?.name) continue;
    const part: Part = { type: 'tool_call', name: c.function.name, arguments: parseArguments(c.function.arguments) };
    if (c.id !== undefined) (part as { id?: string }).id = c.id;
    out.push(part);
  }
  return out;
}

/** An OpenAI chat message in the GenAI semconv input-message shape. */
export function toSemconvMessage(m: ChatMessageLike): SemconvMessage {
  const role = m.role === 'developer' ? 'system' : m.role;
  if (role === 'tool') {
    const response = typeof m.content === 'string' ? m.content : textParts(m.content).map((p) => ('content' in p ? p.content : '')).join('');
    const part: Part = m.tool_call_id !== undefined ? { type: 'tool_call_response', id: m.tool_call_id, response } : { type: 'tool_call_response', response };
    return { role, parts: [part] };
  }
  return { role, parts: [...textParts(m.content), ...toolCallParts(m.tool_calls)] };
}

/** OpenAI finish reasons in semconv spelling (`tool_calls` -> `tool_call`). */
export function semconvFinishReason(r: string | null | undefined): string {
  if (r === 'tool_calls' || r === 'function_call') return 'tool_call';
  return r ?? 'unknown';
}

export function chatRequestAttributes(request: ChatRequestLike, opts: TraceChatOptions = {}): Attributes {
  const a: Attributes = {
    [GEN_AI_OPERATION_NAME]: 'chat',
    [GEN_AI_PROVIDER_NAME]: opts.provider ?? 'openai',
    [GEN_AI_REQUEST_MODEL]: request.model,
  };
  if (typeof request.temperature === 'number') a[GEN_AI_REQUEST_TEMPERATURE] = request.temperature;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === 'number') a[GEN_AI_REQUEST_MAX_TOKENS] = maxTokens;
  if (opts.captureContent !== false) {
    a[GEN_AI_INPUT_MESSAGES] = JSON.stringify((request.messages ?? []).map(toSemconvMessage));
    if (Array.isArray(request.tools) && request.tools.length > 0) {
      const defs = request.tools
        .filter((t) => t?.function?.name)
        .map((t) => ({ type: t.type ?? 'function', name: t.function!.name, ...(t.function!.description !== undefined ? { description: t.function!.description } : {}), ...(t.function!.parameters !== undefined ? { parameters: t.function!.parameters } : {}) }));
      a[GEN_AI_TOOL_DEFINITIONS] = JSON.stringify(defs);
    }
  }
  return a;
}

export function recordChatResponse(span: Span, response: ChatResponseLike | undefined, opts: TraceChatOptions = {}): void {
  if (!response || typeof response !== 'object') return;
  if (typeof response.id === 'string') span.setAttribute(GEN_AI_RESPONSE_ID, response.id);
  if (typeof response.model === 'string') span.setAttribute(GEN_AI_RESPONSE_MODEL, response.model);
  const choices = Array.isArray(response.choices) ? response.choices : [];
  if (choices.length > 0) span.setAttribute(GEN_AI_RESPONSE_FINISH_REASONS, choices.map((c) => c?.finish_reason ?? 'unknown'));
  if (opts.captureContent !== false && choices.length > 0) {
    const out: SemconvMessage[] = choices.map((c) => ({ ...toSemconvMessage(c?.message ?? { role: 'assistant' }), role: 'assistant', finish_reason: semconvFinishReason(c?.finish_reason) }));
    span.setAttribute(GEN_AI_OUTPUT_MESSAGES, JSON.stringify(out));
  }
  const u = response.usage;
  if (u && typeof u.prompt_tokens === 'number') span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, u.prompt_tokens);
  if (u && typeof u.completion_tokens === 'number') span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, u.completion_tokens);
}

/**
 * Records one Chat Completions call: `traceChat(request, () => client.chat.completions.create(request))`.
 * The span (`chat {model}`, CLIENT) carries the request's messages and tools, the response's id,
 * model, finish reasons, output message and usage, and the turn's conversation id and grounds.
 * Returns the response unchanged. Streaming responses are not read (record the final object).
 */
export function traceChat<R extends ChatResponseLike>(request: ChatRequestLike, fn: (span: Span) => R | Promise<R>, opts: TraceChatOptions = {}): Promise<R> {
  const turn = currentTurn();
  const attributes = turnAttributes(turn, chatRequestAttributes(request, opts));
  const span = helperTracer(opts.tracer).startSpan(`chat ${request.model}`, { kind: SpanKind.CLIENT, attributes });
  const ctx = trace.setSpan(context.active(), span);
  return runInSpan(span, ctx, fn, (s, r) => recordChatResponse(s, r, opts));
}
