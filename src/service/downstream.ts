// Where batches go after the core: traces as OTLP/HTTP (protobuf or JSON, per config), either as
// a request the pipeline already encoded once (src/service/onward.ts: the original bytes with
// findings appended, as pieces written in one writev) or written here by our own encoder from the
// decoded spans (src/otlp/encode-traces.ts), and log records as their original OTLP bytes
// (forwarded unchanged: re-encoding would lose fields), each by ONE HTTP POST per call whose
// answer is read and passed on faithfully:
//   2xx                      -> accepted (a partialSuccess in the body is read and returned);
//   429, 502, 503, 504, a network error or a timeout before any answer
//                            -> retryable, with the downstream's Retry-After as it was sent;
//   any other status         -> permanent (the batch can never be delivered as it is).
// Once the downstream has answered 2xx the export is accepted, whatever happens after (a body that
// never finishes, a timer): it is never reported as failed, so the sender never re-sends it. The
// timeout measures the downstream, not this thread (downstream-timer.ts): an answer that arrived
// while the thread was busy wins, and a timeout our own backlog caused says so.
// Every call resolves to an outcome, never rejects, and is bounded by the timeout.
// Must never retry on its own (the sender's retry, answered from the pipeline's replay cache,
// is the one retry loop), beyond one immediate re-send on a reused keep-alive socket the
// downstream had already closed; and never drop data silently.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { gzipSync } from 'node:zlib';
import type { SpanData } from '../model/telemetry.js';
import type { SpanExtras } from '../otlp/proto.js';
import { decodeExportResponseProto } from '../otlp/proto.js';
import { encodeTraceRequest, encodeTraceRequestJson } from '../otlp/encode-traces.js';
import { OtlpTypes } from '../otlp/otlp-schema.js';
import { piecesLength, type Pieces } from '../otlp/forward-bytes.js';
import type { DownstreamConfig } from './config.js';
import * as N from './names.js';
import { downstreamTimer } from './downstream-timer.js';

export type ExportOutcome =
  | { ok: true; rejected?: number; errorMessage?: string }
  /** cause `backlog`: the export did not finish because of this service's own load (a busy thread, no free connection), not the downstream. */
  | { ok: false; retryable: boolean; reason: string; status?: number; retryAfterSeconds?: number; cause?: 'backlog' };

export interface Downstream {
  readonly hasLogs: boolean;
  exportSpans(items: readonly { span: SpanData; extras?: SpanExtras }[]): Promise<ExportOutcome>;
  /** Posts an ExportTraceServiceRequest already encoded in the configured protocol (src/service/onward.ts), as pieces in order. */
  exportTraceBytes?(payload: Pieces): Promise<ExportOutcome>;
  /** Posts an ExportLogsServiceRequest as received (protobuf or JSON bytes, uncompressed). */
  forwardLogs(body: Uint8Array, contentType: string): Promise<ExportOutcome>;
  shutdown(): Promise<void>;
}

/** OTLP/HTTP: the statuses a client retries (the specification's list). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(v: string | string[] | undefined, now = Date.now()): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) return undefined;
  if (/^\s*\d+\s*$/.test(s)) return Number(s.trim());
  const t = Date.parse(s);
  return Number.isFinite(t) ? Math.max(0, Math.ceil((t - now) / 1000)) : undefined;
}

/** Bytes of a response body read (a partialSuccess is small; the rest is not needed). */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How long a 2xx body may take to arrive once the status is in; past it the export stays accepted. */
const RESPONSE_BODY_MS = 5_000;
const USER_AGENT = 'footprint-otel';

export function createDownstream(cfg: DownstreamConfig, concurrency: number): Downstream {
  const maxSockets = Math.max(2, concurrency * 2);
  const agents = { http: new HttpAgent({ keepAlive: true, maxSockets }), https: new HttpsAgent({ keepAlive: true, maxSockets }) };
  const json = cfg.protocol === 'http/json';
  return {
    hasLogs: cfg.logsUrl !== null,
    async exportSpans(items) {
      if (items.length === 0) return { ok: true };
      let payload: Uint8Array;
      try {
        payload = json ? encodeTraceRequestJson(items) : encodeTraceRequest(items);
      } catch (e) {
        // Values are bounded at decode (MAX_VALUE_NESTING), so this is a bug, not bad input.
        return { ok: false, retryable: false, reason: `traces could not be encoded: ${(e as Error)?.message ?? String(e)}` };
      }
      return post(cfg.tracesUrl, payload, json ? N.CONTENT_TYPE_JSON : N.CONTENT_TYPE_PROTOBUF, 'traces', cfg, agents);
    },
    exportTraceBytes(payload) {
      return post(cfg.tracesUrl, payload, json ? N.CONTENT_TYPE_JSON : N.CONTENT_TYPE_PROTOBUF, 'traces', cfg, agents);
    },
    forwardLogs(body, contentType) {
      if (!cfg.logsUrl) return Promise.resolve({ ok: false, retryable: false, reason: 'no logs endpoint configured' });
      return post(cfg.logsUrl, body, contentType, 'logs', cfg, agents);
    },
    async shutdown() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** `body` (one buffer or pieces in order) posted once, or twice when a reused keep-alive socket was stale. Pieces are written as they are (one writev), never copied into one buffer unless compressed. */
async function post(url: string, body: Uint8Array | Pieces, contentType: string, signal: 'traces' | 'logs', cfg: DownstreamConfig, agents: { http: HttpAgent; https: HttpsAgent }): Promise<ExportOutcome> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, retryable: false, reason: `bad ${signal} endpoint ${url}` };
  }
  const pieces: readonly Uint8Array[] = body instanceof Uint8Array ? [body] : body.filter((p) => p.byteLength > 0);
  const payload: Buffer[] = cfg.compression === 'gzip' ? [gzipSync(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces))] : pieces.map(asBuffer);
  const headers: Record<string, string> = { ...cfg.headers, 'Content-Type': contentType, 'Content-Length': String(piecesLength(payload)), 'User-Agent': USER_AGENT };
  if (cfg.compression === 'gzip') headers['Content-Encoding'] = 'gzip';
  const once = () => attempt(u, payload, headers, signal, cfg.timeoutMs, u.protocol === 'https:' ? agents.https : agents.http);
  const first = await once();
  return first.staleSocket ? (await once()).outcome : first.outcome;
}

interface Attempt {
  outcome: ExportOutcome;
  /** The request failed on a reused keep-alive socket before any answer: safe to send once more. */
  staleSocket?: boolean;
}

function attempt(u: URL, payload: readonly Buffer[], headers: Record<string, string>, signal: 'traces' | 'logs', timeoutMs: number, agent: HttpAgent | HttpsAgent): Promise<Attempt> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Attempt) => {
      if (settled) return;
      settled = true;
      timer.clear();
      resolve(a);
    };
    let connected = false;
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, { method: 'POST', headers, agent }, (res) => {
      // The downstream has answered: from here on the outcome is its status, never a timeout.
      timer.clear();
      const status = res.statusCode ?? 0;
      readLimited(res, Math.min(RESPONSE_BODY_MS, timeoutMs), (bytes) => done({ outcome: outcomeOf(status, res, bytes, signal) }));
    });
    req.once('socket', () => {
      connected = true;
    });
    const timer = downstreamTimer(timeoutMs, (busyMs) => {
      req.destroy();
      // No connection yet: the export waited for one of ours (every one busy), not for the downstream.
      if (!connected) return done({ outcome: { ok: false, retryable: true, cause: 'backlog', reason: `${signal} export waited ${timeoutMs} ms for a free connection to the downstream (this service's own backlog)` } });
      const note = busyMs >= timeoutMs ? ` (this service's thread was also busy for ${busyMs} ms meanwhile, not counted)` : '';
      done({ outcome: { ok: false, retryable: true, reason: `${signal} export got no answer within ${timeoutMs} ms${note}` } });
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE');
      done({ outcome: { ok: false, retryable: true, reason: `${signal} export failed: ${e.message}` }, ...(stale ? { staleSocket: true } : {}) });
    });
    for (let i = 0; i < payload.length - 1; i++) req.write(payload[i]!);
    if (payload.length > 0) req.end(payload[payload.length - 1]);
    else req.end();
  });
}

/** Reads up to MAX_RESPONSE_BYTES of a response within `withinMs`; hands over what arrived, always once. */
function readLimited(res: IncomingMessage, withinMs: number, cb: (bytes: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    clearTimeout(t);
    cb(Buffer.concat(chunks));
  };
  const t = setTimeout(() => {
    finish();
    res.destroy();
  }, withinMs);
  res.on('data', (c: Buffer) => {
    if (size < MAX_RESPONSE_BYTES) chunks.push(c);
    size += c.length;
  });
  res.on('end', finish);
  res.on('error', finish);
  res.on('close', finish);
}

function outcomeOf(status: number, res: IncomingMessage, bytes: Buffer, signal: 'traces' | 'logs'): ExportOutcome {
  if (status >= 200 && status < 300) return { ok: true, ...partialOf(bytes, res.headers['content-type'], signal) };
  const said = messageOf(bytes, res.headers['content-type']);
  const reason = `${signal} endpoint answered ${status}${said ? `: ${said}` : ''}`;
  if (isRetryableStatus(status)) {
    const ra = parseRetryAfter(res.headers['retry-after']);
    return { ok: false, retryable: true, reason, status, ...(ra !== undefined ? { retryAfterSeconds: ra } : {}) };
  }
  return { ok: false, retryable: false, reason, status };
}

/** The partialSuccess of an Export*ServiceResponse body (protobuf or JSON); {} when there is none. */
function partialOf(bytes: Buffer, contentType: string | undefined, signal: 'traces' | 'logs'): { rejected?: number; errorMessage?: string } {
  if (bytes.length === 0) return {};
  const ct = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  let rejected = 0;
  let errorMessage: string | undefined;
  if (ct === N.CONTENT_TYPE_JSON) {
    try {
      const p = (JSON.parse(bytes.toString('utf8')) as { partialSuccess?: Record<string, unknown> }).partialSuccess;
      if (!p || typeof p !== 'object') return {};
      rejected = Number(signal === 'traces' ? p.rejectedSpans : p.rejectedLogRecords) || 0;
      if (typeof p.errorMessage === 'string' && p.errorMessage) errorMessage = p.errorMessage;
    } catch {
      return {};
    }
  } else {
    const r = decodeExportResponseProto(bytes, signal);
    if (!r.ok) return {};
    rejected = r.value.rejected;
    errorMessage = r.value.errorMessage;
  }
  return { ...(rejected > 0 ? { rejected } : {}), ...(errorMessage ? { errorMessage: errorMessage.slice(0, 500) } : {}) };
}

/** The message of an error body (google.rpc.Status, JSON or protobuf), or its first text. */
function messageOf(bytes: Buffer, contentType: string | undefined): string {
  if (bytes.length === 0) return '';
  const ct = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (ct === N.CONTENT_TYPE_JSON) {
    try {
      const m = (JSON.parse(bytes.toString('utf8')) as { message?: unknown }).message;
      if (typeof m === 'string') return m.slice(0, 300);
    } catch {
      /* fall through */
    }
  }
  if (ct === N.CONTENT_TYPE_PROTOBUF) {
    try {
      const m = (OtlpTypes.Status.decode(bytes) as unknown as { message?: unknown }).message;
      if (typeof m === 'string' && m) return m.slice(0, 300);
    } catch {
      /* fall through */
    }
  }
  // eslint-disable-next-line no-control-regex
  return bytes.toString('utf8', 0, Math.min(bytes.length, 300)).replace(/[\u0000-\u001f\u007f-\u009f\ufffd]+/g, ' ').trim();
}
