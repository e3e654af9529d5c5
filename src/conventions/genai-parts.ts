// Parses GenAI message content into the normalised model: semconv parts messages
// (`{role, parts:[text | tool_call | tool_call_response | …]}`), OpenAI chat-form messages
// (`{role, content, tool_calls, tool_call_id}`), system instructions and tool definitions, from
// JSON strings or structured AnyValues alike. Shared by every GenAI reader (span, logs, events).
// Must never throw or guess: a bad shape becomes one diagnostic per attribute and is skipped,
// unknown part types are ignored, and absent arguments stay undefined (not captured), never {}.

import type { Message, Part, Role, ToolCall, ToolDefinition } from '../model/agent.js';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import { DiagnosticList, type DiagnosticLevel, type DiagnosticSink } from '../model/diagnostics.js';
import type { Limits } from '../limits.js';
import { ANY_ARRAY, ANY_VALUE, readJsonAttribute } from './json-attribute.js';
import { PART_CALL_ID } from './keys-genai.js';

/** What every GenAI reading helper needs: the span it reports against, the bounds and the sink. */
export interface GenAiScope {
  span: SpanData;
  limits: Limits;
  diagnostics: DiagnosticSink;
}

export function reportOn(scope: GenAiScope, level: DiagnosticLevel, code: string, what: string): void {
  scope.diagnostics.report({
    level,
    code,
    message: `span "${scope.span.name.slice(0, 80)}" ${what}`,
    traceId: scope.span.traceId,
    spanId: scope.span.spanId,
  });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** A string value, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A non-blank string value, or undefined (ids and names: `""` and `null` mean "not recorded"). */
export function nonBlank(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** Reads a JSON-string or structured attribute that must be an array; undefined when absent or unreadable. */
export function readArrayAttribute(value: AttrValue | undefined, key: string, scope: GenAiScope): unknown[] | undefined {
  return readJsonAttribute(value, ANY_ARRAY, { span: scope.span, limits: scope.limits, diagnostics: scope.diagnostics, key });
}

function looksLikeJson(s: string): boolean {
  const t = s.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/**
 * A value that may be a JSON string (tool-call arguments, tool results): parsed, bounded, when it is
 * JSON; the raw string when it is not (no diagnostic: plain text is a legitimate value); the value
 * itself when already structured. Over the size or depth bound: a diagnostic and the raw string.
 */
export function readJsonOrRaw(value: unknown, key: string, scope: GenAiScope): unknown {
  if (typeof value !== 'string' || !looksLikeJson(value)) return value;
  const local = new DiagnosticList(4);
  const parsed = readJsonAttribute(value, ANY_VALUE, { span: scope.span, limits: scope.limits, diagnostics: local, key });
  if (parsed !== undefined) return parsed;
  for (const d of local.items) if (d.code !== 'attribute.json-invalid') scope.diagnostics.report(d);
  return value;
}

const ROLES: Readonly<Record<string, Role>> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

export function roleOf(v: unknown): Role | undefined {
  return typeof v === 'string' ? ROLES[v.toLowerCase()] : undefined;
}

/** Counts the bad items of one attribute so it yields one diagnostic, not one per item. */
export class ShapeProblems {
  count = 0;
  first = '';
  add(why: string): void {
    if (this.count === 0) this.first = why;
    this.count++;
  }
  flush(scope: GenAiScope, where: string): void {
    if (this.count > 0) reportOn(scope, 'warn', 'message.shape-invalid', `${where}: ${this.count} item(s) of an unexpected shape were skipped (first: ${this.first})`);
  }
}

function toolCallPart(id: unknown, callId: unknown, name: unknown, hasArguments: boolean, args: unknown, scope: GenAiScope, where: string, problems: ShapeProblems): Part | undefined {
  const toolName = nonBlank(name);
  if (toolName === undefined) {
    problems.add('a tool call without a name');
    return undefined;
  }
  const chosenId = nonBlank(callId) ?? nonBlank(id);
  return {
    type: 'tool-call',
    ...(chosenId !== undefined ? { id: chosenId } : {}),
    name: toolName,
    // Absent = not captured (undefined); null = the call really had null arguments.
    arguments: hasArguments ? readJsonOrRaw(args, `${where} tool-call arguments`, scope) : undefined,
  };
}

/** One semconv part (`{type, …}`). Unknown types (reasoning, blob, file, uri, server_tool_call…) are ignored. */
function partOf(raw: unknown, scope: GenAiScope, where: string, problems: ShapeProblems): Part | undefined {
  if (!isRecord(raw) || typeof raw.type !== 'string') {
    problems.add('a part that is not an object with a string `type`');
    return undefined;
  }
  switch (raw.type) {
    case 'text':
    case 'refusal': {
      const text = str(raw.content) ?? str(raw.text);
      if (text === undefined) {
        problems.add(`a ${raw.type} part without string content`);
        return undefined;
      }
      return { type: 'text', text };
    }
    case 'tool_call':
      return toolCallPart(raw.id, raw[PART_CALL_ID], raw.name, 'arguments' in raw, raw.arguments, scope, where, problems);
    case 'tool_call_response': {
      // The schema says `response`; a registry example writes `result`. Accept both.
      const result = 'response' in raw ? raw.response : raw.result;
      const id = nonBlank(raw[PART_CALL_ID]) ?? nonBlank(raw.id);
      return { type: 'tool-result', ...(id !== undefined ? { id } : {}), result };
    }
    default:
      return undefined;
  }
}

/** AI SDK tool-result `output` (`{type:"json"|"text"|"error-text"|…, value}`) unwraps to its value. */
function aiSdkOutputValue(c: Record<string, unknown>): unknown {
  if (isRecord(c.output) && typeof c.output.type === 'string' && 'value' in c.output) return c.output.value;
  return 'output' in c ? c.output : c.result;
}

/**
 * Parts of an OpenAI-form `content`: a string, or an array of text items
 * (`{type:"text"|"input_text"|"output_text", text}`) and, as Traceloop's SDK copies AI SDK prompts
 * into `gen_ai.input.messages`, AI SDK `tool-call` / `tool-result` items.
 */
function contentParts(content: unknown, scope: GenAiScope, where: string, problems: ShapeProblems): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (content === null || content === undefined) return [];
  if (Array.isArray(content)) {
    const out: Part[] = [];
    for (const c of content) {
      if (typeof c === 'string') out.push({ type: 'text', text: c });
      else if (!isRecord(c)) continue;
      else if (c.type === 'tool-call') {
        const hasArgs = 'input' in c || 'args' in c;
        const part = toolCallPart(c.toolCallId, undefined, c.toolName, hasArgs, 'input' in c ? c.input : c.args, scope, where, problems);
        if (part) out.push(part);
      } else if (c.type === 'tool-result') {
        const id = nonBlank(c.toolCallId);
        const name = nonBlank(c.toolName);
        out.push({ type: 'tool-result', ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}), result: aiSdkOutputValue(c) });
      } else if (typeof c.text === 'string') out.push({ type: 'text', text: c.text });
      else if (c.type === 'text' && typeof c.content === 'string') out.push({ type: 'text', text: c.content });
      // Images, audio and other content parts carry no text: ignored.
    }
    return out;
  }
  problems.add('a message content that is neither a string nor an array');
  return [];
}

/** An OpenAI chat-form message (`{role, content, tool_calls, tool_call_id}`), role already mapped. */
export function openAiFormParts(m: Record<string, unknown>, role: Role, scope: GenAiScope, where: string, problems: ShapeProblems): Part[] {
  if (role === 'tool') {
    const id = nonBlank(m.tool_call_id) ?? nonBlank(m.id);
    let result: unknown = m.content;
    if (Array.isArray(result)) {
      const parts = contentParts(result, scope, where, problems);
      // AI SDK form: one tool message may hold several results, each with its own id.
      if (parts.some((p) => p.type === 'tool-result')) return parts.filter((p) => p.type === 'tool-result');
      result = parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    }
    return [{ type: 'tool-result', ...(id !== undefined ? { id } : {}), result: result === null ? undefined : result }];
  }
  const parts = contentParts(m.content, scope, where, problems);
  if (Array.isArray(m.tool_calls)) {
    for (const tc of m.tool_calls) {
      if (!isRecord(tc)) {
        problems.add('a tool call that is not an object');
        continue;
      }
      const fn = isRecord(tc.function) ? tc.function : tc;
      const part = toolCallPart(tc.id, tc[PART_CALL_ID], fn.name, 'arguments' in fn && fn.arguments !== null, fn.arguments, scope, where, problems);
      if (part) parts.push(part);
    }
  } else if (m.tool_calls !== undefined && m.tool_calls !== null) {
    problems.add('`tool_calls` that is not an array');
  }
  // The legacy functions API: one call, no id.
  if (isRecord(m.function_call)) {
    const part = toolCallPart(undefined, undefined, m.function_call.name, 'arguments' in m.function_call, m.function_call.arguments, scope, where, problems);
    if (part) parts.push(part);
  }
  return parts;
}

export interface MessageReadOptions {
  /** Role to use when a message carries none (completions are assistant). */
  defaultRole?: Role;
}

/**
 * Normalises a list of messages in either form. `where` names the source in diagnostics
 * (an attribute key, or a log record). Past `maxMessagesPerRequest`, the rest is dropped and reported.
 */
export function normaliseMessages(raw: readonly unknown[], where: string, scope: GenAiScope, opts: MessageReadOptions = {}): Message[] {
  const problems = new ShapeProblems();
  const max = scope.limits.maxMessagesPerRequest;
  if (raw.length > max) {
    reportOn(scope, 'warn', 'messages.over-bound', `${where}: holds ${raw.length} messages, over the bound of ${max}; only the first ${max} were read`);
  }
  const out: Message[] = [];
  const n = Math.min(raw.length, max);
  for (let i = 0; i < n; i++) {
    const m = normaliseMessage(raw[i], where, scope, problems, opts);
    if (m) out.push(m);
  }
  problems.flush(scope, where);
  return out;
}

/**
 * One item of a message list, as normaliseMessages reads it: undefined (and a problem noted) when
 * it is not a message. The caller flushes `problems` once for the whole list.
 */
export function normaliseMessage(item: unknown, where: string, scope: GenAiScope, problems: ShapeProblems, opts: MessageReadOptions = {}): Message | undefined {
  if (!isRecord(item)) {
    problems.add('a message that is not an object');
    return undefined;
  }
  const role = item.role === undefined || item.role === null ? opts.defaultRole : roleOf(item.role);
  if (role === undefined) {
    problems.add(`a message with role ${JSON.stringify(String(item.role)).slice(0, 40)}`);
    return undefined;
  }
  let parts: Part[];
  if (Array.isArray(item.parts)) {
    parts = [];
    for (const p of item.parts) {
      const part = partOf(p, scope, where, problems);
      if (part) parts.push(part);
    }
  } else {
    parts = openAiFormParts(item, role, scope, where, problems);
  }
  return { role, parts };
}

/** Reads a messages attribute (JSON string or structured): undefined when absent or unreadable. */
export function readMessagesAttribute(value: AttrValue | undefined, key: string, scope: GenAiScope, opts: MessageReadOptions = {}): Message[] | undefined {
  const raw = readArrayAttribute(value, key, scope);
  return raw === undefined ? undefined : normaliseMessages(raw, key, scope, opts);
}

/**
 * Marks a tool result whose name nameToolResults gave it from its window (its own record named
 * none): a message read once and reused by a later window of its conversation (genai-window.ts)
 * is named again from that window, which may hold another call of the id, or none. A property the
 * part carries, not enumerable (no copy, JSON or comparison of the part sees it): a WeakSet lookup
 * for every result of a long window on every request cost more.
 */
const NAMED_FROM_WINDOW = Symbol('named from its window');
const namedFromWindow = (p: Part): boolean => (p as unknown as Record<symbol, boolean | undefined>)[NAMED_FROM_WINDOW] === true;
function markNamedFromWindow(p: Part, named: boolean): void {
  Object.defineProperty(p, NAMED_FROM_WINDOW, { value: named, enumerable: false, writable: true, configurable: true });
}

/**
 * Gives tool results the tool name of the call with the same id earlier in the window (and takes
 * back a name an earlier window gave a reused result when this one holds no such call).
 */
export function nameToolResults(messages: Message[]): void {
  const names = new Map<string, string>();
  for (const m of messages)
    for (const p of m.parts) {
      if (p.type === 'tool-call' && p.id !== undefined) names.set(p.id, p.name);
      else if (p.type === 'tool-result' && p.id !== undefined && (p.name === undefined || namedFromWindow(p))) {
        const name = names.get(p.id);
        if (name !== undefined) {
          if (p.name === undefined) markNamedFromWindow(p, true);
          if (p.name !== name) p.name = name;
        } else if (p.name !== undefined) {
          delete p.name;
          markNamedFromWindow(p, false);
        }
      }
    }
}

/** The response of a request: text parts and chosen tool calls of its output messages. */
export function responseOf(messages: readonly Message[]): { outputText: string[]; toolCalls: ToolCall[] } {
  const outputText: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const m of messages)
    for (const p of m.parts) {
      if (p.type === 'text' && m.role !== 'tool') outputText.push(p.text);
      else if (p.type === 'tool-call') toolCalls.push({ ...(p.id !== undefined ? { id: p.id } : {}), name: p.name, arguments: p.arguments });
      // A tool result in an output message is not the model's response: ignored.
    }
  return { outputText, toolCalls };
}

/**
 * `gen_ai.system_instructions`: a plain string (contrib Responses writes the raw `instructions`),
 * or parts (a JSON string or structured array, AI SDK 7). Returns its texts; undefined when absent
 * or unreadable. A string that is not valid JSON is plain text, not an error.
 */
export function readSystemInstructions(value: AttrValue | undefined, key: string, scope: GenAiScope): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (!looksLikeJson(value)) return value === '' ? [] : [value];
    const local = new DiagnosticList(4);
    parsed = readJsonAttribute(value, ANY_VALUE, { span: scope.span, limits: scope.limits, diagnostics: local, key });
    if (parsed === undefined) {
      if (local.items.every((d) => d.code === 'attribute.json-invalid')) return [value];
      for (const d of local.items) scope.diagnostics.report(d);
      return undefined;
    }
    // Valid JSON that is not parts (`{"persona": …}`) is an instruction text that happens to be JSON.
    if (!Array.isArray(parsed) && !(isRecord(parsed) && typeof parsed.type === 'string')) return [value];
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const texts: string[] = [];
  const problems = new ShapeProblems();
  for (const item of items) {
    if (typeof item === 'string') texts.push(item);
    else if (isRecord(item) && (item.type === 'text' || item.type === undefined) && typeof (item.content ?? item.text) === 'string') texts.push((item.content ?? item.text) as string);
    else if (isRecord(item) && typeof item.type === 'string' && item.type !== 'text') continue; // unknown part type: ignored
    else problems.add('a system-instruction part without text');
  }
  problems.flush(scope, key);
  return texts.filter((t) => t !== '');
}

/** Puts system instructions passed outside the message list in as a leading system message, when the list has none. */
export function foldSystemInstructions(input: Message[], instructions: readonly string[] | undefined): Message[] {
  if (!instructions || instructions.length === 0) return input;
  if (input.some((m) => m.role === 'system')) return input;
  return [{ role: 'system', parts: instructions.map((text) => ({ type: 'text', text })) }, ...input];
}

/** MCP tool annotations (`readOnlyHint`, `destructiveHint`) of a definition, when it carries boolean ones. */
export function toolAnnotationsOf(v: unknown): ToolDefinition['annotations'] | undefined {
  if (!isRecord(v)) return undefined;
  const out: NonNullable<ToolDefinition['annotations']> = {};
  if (typeof v.readOnlyHint === 'boolean') out.readOnlyHint = v.readOnlyHint;
  if (typeof v.destructiveHint === 'boolean') out.destructiveHint = v.destructiveHint;
  return out.readOnlyHint !== undefined || out.destructiveHint !== undefined ? out : undefined;
}

/**
 * `gen_ai.tool.definitions`: semconv's flattened `{type, name, description, parameters | inputSchema}`,
 * OpenAI's `{type:"function", function:{name, description, parameters}}`, or an array of JSON strings of
 * either (AI SDK 6 `ai.prompt.tools`). Undefined when absent or unreadable (not "no tools").
 */
export function readToolDefinitions(value: AttrValue | undefined, key: string, scope: GenAiScope): ToolDefinition[] | undefined {
  const raw = readArrayAttribute(value, key, scope);
  if (raw === undefined) return undefined;
  const problems = new ShapeProblems();
  const out: ToolDefinition[] = [];
  for (const item0 of raw) {
    const item = readJsonOrRaw(item0, key, scope);
    if (!isRecord(item)) {
      problems.add('a tool definition that is not an object');
      continue;
    }
    const src = isRecord(item.function) ? item.function : item;
    const name = nonBlank(src.name);
    if (name === undefined) {
      problems.add('a tool definition without a name');
      continue;
    }
    const description = str(src.description);
    const schema = src.parameters ?? src.inputSchema ?? src.input_schema;
    const annotations = toolAnnotationsOf(src.annotations ?? item.annotations);
    out.push({
      name,
      ...(description !== undefined && description !== '' ? { description } : {}),
      ...(schema !== undefined && schema !== null ? { inputSchema: readJsonOrRaw(schema, key, scope) } : {}),
      ...(annotations ? { annotations } : {}),
    });
  }
  problems.flush(scope, key);
  return out;
}
