// Attribute keys of the OpenInference conventions (Arize), as @arizeai/openinference-* write them:
// span kinds, the flattened `llm.input_messages.{i}.message.*` family and the TOOL/AGENT keys.
// Only names live here; must never hold reading logic (that is openinference.ts).

export const OI_SPAN_KIND = 'openinference.span.kind';
export const OI_KIND_LLM = 'LLM';
export const OI_KIND_TOOL = 'TOOL';
export const OI_KIND_AGENT = 'AGENT';

export const LLM_MODEL_NAME = 'llm.model_name';
export const LLM_RESPONSE_MODEL_NAME = 'llm.response.model_name';
export const LLM_REQUEST_MODEL_NAME = 'llm.request.model_name';
export const LLM_SYSTEM = 'llm.system';
export const LLM_PROVIDER = 'llm.provider';
export const LLM_FINISH_REASON = 'llm.finish_reason';

/** Flattened families: `<prefix>{index}.<suffix>`. */
export const LLM_INPUT_MESSAGES_PREFIX = 'llm.input_messages.';
export const LLM_OUTPUT_MESSAGES_PREFIX = 'llm.output_messages.';
export const LLM_TOOLS_PREFIX = 'llm.tools.';

/** Suffixes under `llm.{input,output}_messages.{i}.` */
export const MESSAGE_ROLE = 'message.role';
export const MESSAGE_CONTENT = 'message.content';
export const MESSAGE_NAME = 'message.name';
export const MESSAGE_TOOL_CALL_ID = 'message.tool_call_id';
/** Deprecated single function call of the legacy `functions` API. */
export const MESSAGE_FUNCTION_CALL_NAME = 'message.function_call_name';
export const MESSAGE_FUNCTION_CALL_ARGUMENTS = 'message.function_call_arguments_json';
/** `message.contents.{k}.message_content.{type,text}` */
export const MESSAGE_CONTENTS_PREFIX = 'message.contents.';
export const MESSAGE_CONTENT_TYPE = 'message_content.type';
export const MESSAGE_CONTENT_TEXT = 'message_content.text';
/** `message.tool_calls.{j}.tool_call.{id,function.name,function.arguments}` */
export const MESSAGE_TOOL_CALLS_PREFIX = 'message.tool_calls.';
export const TOOL_CALL_ID = 'tool_call.id';
export const TOOL_CALL_FUNCTION_NAME = 'tool_call.function.name';
export const TOOL_CALL_FUNCTION_ARGUMENTS = 'tool_call.function.arguments';

/** Suffix under `llm.tools.{k}.` */
export const TOOL_JSON_SCHEMA = 'tool.json_schema';

export const INPUT_VALUE = 'input.value';
export const INPUT_MIME_TYPE = 'input.mime_type';
export const OUTPUT_VALUE = 'output.value';
export const OUTPUT_MIME_TYPE = 'output.mime_type';
export const MIME_JSON = 'application/json';

export const SESSION_ID = 'session.id';
export const AGENT_NAME = 'agent.name';

/** TOOL spans. */
export const TOOL_NAME = 'tool.name';
export const TOOL_ID = 'tool.id';

/** What @arizeai/openinference-core writes in place of hidden content (OPENINFERENCE_HIDE_*). */
export const REDACTED_VALUE = '__REDACTED__';

/** Content types under `message_content.type` that carry text the model reads. */
export const TEXT_CONTENT_TYPES: ReadonlySet<string> = new Set(['text', 'input_text', 'output_text', 'refusal']);
