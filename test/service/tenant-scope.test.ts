// Issue 10 left-over, a tenant-bound token's sending scope: a token in auth.tokens may send only
// spans and log records of its own tenants. A request holding another tenant's records is refused
// whole (HTTP 403 / gRPC PERMISSION_DENIED) with a message naming the tenants, counted in
// /metrics, and nothing of it is analysed, stored or forwarded; the token that sees every tenant
// sends anything. Driven by the real OTLP/HTTP exporter and a real gRPC client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { encodeLogsRequestProto } from '../../src/otlp/proto.js';
import { GRPC_LOGS_EXPORT_PATH, GRPC_TRACE_EXPORT_PATH } from '../../src/otlp/otlp-schema.js';
import type { LogData, SpanData } from '../../src/model/telemetry.js';
import { foreignTenants } from '../../src/service/tenant-scope.js';
import { DECLARATIONS, downstreamTo, exportVia, exporterFor, metricSum, parseMetrics, readable, retraced, startSink, testConfig, silentLog, type Sink } from './helpers.js';

const ALL = 'scope-token-all';
const A = 'scope-token-a';

let sink: Sink;
let svc: RunningService;
let client: grpc.Client;

const under = <T extends SpanData | LogData>(records: T[], tenant: string): T[] => records.map((r) => ({ ...r, resource: { ...r.resource, 'service.name': tenant } }));
const findingsFor = async (traceId: string) => ((await (await fetch(`${svc.address}/api/findings?traceId=${traceId}`, { headers: { Authorization: `Bearer ${ALL}` } })).json()) as { runs: unknown[] }).runs;

function grpcCall(path: string, body: Uint8Array, token: string): Promise<grpc.ServiceError | null> {
  const md = new grpc.Metadata();
  md.set('authorization', `Bearer ${token}`);
  return new Promise((resolve) => client.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), md, { deadline: Date.now() + 15_000 }, (err) => resolve(err ?? null)));
}

beforeAll(async () => {
  sink = await startSink();
  svc = await startService(
    testConfig({ grpcListen: { host: '127.0.0.1', port: 0 }, downstream: downstreamTo(sink), declarationsPath: DECLARATIONS, auth: { token: ALL, tokens: [{ token: A, tenants: ['tenant-a'] }] } }),
    { loadDeclarations: loadDeclarationsFile, log: silentLog },
  );
  client = new grpc.Client(svc.grpcAddress!, grpc.credentials.createInsecure());
});
afterAll(async () => {
  client?.close();
  await svc?.shutdown();
  await sink?.close();
});

describe('a tenant-bound token sends only for its own tenants', () => {
  it('OTLP/HTTP: its own tenant\'s trace is taken; another tenant\'s, or a mixed request, is 403 and goes nowhere', async () => {
    const own = retraced('otel-instrumentation-openai');
    const okResult = await exportVia(exporterFor('proto', svc.address, { headers: { Authorization: `Bearer ${A}` } }), readable(under(own.spans, 'tenant-a')));
    expect(okResult.code).toBe(0);
    expect(sink.spans.filter((s) => s.traceId === own.traceId).length).toBe(own.spans.length);
    expect((await findingsFor(own.traceId)).length).toBe(1);

    const foreign = retraced('otel-instrumentation-openai');
    const refused = await exportVia(exporterFor('proto', svc.address, { headers: { Authorization: `Bearer ${A}` } }), readable(under(foreign.spans, 'tenant-b')));
    expect(refused.code).toBe(1);
    expect((refused.error as { code?: number } | undefined)?.code ?? String(refused.error)).toBe(403);

    const mixed = retraced('otel-instrumentation-openai');
    const half = Math.ceil(mixed.spans.length / 2);
    const body = ProtobufTraceSerializer.serializeRequest(readable([...under(mixed.spans.slice(0, half), 'tenant-a'), ...under(mixed.spans.slice(half), 'tenant-b')]))!;
    const r = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { Authorization: `Bearer ${A}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ resourceSpans: [] }) });
    expect(r.status).toBe(200); // an empty request holds no tenant
    const m = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { Authorization: `Bearer ${A}`, 'Content-Type': 'application/x-protobuf' }, body });
    expect(m.status).toBe(403);
    const j = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { Authorization: `Bearer ${A}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'tenant-b' } }] }, scopeSpans: [{ spans: [{ traceId: foreign.traceId, spanId: '00f067aa0ba902b7', name: 'x', kind: 1, startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] }) });
    expect(j.status).toBe(403);
    const msg = ((await j.json()) as { code: number; message: string });
    expect(msg.code).toBe(7);
    expect(msg.message).toContain('["tenant-a"]');
    expect(msg.message).toContain('"tenant-b"');

    for (const t of [foreign.traceId, mixed.traceId]) {
      expect(sink.spans.filter((s) => s.traceId === t)).toEqual([]);
      expect(await findingsFor(t)).toEqual([]);
    }
    // The token that sees every tenant sends tenant-b's trace.
    const byAll = await exportVia(exporterFor('proto', svc.address, { headers: { Authorization: `Bearer ${ALL}` } }), readable(under(foreign.spans, 'tenant-b')));
    expect(byAll.code).toBe(0);
    expect(sink.spans.filter((s) => s.traceId === foreign.traceId).length).toBe(foreign.spans.length);

    const metrics = parseMetrics(await (await fetch(`${svc.address}/metrics`, { headers: { Authorization: `Bearer ${ALL}` } })).text());
    expect(metricSum(metrics, 'footprint_batches_total', 'outcome="forbidden"')).toBe(3);
  });

  it('OTLP/gRPC: PERMISSION_DENIED for another tenant\'s spans and log records; its own are taken', async () => {
    const { spans, logs, traceId } = retraced('otel-instrumentation-openai');
    const deniedTraces = await grpcCall(GRPC_TRACE_EXPORT_PATH, ProtobufTraceSerializer.serializeRequest(readable(under(spans, 'tenant-b')))!, A);
    expect(deniedTraces?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(deniedTraces?.details).toMatch(/only for tenants \["tenant-a"\].*"tenant-b"/);
    const deniedLogs = await grpcCall(GRPC_LOGS_EXPORT_PATH, encodeLogsRequestProto(under(logs, 'tenant-b')), A);
    expect(deniedLogs?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(sink.spans.filter((s) => s.traceId === traceId)).toEqual([]);
    expect(sink.logs.filter((l) => l.traceId === traceId)).toEqual([]);
    expect(await grpcCall(GRPC_LOGS_EXPORT_PATH, encodeLogsRequestProto(under(logs, 'tenant-a')), A)).toBeNull();
    expect(await grpcCall(GRPC_TRACE_EXPORT_PATH, ProtobufTraceSerializer.serializeRequest(readable(under(spans, 'tenant-a')))!, A)).toBeNull();
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
  });
});

describe('foreignTenants', () => {
  it('names each foreign tenant once, reads numbers and a missing attribute as the service does, and lets the every-tenant token through', () => {
    const rs = [{ 'service.name': 'a' }, { 'service.name': 'b' }, { 'service.name': 'b' }, { 'service.name': 7 }, {}];
    expect(foreignTenants(['a'], rs, 'service.name')).toEqual(['b', '7', '(no tenant)']);
    expect(foreignTenants(['a', 'b', '7', '(no tenant)'], rs, 'service.name')).toEqual([]);
    expect(foreignTenants(undefined, rs, 'service.name')).toEqual([]);
    expect(foreignTenants(['x'], [{ team: 'x', 'service.name': 'a' }], 'team')).toEqual([]);
  });
});
