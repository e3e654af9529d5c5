// What `check` tells a user whose trace held no LLM request: the conventions it reads, in the
// registry's order, each with the attribute that marks its spans. Wording only; recognition
// itself lives in src/conventions/ and this must never claim a reader the registry lacks.

import type { ConventionId } from '../model/agent.js';
import { CONVENTIONS } from '../conventions/registry.js';

/** Keyed by every ConventionId, so a new reader cannot be left unnamed. */
const MARKS: Record<ConventionId, string> = {
  'genai-semconv': 'OpenTelemetry GenAI (gen_ai.operation.name chat / invoke_agent / execute_tool, OpenLLMetry, the official OpenAI instrumentation with its log records)',
  'genai-logs': 'GenAI log records joined to their chat span',
  'openllmetry-legacy': 'OpenLLMetry before 0.23 (llm.request.type, gen_ai.prompt.N.*)',
  openinference: 'OpenInference (openinference.span.kind LLM / TOOL / AGENT)',
  'vercel-ai': 'Vercel AI SDK 4–6 (ai.generateText, ai.streamText, ai.toolCall spans)',
  'mcp-semconv': 'MCP tool calls (mcp.method.name tools/call)',
  'footprint-helpers': "footprint-otel's own helpers",
};

/** "OpenInference (…), Vercel AI SDK 4–6 (…), OpenTelemetry GenAI (…)". */
export function conventionsRead(): string {
  return CONVENTIONS.map((c) => MARKS[c.id]).join('; ');
}
