// Public entry of the app helpers (`footprint-otel/trace`): spans in the current OpenTelemetry
// GenAI conventions for apps without an instrumented framework. Re-exports only; no logic here.

export { traceAgentTurn, assertExternalGround, currentTurn, type AgentTurnOptions, type ExternalGround, type TurnState } from './turn.js';
export { traceChat, toSemconvMessage, semconvFinishReason, type ChatRequestLike, type ChatResponseLike, type ChatMessageLike, type TraceChatOptions } from './openai-chat.js';
export { traceTool, type TraceToolOptions } from './tool.js';
