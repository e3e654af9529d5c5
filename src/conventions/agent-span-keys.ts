// The attribute keys and scope names without which no convention reader claims a span: the one
// list the registry's isAgentSpan guard and the service's lazy decoder (src/otlp/) both use, so a
// span neither has is ordinary everywhere. A superset of what the readers' `claims` test: a span
// with one of these keys may still be unclaimed, a span with none never is. A reader that starts
// claiming on another key must add it here. Must never read values or parse anything.

import {
  GEN_AI_OPERATION_NAME,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_SYSTEM,
  LEGACY_COMPLETION_0_CONTENT,
  LEGACY_COMPLETION_0_ROLE,
  LEGACY_FUNCTIONS_PREFIX,
  LEGACY_PROMPT_0_CONTENT,
  LEGACY_PROMPT_0_ROLE,
  LLM_REQUEST_TYPE,
} from './keys-genai.js';
import { OI_SPAN_KIND } from './keys-openinference.js';
import { AI_OPERATION_ID, AI_SCOPE_NAME } from './keys-vercel-ai.js';
import { MCP_METHOD_NAME } from './keys-mcp.js';

/** Span attribute keys one of which every claimed span carries (unless its scope is below). */
export const AGENT_SPAN_MARKING_KEYS: readonly string[] = [
  GEN_AI_OPERATION_NAME, // genai: named operations
  GEN_AI_SYSTEM, // genai: unnamed inference with content events
  GEN_AI_PROVIDER_NAME,
  LLM_REQUEST_TYPE, // OpenLLMetry before 0.23 (indexed keys)
  LEGACY_PROMPT_0_ROLE,
  LEGACY_PROMPT_0_CONTENT,
  LEGACY_COMPLETION_0_ROLE,
  LEGACY_COMPLETION_0_CONTENT,
  `${LEGACY_FUNCTIONS_PREFIX}0.name`,
  OI_SPAN_KIND, // OpenInference
  AI_OPERATION_ID, // Vercel AI SDK 4-6
  MCP_METHOD_NAME, // MCP semantic conventions (tools/call)
];

/** Instrumentation scopes whose spans a reader may claim by span name alone (AI SDK writes `ai`). */
export const AGENT_SPAN_SCOPES: readonly string[] = [AI_SCOPE_NAME];

const KEYS: ReadonlySet<string> = new Set(AGENT_SPAN_MARKING_KEYS);
const SCOPES: ReadonlySet<string> = new Set(AGENT_SPAN_SCOPES);

/** True when the scope or one of the attribute keys marks a span some reader may claim. */
export function marksAgentSpan(attributes: Readonly<Record<string, unknown>>, scopeName: string): boolean {
  if (SCOPES.has(scopeName)) return true;
  for (const k in attributes) if (KEYS.has(k)) return true;
  return false;
}

export function isAgentSpanKey(key: string): boolean {
  return KEYS.has(key);
}

export function isAgentSpanScope(scopeName: string): boolean {
  return SCOPES.has(scopeName);
}
