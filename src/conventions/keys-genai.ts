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
