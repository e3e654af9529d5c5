// The OTLP/gRPC receiver (the collector's loadbalancing exporter speaks only gRPC):
// opentelemetry.proto.collector.trace.v1.TraceService/Export and logs.v1.LogsService/Export on
// grpcListen, sharing the HTTP receiver's pipeline. Messages are taken as raw bytes and decoded
// with src/otlp/proto.ts; grpc-js handles gzip message compression and the size bound.
// Connections are ours: a plain TCP listener takes each socket and holds them to
// limits.grpcConnections with the HTTP receiver's ConnectionGuard (issue 31): at the bound an idle
// connection (no call in progress) is closed to make room, one that never carried an authenticated
// call first, so idle or unauthenticated HTTP/2 sessions cannot lock a new channel out; while every
// connection is in a call, limits.reservedConnections more are taken, and a call on one of those
// is served only if it is authenticated (with auth on). It closes a socket silent for
// limits.grpcIdleMs and hands the rest to grpc-js through its connection injector; grpc-js then
// closes sessions with no call for grpcIdleMs and pings every grpcKeepaliveMs.
// Admission as on HTTP (issue 31), in the call's interceptor: when its headers arrive a call is
// refused at once if the queue is full or the expected cost of its message (the largest of the
// recent ones) does not fit the shared budget (admission.ts), so it is never read; when its message
// has arrived, it is refused before it is decoded if its cost from the message length does not fit.
// Decoding gives the event loop turns (decode.ts).
// Must never acknowledge a batch the pipeline has not, never throw out of a handler, and never
// hold more sockets than its limit.

import * as grpc from '@grpc/grpc-js';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { ServiceConfig } from './config.js';
import type { ServiceMetrics } from './metrics.js';
import type { LogFn, Pipeline } from './pipeline.js';
import { authorize, authRequired } from './auth.js';
import { decodeLogsBody, decodeTraceBodyAsync } from './decode.js';
import { costBeforeDecode, type Reservation } from './admission.js';
import { encodeLogsResponseProto, encodeTraceResponseProto } from '../otlp/proto.js';
import { GRPC_LOGS_EXPORT_PATH, GRPC_TRACE_EXPORT_PATH } from '../otlp/otlp-schema.js';
import * as N from './names.js';
import { foreignTenantsOf, foreignTenantsMessage } from './tenant-scope.js';
import { ConnectionGuard } from './connections.js';

const raw = {
  requestSerialize: (b: Buffer) => b,
  requestDeserialize: (b: Buffer) => b,
  responseSerialize: (b: Buffer) => b,
  responseDeserialize: (b: Buffer) => b,
};

function method(path: string): grpc.MethodDefinition<Buffer, Buffer> {
  return { path, requestStream: false, responseStream: false, originalName: 'export', ...raw };
}

export interface GrpcReceiverDeps {
  config: ServiceConfig;
  pipeline: Pipeline;
  metrics: ServiceMetrics;
  log: LogFn;
}

/** How long a keepalive ping may go unanswered before the connection is dropped. */
const KEEPALIVE_TIMEOUT_MS = 10_000;
/** Metadata key carrying a call's reservation from its interceptor to its handler (never sent anywhere). */
const RESERVATION_KEY = 'x-footprint-reservation';
/** Message sizes remembered for the expected cost of the next call. */
const RECENT_SIZES = 16;

export class GrpcReceiver {
  private server: grpc.Server | null = null;
  private tcp: TcpServer | null = null;
  /** Open sockets by peer (`address:port`, as a call's getPeer() says it). */
  private readonly byPeer = new Map<string, Socket>();
  private readonly guard: ConnectionGuard;
  /** Reservations of calls whose message is being received, by id (interceptor -> handler). */
  private readonly reservations = new Map<string, Reservation>();
  private reservationSeq = 0;
  /** Costs (before decoding) of the last messages received: the largest is what the next call is expected to cost. */
  private readonly recent: number[] = [];
  constructor(private readonly d: GrpcReceiverDeps) {
    const l = d.config.limits;
    this.guard = new ConnectionGuard(l.grpcConnections, l.reservedConnections, d.log, Date.now, (reason) => d.metrics.connectionsClosed.inc({ transport: 'grpc', reason }), 'gRPC connections at limits.grpcConnections');
    d.metrics.openConnections.set('grpc', () => this.guard.size);
  }

  /** Open gRPC connections. */
  get connections(): number {
    return this.guard.size;
  }

  /** Sockets closed at once because every connection and reserved slot was in a call. */
  get refused(): number {
    return this.guard.counts.refused;
  }

  start(): Promise<{ host: string; port: number }> {
    const hp = this.d.config.grpcListen!;
    const l = this.d.config.limits;
    // grpc-js prints its own error lines; the service says what matters once, itself.
    // GRPC_VERBOSITY still turns them back on for debugging.
    if (!process.env.GRPC_VERBOSITY) grpc.setLogVerbosity(grpc.logVerbosity.NONE);
    const server = new grpc.Server({
      interceptors: [(method, call) => this.admission(call, method.path === GRPC_LOGS_EXPORT_PATH ? 'logs' : 'traces')],
      'grpc.max_receive_message_length': l.bodyBytes,
      'grpc.max_send_message_length': 1024 * 1024,
      'grpc.max_connection_idle_ms': l.grpcIdleMs,
      'grpc.keepalive_time_ms': l.grpcKeepaliveMs,
      'grpc.keepalive_timeout_ms': KEEPALIVE_TIMEOUT_MS,
      'grpc.max_concurrent_streams': Math.max(1, l.inFlightBatches + l.queuedBatches),
    });
    server.addService({ Export: method(GRPC_TRACE_EXPORT_PATH) }, { Export: this.handler('traces') });
    server.addService({ Export: method(GRPC_LOGS_EXPORT_PATH) }, { Export: this.handler('logs') });
    this.server = server;
    const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
    const tcp = createTcpServer((socket) => {
      this.guard.admit(socket);
      if (!this.guard.has(socket)) return; // refused: every connection and reserved slot is in a call
      const peer = `${socket.remoteAddress}:${socket.remotePort}`;
      this.byPeer.set(peer, socket);
      socket.once('close', () => {
        if (this.byPeer.get(peer) === socket) this.byPeer.delete(peer);
      });
      // A socket that sends nothing (not even the HTTP/2 preface or a ping answer) is closed.
      socket.setTimeout(l.grpcIdleMs, () => socket.destroy());
      socket.on('error', () => socket.destroy());
      try {
        injector.injectConnection(socket);
      } catch (e) {
        this.d.log('warn', `gRPC: connection not taken (${(e as Error)?.message ?? String(e)})`);
        socket.destroy();
      }
    });
    this.tcp = tcp;
    return new Promise((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(hp.port, hp.host, () => {
        tcp.off('error', reject);
        tcp.on('error', (e) => this.d.log('error', `grpc server: ${e.message}`));
        const a = tcp.address();
        resolve({ host: hp.host, port: typeof a === 'object' && a ? a.port : hp.port });
      });
    });
  }

  async stop(): Promise<void> {
    const s = this.server;
    const tcp = this.tcp;
    if (!s) return;
    this.server = null;
    this.tcp = null;
    tcp?.close();
    this.guard.stop();
    const closeAll = () => {
      for (const socket of this.byPeer.values()) socket.destroy();
    };
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        s.forceShutdown();
        closeAll();
        resolve();
      }, 2000);
      s.tryShutdown(() => {
        clearTimeout(t);
        closeAll();
        resolve();
      });
    });
  }

  /** The cost a call is expected to have before its message arrives: the largest recent one (at first, an eighth of the largest allowed). */
  private expectedCost(): number {
    return this.recent.length > 0 ? Math.max(...this.recent) : costBeforeDecode(this.d.config.limits.bodyBytes) / 8;
  }

  /** Refuses a call before its message is read or decoded (retryable, as the queue-full answer). */
  private refuseEarly(call: grpc.ServerInterceptingCallInterface, signal: string, why: string): void {
    const m = this.d.metrics;
    m.retryResponses.inc({ status: '429' });
    m.batches.inc({ signal, transport: 'grpc', outcome: 'busy' });
    this.d.log('warn', `gRPC ${signal} call not read (UNAVAILABLE): ${why}; the sender keeps it`);
    call.sendStatus({ code: grpc.status.UNAVAILABLE, details: why, metadata: new grpc.Metadata() });
  }

  /** The admission interceptor (see the header). */
  private admission(call: grpc.ServerInterceptingCallInterface, signal: 'traces' | 'logs'): grpc.ServerInterceptingCall {
    let reservation: Reservation | undefined;
    let id = '';
    const done = () => {
      reservation?.release();
      this.reservations.delete(id);
    };
    return new grpc.ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, mdNext) => {
            const expected = this.expectedCost();
            const ok = this.d.pipeline.admits(expected, `a ${signal} call (expected ${expected} once decoded, from recent messages)`);
            if (ok !== true) return this.refuseEarly(call, signal, ok);
            reservation = this.d.pipeline.admission.reserve(expected);
            id = String(++this.reservationSeq);
            this.reservations.set(id, reservation);
            metadata.set(RESERVATION_KEY, id);
            mdNext(metadata);
          },
          onReceiveMessage: (message: Buffer, msgNext) => {
            const cost = costBeforeDecode(message.length);
            this.recent.push(cost);
            if (this.recent.length > RECENT_SIZES) this.recent.shift();
            if (reservation && !reservation.grow(cost)) {
              done();
              return this.refuseEarly(call, signal, `this ${signal} message of ${message.length} bytes would pass limits.queuedBytes (${this.d.config.limits.queuedBytes}, decoded cost) with what is being read and held; retry later`);
            }
            msgNext(message);
          },
          onCancel: done,
        });
      },
      sendStatus: (status, next) => {
        done();
        next(status);
      },
    });
  }

  private handler(signal: 'traces' | 'logs'): grpc.handleUnaryCall<Buffer, Buffer> {
    return (call, callback) => {
      const held = call.metadata.get(RESERVATION_KEY)[0];
      const reservation = typeof held === 'string' ? this.reservations.get(held) : undefined;
      const socket = this.byPeer.get(call.getPeer());
      const reserved = socket ? this.guard.requestStarted(socket) : false;
      let ended = false;
      const end = () => {
        if (ended || !socket) return;
        ended = true;
        this.guard.requestEnded(socket);
      };
      void (async () => {
        let allowed: readonly string[] | undefined;
        if (authRequired(this.d.config.auth)) {
          const h = call.metadata.get('authorization')[0];
          const access = authorize(this.d.config.auth, typeof h === 'string' ? h : h?.toString());
          if (!access.ok) {
            // A reserved slot is for authenticated channels: an unauthenticated one gives it back.
            if (reserved) setImmediate(() => socket?.destroy());
            return callback({ code: grpc.status.UNAUTHENTICATED, details: 'missing or wrong bearer token (authorization: Bearer <token>)' });
          }
          allowed = access.tenants;
        }
        if (socket) this.guard.markTrusted(socket);
        const body = call.request;
        const decoded = signal === 'traces' ? await decodeTraceBodyAsync(body, 'protobuf', 'grpc') : decodeLogsBody(body, 'protobuf', 'grpc', N.CONTENT_TYPE_PROTOBUF);
        if (!decoded.ok) {
          this.d.metrics.batches.inc({ signal, transport: 'grpc', outcome: 'undecodable' });
          this.d.log('warn', `gRPC ${signal} request refused: ${decoded.error}`);
          return callback({ code: grpc.status.INVALID_ARGUMENT, details: `undecodable ${signal} request: ${decoded.error}` });
        }
        const tenantAttribute = this.d.config.tenantAttribute;
        const foreign = foreignTenantsOf(allowed, decoded.value, tenantAttribute);
        if (foreign.length > 0) {
          const message = foreignTenantsMessage(signal, allowed!, foreign, tenantAttribute);
          this.d.metrics.batches.inc({ signal, transport: 'grpc', outcome: 'forbidden' });
          this.d.log('warn', `gRPC ${signal} request refused: ${message}`);
          return callback({ code: grpc.status.PERMISSION_DENIED, details: message });
        }
        const submitted = this.d.pipeline.submit({ ...decoded.value, abandoned: () => call.cancelled });
        // The pipeline now holds the batch's decoded cost: the message's reservation is given back.
        reservation?.release();
        const o = await submitted;
        if (o.status === 'ok') {
          const resp = signal === 'traces' ? encodeTraceResponseProto(o.partial) : encodeLogsResponseProto(o.partial);
          return callback(null, Buffer.from(resp));
        }
        // Final: INVALID_ARGUMENT is not retried (OTLP/gRPC).
        if (o.status === 'refused') return callback({ code: grpc.status.INVALID_ARGUMENT, details: o.message });
        // Both are retryable per the OTLP spec (UNAVAILABLE always is; RESOURCE_EXHAUSTED only with RetryInfo).
        callback({ code: grpc.status.UNAVAILABLE, details: o.message });
      })()
        .catch((e) => {
          this.d.log('error', `gRPC handler failed: ${(e as Error)?.message ?? String(e)}`);
          callback({ code: grpc.status.UNAVAILABLE, details: 'internal error; retry' });
        })
        .finally(end);
    };
  }
}
