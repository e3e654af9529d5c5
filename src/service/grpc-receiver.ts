// The OTLP/gRPC receiver (the collector's loadbalancing exporter speaks only gRPC):
// opentelemetry.proto.collector.trace.v1.TraceService/Export and logs.v1.LogsService/Export on
// grpcListen, sharing the HTTP receiver's pipeline. Messages are taken as raw bytes and decoded
// with src/otlp/proto.ts; grpc-js handles gzip message compression and the size bound.
// Must never acknowledge a batch the pipeline has not, and never throw out of a handler.

import * as grpc from '@grpc/grpc-js';
import type { ServiceConfig } from './config.js';
import type { ServiceMetrics } from './metrics.js';
import type { LogFn, Pipeline } from './pipeline.js';
import { tokenMatches } from './http-receiver.js';
import { decodeLogsBody, decodeTraceBody } from './decode.js';
import { encodeLogsResponseProto, encodeTraceResponseProto } from '../otlp/proto.js';
import { GRPC_LOGS_EXPORT_PATH, GRPC_TRACE_EXPORT_PATH } from '../otlp/otlp-schema.js';
import * as N from './names.js';

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

export class GrpcReceiver {
  private server: grpc.Server | null = null;
  constructor(private readonly d: GrpcReceiverDeps) {}

  start(): Promise<{ host: string; port: number }> {
    const hp = this.d.config.grpcListen!;
    // grpc-js prints its own error lines (a taken port: "E No address added ..."); the service says
    // it once, clearly, itself. GRPC_VERBOSITY still turns them back on for debugging.
    if (!process.env.GRPC_VERBOSITY) grpc.setLogVerbosity(grpc.logVerbosity.NONE);
    const server = new grpc.Server({
      'grpc.max_receive_message_length': this.d.config.limits.bodyBytes,
      'grpc.max_send_message_length': 1024 * 1024,
    });
    server.addService({ Export: method(GRPC_TRACE_EXPORT_PATH) }, { Export: this.handler('traces') });
    server.addService({ Export: method(GRPC_LOGS_EXPORT_PATH) }, { Export: this.handler('logs') });
    this.server = server;
    const host = hp.host.includes(':') ? `[${hp.host}]` : hp.host;
    return new Promise((resolve, reject) => {
      server.bindAsync(`${host}:${hp.port}`, grpc.ServerCredentials.createInsecure(), (err, port) => {
        if (err) return reject(err);
        resolve({ host: hp.host, port });
      });
    });
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        s.forceShutdown();
        resolve();
      }, 2000);
      s.tryShutdown(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  private handler(signal: 'traces' | 'logs'): grpc.handleUnaryCall<Buffer, Buffer> {
    return (call, callback) => {
      void (async () => {
        const token = this.d.config.auth.token;
        if (token) {
          const h = call.metadata.get('authorization')[0];
          if (!tokenMatches(token, typeof h === 'string' ? h : h?.toString())) {
            return callback({ code: grpc.status.UNAUTHENTICATED, details: 'missing or wrong bearer token (authorization: Bearer <token>)' });
          }
        }
        const body = call.request;
        const decoded = signal === 'traces' ? decodeTraceBody(body, 'protobuf', 'grpc') : decodeLogsBody(body, 'protobuf', 'grpc', N.CONTENT_TYPE_PROTOBUF);
        if (!decoded.ok) {
          this.d.metrics.batches.inc({ signal, transport: 'grpc', outcome: 'undecodable' });
          this.d.log('warn', `gRPC ${signal} request refused: ${decoded.error}`);
          return callback({ code: grpc.status.INVALID_ARGUMENT, details: `undecodable ${signal} request: ${decoded.error}` });
        }
        const o = await this.d.pipeline.submit({ ...decoded.value, abandoned: () => call.cancelled });
        if (o.status === 'ok') {
          const resp = signal === 'traces' ? encodeTraceResponseProto(o.partial) : encodeLogsResponseProto(o.partial);
          return callback(null, Buffer.from(resp));
        }
        // Final: INVALID_ARGUMENT is not retried (OTLP/gRPC).
        if (o.status === 'refused') return callback({ code: grpc.status.INVALID_ARGUMENT, details: o.message });
        // Both are retryable per the OTLP spec (UNAVAILABLE always is; RESOURCE_EXHAUSTED only with RetryInfo).
        callback({ code: grpc.status.UNAVAILABLE, details: o.message });
      })().catch((e) => {
        this.d.log('error', `gRPC handler failed: ${(e as Error)?.message ?? String(e)}`);
        callback({ code: grpc.status.UNAVAILABLE, details: 'internal error; retry' });
      });
    };
  }
}
