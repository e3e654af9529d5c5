// Shared inputs for the CLI tests: the demo trace (examples/backup-triage), and an ordinary web
// service's trace with no GenAI span, recorded through the real OTel SDK and its OTLP/JSON
// serializer (what the collector's file exporter or the JS exporter writes).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEMO_DIR = join(ROOT, 'examples', 'backup-triage');
export const DEMO = [join(DEMO_DIR, 'trace.otlp.json'), join(DEMO_DIR, 'logs.otlp.json')];
export const DEMO_DECLARATIONS = join(DEMO_DIR, 'declarations.yaml');

/** A file holding `traces` traces of an HTTP service (server span, DB client span, outgoing HTTP call): no LLM anywhere. */
export function plainServiceTrace(traces: number): string {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'checkout' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('@opentelemetry/instrumentation-http', '0.57.0');
  for (let i = 0; i < traces; i++) {
    const server = tracer.startSpan('GET /cart', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'url.path': '/cart', 'http.response.status_code': 200 } });
    const ctx = trace.setSpan(context.active(), server);
    tracer.startSpan('SELECT cart_items', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.query.text': 'SELECT * FROM cart_items WHERE cart_id = $1' } }, ctx).end();
    tracer.startSpan('GET', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'GET', 'server.address': 'pricing.internal' } }, ctx).end();
    server.end();
  }
  const bytes = JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())!;
  const dir = mkdtempSync(join(tmpdir(), 'fp-cli-plain-'));
  const path = join(dir, 'plain.otlp.json');
  writeFileSync(path, Buffer.from(bytes));
  return path;
}

export function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fp-cli-')), name);
  writeFileSync(path, text);
  return path;
}
