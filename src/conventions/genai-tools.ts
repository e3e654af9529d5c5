// Reads GenAI `execute_tool` spans into ToolExecution: tool name, the model's call id, arguments
// and result (parsed when JSON, bounded; the raw string otherwise), status, and the declarations
// footprint's helpers put on the span (`footprint.tool.arguments_from`, `footprint.tool.read_only`).
// Must never throw, and never call a result "empty" when it was not captured (undefined).

import { toolExecutionOf } from './tool-status.js';
import type { SpanToolDeclaration, ToolExecution } from '../model/agent.js';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import { ATTR_DECL_ARGUMENTS_FROM, ATTR_DECL_READ_ONLY } from '../findings/names.js';
import { GEN_AI_TOOL_CALL_ARGUMENTS, GEN_AI_TOOL_CALL_ID, GEN_AI_TOOL_CALL_RESULT, GEN_AI_TOOL_NAME, OP_EXECUTE_TOOL } from './keys-genai.js';
import { type GenAiScope, nonBlank, readJsonOrRaw, reportOn } from './genai-parts.js';
import type { ReadContext } from './types.js';
import { conversationIdOf } from './genai-conversation.js';

const SPAN_NAME_PREFIX = `${OP_EXECUTE_TOOL} `;

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

export function readToolExecution(span: SpanData, ctx: ReadContext): ToolExecution {
  const scope: GenAiScope = { span, limits: ctx.limits, diagnostics: ctx.diagnostics };
  const a = span.attributes;
  let toolName = nonBlank(a[GEN_AI_TOOL_NAME]);
  if (toolName === undefined) {
    const fromName = span.name.startsWith(SPAN_NAME_PREFIX) ? nonBlank(span.name.slice(SPAN_NAME_PREFIX.length)) : undefined;
    reportOn(scope, 'warn', 'tool.name-missing', `has no ${GEN_AI_TOOL_NAME}; ${fromName !== undefined ? 'the tool name was taken from the span name' : 'the tool is unnamed'}`);
    toolName = fromName ?? '(unnamed tool)';
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
    arguments: rawArgs === undefined || rawArgs === null ? undefined : readJsonOrRaw(rawArgs, GEN_AI_TOOL_CALL_ARGUMENTS, scope),
    result: rawResult === undefined || rawResult === null ? undefined : readJsonOrRaw(rawResult, GEN_AI_TOOL_CALL_RESULT, scope),
    declared,
  });
}
