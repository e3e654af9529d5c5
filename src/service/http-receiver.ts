// The OTLP/HTTP receiver: POST /v1/traces and /v1/logs (application/x-protobuf and
// application/json, Content-Encoding gzip with a bounded inflate), answered per the OTLP/HTTP
// spec in the request's own encoding; plus GET /healthz, /readyz, /metrics and /api/findings.
// Optional bearer-token auth on everything but the health probes. Bodies are bounded on the wire
// and after inflating (413); requests are bounded in time (Node's requestTimeout, 408).
// Must never throw out of a request handler, never answer 200 for a batch the pipeline has not
// acknowledged, and never listen anywhere but the configured address.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { gunzip } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { ServiceConfig } from './config.js';
import type { FindingsStore } from './findings-store.js';
import type { ServiceMetrics } from './metrics.js';
import type { BatchOutcome, LogFn, Pipeline } from './pipeline.js';
import { decodeLogsBody, decodeTraceBody, type Encoding } from './decode.js';
import { encodeLogsResponseProto, encodeStatusProto, encodeTraceResponseProto, logsResponseJson, traceResponseJson } from '../otlp/proto.js';
import * as N from './names.js';

/** gRPC status codes used in google.rpc.Status bodies. */
const RPC = { INVALID_ARGUMENT: 3, RESOURCE_EXHAUSTED: 8, UNAVAILABLE: 14, UNAUTHENTICATED: 16, INTERNAL: 13 } as const;

export interface HttpReceiverDeps {
  config: ServiceConfig;
  pipeline: Pipeline;
  metrics: ServiceMetrics;
  store: FindingsStore;
  log: LogFn;
  isReady: () => boolean;
  /** The shared conversation-state store's state, reported by /readyz (absent with `state: memory`). */
  stateReady?: () => { ok: boolean; kind: string; detail: string };
  /** "Explain this answer" routes (src/service/explain-routes.ts): true when it answered. */
  explain?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
}

export function tokenMatches(expected: string, header: string | undefined): boolean {
  if (!header) return false;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!m) return false;
  const a = createHash('sha256').update(m[1]!).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export class HttpReceiver {
  private server: Server | null = null;

  constructor(private readonly d: HttpReceiverDeps) {}

  start(): Promise<AddressInfo> {
    const { config } = this.d;
    const requestTimeout = config.limits.requestTimeoutMs;
    const server = createServer({
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 60_000),
      // How often Node checks those timeouts (default 30 s would let a slow sender overstay).
      connectionsCheckingInterval: Math.max(50, Math.min(Math.floor(requestTimeout / 4), 30_000)),
    }, (req, res) => {
      this.handle(req, res).catch((e) => {
        this.d.log('error', `request handler failed: ${(e as Error)?.message ?? String(e)}`);
        if (!res.headersSent) send(res, 500, 'application/json', JSON.stringify({ code: RPC.INTERNAL, message: 'internal error' }));
        else res.destroy();
      });
    });
    server.maxConnections = config.limits.connections;
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.listen.port, config.listen.host, () => {
        server.off('error', reject);
        server.on('error', (e) => this.d.log('error', `http server: ${e.message}`));
        resolve(server.address() as AddressInfo);
      });
    });
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeIdleConnections();
      setTimeout(() => {
        s.closeAllConnections();
      }, 2000).unref();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = routeOf(url.pathname);
    res.on('finish', () => {
      const secs = Number(process.hrtime.bigint() - started) / 1e9;
      this.d.metrics.requestSeconds.observe({ route, status: String(res.statusCode) }, secs);
    });
    const { config } = this.d;

    if (url.pathname === N.PATH_HEALTHZ && req.method === 'GET') return send(res, 200, 'application/json', '{"status":"ok"}');
    if (url.pathname === N.PATH_READYZ && req.method === 'GET') {
      // A store that is down degrades judging (no shared history), not forwarding: still ready.
      const state = this.d.stateReady?.();
      const extra = state ? `,"state":${JSON.stringify({ store: state.kind, connected: state.ok, detail: state.detail })}` : '';
      return this.d.isReady() ? send(res, 200, 'application/json', `{"status":"ready"${extra}}`) : send(res, 503, 'application/json', `{"status":"not ready"${extra}}`);
    }
    if (config.auth.token && !tokenMatches(config.auth.token, req.headers.authorization)) {
      req.resume();
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendStatus(res, 401, 'json', RPC.UNAUTHENTICATED, 'missing or wrong bearer token (Authorization: Bearer <token>)', true);
    }
    if (url.pathname === N.PATH_METRICS && req.method === 'GET') {
      const { contentType, body } = await this.d.metrics.text();
      return send(res, 200, contentType, body);
    }
    if (url.pathname === N.PATH_FINDINGS && req.method === 'GET') {
      const traceId = url.searchParams.get('traceId') ?? undefined;
      const kind = url.searchParams.get('kind') ?? undefined;
      return send(res, 200, 'application/json', JSON.stringify(this.d.store.query({ ...(traceId ? { traceId } : {}), ...(kind ? { kind } : {}) })));
    }
    if (this.d.explain?.(req, res, url)) return;
    const signal = url.pathname === N.PATH_TRACES ? 'traces' : url.pathname === N.PATH_LOGS ? 'logs' : null;
    if (!signal) {
      req.resume();
      return send(res, 404, 'application/json', JSON.stringify({ code: 5, message: `no route ${url.pathname.slice(0, 100)}` }));
    }
    if (req.method !== 'POST') {
      req.resume();
      res.setHeader('Allow', 'POST');
      return send(res, 405, 'application/json', JSON.stringify({ code: RPC.INVALID_ARGUMENT, message: `${url.pathname} takes POST` }));
    }
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const encoding: Encoding | null = mediaType === N.CONTENT_TYPE_PROTOBUF ? 'protobuf' : mediaType === N.CONTENT_TYPE_JSON ? 'json' : null;
    if (!encoding) {
      req.resume();
      return sendStatus(res, 415, 'json', RPC.INVALID_ARGUMENT, `unsupported content type "${mediaType.slice(0, 80)}": use application/x-protobuf or application/json`);
    }
    const ce = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (ce !== 'gzip' && ce !== 'identity' && ce !== '') {
      req.resume();
      return sendStatus(res, 415, encoding, RPC.INVALID_ARGUMENT, `unsupported content encoding "${ce.slice(0, 40)}": use gzip or none`);
    }
    const limit = config.limits.bodyBytes;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      return this.tooLarge(req, res, encoding, `body of ${declared} bytes is over limits.bodyBytes (${limit})`);
    }
    const raw = await readBody(req, limit);
    if (raw === 'too-large') return this.tooLarge(req, res, encoding, `body is over limits.bodyBytes (${limit})`);
    if (raw === 'aborted') return; // the client went away; nothing to answer
    let body: Uint8Array = raw;
    if (ce === 'gzip') {
      const inflated = await inflate(raw, limit);
      if (inflated === 'too-large') return this.tooLarge(req, res, encoding, `gzip body inflates past limits.bodyBytes (${limit})`);
      if (typeof inflated === 'string') return sendStatus(res, 400, encoding, RPC.INVALID_ARGUMENT, `Content-Encoding is gzip but the body is not (${inflated})`);
      body = inflated;
    }
    const decoded = signal === 'traces' ? decodeTraceBody(body, encoding, 'http') : decodeLogsBody(body, encoding, 'http', mediaType);
    if (!decoded.ok) {
      this.d.metrics.batches.inc({ signal, transport: 'http', outcome: 'undecodable' });
      this.d.log('warn', `${signal} request refused (400): ${decoded.error}`);
      return sendStatus(res, 400, encoding, RPC.INVALID_ARGUMENT, `undecodable ${signal} request: ${decoded.error}`);
    }
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) gone = true;
    });
    const outcome = await this.d.pipeline.submit({ ...decoded.value, abandoned: () => gone || req.socket.destroyed });
    return respond(res, signal, encoding, outcome);
  }

  private tooLarge(req: IncomingMessage, res: ServerResponse, encoding: Encoding, message: string): void {
    this.d.metrics.batches.inc({ signal: req.url?.includes('logs') ? 'logs' : 'traces', transport: 'http', outcome: 'too-large' });
    this.d.log('warn', `request refused (413): ${message}`);
    sendStatus(res, 413, encoding, RPC.INVALID_ARGUMENT, message, true);
    res.on('finish', () => req.destroy());
  }
}

function routeOf(path: string): string {
  const known = [N.PATH_TRACES, N.PATH_LOGS, N.PATH_HEALTHZ, N.PATH_READYZ, N.PATH_METRICS, N.PATH_FINDINGS];
  return known.includes(path) ? path : 'other';
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Uint8Array): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  res.end(body);
}

function sendStatus(res: ServerResponse, status: number, encoding: Encoding, code: number, message: string, close = false): void {
  if (close) res.setHeader('Connection', 'close');
  if (encoding === 'protobuf') send(res, status, N.CONTENT_TYPE_PROTOBUF, encodeStatusProto(code, message));
  else send(res, status, N.CONTENT_TYPE_JSON, JSON.stringify({ code, message }));
}

function respond(res: ServerResponse, signal: 'traces' | 'logs', encoding: Encoding, o: BatchOutcome): void {
  if (o.status === 'ok') {
    if (encoding === 'protobuf') return send(res, 200, N.CONTENT_TYPE_PROTOBUF, signal === 'traces' ? encodeTraceResponseProto(o.partial) : encodeLogsResponseProto(o.partial));
    return send(res, 200, N.CONTENT_TYPE_JSON, JSON.stringify(signal === 'traces' ? traceResponseJson(o.partial) : logsResponseJson(o.partial)));
  }
  if (o.status === 'refused') return sendStatus(res, o.httpStatus, encoding, RPC.INVALID_ARGUMENT, o.message);
  res.setHeader('Retry-After', String(o.retryAfterSeconds));
  sendStatus(res, o.status === 'busy' ? 429 : 503, encoding, o.status === 'busy' ? RPC.RESOURCE_EXHAUSTED : RPC.UNAVAILABLE, o.message);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (v: Buffer | 'too-large' | 'aborted') => {
      if (settled) return;
      settled = true;
      resolve(v);
    };
    req.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > limit) {
        req.pause();
        done('too-large');
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => done(Buffer.concat(chunks, size)));
    req.on('error', () => done('aborted'));
    req.on('close', () => done(req.complete ? Buffer.concat(chunks, size) : 'aborted'));
  });
}

function inflate(raw: Buffer, limit: number): Promise<Buffer | 'too-large' | string> {
  return new Promise((resolve) => {
    gunzip(raw, { maxOutputLength: limit }, (err, out) => {
      if (!err) return resolve(out);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) return resolve('too-large');
      resolve(err.message.slice(0, 200));
    });
  });
}
