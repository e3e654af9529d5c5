// The processor's cheap recognition tests, run on SDK objects before anything is copied: a handful
// of constant-time key lookups and one scope-name compare. A superset of what the convention
// readers claim (src/conventions/registry.ts `isAgentSpan`; the core decides after the copy).
// Must never parse, copy, iterate attributes or allocate: every ordinary span pays for this.

/** Keys whose presence marks a span some convention may read. */
const AGENT_SPAN_KEYS: readonly string[] = [
  'gen_ai.operation.name', // GenAI semconv (contrib, traceloop, app/helper spans, AI SDK 7)
  'gen_ai.system', // older semconv, AI SDK 6 doGenerate, OpenLLMetry legacy
  'gen_ai.provider.name',
  'gen_ai.tool.name',
  'gen_ai.conversation.id',
  'openinference.span.kind', // OpenInference
  'llm.system',
  'llm.request.type', // OpenLLMetry legacy
  'ai.operationId', // Vercel AI SDK 4-6
  'footprint.tool.arguments_from', // footprint's own helpers
  'footprint.external_grounds',
];

/** Scopes whose spans carry no distinguishing key on every span (AI SDK 6 writes `ai`, AI SDK 7 `gen_ai`). */
const AGENT_SCOPES: ReadonlySet<string> = new Set(['ai', 'gen_ai']);

export function looksLikeAgentSpan(attributes: Readonly<Record<string, unknown>> | undefined, scopeName: string | undefined): boolean {
  if (scopeName !== undefined && AGENT_SCOPES.has(scopeName)) return true;
  if (!attributes) return false;
  for (let i = 0; i < AGENT_SPAN_KEYS.length; i++) {
    if (attributes[AGENT_SPAN_KEYS[i]!] !== undefined) return true;
  }
  return false;
}

/** A log record that may carry LLM content: GenAI event names, or the structured content attributes. */
export function looksLikeGenAiLog(eventName: string | undefined, attributes: Readonly<Record<string, unknown>> | undefined): boolean {
  if (eventName !== undefined && eventName.startsWith('gen_ai.')) return true;
  if (!attributes) return false;
  const n = attributes['event.name'];
  if (typeof n === 'string' && n.startsWith('gen_ai.')) return true;
  return attributes['gen_ai.input.messages'] !== undefined || attributes['gen_ai.output.messages'] !== undefined;
}
