// Issue 31 item 2 (the fast, bounded parts; the 32 x 18 MB flood is bench/admission-flood.mjs and
// test/reliability/flood.test.ts): admission counts what a batch holds once decoded, not its
// request bytes, on HTTP before the body is read and on gRPC before the message is decoded (a
// refused gRPC message is never decoded: its spans are never counted as received); and a large
// batch is decoded and analysed with turns given to the event loop, so /healthz is answered while
// it is being processed, not after. Each case fails on the code before issue 31.
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { startService, type RunningService } from '../../src/service/serve.js';
import { encodeTraceRequest } from '../../src/otlp/encode-traces.js';
import { GRPC_TRACE_EXPORT_PATH, OtlpTypes } from '../../src/otlp/otlp-schema.js';
import { decodeTraceBodyAsync } from '../../src/service/decode.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { loadFixture } from '../helpers/fixtures.js';
import { downstreamTo, metricSum, parseMetrics, startSink, testConfig, silentLog, waitFor, type Sink } from './helpers.js';

const opened: { close(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
});

/** An OTLP/protobuf request of about `mb` MB: the recorded conversation (content in span attributes), re-traced. */
function batchOf(mb: number): Buffer {
  const { doc } = loadFixture('openinference-openai', 'backup-triage');
  const items: { span: (typeof doc.spans)[number]['span']; extras: (typeof doc.spans)[number]['extras'] }[] = [];
  const perCopy = encodeTraceRequest(doc.spans).byteLength;
  const copies = Math.max(1, Math.round((mb * 1024 * 1024) / perCopy));
  for (let i = 0; i < copies; i++) {
    const ids = new Map<string, string>();
    for (const d of doc.spans) {
      if (!ids.has(d.span.traceId)) ids.set(d.span.traceId, randomBytes(16).toString('hex'));
      items.push({ span: { ...d.span, traceId: ids.get(d.span.traceId)! }, extras: d.extras });
    }
  }
  return Buffer.from(encodeTraceRequest(items));
}

async function service(over: Partial<ReturnType<typeof testConfig>['limits']>, grpcOn = false): Promise<{ svc: RunningService; sink: Sink }> {
  const sink = await startSink();
  opened.push(sink);
  const base = testConfig();
  const svc = await startService(testConfig({ downstream: downstreamTo(sink, { timeoutMs: 20_000 }), limits: { ...base.limits, ...over }, ...(grpcOn ? { grpcListen: { host: '127.0.0.1', port: 0 } } : {}) }), { log: silentLog });
  opened.push({ close: () => svc.shutdown() });
  return { svc, sink };
}

const post = (svc: RunningService, body: Uint8Array) => fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body });
const metrics = async (svc: RunningService) => parseMetrics(await (await fetch(`${svc.address}/metrics`)).text());

describe('admission by decoded cost', () => {
  it('HTTP: a body whose request bytes fit beside a held batch, but not what it will hold once decoded, is refused before it is read', async () => {
    const { svc, sink } = await service({ queuedBytes: 4 * 1024 * 1024 });
    sink.delayMs = 3000; // the first batch stays held while the second comes
    const first = batchOf(0.4);
    const held = post(svc, first);
    await waitFor(async () => metricSum(await metrics(svc), 'footprint_batches_in_flight') >= 1, 10_000);
    // 0.4 MB held, 1.5 MB more: 1.9 MB of request bytes fits 4 MiB; decoded, it does not.
    const second = await post(svc, batchOf(1.5));
    expect(second.status).toBe(429);
    const status = OtlpTypes.Status.decode(new Uint8Array(await second.arrayBuffer())) as unknown as { message: string };
    expect(status.message).toMatch(/decoded cost/);
    sink.delayMs = 0;
    expect((await held).status).toBe(200);
  });

  it('gRPC: a message that does not fit is refused before it is decoded (its spans never counted as received)', async () => {
    const { svc, sink } = await service({ queuedBytes: 4 * 1024 * 1024 }, true);
    const client = new grpc.Client(svc.grpcAddress!, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': 64 * 1024 * 1024 });
    opened.push({ close: () => client.close() });
    const call = (body: Buffer) => new Promise<grpc.ServiceError | null>((resolve) => client.makeUnaryRequest(GRPC_TRACE_EXPORT_PATH, (b: Buffer) => b, (b: Buffer) => b, body, new grpc.Metadata(), { deadline: Date.now() + 20_000 }, (err) => resolve(err ?? null)));
    sink.delayMs = 3000;
    const first = batchOf(0.4);
    const held = call(first);
    await waitFor(async () => metricSum(await metrics(svc), 'footprint_batches_in_flight') >= 1, 10_000);
    const receivedBefore = metricSum(await metrics(svc), 'footprint_spans_received_total', 'transport="grpc"');
    const refused = await call(batchOf(1.5));
    expect(refused?.code).toBe(grpc.status.UNAVAILABLE);
    expect(refused?.details).toMatch(/limits\.queuedBytes/);
    // Not decoded: no span of it was counted.
    expect(metricSum(await metrics(svc), 'footprint_spans_received_total', 'transport="grpc"')).toBe(receivedBefore);
    sink.delayMs = 0;
    expect(await held).toBeNull();
  });
});

describe('a large batch shares the thread', () => {
  it('its decode gives the event loop turns', async () => {
    const body = batchOf(4);
    let turned = false;
    setImmediate(() => (turned = true));
    const r = await decodeTraceBodyAsync(body, 'protobuf', 'http');
    expect(r.ok && r.value.spans.length).toBeGreaterThan(1000);
    // Before it resolved, a callback queued behind it ran: the decode yielded.
    expect(turned).toBe(true);
  });

  it('it is analysed trace by trace, the event loop turning between, and /healthz is answered meanwhile', async () => {
    const sink = await startSink();
    opened.push(sink);
    /** For each call of the core: whether a request was answered since the previous call. */
    const between: boolean[] = [];
    let probes = 0;
    let answered = 0;
    const svc = await startService(testConfig({ downstream: downstreamTo(sink) }), {
      log: silentLog,
      createCore: (o) => {
        const core = new FootprintCore(o);
        return {
          stats: () => core.stats(),
          process: (input) => {
            between.push(answered > 0);
            // Ask the probe once the batch is being analysed.
            if (probes++ === 0) void fetch(`${svc.address}/healthz`).then(() => answered++);
            return core.process(input);
          },
        };
      },
    });
    opened.push({ close: () => svc.shutdown() });
    const r = await post(svc, batchOf(4));
    expect(r.status).toBe(200);
    // Many calls (one per trace), and the probe was answered before the last of them.
    expect(between.length).toBeGreaterThan(100);
    expect(between[between.length - 1]).toBe(true);
  });
});
