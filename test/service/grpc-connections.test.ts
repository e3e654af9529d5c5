// Issue 31 item 3, gRPC connections managed like HTTP ones: idle HTTP/2 sessions that never make a
// call (or only unauthenticated ones) held every slot of limits.grpcConnections, and every newly
// opened gRPC channel was closed at once (UNAVAILABLE: 0 of 40). Now, at the bound, an idle
// connection is closed to make room, one that never carried an authenticated call first: a new
// authenticated channel is admitted, and an idle authenticated channel (a collector between
// exports) is kept while untrusted ones are evicted. Real grpc-js clients and raw HTTP/2 sessions
// on 127.0.0.1; every loop bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { connect as h2connect, type ClientHttp2Session } from 'node:http2';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { startService, type RunningService } from '../../src/service/serve.js';
import { GRPC_TRACE_EXPORT_PATH } from '../../src/otlp/otlp-schema.js';
import { CONNECTION_GRACE_MS } from '../../src/service/connections.js';
import { downstreamTo, metricSum, parseMetrics, readable, retraced, startSink, testConfig, silentLog, waitFor, type Sink } from './helpers.js';

const TOKEN = 'grpc-conn-token';
const CAP = 8;
let sink: Sink;
let svc: RunningService;
const sessions: ClientHttp2Session[] = [];
const clients: grpc.Client[] = [];

beforeAll(async () => {
  sink = await startSink();
  const base = testConfig();
  svc = await startService(testConfig({ grpcListen: { host: '127.0.0.1', port: 0 }, downstream: downstreamTo(sink), auth: { token: TOKEN }, limits: { ...base.limits, grpcConnections: CAP, reservedConnections: 2, inFlightBatches: CAP + 4 } }), { log: silentLog });
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of sessions) s.destroy();
  await svc?.shutdown();
  await sink?.close();
});

/** An HTTP/2 session to the gRPC port that makes no call (its preface and settings sent). */
function idleSession(): Promise<ClientHttp2Session> {
  return new Promise((resolve) => {
    const s = h2connect(`http://${svc.grpcAddress}`);
    s.on('error', () => {});
    sessions.push(s);
    s.once('connect', () => resolve(s));
    s.once('close', () => resolve(s));
  });
}

function exportCall(client: grpc.Client, token: string | null = TOKEN): Promise<grpc.ServiceError | null> {
  const md = new grpc.Metadata();
  if (token) md.set('authorization', `Bearer ${token}`);
  const body = ProtobufTraceSerializer.serializeRequest(readable(retraced('openinference-openai').spans))!;
  return new Promise((resolve) => client.makeUnaryRequest(GRPC_TRACE_EXPORT_PATH, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), md, { deadline: Date.now() + 10_000 }, (err) => resolve(err ?? null)));
}

const metrics = async () => parseMetrics(await (await fetch(`${svc.address}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text());

const newClient = () => {
  // Its own connection (grpc-js otherwise shares one between clients of the same target).
  const c = new grpc.Client(svc.grpcAddress!, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  clients.push(c);
  return c;
};

describe('gRPC connections at limits.grpcConnections', () => {
  it('idle and unauthenticated sessions fill every slot: a new authenticated channel is still admitted, and an idle authenticated one is kept', async () => {
    // A collector's channel: authenticated once, then idle between exports.
    const collector = newClient();
    expect(await exportCall(collector)).toBeNull();
    // Sessions that never call, and one whose calls are refused, fill the rest and more.
    const refused = newClient();
    expect((await exportCall(refused, 'wrong'))?.code).toBe(grpc.status.UNAUTHENTICATED);
    for (let i = 0; i < CAP * 2; i++) await idleSession();
    // Past the grace a just-opened connection gets to make its first call (CONNECTION_GRACE_MS).
    await new Promise((r) => setTimeout(r, CONNECTION_GRACE_MS + 100));
    // New channels, one after another: each is admitted and its call answered.
    for (let i = 0; i < 5; i++) expect(await exportCall(newClient())).toBeNull();
    // The collector's channel was not the one closed to make room.
    expect(collector.getChannel().getConnectivityState(false)).toBe(grpc.connectivityState.READY);
    expect(await exportCall(collector)).toBeNull();
    const m = parseMetrics(await (await fetch(`${svc.address}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text());
    expect(metricSum(m, 'footprint_connections_open', 'transport="grpc"')).toBeLessThanOrEqual(CAP);
    expect(metricSum(m, 'footprint_connections_closed_total', 'reason="evicted-idle"')).toBeGreaterThanOrEqual(CAP + 5);
  });

  it('every connection in a call: an authenticated channel is taken on a reserved slot and answered', async () => {
    for (const s of sessions.splice(0)) s.destroy();
    sink.delayMs = 2000;
    try {
      // Every slot in a call (the downstream holds each for 1.5 s), the channels opened one after another.
      const busy: Promise<grpc.ServiceError | null>[] = [];
      for (let i = 0; i < CAP; i++) {
        busy.push(exportCall(newClient()));
        // Its call is in the pipeline (in flight or waiting) before the next channel opens.
        await waitFor(async () => metricSum(await metrics(), 'footprint_batches_in_flight') >= i + 1, 10_000);
      }
      const extra = exportCall(newClient());
      await waitFor(async () => metricSum(await metrics(), 'footprint_batches_in_flight') >= CAP + 1, 10_000);
      // Past the bound: on a reserved slot (nothing idle to close).
      expect(metricSum(await metrics(), 'footprint_connections_open', 'transport="grpc"')).toBe(CAP + 1);
      expect(await extra).toBeNull();
      expect((await Promise.all(busy)).every((e) => e === null)).toBe(true);
    } finally {
      sink.delayMs = 0;
    }
  });
});
