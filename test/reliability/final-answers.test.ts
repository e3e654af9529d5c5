// Reliability, issue 10 items 1 and 3: every batch gets a FINAL answer or a retryable one only for
// a condition that can change, and the downstream's answer is passed on faithfully. Against a
// running service (in-process, 127.0.0.1) and a scripted loopback sink that records the raw
// bytes it receives and answers what each case tells it to:
//  - kvlist nesting 32 / arrays 48 (which passed decode and then made the encoder throw: 503
//    forever) are cut at MAX_VALUE_NESTING and the batch is delivered, the sender told why;
//  - a lone UTF-16 surrogate in OTLP/JSON reaches the sink as U+FFFD, valid UTF-8, counted;
//  - a downstream 400 / 413 reaches the sender as 400 / 413 (final), not 503; a 503 with
//    Retry-After 120 reaches it as 503 with Retry-After 120;
//  - a downstream partialSuccess is merged into the answer and not counted as forwarded;
//  - a downstream that answered 200 but is slow to finish its body is an accepted export,
//    never a 503 that would make the sender deliver it twice.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService, type RunningService } from '../../src/service/serve.js';
import { encodeTraceResponseProto } from '../../src/otlp/proto.js';
import { OtlpTypes } from '../../src/otlp/otlp-schema.js';
import { MAX_VALUE_NESTING } from '../../src/limits.js';
import { exporterFor, exportVia, metricSum, parseMetrics, readAll, readable, testConfig } from '../service/helpers.js';
import type { SpanData } from '../../src/model/telemetry.js';

interface Received {
  path: string;
  contentType: string;
  body: Buffer;
}

type Answer = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

let sink: { url: string; received: Received[]; answer: Answer; close(): Promise<void> };
let svc: RunningService;

const ok200: Answer = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(encodeTraceResponseProto());

async function startScriptedSink(): Promise<typeof sink> {
  const s = { url: '', received: [] as Received[], answer: ok200, close: async () => {} };
  const server: Server = createServer((req, res) => {
    readAll(req).then((body) => {
      s.received.push({ path: req.url ?? '', contentType: String(req.headers['content-type'] ?? ''), body });
      s.answer(req, res, body);
    }, () => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return s;
}

beforeAll(async () => {
  sink = await startScriptedSink();
  const cfg = testConfig({ downstream: { tracesUrl: `${sink.url}/v1/traces`, logsUrl: `${sink.url}/v1/logs`, headers: {}, protocol: 'http/protobuf', compression: 'none', timeoutMs: 1000 } });
  svc = await startService(cfg, { log: () => {} });
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});
beforeEach(() => {
  sink.received = [];
  sink.answer = ok200;
});

let n = 0;
function ids(): { traceId: string; spanId: string } {
  n++;
  return { traceId: (0xabc00000 + n).toString(16).padStart(32, 'f'), spanId: (0x100 + n).toString(16).padStart(16, 'e') };
}

function jsonSpan(attributes: unknown[] = [], name = 'plain'): Record<string, unknown> {
  return { ...ids(), name, kind: 1, startTimeUnixNano: '1730000000000000000', endTimeUnixNano: '1730000001000000000', attributes };
}

function jsonRequest(spans: unknown): string {
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'rel' } }] }, scopeSpans: [{ scope: { name: 'rel' }, spans }] }] });
}

function kvlistNested(depth: number): unknown {
  let v: unknown = { stringValue: 'leaf' };
  for (let i = 0; i < depth; i++) v = { kvlistValue: { values: [{ key: `k${i}`, value: v }] } };
  return v;
}
function arrayNested(depth: number): unknown {
  let v: unknown = { stringValue: 'leaf' };
  for (let i = 0; i < depth; i++) v = { arrayValue: { values: [v] } };
  return v;
}

async function postJson(body: string): Promise<{ status: number; retryAfter: string | null; json: Record<string, unknown> }> {
  const r = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, signal: AbortSignal.timeout(15_000) });
  const text = await r.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  return { status: r.status, retryAfter: r.headers.get('retry-after'), json };
}

/** The span names and string attribute values the sink received in protobuf trace requests. */
function receivedSpans(): { name: string; attributes: Record<string, unknown> }[] {
  const out: { name: string; attributes: Record<string, unknown> }[] = [];
  for (const r of sink.received.filter((x) => x.path === '/v1/traces')) {
    const m = OtlpTypes.ExportTraceServiceRequest.toObject(OtlpTypes.ExportTraceServiceRequest.decode(r.body), { defaults: false }) as { resourceSpans?: { scopeSpans?: { spans?: { name: string; attributes?: { key: string; value: Record<string, unknown> }[] }[] }[] }[] };
    for (const rs of m.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) out.push({ name: s.name, attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, a.value])) });
  }
  return out;
}

async function metrics(): Promise<Map<string, number>> {
  return parseMetrics(await (await fetch(`${svc.address}/metrics`)).text());
}

describe('item 1: a batch that could never be delivered is not answered 503', () => {
  it('kvlist nesting 32 and arrays 48 are cut at MAX_VALUE_NESTING; every span is delivered; the sender is told', async () => {
    const body = jsonRequest([
      jsonSpan([{ key: 'deep.kv', value: kvlistNested(32) }], 'kv32'),
      jsonSpan([{ key: 'deep.arr', value: arrayNested(48) }], 'arr48'),
      jsonSpan([{ key: 'ok', value: { stringValue: 'fine' } }], 'fine'),
    ]);
    const a = await postJson(body);
    expect(a.status, JSON.stringify(a.json)).toBe(200);
    const partial = a.json.partialSuccess as { rejectedSpans?: string; errorMessage?: string } | undefined;
    expect(Number(partial?.rejectedSpans ?? 0)).toBe(0);
    expect(partial?.errorMessage).toMatch(/2 attribute values nested deeper than MAX_VALUE_NESTING were cut/);
    expect(receivedSpans().map((s) => s.name).sort()).toEqual(['arr48', 'fine', 'kv32']);
    // What arrived is still nested, down to the cap.
    let depth = 0;
    let v = receivedSpans().find((s) => s.name === 'kv32')!.attributes['deep.kv'] as Record<string, unknown> | undefined;
    while (v && 'kvlistValue' in v) {
      depth++;
      v = ((v.kvlistValue as { values: { value: Record<string, unknown> }[] }).values[0]!.value);
    }
    expect(depth).toBe(MAX_VALUE_NESTING);
    expect(metricSum(await metrics(), 'footprint_values_normalised_total', 'nesting-cut')).toBeGreaterThanOrEqual(2);
  });

  it('a lone surrogate (an emoji cut in half) reaches the sink as U+FFFD in valid UTF-8, and is counted', async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud83d, as a JSON writer cutting a string would.
    const body = jsonRequest([jsonSpan([{ key: 'cut', value: { stringValue: 'half \ud83d emoji' } }, { key: 'whole', value: { stringValue: 'ok 😀' } }], 'cut-\udc00')]);
    expect(body).toContain('\\ud83d');
    const a = await postJson(body);
    expect(a.status).toBe(200);
    expect((a.json.partialSuccess as { errorMessage?: string }).errorMessage).toMatch(/2 strings with lone UTF-16 surrogates had them replaced by U\+FFFD/);
    const raw = sink.received.find((r) => r.path === '/v1/traces')!.body;
    // Every string in the protobuf the sink got is well-formed UTF-8: a strict decoder reads the whole body's strings.
    const strict = new TextDecoder('utf-8', { fatal: true });
    const spans = receivedSpans();
    expect(spans[0]!.name).toBe('cut-\ufffd');
    expect(spans[0]!.attributes.cut).toEqual({ stringValue: 'half \ufffd emoji' });
    expect(spans[0]!.attributes.whole).toEqual({ stringValue: 'ok 😀' });
    for (const needle of ['half \ufffd emoji', 'cut-\ufffd', 'ok 😀']) expect(raw.includes(Buffer.from(needle, 'utf8'))).toBe(true);
    // CESU-8 of a lone surrogate (0xED 0xA0..0xBF ...) is what the encoder wrote before.
    for (let i = 0; i + 1 < raw.length; i++) expect(raw[i] === 0xed && raw[i + 1]! >= 0xa0, `CESU-8 surrogate at byte ${i}`).toBe(false);
    expect(() => strict.decode(Buffer.from('half \ufffd emoji'))).not.toThrow();
    expect(metricSum(await metrics(), 'footprint_values_normalised_total', 'lone-surrogate')).toBeGreaterThanOrEqual(2);
  });

  for (const status of [400, 413]) {
    it(`a permanent downstream ${status} reaches the sender as ${status} (final), not as a retryable 503`, async () => {
      sink.answer = (_req, res) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 3, message: `sink says ${status}` }));
      const body = jsonRequest([jsonSpan([], `perm-${status}`)]);
      const a = await postJson(body);
      expect(a.status).toBe(status);
      expect(a.retryAfter).toBeNull();
      expect(String(a.json.message)).toMatch(new RegExp(`traces endpoint answered ${status}: sink says ${status}`));
      // Final means final: a re-send of the same bytes is answered the same without a second export.
      const again = await postJson(body);
      expect(again.status).toBe(status);
      expect(sink.received.length).toBe(1);
    });
  }

  it('the SDK exporter sees a downstream 400 as a failure at once (not retried for its whole timeout)', async () => {
    sink.answer = (_req, res) => res.writeHead(400).end();
    // A timeout longer than the test's own: were a 400 retried until it, the test would time out
    // (no wall-clock margin to lose on a loaded machine).
    const exporter = exporterFor('proto', svc.address, { timeoutMillis: 120_000 });
    const span: SpanData = { ...ids(), name: 'sdk-400', kind: 1, startTimeUnixNano: 1n, endTimeUnixNano: 2n, attributes: {}, events: [], status: { code: 0 }, resource: { 'service.name': 'rel' }, scope: { name: 'rel' } };
    const r = await exportVia(exporter, readable([span]));
    await exporter.shutdown();
    expect(r.code).toBe(1);
    expect((r.error as { code?: number } | undefined)?.code).toBe(400);
    expect(sink.received.filter((x) => x.path === '/v1/traces').length).toBe(1);
  });
});

describe('item 3: the downstream answer is passed on faithfully', () => {
  it('a downstream partialSuccess is merged into the answer, and rejected spans are not counted as forwarded', async () => {
    sink.answer = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(encodeTraceResponseProto({ rejected: 2, errorMessage: 'two spans too old' }));
    const before = await metrics();
    const a = await postJson(jsonRequest([jsonSpan([], 'p1'), jsonSpan([], 'p2'), jsonSpan([], 'p3')]));
    expect(a.status).toBe(200);
    const partial = a.json.partialSuccess as { rejectedSpans?: string; errorMessage?: string };
    expect(partial.rejectedSpans).toBe('2');
    expect(partial.errorMessage).toMatch(/downstream rejected 2: two spans too old/);
    const after = await metrics();
    expect(metricSum(after, 'footprint_spans_forwarded_total') - metricSum(before, 'footprint_spans_forwarded_total')).toBe(1);
    expect(metricSum(after, 'footprint_spans_rejected_total', 'downstream-partial') - metricSum(before, 'footprint_spans_rejected_total', 'downstream-partial')).toBe(2);
  });

  it('a downstream Retry-After of 120 reaches the sender as 120', async () => {
    sink.answer = (_req, res) => res.writeHead(503, { 'Retry-After': '120' }).end();
    const a = await postJson(jsonRequest([jsonSpan([], 'ra')]));
    expect(a.status).toBe(503);
    expect(a.retryAfter).toBe('120');
    sink.answer = (_req, res) => res.writeHead(429, { 'Retry-After': '7' }).end();
    const b = await postJson(jsonRequest([jsonSpan([], 'ra429')]));
    expect(b.status).toBe(503);
    expect(b.retryAfter).toBe('7');
  });

  it('an export the downstream answered 200 is accepted even when its body is slow to finish (no 503, no second delivery)', async () => {
    // The service's downstream timeout is 1 s; the old guard fired at timeout + 5 s on a response still being read.
    sink.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' });
      res.write(Buffer.alloc(0));
      setTimeout(() => res.end(encodeTraceResponseProto()), 7000).unref();
    };
    const body = jsonRequest([jsonSpan([], 'slow-body')]);
    const t0 = Date.now();
    const a = await postJson(body);
    expect(a.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(5000);
    sink.answer = ok200;
    // The sender's retry (had it seen a failure) would be a duplicate: the same bytes are answered from the ack cache.
    const again = await postJson(body);
    expect(again.status).toBe(200);
    expect(sink.received.filter((x) => x.path === '/v1/traces').length).toBe(1);
  }, 20_000);
});
