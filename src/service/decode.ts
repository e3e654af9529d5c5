// Turns a request body (protobuf or OTLP/JSON bytes, already inflated) into a pipeline batch,
// reusing src/otlp/proto.ts and src/otlp/json.ts. Undecodable bodies become `{ok: false, error}`
// (answered 400); unusable spans or records are counted as rejected, never thrown.
// Must never interpret span content.

import { decodeLogsRequest, decodeTraceRequest, type DecodedDocument } from '../otlp/json.js';
import { decodeLogsRequestProto, decodeTraceRequestProto, type DecodeResult, type DecodedTraceSpan, type SpanExtras } from '../otlp/proto.js';
import type { LogsBatch, TraceBatch } from './pipeline.js';
import type { Transport } from './metrics.js';

export type Encoding = 'protobuf' | 'json';

const REJECTING_CODES = new Set(['otlp.span-invalid', 'otlp.span-id-invalid', 'otlp.log-invalid']);

function parseJson(body: Uint8Array): DecodeResult<Record<string, unknown>> {
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch (e) {
    return { ok: false, error: `not JSON (${(e as Error).message.slice(0, 200)})` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, error: 'the body must be a JSON object (an OTLP Export*ServiceRequest)' };
  return { ok: true, value: doc as Record<string, unknown> };
}

/** The span fields beyond SpanData that the JSON receiver keeps for re-encoding. */
export function jsonExtras(raw: Record<string, unknown>): SpanExtras {
  const x: SpanExtras = {};
  if (typeof raw.traceState === 'string' && raw.traceState) x.traceState = raw.traceState;
  const flags = Number(raw.flags);
  if (Number.isInteger(flags) && flags > 0) x.flags = flags;
  for (const k of ['droppedAttributesCount', 'droppedEventsCount', 'droppedLinksCount'] as const) {
    const v = Number(raw[k]);
    if (Number.isInteger(v) && v > 0) x[k] = v;
  }
  return x;
}

export function decodeTraceBody(body: Uint8Array, encoding: Encoding, transport: Transport): DecodeResult<TraceBatch> {
  if (encoding === 'protobuf') {
    const r = decodeTraceRequestProto(body, transport);
    if (!r.ok) return r;
    return { ok: true, value: { signal: 'traces', transport, spans: r.value.spans, rejected: r.value.rejected, diagnostics: r.value.diagnostics, body } };
  }
  const j = parseJson(body);
  if (!j.ok) return j;
  if (j.value.resourceSpans !== undefined && !Array.isArray(j.value.resourceSpans)) return { ok: false, error: '"resourceSpans" must be an array' };
  const out: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [] };
  decodeTraceRequest(j.value, out, 'request');
  const rejected = out.diagnostics.filter((dg) => REJECTING_CODES.has(dg.code)).length;
  const spans: DecodedTraceSpan[] = out.spans.map((s) => ({ span: s.span, extras: jsonExtras(s.raw) }));
  return { ok: true, value: { signal: 'traces', transport, spans, rejected, diagnostics: out.diagnostics.slice(0, 50), body } };
}

export function decodeLogsBody(body: Uint8Array, encoding: Encoding, transport: Transport, contentType: string): DecodeResult<LogsBatch> {
  if (encoding === 'protobuf') {
    const r = decodeLogsRequestProto(body, transport);
    if (!r.ok) return r;
    return { ok: true, value: { signal: 'logs', transport, logs: r.value.logs, rejected: r.value.rejected, diagnostics: r.value.diagnostics, body, contentType } };
  }
  const j = parseJson(body);
  if (!j.ok) return j;
  if (j.value.resourceLogs !== undefined && !Array.isArray(j.value.resourceLogs)) return { ok: false, error: '"resourceLogs" must be an array' };
  const out: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [] };
  decodeLogsRequest(j.value, out, 'request');
  // Invalid log records stay in the forwarded body (it goes on unchanged) but are not read.
  return { ok: true, value: { signal: 'logs', transport, logs: out.logs, rejected: 0, diagnostics: out.diagnostics.slice(0, 50), body, contentType } };
}
