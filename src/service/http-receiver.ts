// The OTLP/HTTP receiver: POST /v1/traces and /v1/logs (application/x-protobuf and
// application/json, Content-Encoding gzip with a bounded inflate), answered per the OTLP/HTTP
// spec in the request's own encoding; plus GET /healthz, /readyz, /metrics and /api/findings, all
// in one route table (`route()` adds more, e.g. explain pages). Optional bearer-token auth on
// everything but the health probes. Admission happens BEFORE a body is read: the declared
// Content-Length against limits.bodyBytes (413), and against the bytes being read plus those the
// pipeline holds (limits.queuedBytes) and the pipeline's queue (429 with Retry-After, answered at
// once); a body without Content-Length is held to the same budget while it streams. Connections
// are bounded by ConnectionGuard (idle ones make room; reserved slots for probes), with header,
// idle and request timeouts.
// Must never throw out of a request handler, never answer 200 for a batch the pipeline has not
// acknowledged, and never listen anywhere but the configured address.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionGuard } from './connections.js';
import { authorize, authRequired, tokenMatches, type Access } from './auth.js';
import { gunzip } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { ServiceConfig } from './config.js';
import type { FindingsStore } from './findings-store.js';
import type { ServiceMetrics } from './metrics.js';
import type { BatchOutcome, LogFn, Pipeline } from './pipeline.js';
import { decodeLogsBodyAsync, decodeTraceBodyAsync, type Encoding } from './decode.js';
import { costBeforeDecode } from './admission.js';
import { encodeLogsResponseProto, encodeStatusProto, encodeTraceResponseProto, logsResponseJson, traceResponseJson } from '../otlp/proto.js';
import * as N from './names.js';
import { foreignTenantsOf, foreignTenantsMessage } from './tenant-scope.js';

/** gRPC status codes used in google.rpc.Status bodies. */
const RPC = { INVALID_ARGUMENT: 3, PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, UNAVAILABLE: 14, UNAUTHENTICATED: 16, INTERNAL: 13 } as const;

export interface HttpReceiverDeps {
  config: ServiceConfig;
  pipeline: Pipeline;
  metrics: ServiceMetrics;
  store: FindingsStore;
  log: LogFn;
  isReady: () => boolean;
  /** The shared conversation-state store's state, reported by /readyz (absent with `state: memory`). */
  stateReady?: () => { ok: boolean; kind: string; detail: string };
  /** "Explain this answer" routes (src/service/explain-routes.ts), given the tenants the token may see (undefined: all); true when it answered. */
  explain?: (req: IncomingMessage, res: ServerResponse, url: URL, tenants: readonly string[] | undefined) => boolean;
  /** The explain page's browser paths without a bearer token (signed link, sign-in, session cookie); true when it answered. */
  explainUnauthed?: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
}

/** One route: its method, whether it needs the token, and its handler. */
export interface Route {
  method: 'GET' | 'POST';
  /** false: served without the token (health probes). */
  auth: boolean;
  /** Matches every path starting with the route's path (e.g. `/api/explain/`). */
  prefix?: boolean;
  /** A health probe: served on a reserved connection slot. */
  probe?: boolean;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> | void;
}

const RETRY_AFTER_BUSY_S = 1;
const ACCESS = Symbol('access');
const STARTED = Symbol('first-request-started');

export { tokenMatches };

export class HttpReceiver {
  private server: Server | null = null;
  private readonly routes = new Map<string, Route>();
  private readonly guard: ConnectionGuard;

  constructor(private readonly d: HttpReceiverDeps) {
    const l = d.config.limits;
    this.guard = new ConnectionGuard(l.connections, l.reservedConnections, d.log, Date.now, (reason) => d.metrics.connectionsClosed.inc({ transport: 'http', reason }));
    d.metrics.openConnections.set('http', () => this.guard.size);
    this.route(N.PATH_HEALTHZ, { method: 'GET', auth: false, probe: true, handle: (_q, res) => send(res, 200, 'application/json', '{"status":"ok"}') });
    this.route(N.PATH_READYZ, {
      method: 'GET',
      auth: false,
      probe: true,
      handle: (_q, res) => {
        // A shared state store that is down degrades judging (no shared history), not forwarding: still ready.
        const state = this.d.stateReady?.();
        const extra = state ? `,"state":${JSON.stringify({ store: state.kind, connected: state.ok, detail: state.detail })}` : '';
        return this.d.isReady() ? send(res, 200, 'application/json', `{"status":"ready"${extra}}`) : send(res, 503, 'application/json', `{"status":"not ready"${extra}}`);
      },
    });
    this.route(N.PATH_METRICS, {
      method: 'GET',
      auth: true,
      handle: async (req, res) => {
        // The series are the whole service's (findings by kind, every tenant's traffic): a token
        // bound to some tenants is refused rather than shown the others' (issue 31).
        if (this.accessOf(req).tenants !== undefined) {
          return sendStatus(res, 403, 'json', RPC.PERMISSION_DENIED, '/metrics covers every tenant: it is served only to a token that sees every tenant (auth.token, or a token whose tenants include "*")');
        }
        const { contentType, body } = await this.d.metrics.text();
        send(res, 200, contentType, body);
      },
    });
    this.route(N.PATH_FINDINGS, {
      method: 'GET',
      auth: true,
      handle: (req, res, url) => {
        const traceId = url.searchParams.get('traceId') ?? undefined;
        const kind = url.searchParams.get('kind') ?? undefined;
        const tenants = this.accessOf(req).tenants;
        send(res, 200, 'application/json', JSON.stringify(this.d.store.query({ ...(traceId ? { traceId } : {}), ...(kind ? { kind } : {}), ...(tenants ? { tenants } : {}) })));
      },
    });
    this.route(N.PATH_TRACES, { method: 'POST', auth: true, handle: (req, res) => this.receive(req, res, 'traces') });
    this.route(N.PATH_LOGS, { method: 'POST', auth: true, handle: (req, res) => this.receive(req, res, 'logs') });
  }

  /** Adds (or replaces) a route; call before start(). */
  route(path: string, r: Route): void {
    this.routes.set(path, r);
  }

  /** Connections open, closed to make room, refused, taken on reserved slots. */
  get connectionStats(): { open: number; evicted: number; refused: number; reserved: number } {
    return { open: this.guard.size, ...this.guard.counts };
  }

  start(): Promise<AddressInfo> {
    const { config } = this.d;
    const l = config.limits;
    const requestTimeout = l.requestTimeoutMs;
    const server = createServer({
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, l.headersTimeoutMs),
      keepAliveTimeout: Math.min(5000, l.idleTimeoutMs),
      // How often Node checks those timeouts (default 30 s would let a slow sender overstay).
      connectionsCheckingInterval: Math.max(50, Math.min(Math.floor(Math.min(requestTimeout, l.headersTimeoutMs) / 4), 30_000)),
    }, (req, res) => {
      this.handle(req, res).catch((e) => {
        this.d.log('error', `request handler failed: ${(e as Error)?.message ?? String(e)}`);
        if (!res.headersSent) send(res, 500, 'application/json', JSON.stringify({ code: RPC.INTERNAL, message: 'internal error' }));
        else res.destroy();
      });
    });
    server.on('connection', (socket: Socket) => {
      // A new socket must start a request within headersTimeoutMs (Node's own headersTimeout
      // only starts counting once bytes arrive, so a silent socket would sit); after its first
      // request, one with nothing sent or received for idleTimeoutMs is closed.
      socket.setTimeout(Math.min(l.headersTimeoutMs, l.idleTimeoutMs), () => socket.destroy());
      this.guard.admit(socket);
    });
    this.server = server;
    this.guard.watchDescriptors(config.grpcListen ? l.grpcConnections : 0);
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
    this.guard.stop();
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeIdleConnections();
      setTimeout(() => {
        s.closeAllConnections();
      }, 2000).unref();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A request that arrives behind an early answer whose close lingers (see discardRest) can
    // never be answered: it is dropped unread and not counted.
    if ((req.socket as Socket & { [LINGERING]?: boolean })[LINGERING]) return void req.resume();
    const started = process.hrtime.bigint();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const found = this.routes.get(url.pathname) ?? [...this.routes.entries()].find(([p, r]) => r.prefix && url.pathname.startsWith(p))?.[1];
    const routeLabel = found ? (found.prefix ? [...this.routes.entries()].find(([, r]) => r === found)![0] : url.pathname) : 'other';
    const socket = req.socket;
    const reserved = this.guard.requestStarted(socket);
    if (!(socket as Socket & { [STARTED]?: boolean })[STARTED]) {
      (socket as Socket & { [STARTED]?: boolean })[STARTED] = true;
      socket.setTimeout(this.d.config.limits.idleTimeoutMs);
    }
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.guard.requestEnded(socket);
    };
    res.on('finish', () => {
      end();
      const secs = Number(process.hrtime.bigint() - started) / 1e9;
      this.d.metrics.requestSeconds.observe({ route: routeLabel, status: String(res.statusCode) }, secs);
    });
    res.on('close', end);
    const { config } = this.d;
    const authOn = authRequired(config.auth);
    const access = this.accessOf(req);
    const authed = access.ok;

    if (reserved && !(found?.probe || (authOn && authed))) {
      // A reserved slot is for probes and authenticated senders while every other connection is busy.
      req.resume();
      this.d.metrics.connectionsClosed.inc({ transport: 'http', reason: 'reserved-busy' });
      res.setHeader('Retry-After', String(RETRY_AFTER_BUSY_S));
      return sendStatus(res, 503, 'json', RPC.UNAVAILABLE, `every connection (limits.connections ${config.limits.connections}) is busy; retry`, true);
    }
    // A connection that carried an authenticated request (any, with auth off) is evicted last.
    if ((authOn && authed) || (!authOn && !found?.probe)) this.guard.markTrusted(socket);
    if ((!found || found.auth) && authOn && !authed) {
      if (!found && this.d.explainUnauthed?.(req, res, url)) return;
      req.resume();
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendStatus(res, 401, 'json', RPC.UNAUTHENTICATED, 'missing or wrong bearer token (Authorization: Bearer <token>)', true);
    }
    if (!found) {
      if (this.d.explain?.(req, res, url, access.ok ? access.tenants : [])) return;
      req.resume();
      return send(res, 404, 'application/json', JSON.stringify({ code: 5, message: `no route ${url.pathname.slice(0, 100)}` }));
    }
    if (req.method !== found.method) {
      req.resume();
      res.setHeader('Allow', found.method);
      return send(res, 405, 'application/json', JSON.stringify({ code: RPC.INVALID_ARGUMENT, message: `${url.pathname} takes ${found.method}` }));
    }
    return found.handle(req, res, url);
  }

  /** What the request's token grants (cached on the request: the header is read once). */
  private accessOf(req: IncomingMessage): { ok: boolean; tenants?: readonly string[] } {
    const r = req as IncomingMessage & { [ACCESS]?: Access };
    return (r[ACCESS] ??= authorize(this.d.config.auth, req.headers.authorization));
  }

  private async receive(req: IncomingMessage, res: ServerResponse, signal: 'traces' | 'logs'): Promise<void> {
    const { config } = this.d;
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
    const declaredRaw = req.headers['content-length'];
    const declared = declaredRaw === undefined ? undefined : Number(declaredRaw);
    if (declared !== undefined && Number.isFinite(declared) && declared > limit) {
      return this.tooLarge(req, res, encoding, `body of ${declared} bytes is over limits.bodyBytes (${limit})`);
    }
    // Admission before reading: the queue, and the decoded cost of the bodies being read and the
    // batches held, with this one's (admission.ts).
    const declaredBytes = Number.isFinite(declared) ? declared! : 0;
    const admitted = this.d.pipeline.admits(costBeforeDecode(declaredBytes), `this ${signal} body of ${declaredBytes} bytes`);
    if (admitted !== true) return this.busy(req, res, encoding, signal, admitted);
    // This body's share of the budget: what it declared, grown to what has arrived (a body
    // without Content-Length, or one longer than declared, is counted as it streams), until the
    // batch is submitted (the pipeline then holds its decoded cost).
    const reservation = this.d.pipeline.admission.reserve(costBeforeDecode(declaredBytes));
    try {
      const raw = await readBody(req, limit, (size) => reservation.grow(costBeforeDecode(size)));
      if (raw === 'over-budget') return this.busy(req, res, encoding, signal, `the bodies being read and held passed limits.queuedBytes (${config.limits.queuedBytes}, decoded cost) while this one streamed`);
      if (raw === 'too-large') return this.tooLarge(req, res, encoding, `body is over limits.bodyBytes (${limit})`);
      if (raw === 'aborted') return; // the client went away; nothing to answer
      let body: Uint8Array = raw;
      if (ce === 'gzip') {
        const inflated = await inflate(raw, limit);
        if (inflated === 'too-large') return this.tooLarge(req, res, encoding, `gzip body inflates past limits.bodyBytes (${limit})`);
        if (typeof inflated === 'string') return sendStatus(res, 400, encoding, RPC.INVALID_ARGUMENT, `Content-Encoding is gzip but the body is not (${inflated})`);
        body = inflated;
        if (!reservation.grow(costBeforeDecode(body.byteLength))) return this.busy(req, res, encoding, signal, `this ${signal} body inflates to ${body.byteLength} bytes, past limits.queuedBytes (${config.limits.queuedBytes}, decoded cost) with what is held`);
      }
      return await this.decodeAndSubmit(req, res, signal, encoding, mediaType, body, reservation);
    } finally {
      reservation.release();
    }
  }

  /** Decodes a body (the event loop gets turns while a large one is read) and hands it to the pipeline. */
  private async decodeAndSubmit(req: IncomingMessage, res: ServerResponse, signal: 'traces' | 'logs', encoding: Encoding, mediaType: string, body: Uint8Array, reservation: { release(): void }): Promise<void> {
    const { config } = this.d;
    const decoded = signal === 'traces' ? await decodeTraceBodyAsync(body, encoding, 'http') : await decodeLogsBodyAsync(body, encoding, 'http', mediaType);
    if (!decoded.ok) {
      this.d.metrics.batches.inc({ signal, transport: 'http', outcome: 'undecodable' });
      this.d.log('warn', `${signal} request refused (400): ${decoded.error}`);
      return sendStatus(res, 400, encoding, RPC.INVALID_ARGUMENT, `undecodable ${signal} request: ${decoded.error}`);
    }
    const allowed = this.accessOf(req).tenants;
    const foreign = foreignTenantsOf(allowed, decoded.value, config.tenantAttribute);
    if (foreign.length > 0) {
      const message = foreignTenantsMessage(signal, allowed!, foreign, config.tenantAttribute);
      this.d.metrics.batches.inc({ signal, transport: 'http', outcome: 'forbidden' });
      this.d.log('warn', `${signal} request refused (403): ${message}`);
      return sendStatus(res, 403, encoding, RPC.PERMISSION_DENIED, message);
    }
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) gone = true;
    });
    const submitted = this.d.pipeline.submit({ ...decoded.value, abandoned: () => gone || req.socket.destroyed });
    // The pipeline now holds the batch's decoded cost: this body's reservation is given back.
    reservation.release();
    return respond(res, signal, encoding, await submitted);
  }

  /** 429 with Retry-After, answered at once; the rest of the body is discarded, then the connection closed. */
  private busy(req: IncomingMessage, res: ServerResponse, encoding: Encoding, signal: 'traces' | 'logs', why: string): void {
    const m = this.d.metrics;
    m.retryResponses.inc({ status: '429' });
    m.batches.inc({ signal, transport: 'http', outcome: 'busy' });
    this.d.log('warn', `${signal} request not read (429): ${why}; the sender keeps it`);
    res.setHeader('Retry-After', String(RETRY_AFTER_BUSY_S));
    discardRest(req);
    sendStatus(res, 429, encoding, RPC.RESOURCE_EXHAUSTED, why, true);
  }

  private tooLarge(req: IncomingMessage, res: ServerResponse, encoding: Encoding, message: string): void {
    this.d.metrics.batches.inc({ signal: req.url?.includes('logs') ? 'logs' : 'traces', transport: 'http', outcome: 'too-large' });
    this.d.log('warn', `request refused (413): ${message}`);
    discardRest(req);
    sendStatus(res, 413, encoding, RPC.INVALID_ARGUMENT, message, true);
  }
}

/** Marks a socket whose close lingers after an early answer. */
const LINGERING = Symbol('footprint.lingering');

/** How long a refused sender may go on uploading after its answer before its connection is cut. */
const DISCARD_AFTER_ANSWER_MS = 2000;

/**
 * Call before an early answer (429, 413) to a request whose body is still arriving. Node closes
 * such a connection as soon as the answer is written (it sets Connection: close itself), and a
 * sender still writing its body then hits the reset: its write fails (EPIPE) and, on a loaded
 * machine, before it has read the answer, so it sees a network error instead of the 429 (CI: 6 of
 * 22 refused senders). Instead the close lingers: the answer is followed by a FIN, the rest of the
 * body is read and dropped (never held), and the socket is destroyed when the sender closes or
 * DISCARD_AFTER_ANSWER_MS passes. (What Apache calls a lingering close; Node has no option for it.)
 */
function discardRest(req: IncomingMessage): void {
  req.resume();
  if (req.complete) return;
  const socket = req.socket;
  socket.destroySoon = function lingeringClose(this: Socket): void {
    (this as Socket & { [LINGERING]?: boolean })[LINGERING] = true;
    this.end();
    this.on('data', () => {});
    const cut = setTimeout(() => this.destroy(), DISCARD_AFTER_ANSWER_MS);
    cut.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(cut));
  };
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

function readBody(req: IncomingMessage, limit: number, withinBudget: (size: number) => boolean): Promise<Buffer | 'too-large' | 'aborted' | 'over-budget'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // With a Content-Length, each chunk is copied into the body as it arrives: an 18 MB body made
    // in one concatenation at its end held the thread ~70 ms (measured under the flood). A body
    // that turns out longer than it said goes back to the chunk list.
    const declared = Number(req.headers['content-length']);
    let into: Buffer | undefined = Number.isSafeInteger(declared) && declared > 0 && declared <= limit ? Buffer.allocUnsafe(declared) : undefined;
    const done = (v: Buffer | 'too-large' | 'aborted' | 'over-budget') => {
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
      if (!withinBudget(size)) {
        chunks.length = 0;
        into = undefined;
        done('over-budget');
        return;
      }
      if (into !== undefined && size <= into.length) {
        c.copy(into, size - c.length);
        return;
      }
      if (into !== undefined) {
        chunks.push(into.subarray(0, size - c.length));
        into = undefined;
      }
      chunks.push(c);
    });
    // One concatenation at most: 'close' follows 'end', and its argument would be built before
    // done() looked at `settled` (a second 4.5 MB copy of every large body, ~5 % of the service's CPU).
    const whole = () => {
      if (into !== undefined) {
        const body = size === into.length ? into : into.subarray(0, size);
        into = undefined;
        return body;
      }
      const body = Buffer.concat(chunks, size);
      chunks.length = 0;
      return body;
    };
    req.on('end', () => !settled && done(whole()));
    req.on('error', () => done('aborted'));
    req.on('close', () => !settled && done(req.complete ? whole() : 'aborted'));
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
