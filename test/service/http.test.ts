// The OTLP/HTTP receiver's edges: content types and encodings (protobuf, JSON, gzip), the body
// bound on the wire and after inflating (413, gzip bombs), 415, 400 with a message, bearer auth
// (401; probes exempt), partialSuccess on a mixed batch, 429 when the in-flight queue is full,
// the embedded default's stdout lines and GET /api/findings, and responses in the request's encoding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProtobufTraceSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { decodeExportResponseProto } from '../../src/otlp/proto.js';
import { OtlpTypes } from '../../src/otlp/otlp-schema.js';
import { DECLARATIONS, downstreamTo, exporterFor, exportVia, readable, retraced, startSink, testConfig, silentLog, type Sink } from './helpers.js';
import type { SpanData } from '../../src/model/telemetry.js';

const TOKEN = 's3cret-token';
let sink: Sink;
let svc: RunningService; // downstream, auth, small limits
let embedded: RunningService; // no downstream
const printed: string[] = [];

beforeAll(async () => {
  sink = await startSink();
  const cfg = testConfig({ downstream: downstreamTo(sink), auth: { token: TOKEN } });
  cfg.limits = { ...cfg.limits, bodyBytes: 256 * 1024 };
  svc = await startService(cfg, { log: silentLog });
  embedded = await startService(testConfig({ declarationsPath: DECLARATIONS, embedded: { runs: 10, print: true } }), { loadDeclarations: loadDeclarationsFile, log: silentLog, stdout: (l) => printed.push(l) });
});
afterAll(async () => {
  await svc?.shutdown();
  await embedded?.shutdown();
  await sink?.close();
});

const auth = { Authorization: `Bearer ${TOKEN}` };
const post = (base: string, path: string, body: Uint8Array | string, headers: Record<string, string>) => fetch(`${base}${path}`, { method: 'POST', headers, body });

function protoBody(spans: SpanData[]): Uint8Array {
  return ProtobufTraceSerializer.serializeRequest(readable(spans))!;
}

describe('receiver: encodings and answers', () => {
  it('protobuf: 200 with an empty ExportTraceServiceResponse in protobuf', async () => {
    const { spans } = retraced('vercel-ai');
    const r = await post(svc.address, '/v1/traces', protoBody(spans), { ...auth, 'Content-Type': 'application/x-protobuf' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-protobuf');
    expect(decodeExportResponseProto(new Uint8Array(await r.arrayBuffer()), 'traces')).toEqual({ ok: true, value: { rejected: 0 } });
  });

  it('JSON + gzip: 200 with a JSON response; the spans reach the sink', async () => {
    const { spans, traceId } = retraced('traceloop-openai');
    const body = gzipSync(JsonTraceSerializer.serializeRequest(readable(spans))!);
    const r = await post(svc.address, '/v1/traces', body, { ...auth, 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await r.json() as any).toEqual({});
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
  });

  it('the SDK exporter with gzip compression and a bearer header is accepted', async () => {
    const { spans, traceId } = retraced('vercel-ai-v7-otel');
    const r = await exportVia(exporterFor('proto', svc.address, { compression: 'gzip', headers: auth }), readable(spans));
    expect(r.code, r.error?.message).toBe(0);
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
  });

  it('partialSuccess: a mixed batch forwards the usable spans and says how many were rejected', async () => {
    const { spans, traceId } = retraced('openinference-openai');
    const doc = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(readable(spans))!));
    doc.resourceSpans[0].scopeSpans[0].spans.push({ traceId: 'nothex', spanId: 'zz', name: 'broken' }, { traceId, name: 'no span id' });
    const r = await post(svc.address, '/v1/traces', JSON.stringify(doc), { ...auth, 'Content-Type': 'application/json' });
    expect(r.status).toBe(200);
    const j = (await r.json()) as any;
    expect(j.partialSuccess.rejectedSpans).toBe('2');
    expect(j.partialSuccess.errorMessage).toMatch(/2 spans rejected/);
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
    // Same for protobuf: an all-zero span id is unusable.
    const bad = protoBody([...retraced('vercel-ai').spans.slice(0, 2), { ...spans[0]!, spanId: '0000000000000000' }]);
    const p = await post(svc.address, '/v1/traces', bad, { ...auth, 'Content-Type': 'application/x-protobuf' });
    expect(decodeExportResponseProto(new Uint8Array(await p.arrayBuffer()), 'traces')).toMatchObject({ ok: true, value: { rejected: 1 } });
  });

  it('400 with a clear message for undecodable bodies, in the request encoding', async () => {
    const j = await post(svc.address, '/v1/traces', '{not json', { ...auth, 'Content-Type': 'application/json' });
    expect(j.status).toBe(400);
    expect(((await j.json()) as any).message).toMatch(/undecodable traces request: not JSON/);
    const p = await post(svc.address, '/v1/traces', Buffer.from([0x0a, 0xff, 0xff, 0xff]), { ...auth, 'Content-Type': 'application/x-protobuf' });
    expect(p.status).toBe(400);
    const status = OtlpTypes.Status.decode(new Uint8Array(await p.arrayBuffer())) as unknown as { code: number; message: string };
    expect(status.code).toBe(3);
    expect(status.message).toMatch(/not a protobuf ExportTraceServiceRequest/);
    const g = await post(svc.address, '/v1/traces', 'plain', { ...auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    expect(g.status).toBe(400);
    expect(((await g.json()) as any).message).toMatch(/not gzip|gzip but/);
  });

  it('a Jaeger or Tempo JSON file posted to /v1/traces: 400 naming what it is and where it is read, and logged (not 200 {})', async () => {
    const lines: string[] = [];
    const s = await startService(testConfig(), { log: (level: string, msg: string) => lines.push(`${level} ${msg}`) });
    try {
      const jaeger = readFileSync(join(__dirname, '..', 'fixtures', 'jaeger', 'backup-triage.jaeger.json'));
      const r = await post(s.address, '/v1/traces', jaeger, { 'Content-Type': 'application/json' });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { message: string }).message).toBe("undecodable traces request: the body is Jaeger's JSON (UI Download JSON or /api/traces), not an OTLP ExportTraceServiceRequest (no resourceSpans): send OTLP here, or read the file with `footprint-otel check FILE`");
      expect(lines.filter((l) => l.includes('refused'))).toEqual([expect.stringMatching(/^warn traces request refused \(400\): the body is Jaeger's JSON/)]);
      const tempo = await post(s.address, '/v1/traces', JSON.stringify({ batches: [] }), { 'Content-Type': 'application/json' });
      expect([tempo.status, ((await tempo.json()) as { message: string }).message]).toEqual([400, expect.stringContaining("the body is Tempo's API answer (batches)")]);
      // An empty OTLP request is still a valid (empty) export.
      expect((await post(s.address, '/v1/traces', '{}', { 'Content-Type': 'application/json' })).status).toBe(200);
    } finally {
      await s.shutdown();
    }
  });

  it('415 for other content types and encodings', async () => {
    const r = await post(svc.address, '/v1/traces', 'x', { ...auth, 'Content-Type': 'text/plain' });
    expect(r.status).toBe(415);
    expect((await r.json() as any).message).toMatch(/application\/x-protobuf or application\/json/);
    const b = await post(svc.address, '/v1/traces', 'x', { ...auth, 'Content-Type': 'application/json', 'Content-Encoding': 'br' });
    expect(b.status).toBe(415);
  });

  it('413 past limits.bodyBytes, on the wire and for gzip bombs', async () => {
    const big = Buffer.alloc(300 * 1024, 0x20);
    const r = await post(svc.address, '/v1/traces', big, { ...auth, 'Content-Type': 'application/json' });
    expect(r.status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(256 * 1024);
    const b = await post(svc.address, '/v1/traces', bomb, { ...auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    expect(b.status).toBe(413);
    expect(((await b.json()) as any).message).toMatch(/inflates past limits.bodyBytes/);
  });

  it('401 without the token (or with a wrong one); health probes stay open', async () => {
    const { spans } = retraced('vercel-ai');
    expect((await post(svc.address, '/v1/traces', protoBody(spans), { 'Content-Type': 'application/x-protobuf' })).status).toBe(401);
    const wrong = await post(svc.address, '/v1/traces', protoBody(spans), { Authorization: 'Bearer nope', 'Content-Type': 'application/x-protobuf' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(`${svc.address}/metrics`)).status).toBe(401);
    expect((await fetch(`${svc.address}/healthz`)).status).toBe(200);
    expect((await fetch(`${svc.address}/readyz`)).status).toBe(200);
    expect((await fetch(`${svc.address}/metrics`, { headers: auth })).status).toBe(200);
  });

  it('404 and 405 for unknown routes and methods', async () => {
    expect((await fetch(`${svc.address}/v1/metrics`, { method: 'POST', headers: auth })).status).toBe(404);
    expect((await fetch(`${svc.address}/v1/traces`, { headers: auth })).status).toBe(405);
  });
});

describe('receiver: back-pressure', () => {
  it('429 with Retry-After when the in-flight queue is full; the accepted ones all arrive', async () => {
    const slow = await startSink();
    slow.delayMs = 400;
    const cfg = testConfig({ downstream: downstreamTo(slow) });
    cfg.limits = { ...cfg.limits, inFlightBatches: 1, queuedBatches: 1 };
    const s = await startService(cfg, { log: silentLog });
    try {
      const sends = Array.from({ length: 5 }, () => retraced('vercel-ai'));
      const rs = await Promise.all(sends.map((x) => post(s.address, '/v1/traces', protoBody(x.spans), { 'Content-Type': 'application/x-protobuf' })));
      const statuses = rs.map((r) => r.status);
      expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(2);
      for (const r of rs) if (r.status === 429) expect(r.headers.get('retry-after')).toBe('1');
      rs.forEach((r, i) => {
        const n = slow.spans.filter((sp) => sp.traceId === sends[i]!.traceId).length;
        expect(n).toBe(r.status === 200 ? sends[i]!.spans.length : 0);
      });
    } finally {
      await s.shutdown();
      await slow.close();
    }
  });
});

describe('receiver: byte budget', () => {
  it('429 when the batches held would pass limits.queuedBytes (one oversized batch alone still runs)', async () => {
    const slow = await startSink();
    slow.delayMs = 300;
    const cfg = testConfig({ downstream: downstreamTo(slow) });
    cfg.limits = { ...cfg.limits, queuedBytes: 1 };
    const s = await startService(cfg, { log: silentLog });
    try {
      const a = retraced('vercel-ai');
      const b = retraced('vercel-ai');
      const pa = post(s.address, '/v1/traces', protoBody(a.spans), { 'Content-Type': 'application/x-protobuf' });
      await new Promise((r) => setTimeout(r, 100));
      const rb = await post(s.address, '/v1/traces', protoBody(b.spans), { 'Content-Type': 'application/x-protobuf' });
      expect(rb.status).toBe(429);
      const st = OtlpTypes.Status.decode(new Uint8Array(await rb.arrayBuffer())) as unknown as { code: number; message: string };
      expect(st).toMatchObject({ code: 8 });
      expect(st.message).toMatch(/limits\.queuedBytes/);
      expect((await pa).status).toBe(200);
    } finally {
      await s.shutdown();
      await slow.close();
    }
  });
});

describe('embedded default (no downstream)', () => {
  it('prints one readable line per finding and serves them at /api/findings (?traceId, ?kind)', async () => {
    const { spans, traceId } = retraced('vercel-ai');
    const r = await exportVia(exporterFor('json', embedded.address), readable(spans));
    expect(r.code).toBe(0);
    const line = printed.find((l) => l.includes(traceId) && l.includes('unsupported-argument'));
    expect(line).toMatch(/^footprint finding unsupported-argument \(choice\) trace=[0-9a-f]{32} span=[0-9a-f]{16} tool=backup_status call=call_bt_003: /);
    const all = (await (await fetch(`${embedded.address}/api/findings`)).json()) as any;
    expect(all.runs.some((x: { traceId: string }) => x.traceId === traceId)).toBe(true);
    const one = (await (await fetch(`${embedded.address}/api/findings?traceId=${traceId}`)).json()) as any;
    expect(one.runs.length).toBe(1);
    expect(one.runs[0].spans).toBe(spans.length);
    expect(one.runs[0].findings.map((f: { kind: string; toolCallId: string }) => [f.kind, f.toolCallId])).toContainEqual(['unsupported-argument', 'call_bt_003']);
    expect(printed.filter((l) => l.includes(traceId)).length).toBe(one.runs[0].findings.length);
    const byKind = (await (await fetch(`${embedded.address}/api/findings?traceId=${traceId}&kind=unsupported-argument`)).json()) as any;
    expect(byKind.runs[0].findings.every((f: { kind: string }) => f.kind === 'unsupported-argument')).toBe(true);
    const none = (await (await fetch(`${embedded.address}/api/findings?traceId=${traceId}&kind=no-such-kind`)).json()) as any;
    expect(none.runs).toEqual([]);
  });

  it('keeps only the last N runs', async () => {
    for (let i = 0; i < 12; i++) {
      const { spans } = retraced('vercel-ai');
      expect((await exportVia(exporterFor('proto', embedded.address), readable(spans))).code).toBe(0);
    }
    const all = (await (await fetch(`${embedded.address}/api/findings`)).json()) as any;
    expect(all.runs.length).toBe(10);
  });
});

describe('receiver: request timeout', () => {
  it('a sender that stalls mid-body is cut off with 408 after limits.requestTimeoutMs', async () => {
    const cfg = testConfig();
    cfg.limits = { ...cfg.limits, requestTimeoutMs: 400 };
    const s = await startService(cfg, { log: silentLog });
    const { connect } = await import('node:net');
    try {
      const url = new URL(s.address);
      const answer = await new Promise<string>((resolve) => {
        const sock = connect(Number(url.port), url.hostname, () => {
          sock.write('POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"resourceSpans":');
        });
        let got = '';
        sock.on('data', (c) => (got += c.toString()));
        sock.on('close', () => resolve(got));
        setTimeout(() => sock.destroy(), 5000).unref();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await s.shutdown();
    }
  });
});

describe('receiver: the SDK exporter sees 413 as permanent', () => {
  it('an oversized batch fails fast with 413 (read by the exporter, not a connection reset it would retry)', async () => {
    const cfg = testConfig();
    cfg.limits = { ...cfg.limits, bodyBytes: 20 * 1024 };
    const s = await startService(cfg, { log: silentLog });
    try {
      for (const kind of ['proto', 'json'] as const) {
        const spans = Array.from({ length: 100 }, () => retraced('otel-instrumentation-openai').spans).flat();
        // A timeout longer than the test's own: a 413 retried until it would time the test out.
        const r = await exportVia(exporterFor(kind, s.address, { timeoutMillis: 120_000 }), readable(spans));
        expect(r.code).toBe(1);
        expect((r.error as Error & { code?: number }).code).toBe(413);
      }
    } finally {
      await s.shutdown();
    }
  });
});

describe('pipeline: duplicates and abandoned batches', () => {
  it('a re-send of an acknowledged batch (its 200 lost) is answered 200 and not exported twice', async () => {
    const { spans, traceId } = retraced('vercel-ai');
    const body = protoBody(spans);
    for (let i = 0; i < 3; i++) expect((await post(svc.address, '/v1/traces', body, { ...auth, 'Content-Type': 'application/x-protobuf' })).status).toBe(200);
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
  });

  it('a queued batch whose sender disconnected is not exported', async () => {
    const slow = await startSink();
    slow.delayMs = 500;
    const cfg = testConfig({ downstream: downstreamTo(slow) });
    cfg.limits = { ...cfg.limits, inFlightBatches: 1, queuedBatches: 4 };
    const s = await startService(cfg, { log: silentLog });
    try {
      const first = retraced('vercel-ai');
      const second = retraced('vercel-ai');
      const p1 = post(s.address, '/v1/traces', protoBody(first.spans), { 'Content-Type': 'application/x-protobuf' });
      await new Promise((r) => setTimeout(r, 100));
      const p2 = post(s.address, '/v1/traces', protoBody(second.spans), { 'Content-Type': 'application/x-protobuf' }).catch(() => null);
      // A third sender gives up while it waits behind the first two.
      const p2b = fetch(`${s.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: protoBody(retraced('vercel-ai').spans), signal: AbortSignal.timeout(150) }).catch(() => 'aborted');
      expect((await p1).status).toBe(200);
      expect((await p2)?.status).toBe(200);
      expect(await p2b).toBe('aborted');
      await new Promise((r) => setTimeout(r, 1200));
      const m = await (await fetch(`${s.address}/metrics`)).text();
      expect(m).toMatch(/footprint_batches_total\{signal="traces",transport="http",outcome="abandoned"\} 1/);
      expect(slow.spans.filter((sp) => sp.traceId === first.traceId).length).toBe(first.spans.length);
      expect(slow.spans.filter((sp) => sp.traceId === second.traceId).length).toBe(second.spans.length);
      expect(slow.spans.length).toBe(first.spans.length + second.spans.length);
    } finally {
      await s.shutdown();
      await slow.close();
    }
  });

  it('service log lines are rate-limited, with a count of what was suppressed', async () => {
    const { rateLimitedLog } = await import('../../src/service/factory.js');
    const lines: string[] = [];
    let t = 0;
    const log = rateLimitedLog((_l, m) => lines.push(m), 3, 1000, () => t);
    for (let i = 0; i < 10; i++) log('warn', `line ${i}`);
    t = 1500;
    log('warn', 'after');
    expect(lines).toEqual(['line 0', 'line 1', 'line 2', '7 log lines suppressed in the last 2 s (the counters in /metrics are complete)', 'after']);
  });
});
