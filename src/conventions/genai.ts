// The GenAI semantic-conventions reader (`genai-semconv`): every span that speaks the OpenTelemetry
// GenAI conventions, old or new. Inference spans (`chat`, `text_completion`, `generate_content`)
// become LlmRequests, their content read from, in order: span JSON attributes (v1.37+, Traceloop
// ≥0.23, AI SDK 7), joined log records (official OpenAI instrumentation), v1.26 span events, and
// OpenLLMetry's pre-0.23 indexed keys. `execute_tool` becomes a ToolExecution, `invoke_agent` an
// AgentTurn. Must never throw, never turn an `invoke_agent` (AI SDK 7 puts tool results there under
// role assistant) or an AI SDK 7 `step` span into an LlmRequest, and never report absent content
// as an empty window.

import type { AgentTurn, ConventionId, ExternalGround, LlmRequest, Message, ToolDefinition } from '../model/agent.js';
import { refOf, type SpanData } from '../model/telemetry.js';
import { ATTR_EXTERNAL_GROUNDS } from '../findings/names.js';
import type { Convention, ReadContext } from './types.js';
import {
  GEN_AI_AGENT_NAME,
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OPERATION_NAME,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_RESPONSE_ID,
  GEN_AI_RESPONSE_MODEL,
  GEN_AI_SYSTEM,
  GEN_AI_SYSTEM_INSTRUCTIONS,
  GEN_AI_TOOL_DEFINITIONS,
  INFERENCE_OPERATIONS,
  LEGACY_REQUEST_TYPES,
  LLM_REQUEST_TYPE,
  OP_EXECUTE_TOOL,
  OP_INVOKE_AGENT,
} from './keys-genai.js';
import {
  type GenAiScope,
  foldSystemInstructions,
  isRecord,
  nameToolResults,
  nonBlank,
  readArrayAttribute,
  readMessagesAttribute,
  readSystemInstructions,
  readToolDefinitions,
  reportOn,
  responseOf,
} from './genai-parts.js';
import { readWindowAttribute } from './genai-window.js';
import { readLogContent } from './genai-logs.js';
import { hasContentEvents, readContentEvents } from './genai-span-events.js';
import { hasLegacyKeys, readLegacyIndexed } from './openllmetry-legacy.js';
import { readToolExecution } from './genai-tools.js';
import { conversationIdOf } from './genai-conversation.js';
import { mastraContentNote } from './mastra-export.js';
import { openInferenceToolDefinitions } from './openinference.js';

/** An inference span with no `gen_ai.operation.name`: OpenLLMetry before 0.23, or semconv v1.26 content events. */
function isUnnamedInference(span: SpanData): boolean {
  const a = span.attributes;
  const type = a[LLM_REQUEST_TYPE];
  if (typeof type === 'string') return LEGACY_REQUEST_TYPES.has(type);
  if (hasLegacyKeys(a)) return true;
  return (a[GEN_AI_SYSTEM] !== undefined || a[GEN_AI_PROVIDER_NAME] !== undefined) && hasContentEvents(span.events);
}

/** `footprint.external_grounds`: `[{value, source}]`, both non-blank strings; other items dropped with one diagnostic. */
function readExternalGrounds(scope: GenAiScope): ExternalGround[] | undefined {
  const value = scope.span.attributes[ATTR_EXTERNAL_GROUNDS];
  if (value === undefined || value === null) return undefined;
  const raw = readArrayAttribute(value, ATTR_EXTERNAL_GROUNDS, scope);
  if (raw === undefined) return undefined;
  const out: ExternalGround[] = [];
  for (const item of raw) {
    if (isRecord(item)) {
      const v = nonBlank(item.value);
      const source = nonBlank(item.source);
      if (v !== undefined && source !== undefined) {
        out.push({ value: v, source });
        continue;
      }
    }
  }
  if (out.length < raw.length)
    reportOn(scope, 'warn', 'external-grounds.item-invalid', `attribute ${ATTR_EXTERNAL_GROUNDS}: ${raw.length - out.length} item(s) without a non-blank string value and source were dropped`);
  return out;
}

function readInference(span: SpanData, ctx: ReadContext): LlmRequest {
  const scope: GenAiScope = { span, limits: ctx.limits, diagnostics: ctx.diagnostics };
  const a = span.attributes;

  let input: Message[] | undefined;
  let output: Message[] | undefined;
  let inputFrom: ConventionId = 'genai-semconv';
  let outputFrom: ConventionId = 'genai-semconv';
  let outputWithoutContent = false;
  let idsMatchedByOrder = false;

  // 1. Span attributes (JSON strings or structured values).
  if (a[GEN_AI_INPUT_MESSAGES] !== undefined) input = readWindowAttribute(a[GEN_AI_INPUT_MESSAGES], GEN_AI_INPUT_MESSAGES, scope, ctx.windowMemo);
  if (a[GEN_AI_OUTPUT_MESSAGES] !== undefined)
    output = readMessagesAttribute(a[GEN_AI_OUTPUT_MESSAGES], GEN_AI_OUTPUT_MESSAGES, scope, { defaultRole: 'assistant' });
  let toolDefinitions: ToolDefinition[] | undefined =
    a[GEN_AI_TOOL_DEFINITIONS] !== undefined ? readToolDefinitions(a[GEN_AI_TOOL_DEFINITIONS], GEN_AI_TOOL_DEFINITIONS, scope) : undefined;
  let instructions = readSystemInstructions(a[GEN_AI_SYSTEM_INSTRUCTIONS], GEN_AI_SYSTEM_INSTRUCTIONS, scope);

  // 2. Log records joined to the span.
  if ((input === undefined || output === undefined) && ctx.logs.length > 0) {
    const logs = readLogContent(ctx.logs, scope);
    if (input === undefined && logs.input !== undefined) {
      input = logs.input;
      inputFrom = 'genai-logs';
    }
    if (output === undefined && logs.output !== undefined) {
      output = logs.output;
      outputFrom = 'genai-logs';
      outputWithoutContent = logs.outputWithoutContent === true;
    }
    instructions ??= logs.systemInstructions;
    toolDefinitions ??= logs.toolDefinitions;
  }

  // 3. Span events of semconv v1.26–v1.27.
  if ((input === undefined || output === undefined) && span.events.length > 0) {
    const events = readContentEvents(scope);
    input ??= events.input;
    output ??= events.output;
  }

  // 4. OpenLLMetry's indexed keys (no ids: calls and results pair by name and order only).
  if ((input === undefined || output === undefined || toolDefinitions === undefined) && hasLegacyKeys(a)) {
    const legacy = readLegacyIndexed(scope);
    if (input === undefined && legacy.input !== undefined) {
      input = legacy.input;
      inputFrom = 'openllmetry-legacy';
    }
    if (output === undefined && legacy.output !== undefined) {
      output = legacy.output;
      outputFrom = 'openllmetry-legacy';
    }
    toolDefinitions ??= legacy.toolDefinitions;
    if (inputFrom === 'openllmetry-legacy' || outputFrom === 'openllmetry-legacy') idsMatchedByOrder = true;
  }

  // 5. OpenInference tool definitions a genainormalizer processor left beside the gen_ai.* keys it wrote.
  if (toolDefinitions === undefined && input !== undefined) toolDefinitions = openInferenceToolDefinitions(span, ctx);

  // Mastra's own export: its content is there but holds no request window; said so, never read.
  const contentNote = mastraContentNote(span);
  if (contentNote !== undefined) {
    input = undefined;
    output = undefined;
  }
  const window = input !== undefined ? foldSystemInstructions(input, instructions) : [];
  nameToolResults(window);
  const { outputText, toolCalls } = responseOf(output ?? []);
  const conversationId = conversationIdOf(a);
  const responseId = nonBlank(a[GEN_AI_RESPONSE_ID]);
  const model = nonBlank(a[GEN_AI_RESPONSE_MODEL]) ?? nonBlank(a[GEN_AI_REQUEST_MODEL]);
  const externalGrounds = readExternalGrounds(scope);

  return {
    kind: 'llm-request',
    span: refOf(span),
    convention: input !== undefined ? inputFrom : outputFrom,
    tenant: ctx.tenant,
    ...(conversationId !== undefined ? { conversationId } : {}),
    ...(responseId !== undefined ? { responseId } : {}),
    ...(model !== undefined ? { model } : {}),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    inputContent: input !== undefined ? 'captured' : 'not-captured',
    outputContent: output !== undefined && !outputWithoutContent ? 'captured' : 'not-captured',
    input: window,
    ...(toolDefinitions !== undefined ? { toolDefinitions } : {}),
    outputText,
    toolCalls,
    ...(idsMatchedByOrder ? { idsMatchedByOrder } : {}),
    ...(externalGrounds !== undefined ? { externalGrounds } : {}),
    ...(contentNote !== undefined ? { contentNote } : {}),
  };
}

function readAgentTurn(span: SpanData, ctx: ReadContext): AgentTurn {
  const conversationId = conversationIdOf(span.attributes);
  const agentName = nonBlank(span.attributes[GEN_AI_AGENT_NAME]);
  return {
    kind: 'agent-turn',
    span: refOf(span),
    convention: 'genai-semconv',
    tenant: ctx.tenant,
    ...(conversationId !== undefined ? { conversationId } : {}),
    ...(agentName !== undefined ? { agentName } : {}),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
  };
}

export const genAi: Convention = {
  id: 'genai-semconv',
  claims(span: SpanData): boolean {
    const op = span.attributes[GEN_AI_OPERATION_NAME];
    // `agent_step` (AI SDK 7 `step {n}`), `create_agent`, `embeddings`…: not claimed.
    if (typeof op === 'string') return INFERENCE_OPERATIONS.has(op) || op === OP_INVOKE_AGENT || op === OP_EXECUTE_TOOL;
    return isUnnamedInference(span);
  },
  read(span: SpanData, ctx: ReadContext) {
    const op = span.attributes[GEN_AI_OPERATION_NAME];
    if (op === OP_INVOKE_AGENT) return [readAgentTurn(span, ctx)];
    if (op === OP_EXECUTE_TOOL) return [readToolExecution(span, ctx)];
    if (typeof op === 'string' ? !INFERENCE_OPERATIONS.has(op) : !isUnnamedInference(span)) return [];
    return [readInference(span, ctx)];
  },
};
