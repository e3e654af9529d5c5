// One agent turn as an instrumented app writes it, through a real tracer: an invoke_agent root,
// a chat span whose content is set as JSON strings when the response is in, and one execute_tool
// span per call; and the ordinary HTTP-server spans of sdk-ordinary. Shared by the SDK benches;
// never measures anything itself.
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { yieldToLoop } from './lib.mjs';

/** The attributes an HTTP server instrumentation sets at a span's start. */
const HTTP_SERVER_ATTRS = {
  'http.request.method': 'GET',
  'url.path': '/api/orders/12345',
  'url.scheme': 'http',
  'http.route': '/api/orders/:id',
  'server.address': 'shop.internal',
  'server.port': 8080,
  'network.protocol.version': '1.1',
  'user_agent.original': 'Mozilla/5.0 (X11; Linux x86_64)',
};

/**
 * `n` ordinary HTTP-server spans (the status code set before the end, as the instrumentation
 * does), yielding every 256 so the BatchSpanProcessor exports as an app's event loop would let it
 * and nothing is dropped.
 */
export async function ordinarySpans(tracer, n) {
  for (let i = 0; i < n; i++) {
    const span = tracer.startSpan('GET /api/orders/:id', { kind: SpanKind.SERVER, attributes: HTTP_SERVER_ATTRS });
    span.setAttribute('http.response.status_code', 200);
    span.end();
    if ((i & 255) === 255) await yieldToLoop();
  }
}

/** `chatExtras`: further chat-span attributes (e.g. usage), set with the content. */
export function agentTurn(tracer, conversationId, content, chatExtras = {}) {
  const root = tracer.startSpan('invoke_agent backup-triage', {
    kind: SpanKind.INTERNAL,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'backup-triage', 'gen_ai.conversation.id': conversationId, 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' },
  });
  const ctx = trace.setSpan(ROOT_CONTEXT, root);
  const chat = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' } }, ctx);
  // What an instrumentation does when the response is in: the content as JSON strings.
  chat.setAttributes({
    'gen_ai.input.messages': JSON.stringify(content.input),
    'gen_ai.output.messages': JSON.stringify(content.output),
    'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
    'gen_ai.response.finish_reasons': ['tool_calls'],
    ...chatExtras,
  });
  chat.end();
  for (const call of content.toolCalls) {
    const t = tracer.startSpan(`execute_tool ${call.name}`, { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.name, 'gen_ai.tool.call.id': call.id, 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.arguments': JSON.stringify(call.arguments) } }, ctx);
    t.setAttribute('gen_ai.tool.call.result', JSON.stringify({ status: 'ok', last_backup: '2024-05-01T02:00:00Z' }));
    t.end();
  }
  root.end();
}
