// Reads GenAI `execute_tool` spans into ToolExecution: tool name, the model's call id, arguments
// and result (parsed when JSON, bounded; the raw string otherwise), status, and the declarations
// footprint's helpers put on the span (`footprint.tool.arguments_from`, `footprint.tool.read_only`).
// Also what the collector's genainormalizer makes of an OpenLLMetry tool span (name, input, output).
// Must never throw, and never call a result "empty" when it was not captured (undefined).

import { toolExecutionOf } from './tool-status.js';
import type { SpanToolDeclaration, ToolExecution } from '../model/agent.js';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import { ATTR_DECL_ARGUMENTS_FROM, ATTR_DECL_READ_ONLY } from '../findings/names.js';
import {
  GEN_AI_AGENT_NAME,
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_TOOL_CALL_ARGUMENTS,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_CALL_RESULT,
  GEN_AI_TOOL_NAME,
  OP_EXECUTE_TOOL,
} from './keys-genai.js';
import { type GenAiScope, nonBlank, readJsonOrRaw, reportOn } from './genai-parts.js';
import type { ReadContext } from './types.js';
import { conversationIdOf } from './genai-conversation.js';

const SPAN_NAME_PREFIX = `${OP_EXECUTE_TOOL} `;
const TRACELOOP_TOOL_SUFFIX = '.tool';

/** A string array, a JSON string of one, or one plain name; undefined with a diagnostic otherwise. */
function namesOf(value: AttrValue, scope: GenAiScope): string[] | undefined {
  let v: unknown = value;
  if (typeof v === 'string') v = v.trimStart().startsWith('[') ? readJsonOrRaw(v, ATTR_DECL_ARGUMENTS_FROM, scope) : [v];
  if (Array.isArray(v)) {
    const names = v.map(nonBlank).filter((x): x is string => x !== undefined);
    if (names.length === v.length) return names;
  }
  reportOn(scope, 'warn', 'declaration.shape-invalid', `attribute ${ATTR_DECL_ARGUMENTS_FROM} is not an array of tool names; ignored`);
  return undefined;
}

/** Declarations footprint's helpers carry on the span itself. */
export function spanToolDeclaration(scope: GenAiScope): SpanToolDeclaration | undefined {
  const a = scope.span.attributes;
  const out: SpanToolDeclaration = {};
  const from = a[ATTR_DECL_ARGUMENTS_FROM];
  if (from !== undefined && from !== null) {
    const names = namesOf(from, scope);
    if (names) out.argumentsFrom = names;
  }
  const ro = a[ATTR_DECL_READ_ONLY];
  if (ro !== undefined && ro !== null) {
    if (typeof ro === 'boolean') out.readOnly = ro;
    else if (ro === 'true' || ro === 'false') out.readOnly = ro === 'true';
    else reportOn(scope, 'warn', 'declaration.shape-invalid', `attribute ${ATTR_DECL_READ_ONLY} is not a boolean; ignored`);
  }
  return out.argumentsFrom !== undefined || out.readOnly !== undefined ? out : undefined;
}

/** The tool's name when `gen_ai.tool.name` is missing: from the span name, else where a genainormalizer put OpenLLMetry's entity name. */
function fallbackToolName(span: SpanData): string | undefined {
  if (span.name.startsWith(SPAN_NAME_PREFIX)) return nonBlank(span.name.slice(SPAN_NAME_PREFIX.length));
  // OpenLLMetry tool spans are named `{tool}.tool`; the normaliser maps traceloop.entity.name to gen_ai.agent.name.
  if (span.name.endsWith(TRACELOOP_TOOL_SUFFIX)) return nonBlank(span.name.slice(0, -TRACELOOP_TOOL_SUFFIX.length)) ?? nonBlank(span.attributes[GEN_AI_AGENT_NAME]);
  return nonBlank(span.attributes[GEN_AI_AGENT_NAME]);
}

/**
 * A genainormalizer maps an OpenLLMetry tool span's traceloop.entity.input / .output to
 * gen_ai.input.messages / gen_ai.output.messages: `{tool_name, arguments}` and `{result}` for its
 * MCP tools, read as those arguments and that result (a JSON text decoded); anything else as it is.
 */
function normalisedEntity(raw: AttrValue | undefined, key: string, field: 'arguments' | 'result', scope: GenAiScope): unknown {
  if (raw === undefined || raw === null) return undefined;
  const v = readJsonOrRaw(raw, key, scope);
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !(field in v)) return v;
  const inner = (v as Record<string, unknown>)[field];
  return typeof inner === 'string' ? readJsonOrRaw(inner, key, { ...scope, diagnostics: { report: () => undefined } }) : inner;
}

export function readToolExecution(span: SpanData, ctx: ReadContext): ToolExecution {
  const scope: GenAiScope = { span, limits: ctx.limits, diagnostics: ctx.diagnostics };
  const a = span.attributes;
  let toolName = nonBlank(a[GEN_AI_TOOL_NAME]);
  if (toolName === undefined) {
    const fallback = fallbackToolName(span);
    reportOn(scope, 'warn', 'tool.name-missing', `has no ${GEN_AI_TOOL_NAME}; ${fallback !== undefined ? 'the tool name was taken from the span name' : 'the tool is unnamed'}`);
    toolName = fallback ?? '(unnamed tool)';
  }
  const callId = nonBlank(a[GEN_AI_TOOL_CALL_ID]);
  const conversationId = conversationIdOf(a);
  const declared = spanToolDeclaration(scope);
  const rawArgs = a[GEN_AI_TOOL_CALL_ARGUMENTS];
  const rawResult = a[GEN_AI_TOOL_CALL_RESULT];
  return toolExecutionOf(span, ctx.tenant, 'genai-semconv', {
    toolName,
    callId,
    conversationId,
    arguments: rawArgs === undefined || rawArgs === null ? normalisedEntity(a[GEN_AI_INPUT_MESSAGES], GEN_AI_INPUT_MESSAGES, 'arguments', scope) : readJsonOrRaw(rawArgs, GEN_AI_TOOL_CALL_ARGUMENTS, scope),
    result: rawResult === undefined || rawResult === null ? normalisedEntity(a[GEN_AI_OUTPUT_MESSAGES], GEN_AI_OUTPUT_MESSAGES, 'result', scope) : readJsonOrRaw(rawResult, GEN_AI_TOOL_CALL_RESULT, scope),
    declared,
  });
}
