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
import { decodeLogsBody, decodeLogsBodyAsync, decodeTraceBody, decodeTraceBodyAsync } from '../../src/service/decode.js';
import { onwardTracePayload } from '../../src/service/onward.js';
import { TimeSlice } from '../../src/service/time-slice.js';
import { decodeTraceRequestProto } from '../../src/otlp/proto.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
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

/** The recording's own OTLP/JSON document holding `copies` copies of its spans, each with fresh trace ids. */
function jsonBatchOf(copies: number, file = join(FIXTURES_DIR, 'openinference-openai', 'backup-triage.otlp.json'), field: 'spans' | 'logRecords' = 'spans'): Buffer {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { [k: string]: Record<string, unknown>[] }[]>;
  for (const rs of Object.values(raw).flat())
    for (const ss of (rs.scopeSpans ?? rs.scopeLogs)!) {
      const one = ss[field] as { traceId: string }[];
      const out: unknown[] = [];
      for (let c = 0; c < copies; c++) {
        const ids = new Map<string, string>();
        for (const x of one) out.push({ ...x, traceId: ids.get(x.traceId) ?? ids.set(x.traceId, randomBytes(16).toString('hex')).get(x.traceId) });
      }
      (ss as Record<string, unknown>)[field] = out;
    }
  return Buffer.from(JSON.stringify(raw));
}

describe('a large OTLP/JSON body shares the thread (issue 37)', () => {
  it('its decode gives the event loop turns, and reads exactly what the whole-body decode reads', async () => {
    const body = jsonBatchOf(300);
    expect(body.byteLength).toBeGreaterThan(8 * 1024 * 1024);
    let turned = false;
    setImmediate(() => (turned = true));
    const r = await decodeTraceBodyAsync(body, 'json', 'http');
    expect(turned).toBe(true);
    const whole = decodeTraceBody(body, 'json', 'http');
    expect(r.ok && whole.ok).toBe(true);
    if (!r.ok || !whole.ok) return;
    expect(r.value.spans.length).toBe(whole.value.spans.length);
    expect(r.value.spans).toEqual(whole.value.spans);
    expect(r.value.cost).toBe(whole.value.cost);
  });

  it("a log records body too (the demo's records, many times over)", async () => {
    const body = jsonBatchOf(2000, join(FIXTURES_DIR, '..', '..', 'examples', 'backup-triage', 'logs.otlp.json'), 'logRecords');
    let turned = false;
    setImmediate(() => (turned = true));
    const r = await decodeLogsBodyAsync(body, 'json', 'http', 'application/json');
    expect(turned).toBe(true);
    const whole = decodeLogsBody(body, 'json', 'http', 'application/json');
    expect(r.ok && whole.ok && r.value.logs.length === whole.value.logs.length && r.value.logs.length > 10_000).toBe(true);
    if (r.ok && whole.ok) expect(r.value.logs).toEqual(whole.value.logs);
  });

  it('bad JSON is refused as before, whole-body and in chunks alike', async () => {
    // Cut bodies (parseChunked alone would read the first four as complete), trailing bytes, not an object.
    for (const bad of ['{"resourceSpans": [', '{"resourceSpans": [{"resource": {', '{"resourceSpans": [{"scopeSpans": []}', '{"resourceSpans": []', '{"resourceSpans": []} {}', '{"resourceSpans": [] ,0]', '[1,2]', '{"resourceSpans": {}}', 'nope', '']) {
      const b = Buffer.from(bad);
      const chunked = await decodeTraceBodyAsync(b, 'json', 'http');
      const whole = decodeTraceBody(b, 'json', 'http');
      expect(chunked.ok, bad).toBe(false);
      expect(whole.ok, bad).toBe(false);
      if (!chunked.ok && !whole.ok) expect(chunked.error.slice(0, 8), bad).toBe(whole.error.slice(0, 8));
    }
  });

  it('a body holding a "__proto__" key reads as JSON.parse reads it (a key, never a prototype)', async () => {
    const text = jsonBatchOf(60).toString('utf8').replace('"attributes":[', '"__proto__":{"traceId":"x"},"attributes":[');
    const b = Buffer.from(text);
    const chunked = await decodeTraceBodyAsync(b, 'json', 'http');
    const whole = decodeTraceBody(b, 'json', 'http');
    expect(chunked.ok && whole.ok).toBe(true);
    if (chunked.ok && whole.ok) expect(chunked.value.spans).toEqual(whole.value.spans);
  });

  it('its onward protobuf is encoded in pieces, the event loop turning between, that decode as one request of the same spans', async () => {
    const r = decodeTraceBody(jsonBatchOf(100), 'json', 'http');
    if (!r.ok) throw new Error(r.error);
    const spansOut = r.value.spans.map((s) => ({ span: s.span, extras: s.extras }));
    let turned = false;
    setImmediate(() => (turned = true));
    const pieces = await onwardTracePayload({ spans: r.value.spans, annotations: new Map(), carriers: [], spansOut, json: false }, new TimeSlice(0));
    expect(turned).toBe(true);
    expect(pieces!.length).toBeGreaterThan(1);
    const back = decodeTraceRequestProto(Buffer.concat(pieces!));
    if (!back.ok) throw new Error(back.error);
    expect(back.value.spans.map((s) => s.span)).toEqual(r.value.spans.map((s) => s.span));
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
