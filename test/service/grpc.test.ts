// The OTLP/gRPC receiver: TraceService/Export and LogsService/Export on a second port share the
// HTTP pipeline; gzip message compression, bearer auth (UNAUTHENTICATED), undecodable messages
// (INVALID_ARGUMENT) and downstream failure (UNAVAILABLE, retryable) map to OTLP's gRPC codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { decodeExportResponseProto, encodeLogsRequestProto } from '../../src/otlp/proto.js';
import { GRPC_LOGS_EXPORT_PATH, GRPC_TRACE_EXPORT_PATH } from '../../src/otlp/otlp-schema.js';
import { EVENT_FINDING } from '../../src/findings/names.js';
import { DECLARATIONS, downstreamTo, readable, retraced, startSink, testConfig, silentLog, type Sink } from './helpers.js';

const TOKEN = 'grpc-token';
let sink: Sink;
let svc: RunningService;
let client: grpc.Client;

beforeAll(async () => {
  sink = await startSink();
  svc = await startService(testConfig({ grpcListen: { host: '127.0.0.1', port: 0 }, downstream: downstreamTo(sink, { timeoutMs: 800 }), auth: { token: TOKEN }, declarationsPath: DECLARATIONS }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
  client = new grpc.Client(svc.grpcAddress!, grpc.credentials.createInsecure(), { 'grpc.default_compression_algorithm': 2 });
});
afterAll(async () => {
  client?.close();
  await svc?.shutdown();
  await sink?.close();
});

function call(path: string, body: Uint8Array, token: string | null = TOKEN): Promise<{ err: grpc.ServiceError | null; resp?: Buffer }> {
  const md = new grpc.Metadata();
  if (token) md.set('authorization', `Bearer ${token}`);
  return new Promise((resolve) =>
    client.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), md, { deadline: Date.now() + 15_000 }, (err, resp) => resolve({ err: err ?? null, ...(resp ? { resp } : {}) })),
  );
}

describe('OTLP/gRPC receiver', () => {
  it('traces and logs over gRPC (gzip) reach the sink once, with the finding', async () => {
    const { spans, logs, traceId } = retraced('otel-instrumentation-openai');
    const l = await call(GRPC_LOGS_EXPORT_PATH, encodeLogsRequestProto(logs));
    expect(l.err).toBeNull();
    const t = await call(GRPC_TRACE_EXPORT_PATH, ProtobufTraceSerializer.serializeRequest(readable(spans))!);
    expect(t.err).toBeNull();
    expect(decodeExportResponseProto(t.resp!, 'traces')).toEqual({ ok: true, value: { rejected: 0 } });
    const got = sink.spans.filter((s) => s.traceId === traceId);
    expect(got.length).toBe(spans.length);
    expect(got.flatMap((s) => s.events).filter((e) => e.name === EVENT_FINDING).map((e) => e.attributes['footprint.finding.kind'])).toContain('unsupported-argument');
    expect(sink.logs.filter((x) => x.traceId === traceId && x.eventName !== 'gen_ai.evaluation.result').length).toBe(logs.length);
  });

  it('UNAUTHENTICATED without the token', async () => {
    const r = await call(GRPC_TRACE_EXPORT_PATH, new Uint8Array(), null);
    expect(r.err?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('INVALID_ARGUMENT for an undecodable message', async () => {
    const r = await call(GRPC_TRACE_EXPORT_PATH, Buffer.from([0x0a, 0xff, 0xff]));
    expect(r.err?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(r.err?.details).toMatch(/undecodable traces request/);
  });

  it('UNAVAILABLE while downstream is down; the same batch goes through once it recovers', async () => {
    const { spans, traceId } = retraced('vercel-ai');
    const body = ProtobufTraceSerializer.serializeRequest(readable(spans))!;
    sink.down = true;
    const r = await call(GRPC_TRACE_EXPORT_PATH, body);
    expect(r.err?.code).toBe(grpc.status.UNAVAILABLE);
    sink.down = false;
    const again = await call(GRPC_TRACE_EXPORT_PATH, body);
    expect(again.err).toBeNull();
    const got = sink.spans.filter((s) => s.traceId === traceId);
    expect(got.length).toBe(spans.length);
    expect(got.flatMap((s) => s.events).filter((e) => e.name === EVENT_FINDING).map((e) => e.attributes['footprint.finding.kind'])).toContain('unsupported-argument');
  });
});
