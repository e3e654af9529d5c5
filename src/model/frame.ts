// The frame of one LLM request as plain data: what the run served it (system prompt, user
// messages, tool results, tool-schema text) versus what the model itself wrote earlier in that
// window, plus app-asserted external grounds. Types only; src/runs/frame.ts builds it.
// Must never hold assistant text or tool-call arguments among the served strings.

import type { ExternalGround, ToolDefinition } from './agent.js';

export type ServedSource = 'system' | 'user' | 'tool-result' | 'tool-schema';
export type WrittenSource = 'assistant-text' | 'assistant-tool-call';

export interface ServedString {
  source: ServedSource;
  /** Index of the message in the request's window (-1 for tool-schema text). */
  message: number;
  text: string;
  callId?: string;
  toolName?: string;
}

export interface WrittenString {
  source: WrittenSource;
  message: number;
  text: string;
  callId?: string;
}

export interface Frame {
  served: ServedString[];
  written: WrittenString[];
  external: ExternalGround[];
  /** Tool definitions the request carried (undefined: not recorded). */
  toolDefinitions?: ToolDefinition[];
}
