// The app-written spans of the openai-client recordings (traceloop and the official
// instrumentation): one `invoke_agent` root per turn and one `execute_tool` span per call, in the
// layout of the recorded fixtures. Generator-only.

import type { PlacedTurn } from './conversation.js';
import { spanLike, substitute, findSpan, type OtlpSpan } from './otlp-template.js';

export function appSpans(template: OtlpSpan[], turn: PlacedTurn, conversationId: string): OtlpSpan[] {
  const toolT = findSpan(template, (s) => s.name.startsWith('execute_tool '), 'execute_tool span');
  const rootT = findSpan(template, (s) => s.name.startsWith('invoke_agent '), 'invoke_agent span');
  const out: OtlpSpan[] = [];
  for (const c of turn.calls) {
    const attrs = substitute(toolT.attributes, {
      'gen_ai.tool.name': c.name,
      'gen_ai.tool.call.id': c.id,
      'gen_ai.tool.call.arguments': JSON.stringify(c.args),
      'gen_ai.tool.call.result': c.text,
      'error.type': c.error?.type,
    });
    out.push(spanLike(toolT, { traceId: turn.traceId, spanId: c.spanId, parentSpanId: turn.rootSpanId, start: c.start, end: c.end, name: `execute_tool ${c.name}`, ...(c.error ? { error: c.error } : {}) }, attrs));
  }
  out.push(spanLike(rootT, { traceId: turn.traceId, spanId: turn.rootSpanId, start: turn.start, end: turn.end }, substitute(rootT.attributes, { 'gen_ai.conversation.id': conversationId })));
  return out;
}
