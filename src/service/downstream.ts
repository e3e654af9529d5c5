// Where batches go after the core: traces as OTLP/HTTP (protobuf or JSON, per config) through the
// SDK's exporter machinery — for http/protobuf our own encoder (src/otlp/encode-traces.ts) handed
// as the serializer to otlp-exporter-base's HTTP export delegate, so retries (429/502/503/504),
// compression, headers, timeout and the concurrency bound are the SDK's; for http/json the SDK's
// JSON trace exporter over ReadableSpans — log records as their original OTLP bytes by a plain HTTP POST to the logs endpoint
// (forwarded unchanged: the SDK log exporter only takes SDK log records, and re-encoding would
// lose fields). Every call resolves to an outcome, never rejects, and is bounded by the timeout.
// Must never retry on its own beyond the exporter's own policy, and never drop data silently:
// the caller answers 503 on any failure so the sender keeps the batch.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { gzipSync } from 'node:zlib';
import type { ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import type { SpanData } from '../model/telemetry.js';
import type { SpanExtras } from '../otlp/proto.js';
import { TraceRequestSerializer, type ExportItem, type TraceExportResponse } from '../otlp/encode-traces.js';
import { toReadableSpans } from '../otlp/readable.js';
import type { DownstreamConfig } from './config.js';

export type ExportOutcome = { ok: true } | { ok: false; reason: string; status?: number };

export interface Downstream {
  readonly hasLogs: boolean;
  exportSpans(items: readonly { span: SpanData; extras?: SpanExtras }[]): Promise<ExportOutcome>;
  /** Posts an ExportLogsServiceRequest as received (protobuf or JSON bytes, uncompressed). */
  forwardLogs(body: Uint8Array, contentType: string): Promise<ExportOutcome>;
  shutdown(): Promise<void>;
}

export function createDownstream(cfg: DownstreamConfig, concurrency: number): Downstream {
  const options = {
    url: cfg.tracesUrl,
    headers: cfg.headers,
    timeoutMillis: cfg.timeoutMs,
    compression: cfg.compression === 'gzip' ? ('gzip' as never) : ('none' as never),
    // Above the service's own in-flight bound, so the exporter never refuses for concurrency.
    concurrencyLimit: Math.max(2, concurrency * 2),
  };
  const exporter: TracesExporter = cfg.protocol === 'http/json' ? jsonExporter(options) : protoExporter(options);
  const guardMs = cfg.timeoutMs + 5_000;

  return {
    hasLogs: cfg.logsUrl !== null,
    exportSpans(items) {
      if (items.length === 0) return Promise.resolve({ ok: true });
      return new Promise<ExportOutcome>((resolve) => {
        let done = false;
        const finish = (o: ExportOutcome) => {
          if (done) return;
          done = true;
          clearTimeout(guard);
          resolve(o);
        };
        const guard = setTimeout(() => finish({ ok: false, reason: `traces export did not finish within ${guardMs} ms` }), guardMs);
        try {
          exporter.export(items, (r) => {
            if (r.code === 0) finish({ ok: true });
            else {
              const err = r.error as (Error & { code?: number }) | undefined;
              finish({ ok: false, reason: `traces export failed: ${(err?.message || 'unknown error').slice(0, 200)}`, ...(typeof err?.code === 'number' ? { status: err.code } : {}) });
            }
          });
        } catch (e) {
          finish({ ok: false, reason: `traces export threw: ${(e as Error)?.message ?? String(e)}` });
        }
      });
    },
    forwardLogs(body, contentType) {
      if (!cfg.logsUrl) return Promise.resolve({ ok: false, reason: 'no logs endpoint configured' });
      return postBytes(cfg.logsUrl, body, contentType, cfg);
    },
    async shutdown() {
      try {
        await exporter.shutdown();
      } catch {
        /* already closed */
      }
    },
  };
}

interface TracesExporter {
  export(items: readonly ExportItem[], done: (r: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

type ExporterOptions = { url: string; headers: Record<string, string>; timeoutMillis: number; compression: never; concurrencyLimit: number };

/** The SDK's JSON trace exporter, fed ReadableSpans built from the items. */
function jsonExporter(options: ExporterOptions): TracesExporter {
  const sdk = new JsonTraceExporter(options);
  return { export: (items, done) => sdk.export(toReadableSpans(items), done), shutdown: () => sdk.shutdown() };
}

/** What @opentelemetry/exporter-trace-otlp-proto's OTLPTraceExporter builds, with our serializer. */
function protoExporter(options: ExporterOptions): TracesExporter {
  const delegate = createOtlpHttpExportDelegate<readonly ExportItem[], TraceExportResponse>(
    convertLegacyHttpOptions(options, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    TraceRequestSerializer,
    'otlp_http_span_exporter',
    { name: 'span', countItems: (items) => items.length },
    undefined,
  );
  return new OTLPExporterBase<readonly ExportItem[]>(delegate);
}

function postBytes(url: string, body: Uint8Array, contentType: string, cfg: DownstreamConfig): Promise<ExportOutcome> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      resolve({ ok: false, reason: `bad logs endpoint ${url}` });
      return;
    }
    const payload = cfg.compression === 'gzip' ? gzipSync(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const headers: Record<string, string> = { ...cfg.headers, 'Content-Type': contentType, 'Content-Length': String(payload.length) };
    if (cfg.compression === 'gzip') headers['Content-Encoding'] = 'gzip';
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => {
        const s = res.statusCode ?? 0;
        resolve(s >= 200 && s < 300 ? { ok: true } : { ok: false, reason: `logs endpoint answered ${s}`, status: s });
      });
      res.on('error', (e) => resolve({ ok: false, reason: `logs response failed: ${e.message}` }));
    });
    req.setTimeout(cfg.timeoutMs, () => {
      req.destroy();
      resolve({ ok: false, reason: `logs export timed out after ${cfg.timeoutMs} ms` });
    });
    req.on('error', (e) => resolve({ ok: false, reason: `logs export failed: ${e.message}` }));
    req.end(payload);
  });
}
