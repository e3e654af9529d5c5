// Reads OpenLLMetry (@traceloop/instrumentation-*) before 0.23: content as indexed span attributes
// `gen_ai.prompt.{i}.role|content`, `gen_ai.completion.{i}.…tool_calls.{j}.name|arguments`,
// `llm.request.functions.{k}.name|description|arguments`. That form records no tool-call ids, so
// its requests are marked `idsMatchedByOrder`. Loops are bounded by the message bound; a gap in
// the indices ends the list. Must never invent ids, and never throw.

import type { Message, Part, Role, ToolDefinition } from '../model/agent.js';
import type { Attributes } from '../model/telemetry.js';
import {
  LEGACY_COMPLETION_0_CONTENT,
  LEGACY_COMPLETION_0_ROLE,
  LEGACY_COMPLETION_PREFIX,
  LEGACY_FUNCTIONS_PREFIX,
  LEGACY_PROMPT_0_CONTENT,
  LEGACY_PROMPT_0_ROLE,
  LEGACY_PROMPT_PREFIX,
  LLM_REQUEST_TYPE,
} from './keys-genai.js';
import { type GenAiScope, isRecord, nonBlank, readJsonOrRaw, reportOn, roleOf, str } from './genai-parts.js';

/** Most tool calls read from one indexed message. */
const MAX_TOOL_CALLS_PER_MESSAGE = 128;

export interface LegacyContent {
  input?: Message[];
  output?: Message[];
  toolDefinitions?: ToolDefinition[];
}

/** O(1): the span carries OpenLLMetry's pre-0.23 keys. */
export function hasLegacyKeys(a: Attributes): boolean {
  return (
    a[LLM_REQUEST_TYPE] !== undefined ||
    a[LEGACY_PROMPT_0_ROLE] !== undefined ||
    a[LEGACY_PROMPT_0_CONTENT] !== undefined ||
    a[LEGACY_COMPLETION_0_ROLE] !== undefined ||
    a[LEGACY_COMPLETION_0_CONTENT] !== undefined ||
    a[`${LEGACY_FUNCTIONS_PREFIX}0.name`] !== undefined
  );
}

/**
 * Text parts of an indexed `content`. Non-string content was JSON-stringified by the library: an
 * array of `{type:"text", text}` parts becomes its texts. Assistant content `"null"` is the
 * library's spelling of "no text" (a message that only called tools).
 */
function contentParts(content: unknown, role: Role, key: string, scope: GenAiScope): Part[] {
  if (content === undefined || content === null) return [];
  if (typeof content !== 'string') return [{ type: 'text', text: JSON.stringify(content) ?? '' }];
  if (role === 'assistant' && (content === 'null' || content === '')) return [];
  const parsed = readJsonOrRaw(content, key, scope);
  if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((p) => isRecord(p) && typeof p.text === 'string')) {
    return parsed.map((p) => ({ type: 'text', text: (p as { text: string }).text }));
  }
  return [{ type: 'text', text: content }];
}

function toolCallsOf(a: Attributes, base: string, scope: GenAiScope): Part[] {
  const out: Part[] = [];
  for (let j = 0; j < MAX_TOOL_CALLS_PER_MESSAGE; j++) {
    const name = a[`${base}.tool_calls.${j}.name`];
    if (name === undefined) break;
    const toolName = nonBlank(name);
    if (toolName === undefined) {
      reportOn(scope, 'warn', 'message.shape-invalid', `${base}.tool_calls.${j}.name is not a non-blank string; that call was skipped`);
      continue;
    }
    const argsKey = `${base}.tool_calls.${j}.arguments`;
    const id = nonBlank(a[`${base}.tool_calls.${j}.id`]);
    out.push({
      type: 'tool-call',
      ...(id !== undefined ? { id } : {}),
      name: toolName,
      arguments: a[argsKey] === undefined ? undefined : readJsonOrRaw(a[argsKey], argsKey, scope),
    });
  }
  const fnName = nonBlank(a[`${base}.function_call.name`]);
  if (fnName !== undefined) {
    const argsKey = `${base}.function_call.arguments`;
    out.push({ type: 'tool-call', name: fnName, arguments: a[argsKey] === undefined ? undefined : readJsonOrRaw(a[argsKey], argsKey, scope) });
  }
  return out;
}

function indexedMessages(a: Attributes, prefix: string, defaultRole: Role, scope: GenAiScope): Message[] | undefined {
  const out: Message[] = [];
  const max = scope.limits.maxMessagesPerRequest;
  let i = 0;
  for (; i < max; i++) {
    const base = `${prefix}${i}`;
    const rawRole = a[`${base}.role`];
    const content = a[`${base}.content`];
    const hasCalls = a[`${base}.tool_calls.0.name`] !== undefined || a[`${base}.function_call.name`] !== undefined;
    if (rawRole === undefined && content === undefined && !hasCalls) break;
    const role = rawRole === undefined ? defaultRole : roleOf(rawRole);
    if (role === undefined) {
      reportOn(scope, 'warn', 'message.shape-invalid', `${base}.role ${JSON.stringify(String(rawRole)).slice(0, 40)} is not a known role; that message was skipped`);
      continue;
    }
    if (role === 'tool') {
      const id = nonBlank(a[`${base}.tool_call_id`]);
      out.push({ role, parts: [{ type: 'tool-result', ...(id !== undefined ? { id } : {}), result: content === null ? undefined : content }] });
      continue;
    }
    out.push({ role, parts: [...contentParts(content, role, `${base}.content`, scope), ...toolCallsOf(a, base, scope)] });
  }
  if (i === max && (a[`${prefix}${max}.role`] !== undefined || a[`${prefix}${max}.content`] !== undefined)) {
    reportOn(scope, 'warn', 'messages.over-bound', `holds more than ${max} ${prefix}* messages; only the first ${max} were read`);
  }
  return out.length > 0 ? out : undefined;
}

function legacyFunctions(a: Attributes, scope: GenAiScope): ToolDefinition[] | undefined {
  if (a[`${LEGACY_FUNCTIONS_PREFIX}0.name`] === undefined) return undefined;
  const out: ToolDefinition[] = [];
  for (let k = 0; k < scope.limits.maxMessagesPerRequest; k++) {
    const base = `${LEGACY_FUNCTIONS_PREFIX}${k}`;
    const rawName = a[`${base}.name`];
    if (rawName === undefined) break;
    const name = nonBlank(rawName);
    if (name === undefined) continue;
    const description = str(a[`${base}.description`]);
    const schemaKey = a[`${base}.arguments`] !== undefined ? `${base}.arguments` : `${base}.parameters`;
    const schema = a[schemaKey];
    out.push({
      name,
      ...(description ? { description } : {}),
      ...(schema !== undefined && schema !== null ? { inputSchema: readJsonOrRaw(schema, schemaKey, scope) } : {}),
    });
  }
  return out;
}

export function readLegacyIndexed(scope: GenAiScope): LegacyContent {
  const a = scope.span.attributes;
  const out: LegacyContent = {};
  const input = indexedMessages(a, LEGACY_PROMPT_PREFIX, 'user', scope);
  if (input) out.input = input;
  const output = indexedMessages(a, LEGACY_COMPLETION_PREFIX, 'assistant', scope);
  if (output) out.output = output;
  const defs = legacyFunctions(a, scope);
  if (defs) out.toolDefinitions = defs;
  return out;
}
