// Attribute keys and names of the OpenTelemetry GenAI semantic conventions (all versions this
// project reads, old and new), as instrumentations write them. The semconv npm package marks these
// deprecated (moved to the semantic-conventions-genai repo), so they are spelled out here, once.

export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const GEN_AI_SYSTEM = 'gen_ai.system';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_RESPONSE_ID = 'gen_ai.response.id';
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
export const GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
export const GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';
export const GEN_AI_TOOL_DEFINITIONS = 'gen_ai.tool.definitions';
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
export const GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
export const GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const ERROR_TYPE = 'error.type';

/** Operation names of inference spans. */
export const INFERENCE_OPERATIONS: ReadonlySet<string> = new Set(['chat', 'text_completion', 'generate_content']);
export const OP_INVOKE_AGENT = 'invoke_agent';
export const OP_EXECUTE_TOOL = 'execute_tool';

/** Log-record event names (semconv v1.28–v1.36, as `event.name` attribute or LogRecord eventName). */
export const EVENT_NAME_ATTR = 'event.name';
export const LOG_SYSTEM_MESSAGE = 'gen_ai.system.message';
export const LOG_USER_MESSAGE = 'gen_ai.user.message';
export const LOG_ASSISTANT_MESSAGE = 'gen_ai.assistant.message';
export const LOG_TOOL_MESSAGE = 'gen_ai.tool.message';
export const LOG_CHOICE = 'gen_ai.choice';
/** v1.37+: one event carrying structured input/output messages. */
export const LOG_INFERENCE_DETAILS = 'gen_ai.client.inference.operation.details';
/** v1.38+: the standard evaluation event (footprint writes these on the collector path). */
export const LOG_EVALUATION_RESULT = 'gen_ai.evaluation.result';

/** Span events of semconv v1.26–v1.27 (content on the span as events). */
export const SPAN_EVENT_CONTENT_PROMPT = 'gen_ai.content.prompt';
export const SPAN_EVENT_CONTENT_COMPLETION = 'gen_ai.content.completion';
export const GEN_AI_PROMPT = 'gen_ai.prompt';
export const GEN_AI_COMPLETION = 'gen_ai.completion';

/** Other conversation-id keys seen in the field (session ids of other conventions). */
export const SESSION_ID = 'session.id';
export const TRACELOOP_SESSION_ID = 'traceloop.association.properties.session_id';
export const TRACELOOP_CONVERSATION_ID = 'traceloop.association.properties.conversation_id';
/** AI SDK 7 (`@ai-sdk/otel`) runtime context, on `invoke_agent` and `step` spans. */
export const AI_SETTINGS_CONTEXT_CONVERSATION_ID = 'ai.settings.context.conversationId';

/** Tool-call id keys beyond `id`: the Responses API's real call id (`id` there is the item id `fc_…`). */
export const PART_CALL_ID = 'call_id';

/** Non-standard operation name AI SDK 7 writes on its `step {n}` spans (not LLM requests). */
export const OP_AGENT_STEP = 'agent_step';

/**
 * OpenLLMetry before 0.23 (indexed keys, no tool-call ids anywhere):
 * `gen_ai.prompt.{i}.role|content`, `gen_ai.completion.{i}.role|content|finish_reason`,
 * `gen_ai.completion.{i}.tool_calls.{j}.name|arguments`, `gen_ai.completion.{i}.function_call.name|arguments`,
 * `llm.request.functions.{k}.name|description|arguments|parameters`.
 */
export const LLM_REQUEST_TYPE = 'llm.request.type';
export const LEGACY_PROMPT_PREFIX = 'gen_ai.prompt.';
export const LEGACY_COMPLETION_PREFIX = 'gen_ai.completion.';
export const LEGACY_FUNCTIONS_PREFIX = 'llm.request.functions.';
/** The first indexed keys, for the O(1) recognition test. */
export const LEGACY_PROMPT_0_ROLE = 'gen_ai.prompt.0.role';
export const LEGACY_PROMPT_0_CONTENT = 'gen_ai.prompt.0.content';
export const LEGACY_COMPLETION_0_ROLE = 'gen_ai.completion.0.role';
export const LEGACY_COMPLETION_0_CONTENT = 'gen_ai.completion.0.content';
/** `llm.request.type` values that are LLM requests. */
export const LEGACY_REQUEST_TYPES: ReadonlySet<string> = new Set(['chat', 'completion']);
