// The normalised agent model every convention reader produces: LLM requests, tool executions and
// agent turns, whatever library recorded them. Checks and runs read only this, never raw spans.
// Must never carry convention-specific keys: each reader maps its dialect into these shapes.

import type { SpanRef } from './telemetry.js';

export type ConventionId =
  | 'genai-semconv'
  | 'genai-logs'
  | 'openllmetry-legacy'
  | 'openinference'
  | 'vercel-ai'
  | 'mcp-semconv'
  | 'footprint-helpers';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ToolCallPart {
  type: 'tool-call';
  /** The model's call id (the one `execute_tool` carries as `gen_ai.tool.call.id`), when recorded. */
  id?: string;
  name: string;
  /** Parsed arguments when they were JSON; the raw string otherwise; undefined when not captured. */
  arguments: unknown;
}

export interface ToolResultPart {
  type: 'tool-result';
  id?: string;
  name?: string;
  /** The result as the model was shown it: a string, or an already parsed JSON value. */
  result: unknown;
  /** The window itself marks the result as an error (Anthropic `is_error`, AI SDK `error-*` outputs). */
  isError?: true;
}

export type Part = TextPart | ToolCallPart | ToolResultPart;

export interface Message {
  role: Role;
  parts: Part[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the tool's input, when the telemetry carried it. */
  inputSchema?: unknown;
  /** MCP tool annotations, when the definition carried them (`readOnlyHint`, `destructiveHint`). */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface ToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/** Why content may be missing: said out loud, never guessed as "empty". */
export type ContentState = 'captured' | 'not-captured';

export interface LlmRequest {
  kind: 'llm-request';
  span: SpanRef;
  convention: ConventionId;
  tenant: string;
  conversationId?: string;
  responseId?: string;
  model?: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  /** Whether the request's input messages were recorded at all. */
  inputContent: ContentState;
  /** Whether the response (text and chosen tool calls) was recorded at all. */
  outputContent: ContentState;
  /** Why the content cannot be read, when the reader knows better than "not recorded" (a known exporter's shape). */
  contentNote?: string;
  /**
   * The request's input window, in order. Readers fold system instructions passed outside the
   * message list (Responses `instructions`, AI SDK 7 `gen_ai.system_instructions`) in as a leading
   * system message when the list holds none.
   */
  input: Message[];
  /** undefined = the telemetry recorded no tool definitions (not "no tools"). */
  toolDefinitions?: ToolDefinition[];
  outputText: string[];
  toolCalls: ToolCall[];
  /** True when tool calls and results could only be paired by name and order (no ids recorded). */
  idsMatchedByOrder?: boolean;
  /**
   * The response chose tool calls (finish reason tool_call) that the span does not record
   * (OpenLLMetry LangChain): they are read from the next request's window, and judged then.
   */
  choiceNotRecorded?: true;
  /** App-asserted grounds recorded on the span (values the app verified itself). */
  externalGrounds?: ExternalGround[];
}

export type ToolStatus = 'ok' | 'error' | 'unset';

export interface ToolExecution {
  kind: 'tool-execution';
  span: SpanRef;
  convention: ConventionId;
  tenant: string;
  conversationId?: string;
  callId?: string;
  toolName: string;
  /** undefined = not captured. */
  arguments: unknown;
  /** undefined = not captured. */
  result: unknown;
  status: ToolStatus;
  errorMessage?: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  /** Declarations carried on the span itself by footprint's helpers (`footprint.tool.*`). */
  declared?: SpanToolDeclaration;
}

export interface SpanToolDeclaration {
  argumentsFrom?: string[];
  readOnly?: boolean;
}

export interface AgentTurn {
  kind: 'agent-turn';
  span: SpanRef;
  convention: ConventionId;
  tenant: string;
  conversationId?: string;
  agentName?: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
}

export interface ExternalGround {
  value: string;
  source: string;
}

export type ModelEvent = LlmRequest | ToolExecution | AgentTurn;
