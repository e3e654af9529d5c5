// Test helpers for the service: an OTLP sink on loopback that decodes what it receives with our
// own decoder (and can be told to fail), fixture spans re-traced so every send is distinct, and
// the real SDK exporters pointed at the service. Everything listens on 127.0.0.1, port 0.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { decodeTraceRequestProto, decodeLogsRequestProto } from '../../src/otlp/proto.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { toReadableSpans } from '../../src/otlp/readable.js';
import type { LogData, SpanData } from '../../src/model/telemetry.js';
import { defaultServiceConfig, type ServiceConfig } from '../../src/service/config.js';
import { FIXTURES_DIR, loadFixture, type Library } from '../helpers/fixtures.js';

export const DECLARATIONS = join(FIXTURES_DIR, 'declarations.yaml');

export interface Sink {
  url: string;
  spans: SpanData[];
  logs: LogData[];
  requests: { path: string; contentType: string; status: number; gzip?: boolean }[];
  /** While true, every request is answered 503. */
  down: boolean;
  /** Milliseconds to wait before answering. */
  delayMs: number;
  close(): Promise<void>;
}

export function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startSink(): Promise<Sink> {
  const sink: Sink = { url: '', spans: [], logs: [], requests: [], down: false, delayMs: 0, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    let body = await readAll(req);
    if (sink.delayMs) await new Promise((r) => setTimeout(r, sink.delayMs));
    const ct = (req.headers['content-type'] ?? '').split(';')[0]!;
    if (sink.down) {
      sink.requests.push({ path: req.url ?? '', contentType: ct, status: 503 });
      res.writeHead(503).end();
      return;
    }
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    if (req.url === '/v1/traces') {
      if (ct === 'application/x-protobuf') {
        const r = decodeTraceRequestProto(body);
        if (!r.ok) throw new Error(r.error);
        sink.spans.push(...r.value.spans.map((s) => s.span));
      } else {
        sink.spans.push(...decodeOtlpJsonText(body.toString('utf8'), 'sink').spans.map((s) => s.span));
      }
    } else if (req.url === '/v1/logs') {
      if (ct === 'application/x-protobuf') {
        const r = decodeLogsRequestProto(body);
        if (!r.ok) throw new Error(r.error);
        sink.logs.push(...r.value.logs);
      } else sink.logs.push(...decodeOtlpJsonText(body.toString('utf8'), 'sink').logs);
    }
    sink.requests.push({ path: req.url ?? '', contentType: ct, status: 200, ...(req.headers['content-encoding'] === 'gzip' ? { gzip: true } : {}) });
    res.writeHead(200, { 'Content-Type': ct }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sink.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return sink;
}

/** A fixture's spans and logs with a fresh trace id, so every send is a distinct trace. */
export function retraced(lib: Library, traceId = randomBytes(16).toString('hex')): { spans: SpanData[]; logs: LogData[]; traceId: string } {
  const { doc } = loadFixture(lib, 'backup-triage');
  const spans = doc.spans.map((d) => ({ ...d.span, traceId }));
  const logs = doc.logs.map((l) => (l.traceId ? { ...l, traceId } : l));
  return { spans, logs, traceId };
}

export function readable(spans: SpanData[]): ReadableSpan[] {
  return toReadableSpans(spans.map((span) => ({ span })));
}

export function exporterFor(kind: 'json' | 'proto', base: string, opts: { headers?: Record<string, string>; compression?: 'gzip' | 'none'; timeoutMillis?: number } = {}) {
  const o = { url: `${base}/v1/traces`, headers: opts.headers ?? {}, timeoutMillis: opts.timeoutMillis ?? 15_000, compression: (opts.compression ?? 'none') as never };
  return kind === 'json' ? new JsonExporter(o) : new ProtoExporter(o);
}

export function exportVia(exporter: { export: (s: ReadableSpan[], cb: (r: { code: number; error?: Error }) => void) => void }, spans: ReadableSpan[]): Promise<{ code: number; error?: Error }> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

export function testConfig(over: Partial<ServiceConfig> = {}): ServiceConfig {
  const c = defaultServiceConfig();
  return { ...c, listen: { host: '127.0.0.1', port: 0 }, grpcListen: null, embedded: { runs: 100, print: false }, ...over };
}

export function downstreamTo(sink: Sink, over: Partial<NonNullable<ServiceConfig['downstream']>> = {}): NonNullable<ServiceConfig['downstream']> {
  return { tracesUrl: `${sink.url}/v1/traces`, logsUrl: `${sink.url}/v1/logs`, headers: {}, protocol: 'http/protobuf', compression: 'none', timeoutMs: 5_000, ...over };
}

/** Parses Prometheus text into `name{labels}` -> value. */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?)\s+(\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

export function metricSum(m: Map<string, number>, name: string, labelFilter = ''): number {
  let sum = 0;
  for (const [k, v] of m) if ((k === name || k.startsWith(`${name}{`)) && k.includes(labelFilter)) sum += v;
  return sum;
}

export async function waitFor(cond: () => boolean | Promise<boolean>, ms = 10_000, step = 25): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, step));
  }
  throw new Error('condition not met in time');
}

export const silentLog = () => {};
