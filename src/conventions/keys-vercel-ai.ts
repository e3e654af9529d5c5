// Attribute keys and span names of the Vercel AI SDK's own telemetry (`ai` 4–6, and 7's
// LegacyOpenTelemetry): the `ai.*` spans and their JSON-string attributes.
// Only names live here; must never hold reading logic (that is vercel-ai.ts).

/** Tracer / instrumentation scope name the SDK uses (no version). */
export const AI_SCOPE_NAME = 'ai';
export const AI_OPERATION_ID = 'ai.operationId';

/** Span names (= ai.operationId values). */
export const SPAN_GENERATE_TEXT = 'ai.generateText';
export const SPAN_STREAM_TEXT = 'ai.streamText';
export const SPAN_DO_GENERATE = 'ai.generateText.doGenerate';
export const SPAN_DO_STREAM = 'ai.streamText.doStream';
export const SPAN_TOOL_CALL = 'ai.toolCall';

export const AI_TELEMETRY_FUNCTION_ID = 'ai.telemetry.functionId';
/** `metadata: { conversationId }` / `{ sessionId }` as the caller passed them. */
export const AI_METADATA_CONVERSATION_ID = 'ai.telemetry.metadata.conversationId';
export const AI_METADATA_SESSION_ID = 'ai.telemetry.metadata.sessionId';

export const AI_MODEL_ID = 'ai.model.id';
export const AI_MODEL_PROVIDER = 'ai.model.provider';

/** LLM-request spans (doGenerate / doStream). Inputs: gated by recordInputs. */
export const AI_PROMPT_MESSAGES = 'ai.prompt.messages';
export const AI_PROMPT_TOOLS = 'ai.prompt.tools';
/** Outputs: gated by recordOutputs. */
export const AI_RESPONSE_TEXT = 'ai.response.text';
export const AI_RESPONSE_TOOL_CALLS = 'ai.response.toolCalls';
export const AI_RESPONSE_REASONING = 'ai.response.reasoning';
export const AI_RESPONSE_PROVIDER_METADATA = 'ai.response.providerMetadata';
/** Not gated. */
export const AI_RESPONSE_ID = 'ai.response.id';
export const AI_RESPONSE_MODEL = 'ai.response.model';
export const AI_RESPONSE_FINISH_REASON = 'ai.response.finishReason';

/** Tool-execution spans. `args`/`result` in 4–6, `input`/`output` in newer releases. */
export const AI_TOOL_CALL_NAME = 'ai.toolCall.name';
export const AI_TOOL_CALL_ID = 'ai.toolCall.id';
export const AI_TOOL_CALL_ARGS = 'ai.toolCall.args';
export const AI_TOOL_CALL_RESULT = 'ai.toolCall.result';
export const AI_TOOL_CALL_INPUT = 'ai.toolCall.input';
export const AI_TOOL_CALL_OUTPUT = 'ai.toolCall.output';

/** What @ai-sdk/openai sends the model for an `execution-denied` output without a reason. */
export const EXECUTION_DENIED_DEFAULT = 'Tool call execution denied.';

/** The span-event name OpenTelemetry's recordException writes. */
