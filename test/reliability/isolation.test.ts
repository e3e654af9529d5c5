// Reliability, isolation and safety, through the running service. Tenants: turn 1 of the recorded
// backup-triage conversation under service.name tenant-a, turn 2 (same conversation id) under
// tenant-b: tenant B's finding is exactly what a service that never saw tenant A says, and not
// what the same-tenant control says ("served earlier in this conversation"). Auth: with a token
// configured, every HTTP endpoint but /healthz and /readyz (and both gRPC services) refuses a
// request without it or with a wrong one. Redaction hash/omit: no raw argument value (nor any
// value the quote setting writes) appears in anything footprint adds on the way to the sink
// (finding and other footprint.* events and attributes, carrier spans, gen_ai.evaluation.result
// log records), nor in /metrics, nor in /api/findings.
import { afterAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { randomBytes } from 'node:crypto';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { encodeLogsRequestProto } from '../../src/otlp/proto.js';
import { GRPC_LOGS_EXPORT_PATH, GRPC_TRACE_EXPORT_PATH } from '../../src/otlp/otlp-schema.js';
import type { AttrValue, LogData, SpanData } from '../../src/model/telemetry.js';
import type { Redaction } from '../../src/runs/footprint.js';
import { LIBRARIES, loadFixture, type Library } from '../helpers/fixtures.js';
import { DECLARATIONS, downstreamTo, retraced, startSink, testConfig, silentLog, type Sink } from '../service/helpers.js';
import { protoBody } from './helpers.js';

const opened: { close(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
});

async function service(over: Parameters<typeof testConfig>[0] = {}, sink?: Sink): Promise<{ svc: RunningService; sink: Sink }> {
  const s = sink ?? (await startSink());
  if (!sink) opened.push(s);
  const svc = await startService(testConfig({ downstream: downstreamTo(s), declarationsPath: DECLARATIONS, ...over }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
  opened.push({ close: () => svc.shutdown() });
  return { svc, sink: s };
}

const postProto = (svc: RunningService, spans: SpanData[]) => fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: protoBody(spans) });

/** The two turns of a library's backup-triage recording, each under its own fresh trace id, under the given tenants. */
function turns(lib: Library, tenant1: string, tenant2: string): [SpanData[], SpanData[]] {
  const spans = loadFixture(lib, 'backup-triage').doc.spans.map((d) => d.span);
  const traces = [...new Set(spans.map((s) => s.traceId))];
  expect(traces.length).toBe(2);
  const fresh = new Map(traces.map((t) => [t, randomBytes(16).toString('hex')]));
  const of = (i: number, tenant: string) => spans.filter((s) => s.traceId === traces[i]).map((s) => ({ ...s, traceId: fresh.get(s.traceId)!, resource: { ...s.resource, 'service.name': tenant } }));
  return [of(0, tenant1), of(1, tenant2)];
}

function findingsAt(sink: Sink, traceId: string) {
  return sink.spans.filter((s) => s.traceId === traceId).flatMap((s) => s.events.filter((e) => e.name === 'footprint.finding').map((e) => e.attributes));
}

describe('isolation: tenants (resource service.name) never share conversation state', () => {
  for (const lib of ['traceloop-openai', 'vercel-ai-v7-otel', 'openinference-openai'] as const)
    it(`${lib}: a value served in tenant A's conversation never grounds tenant B's argument (same conversation id)`, async () => {
      const { svc, sink } = await service();
      const [a1, b2] = turns(lib, 'tenant-a', 'tenant-b');
      expect((await postProto(svc, a1)).status).toBe(200);
      expect((await postProto(svc, b2)).status).toBe(200);
      const crossed = findingsAt(sink, b2[0]!.traceId);

      // Control 1: a service that never saw tenant A.
      const alone = await service({}, sink);
      const [, b2only] = turns(lib, 'tenant-a', 'tenant-b');
      expect((await postProto(alone.svc, b2only)).status).toBe(200);
      const fresh = findingsAt(sink, b2only[0]!.traceId);
      // Control 2: both turns in one tenant: the history is used.
      const same = await service({}, sink);
      const [s1, s2] = turns(lib, 'tenant-a', 'tenant-a');
      expect((await postProto(same.svc, s1)).status).toBe(200);
      expect((await postProto(same.svc, s2)).status).toBe(200);
      const shared = findingsAt(sink, s2[0]!.traceId);

      const view = (fs: typeof crossed) => fs.map((f) => [f['footprint.finding.kind'], f['footprint.tool.call.id'], f['footprint.finding.grounding'], f['footprint.finding.message']].join(' | ')).sort();
      const call3 = (fs: typeof crossed) => fs.find((f) => f['footprint.finding.kind'] === 'unsupported-argument' && f['footprint.tool.call.id'] === 'call_bt_003');
      expect(call3(crossed)).toBeDefined();
      expect(view(crossed)).toEqual(view(fresh));
      expect(String(call3(shared)!['footprint.finding.message'])).toContain('served earlier');
      expect(String(call3(crossed)!['footprint.finding.message'])).not.toContain('served earlier');
      expect(view(crossed)).not.toEqual(view(shared));
    });
});

describe('safety: with auth configured, every endpoint but the health probes needs the token', () => {
  const TOKEN = 'reliability-token-Zx81';
  it('HTTP: POST /v1/traces and /v1/logs, GET /metrics and /api/findings, unknown routes: 401 without the token, or with a wrong one', async () => {
    const { svc } = await service({ auth: { token: TOKEN } });
    const { spans, logs } = retraced('otel-instrumentation-openai');
    const requests: [string, string, Uint8Array | undefined, Record<string, string>][] = [
      ['POST', '/v1/traces', protoBody(spans), { 'Content-Type': 'application/x-protobuf' }],
      ['POST', '/v1/traces', Buffer.from('{}'), { 'Content-Type': 'application/json' }],
      ['POST', '/v1/logs', encodeLogsRequestProto(logs), { 'Content-Type': 'application/x-protobuf' }],
      ['GET', '/metrics', undefined, {}],
      ['GET', '/api/findings', undefined, {}],
      ['GET', '/api/findings?traceId=00', undefined, {}],
      ['GET', '/v1/traces', undefined, {}],
      ['GET', '/no-such-route', undefined, {}],
    ];
    const bad: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong' }, { Authorization: `Bearer ${TOKEN}x` }, { Authorization: `Basic ${TOKEN}` }, { Authorization: TOKEN }, { Authorization: 'Bearer ' }];
    for (const [method, path, body, headers] of requests) {
      for (const h of bad) {
        const r = await fetch(`${svc.address}${path}`, { method, headers: { ...headers, ...h }, ...(body ? { body } : {}) });
        expect(r.status, `${method} ${path} with ${JSON.stringify(h)}`).toBe(401);
        await r.arrayBuffer();
      }
    }
    for (const probe of ['/healthz', '/readyz']) expect((await fetch(`${svc.address}${probe}`)).status).toBe(200);
    // With the token, the same requests go through.
    const ok = { Authorization: `Bearer ${TOKEN}` };
    expect((await fetch(`${svc.address}/v1/logs`, { method: 'POST', headers: { ...ok, 'Content-Type': 'application/x-protobuf' }, body: encodeLogsRequestProto(logs) })).status).toBe(200);
    expect((await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { ...ok, 'Content-Type': 'application/x-protobuf' }, body: protoBody(spans) })).status).toBe(200);
    expect((await fetch(`${svc.address}/metrics`, { headers: ok })).status).toBe(200);
    expect((await fetch(`${svc.address}/api/findings`, { headers: ok })).status).toBe(200);
  });

  it('gRPC: TraceService/Export and LogsService/Export answer UNAUTHENTICATED without the token or with a wrong one', async () => {
    const { svc } = await service({ auth: { token: TOKEN }, grpcListen: { host: '127.0.0.1', port: 0 } });
    const client = new grpc.Client(svc.grpcAddress!, grpc.credentials.createInsecure());
    opened.push({ close: () => client.close() });
    const { spans, logs } = retraced('otel-instrumentation-openai');
    const call = (path: string, body: Uint8Array, auth: string | null) =>
      new Promise<grpc.ServiceError | null>((resolve) => {
        const md = new grpc.Metadata();
        if (auth !== null) md.set('authorization', auth);
        client.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, Buffer.from(body), md, { deadline: Date.now() + 10_000 }, (err) => resolve(err ?? null));
      });
    for (const [path, body] of [[GRPC_TRACE_EXPORT_PATH, protoBody(spans)], [GRPC_LOGS_EXPORT_PATH, encodeLogsRequestProto(logs)]] as const) {
      for (const auth of [null, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) expect((await call(path, body, auth))?.code, `${path} with ${auth}`).toBe(grpc.status.UNAUTHENTICATED);
      expect(await call(path, body, `Bearer ${TOKEN}`)).toBeNull();
    }
  });
});

/** Every string inside a value, flattened. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean' || v == null || v instanceof Uint8Array) return out;
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (typeof v === 'object') for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    out.push(k);
    strings(x, out);
  }
  return out;
}

/** What footprint-otel added to the traffic the sink received for these traces. */
function added(sink: Sink, traceIds: Set<string>): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const s of sink.spans) {
    if (!traceIds.has(s.traceId)) continue;
    if (s.name === 'footprint.findings') {
      out.push({ where: `carrier span ${s.spanId}`, text: strings([s.name, s.attributes, s.events.map((e) => [e.name, e.attributes]), s.resource]).join('\n') });
      continue;
    }
    for (const e of s.events) if (e.name.startsWith('footprint.') || e.name === 'gen_ai.evaluation.result') out.push({ where: `event ${e.name} on ${s.name}`, text: strings(e.attributes).join('\n') });
    for (const [k, v] of Object.entries(s.attributes)) if (k.startsWith('footprint.')) out.push({ where: `attribute ${k} on ${s.name}`, text: strings(v as AttrValue).join('\n') });
  }
  for (const l of sink.logs) if (l.eventName === 'gen_ai.evaluation.result' && l.traceId && traceIds.has(l.traceId)) out.push({ where: `evaluation record ${String(l.attributes['footprint.finding.id'])}`, text: strings([l.attributes, l.body as AttrValue]).join('\n') });
  return out;
}

/** Sends every library's backup-triage (logs before spans, and for the contrib library also logs after spans: carrier spans). */
async function sendAll(svc: RunningService): Promise<{ traceIds: Set<string>; rawArgs: Set<string> }> {
  const traceIds = new Set<string>();
  const rawArgs = new Set<string>();
  for (const lib of LIBRARIES) {
    const exp = loadFixture(lib, 'backup-triage').expected;
    for (const t of exp.toolCalls) for (const leaf of t.argumentLeaves) if (typeof leaf.value === 'string' && leaf.value.trim().length >= 4) rawArgs.add(leaf.value);
    for (const late of lib === 'otel-instrumentation-openai' ? [false, true] : [false]) {
      const { spans, logs, traceId } = retraced(lib);
      traceIds.add(traceId);
      const postLogs = async () => logs.length && expect((await fetch(`${svc.address}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: encodeLogsRequestProto(logs as LogData[]) })).status).toBe(200);
      if (!late) await postLogs();
      expect((await postProto(svc, spans)).status).toBe(200);
      if (late) await postLogs();
    }
  }
  return { traceIds, rawArgs };
}

/** Runs the same traffic through a quote service (what would be shown) and a `redaction` service; returns every leak of a raw value. */
async function leaksUnder(redaction: Redaction): Promise<string[]> {
  const quoted = await service({ redaction: 'quote' });
  const q = await sendAll(quoted.svc);
  const shownValues = new Set<string>();
  for (const s of quoted.sink.spans) if (q.traceIds.has(s.traceId)) for (const e of s.events) if (e.name === 'footprint.finding' && typeof e.attributes['footprint.finding.value'] === 'string') shownValues.add(e.attributes['footprint.finding.value']);
  expect(shownValues.size).toBeGreaterThan(0);

  const { svc, sink } = await service({ redaction });
  const { traceIds, rawArgs } = await sendAll(svc);
  expect(rawArgs).toContain('db-primary-full');
  const secrets = [...new Set([...rawArgs, ...shownValues])].filter((v) => v.trim().length >= 4);
  const parts = added(sink, traceIds);
  // The traffic did get findings, carrier spans and evaluation records to look at.
  expect(parts.some((p) => p.where.startsWith('event footprint.finding '))).toBe(true);
  expect(parts.some((p) => p.where.startsWith('carrier span'))).toBe(true);
  expect(parts.some((p) => p.where.startsWith('evaluation record'))).toBe(true);
  const values = sink.spans.flatMap((s) => s.events).filter((e) => e.name === 'footprint.finding').map((e) => e.attributes['footprint.finding.value']);
  for (const v of values) if (v !== undefined) expect(String(v)).toMatch(redaction === 'hash' ? /^sha256:[0-9a-f]{16}$/ : /^\(omitted\)$/);
  const metrics = await (await fetch(`${svc.address}/metrics`)).text();
  const findings = await (await fetch(`${svc.address}/api/findings`)).text();
  const leaks: string[] = [];
  const around = (t: string, x: string) => t.slice(Math.max(0, t.indexOf(x) - 80), t.indexOf(x) + x.length + 40).replace(/\n/g, ' ');
  for (const secret of secrets) {
    for (const p of parts) if (p.text.includes(secret)) leaks.push(`${JSON.stringify(secret)} in ${p.where}: ${around(p.text, secret)}`);
    if (metrics.includes(secret)) leaks.push(`${JSON.stringify(secret)} in /metrics: ${around(metrics, secret)}`);
    if (findings.includes(secret)) leaks.push(`${JSON.stringify(secret)} in /api/findings: ${around(findings, secret)}`);
  }
  return leaks;
}

describe('safety: redaction hash and omit leave no raw value in anything footprint adds', () => {
  for (const redaction of ['hash', 'omit'] as Redaction[]) {
    it(`redaction ${redaction}: no raw argument value in finding and other footprint.* events, carrier spans, /metrics or /api/findings`, async () => {
      const leaks = await leaksUnder(redaction);
      expect(leaks.filter((l) => !/ in evaluation record /.test(l))).toEqual([]);
    });

    // Regression (found by this suite): gen_ai.evaluation.explanation was the finding's raw
    // message, not the redacted one the span event carries, so under hash/omit the argument value
    // went to the logs endpoint in clear.
    it(`redaction ${redaction}: gen_ai.evaluation.result records carry no raw value`, async () => {
      expect(await leaksUnder(redaction)).toEqual([]);
    });
  }
});
