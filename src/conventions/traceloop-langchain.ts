// OpenLLMetry's LangChain instrumentation (`@traceloop/instrumentation-langchain`, LangGraph and
// `createAgent` under it). Its chat spans record every message as text only (an assistant message
// that called tools is an empty text, a tool result is text under role `tool` with no id), but each
// tool LangChain ran is an `execute_tool` span whose `traceloop.entity.output` is the serialised
// ToolMessage (`name`, `tool_call_id`, `status`, `content`) and whose `traceloop.entity.input` is
// `{args: [<the arguments as JSON text>]}`; a tool that threw has an ERROR span and no output, and
// its ToolMessage (status `error`) is the output of the ToolNode's `workflow` span instead.
// This file: reads those as tool executions (name, call id, arguments, result, status), and
// rebuilds a chat span's window from them: each tool message is the result of the one call whose
// ToolMessage content is exactly its text, and the empty assistant message before it becomes that
// call. Must never guess: a group of tool messages of which one matches no call, or more than one,
// stays as it was recorded (text); never throws; never changes the spans it is given (copies).

import type { ToolExecution } from '../model/agent.js';
import type { SpanData } from '../model/telemetry.js';
import type { Limits } from '../limits.js';
import type { Convention, ReadContext } from './types.js';
import { GEN_AI_INPUT_MESSAGES, GEN_AI_OPERATION_NAME, GEN_AI_RESPONSE_FINISH_REASONS, INFERENCE_OPERATIONS, OP_EXECUTE_TOOL } from './keys-genai.js';
import { isRecord, nonBlank, readJsonOrRaw, reportOn, type GenAiScope } from './genai-parts.js';
import { toolExecutionOf } from './tool-status.js';

/** The instrumentation's scope name: every span it writes carries it. */
export const TRACELOOP_LANGCHAIN_SCOPE = '@traceloop/instrumentation-langchain';
export const TRACELOOP_ENTITY_INPUT = 'traceloop.entity.input';
export const TRACELOOP_ENTITY_OUTPUT = 'traceloop.entity.output';
/** The operation name it gives chain (node) spans. */
const OP_WORKFLOW = 'workflow';
/** How a ToolNode's output starts: `{"messages":[<a ToolMessage>` (checked before any parse). */
const TOOL_NODE_OUTPUT_PREFIX = '{"messages":[{"lc":1,"type":"constructor","id":["langchain_core","messages","ToolMessage"]';
const TOOL_MESSAGE = 'ToolMessage';
const AI_MESSAGES: ReadonlySet<string> = new Set(['AIMessage', 'AIMessageChunk']);

/** One call LangChain ran, as its ToolMessage (and its span's input) recorded it. */
export interface LcCall {
  callId: string;
  name: string;
  /** The arguments as recorded (a JSON text, or a value); undefined when not recorded. */
  arguments: unknown;
  /** The ToolMessage's content as the chat span shows it: the string, or the JSON of a non-string content. */
  shown: string;
  /** The ToolMessage says `status: "error"` (a thrown tool, caught by the ToolNode). */
  error: boolean;
}

const isScope = (span: SpanData) => span.scope.name === TRACELOOP_LANGCHAIN_SCOPE;

/** O(1): a span of this instrumentation that may record calls (a tool span, or a ToolNode's output). */
export function recordsLcCalls(span: SpanData): boolean {
  if (!isScope(span)) return false;
  const op = span.attributes[GEN_AI_OPERATION_NAME];
  if (op === OP_EXECUTE_TOOL) return true;
  const out = span.attributes[TRACELOOP_ENTITY_OUTPUT];
  return op === OP_WORKFLOW && typeof out === 'string' && out.startsWith(TOOL_NODE_OUTPUT_PREFIX);
}

/** O(1): a chat span of this instrumentation (its window is rebuilt from the calls). */
export function isLcChatSpan(span: SpanData): boolean {
  const op = span.attributes[GEN_AI_OPERATION_NAME];
  return isScope(span) && typeof op === 'string' && INFERENCE_OPERATIONS.has(op);
}

function parse(value: unknown, limits: Limits): unknown {
  if (typeof value !== 'string' || value.length > limits.maxJsonAttributeBytes) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The class of a serialised LangChain message (`{lc, type: "constructor", id: [..., class], kwargs}`), with its kwargs. */
function lcMessage(raw: unknown): { cls: string; kwargs: Record<string, unknown> } | undefined {
  if (!isRecord(raw) || raw.type !== 'constructor' || !Array.isArray(raw.id) || !isRecord(raw.kwargs)) return undefined;
  const cls = raw.id[raw.id.length - 1];
  return typeof cls === 'string' ? { cls, kwargs: raw.kwargs } : undefined;
}

/** A ToolMessage as a call (undefined without a call id and a tool name). */
function callOfToolMessage(raw: unknown, args: unknown): LcCall | undefined {
  const m = lcMessage(raw);
  if (!m || m.cls !== TOOL_MESSAGE) return undefined;
  const callId = nonBlank(m.kwargs.tool_call_id);
  const name = nonBlank(m.kwargs.name);
  if (callId === undefined || name === undefined) return undefined;
  const content = m.kwargs.content;
  return { callId, name, arguments: args, shown: typeof content === 'string' ? content : (JSON.stringify(content ?? '') ?? ''), error: m.kwargs.status === 'error' };
}

/** The model's calls (id -> arguments) among serialised messages (an AIMessage's `tool_calls`). */
function argumentsById(messages: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!Array.isArray(messages)) return out;
  for (const raw of messages) {
    const m = lcMessage(raw);
    if (!m || !AI_MESSAGES.has(m.cls) || !Array.isArray(m.kwargs.tool_calls)) continue;
    for (const c of m.kwargs.tool_calls) if (isRecord(c) && typeof c.id === 'string' && c.id !== '' && !out.has(c.id)) out.set(c.id, c.args);
  }
  return out;
}

/**
 * The calls a span records: an execute_tool span's own ToolMessage (its arguments from the span's
 * input), or the error ToolMessages of a ToolNode's output (a thrown tool's span has none; their
 * arguments from the model's calls in the node's input). A ToolNode's successful ToolMessages are
 * their tool spans' (read there, not twice).
 */
export function lcCallsOf(span: SpanData, limits: Limits): LcCall[] {
  if (!recordsLcCalls(span)) return [];
  const output = parse(span.attributes[TRACELOOP_ENTITY_OUTPUT], limits);
  if (span.attributes[GEN_AI_OPERATION_NAME] === OP_EXECUTE_TOOL) {
    const input = parse(span.attributes[TRACELOOP_ENTITY_INPUT], limits);
    const raw = isRecord(input) && Array.isArray(input.args) && input.args.length === 1 ? input.args[0] : undefined;
    // The tool's input as LangChain passed it: the model's arguments as JSON text, read as their value.
    const args = typeof raw === 'string' && raw.trimStart().startsWith('{') ? (parse(raw, limits) ?? raw) : raw;
    const call = callOfToolMessage(output, args);
    return call ? [call] : [];
  }
  if (!isRecord(output) || !Array.isArray(output.messages)) return [];
  const input = parse(span.attributes[TRACELOOP_ENTITY_INPUT], limits);
  const args = argumentsById(isRecord(input) ? input.messages : undefined);
  const out: LcCall[] = [];
  for (const raw of output.messages) {
    const call = callOfToolMessage(raw, undefined);
    if (call?.error) out.push({ ...call, arguments: args.get(call.callId) });
  }
  return out;
}

function executionOf(span: SpanData, ctx: ReadContext, call: LcCall): ToolExecution {
  const scope: GenAiScope = { span, limits: ctx.limits, diagnostics: ctx.diagnostics };
  const ex = toolExecutionOf(span, ctx.tenant, 'genai-semconv', {
    toolName: call.name,
    callId: call.callId,
    arguments: readJsonOrRaw(call.arguments, TRACELOOP_ENTITY_INPUT, scope),
    result: readJsonOrRaw(call.shown, TRACELOOP_ENTITY_OUTPUT, scope),
  });
  // The ToolMessage's own status is the call's record of failure; its words are what the model was shown.
  if (call.error) return { ...ex, status: 'error', ...(call.shown.trim() !== '' ? { errorMessage: call.shown } : {}) };
  return ex;
}

/**
 * The tool spans of the instrumentation as executions. A tool span without a ToolMessage (the tool
 * threw: its ToolNode's output holds the call; or the tool ran outside a tool call: no id, and the
 * span names only the tool's class) is not read, and says why.
 */
export const traceloopLangChain: Convention = {
  id: 'genai-semconv',
  claims: recordsLcCalls,
  read(span: SpanData, ctx: ReadContext) {
    const calls = lcCallsOf(span, ctx.limits);
    if (calls.length === 0 && span.attributes[GEN_AI_OPERATION_NAME] === OP_EXECUTE_TOOL) {
      const why = span.status.code === 2 ? 'the tool threw; its call is read from the ToolNode\'s ToolMessage' : 'no ToolMessage with a call id and a tool name in traceloop.entity.output';
      reportOn({ span, limits: ctx.limits, diagnostics: ctx.diagnostics }, 'info', 'langchain.tool-span-not-read', `LangChain tool span not read as a call: ${why}`);
    }
    return calls.map((c) => executionOf(span, ctx, c));
  },
};

/** Finish reasons that say the model chose tool calls (the instrumentation maps OpenAI's, Anthropic's and others' to `tool_call`). */
const TOOL_CALL_FINISH: ReadonlySet<string> = new Set(['tool_call', 'tool_calls', 'tool_use']);

/**
 * O(1): a chat span of the instrumentation whose response chose tool calls it does not record (its
 * output is text only): they are read from the next request's window (the seams' unrecorded choice).
 */
export function choiceNotRecorded(span: SpanData): boolean {
  if (!isLcChatSpan(span)) return false;
  const reasons = span.attributes[GEN_AI_RESPONSE_FINISH_REASONS];
  return Array.isArray(reasons) ? reasons.some((r) => typeof r === 'string' && TOOL_CALL_FINISH.has(r)) : typeof reasons === 'string' && TOOL_CALL_FINISH.has(reasons);
}

// ---------------------------------------------------------------------------------------------
// The window, rebuilt.

/** Finds the call whose content is `shown` for a window's tool message; `used` holds the calls this window took already. */
export type LcCallFinder = (shown: string, used: ReadonlySet<LcCall>) => LcCall | undefined;

type Part = { type: 'text'; content: string } | { type: 'tool_call'; id: string; name: string; arguments: unknown } | { type: 'tool_call_response'; id: string; name: string; response: string };

/** The text of a recorded message: its parts' texts; a text that is LangChain content blocks (`[{type:"text",text}]`, JSON) is their texts. */
function textOf(message: Record<string, unknown>): string | undefined {
  if (!Array.isArray(message.parts)) return undefined;
  const texts: string[] = [];
  for (const p of message.parts) {
    if (!isRecord(p) || p.type !== 'text' || typeof p.content !== 'string') return undefined;
    texts.push(p.content);
  }
  const text = texts.join('');
  if (text.startsWith('[{') && text.endsWith('}]')) {
    try {
      const blocks = JSON.parse(text) as unknown;
      if (Array.isArray(blocks) && blocks.length > 0 && blocks.every((b) => isRecord(b) && b.type === 'text' && typeof b.text === 'string')) return blocks.map((b) => (b as { text: string }).text).join('');
    } catch {
      /* the text as it is */
    }
  }
  return text;
}

/**
 * A chat span of the instrumentation with its window rebuilt (a copy), or the span itself when
 * nothing could be: every run of tool messages after an empty assistant message whose texts each
 * match exactly one call (in order, a call used once per window) becomes that assistant's calls
 * and their results; a run with any unmatched message is left as recorded.
 */
export function rebuildLcWindow(span: SpanData, find: LcCallFinder, limits: Limits): SpanData {
  if (!isLcChatSpan(span)) return span;
  const raw = span.attributes[GEN_AI_INPUT_MESSAGES];
  const messages = parse(raw, limits);
  if (!Array.isArray(messages) || !messages.every(isRecord)) return span;
  const texts = messages.map((m) => textOf(m as Record<string, unknown>));
  const out: { role: unknown; parts: Part[] }[] = [];
  const used = new Set<LcCall>();
  let changed = false;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Record<string, unknown>;
    const text = texts[i];
    if (text === undefined) return span;
    if (m.role === 'assistant' && text === '' && messages[i + 1]?.role === 'tool') {
      let j = i + 1;
      const calls: LcCall[] = [];
      const taken = new Set(used);
      for (; j < messages.length && (messages[j] as Record<string, unknown>).role === 'tool'; j++) {
        const shown = texts[j];
        const call = shown === undefined ? undefined : find(shown, taken);
        if (!call) break;
        calls.push(call);
        taken.add(call);
      }
      const end = i + 1 + calls.length;
      if (end === j && (end === messages.length || (messages[end] as Record<string, unknown>).role !== 'tool')) {
        for (const c of calls) used.add(c);
        out.push({ role: 'assistant', parts: calls.map((c) => ({ type: 'tool_call', id: c.callId, name: c.name, arguments: c.arguments })) });
        for (const c of calls) out.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: c.callId, name: c.name, response: c.shown }] });
        changed = true;
        i = end - 1;
        continue;
      }
    }
    if (text !== (m.parts as { content: string }[]).map((p) => p.content).join('')) changed = true;
    out.push({ role: m.role, parts: [{ type: 'text', content: text }] });
  }
  return changed ? { ...span, attributes: { ...span.attributes, [GEN_AI_INPUT_MESSAGES]: JSON.stringify(out) } } : span;
}
