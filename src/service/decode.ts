// Turns a request body (protobuf or OTLP/JSON bytes, already inflated) into a pipeline batch,
// reusing src/otlp/proto.ts and src/otlp/json.ts. Undecodable bodies, and trace bodies with no
// usable span at all, become `{ok: false, error}` (answered 400: final); unusable spans or
// records are counted as rejected (partialSuccess), never thrown. A JSON body of another trace
// file shape (Jaeger's, Tempo's) is refused naming it. What decoding normalised
// (values nested past MAX_VALUE_NESTING cut, lone surrogates replaced) is counted and said.
// Each batch carries its decoded cost (admission.ts). decodeTraceBodyAsync reads protobuf the same
// way, giving the event loop a turn while it reads (a large request no longer holds the thread).
// Must never interpret span content.

import { decodeLogsRequest, decodeTraceRequest, type DecodedDocument } from '../otlp/json.js';
import { decodeLogsRequestProto, decodeTraceRequestProto, tracesOfMessage, type DecodeResult, type DecodedTraceSpan } from '../otlp/proto.js';
import { readTraceLayout } from '../otlp/trace-layout.js';
import { readTracesLight, readTracesLightAsync } from '../otlp/scan-read.js';
import { TimeSlice } from './time-slice.js';
import { decodedCost } from './admission.js';
import { shapesOf, type TraceFileShape } from '../otlp/trace-file.js';
import { mayHoldSurrogateEscapes, newTally, scrubSurrogates, type DecodeTally } from '../otlp/decode-tally.js';
import type { LogsBatch, TraceBatch } from './pipeline.js';
import type { Transport } from './metrics.js';

export type Encoding = 'protobuf' | 'json';

const SHAPE_NAMES: Record<Exclude<TraceFileShape, 'otlp'>, string> = {
  jaeger: "Jaeger's JSON (UI Download JSON or /api/traces)",
  'jaeger-v2': "Jaeger v2's API answer ({result: {resourceSpans}})",
  tempo: "Tempo's API answer (batches)",
};

const REJECTING_CODES = new Set(['otlp.span-invalid', 'otlp.span-id-invalid', 'otlp.log-invalid', 'otlp.spans-not-array']);

function parseJson(body: Uint8Array, tally: DecodeTally): DecodeResult<Record<string, unknown>> {
  let doc: unknown;
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON (${(e as Error).message.slice(0, 200)})` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, error: 'the body must be a JSON object (an OTLP Export*ServiceRequest)' };
  // A lone surrogate (an emoji cut in half) would be written downstream as invalid UTF-8.
  if (mayHoldSurrogateEscapes(text)) scrubSurrogates(doc, tally);
  return { ok: true, value: doc as Record<string, unknown> };
}

export function decodeTraceBody(body: Uint8Array, encoding: Encoding, transport: Transport): DecodeResult<TraceBatch> {
  return traceBodyOf(body, encoding, transport, encoding === 'protobuf' ? readTracesLight(body, transport) : undefined);
}

/** decodeTraceBody, giving the event loop a turn while a protobuf body is read. */
export async function decodeTraceBodyAsync(body: Uint8Array, encoding: Encoding, transport: Transport): Promise<DecodeResult<TraceBatch>> {
  return traceBodyOf(body, encoding, transport, encoding === 'protobuf' ? await readTracesLightAsync(body, transport, new TimeSlice()) : undefined);
}

function traceBodyOf(body: Uint8Array, encoding: Encoding, transport: Transport, scanned: ReturnType<typeof readTracesLight>): DecodeResult<TraceBatch> {
  let value: TraceBatch;
  if (encoding === 'protobuf') {
    // Read with the byte layout (the onward export reuses the bytes), else whole. With the layout,
    // spans of traces with no agent span are read lightly: they go on from their original bytes.
    // First from the bytes alone (scan-read.ts: protobufjs reads only the spans of agent traces).
    if (scanned) {
      const t = scanned.traces;
      value = { signal: 'traces', transport, spans: t.spans, rejected: t.rejected, diagnostics: t.diagnostics, body, tally: t.tally, layout: scanned.layout };
    } else {
      const laid = readTraceLayout(body);
      const r = laid ? tracesOfMessage(laid.message, transport, (s) => laid.spanIndex.get(s), true) : decodeTraceRequestProto(body, transport);
      if (!r.ok) return r;
      value = { signal: 'traces', transport, spans: r.value.spans, rejected: r.value.rejected, diagnostics: r.value.diagnostics, body, tally: r.value.tally, ...(laid ? { layout: laid.layout } : {}) };
    }
  } else {
    const tally = newTally();
    const j = parseJson(body, tally);
    if (!j.ok) return j;
    if (j.value.resourceSpans !== undefined && !Array.isArray(j.value.resourceSpans)) return { ok: false, error: '"resourceSpans" must be an array' };
    // A trace file of another shape (Jaeger's or Tempo's JSON) posted here holds no resourceSpans:
    // refused, saying what it is and where it is read, never acknowledged as an empty request.
    const other = j.value.resourceSpans === undefined ? shapesOf(j.value).filter((x) => x !== 'otlp') : [];
    if (other.length > 0) return { ok: false, error: `the body is ${SHAPE_NAMES[other[0]!]}, not an OTLP ExportTraceServiceRequest (no resourceSpans): send OTLP here, or read the file with \`footprint-otel check FILE\`` };
    const out: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [], tally };
    decodeTraceRequest(j.value, out, 'request');
    const rejected = out.diagnostics.filter((dg) => REJECTING_CODES.has(dg.code)).length;
    const spans: DecodedTraceSpan[] = out.spans.map((s) => ({ span: s.span, extras: s.extras }));
    value = { signal: 'traces', transport, spans, rejected, diagnostics: out.diagnostics.slice(0, 50), body, tally };
  }
  if (value.spans.length === 0 && value.rejected > 0) {
    const first = value.diagnostics.find((d) => d.level !== 'info')?.message;
    return { ok: false, error: `no usable span in the request (${value.rejected} refused${first ? `: ${first.slice(0, 300)}` : ''})` };
  }
  value.cost = decodedCost(body.byteLength, value.spans.length);
  return { ok: true, value };
}

export function decodeLogsBody(body: Uint8Array, encoding: Encoding, transport: Transport, contentType: string): DecodeResult<LogsBatch> {
  if (encoding === 'protobuf') {
    const r = decodeLogsRequestProto(body, transport);
    if (!r.ok) return r;
    return { ok: true, value: { signal: 'logs', transport, logs: r.value.logs, rejected: r.value.rejected, diagnostics: r.value.diagnostics, body, contentType, tally: r.value.tally, cost: decodedCost(body.byteLength, r.value.logs.length) } };
  }
  const tally = newTally();
  const j = parseJson(body, tally);
  if (!j.ok) return j;
  if (j.value.resourceLogs !== undefined && !Array.isArray(j.value.resourceLogs)) return { ok: false, error: '"resourceLogs" must be an array' };
  const out: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [], tally };
  decodeLogsRequest(j.value, out, 'request');
  // Invalid log records stay in the forwarded body (it goes on unchanged) but are not read.
  return { ok: true, value: { signal: 'logs', transport, logs: out.logs, rejected: 0, diagnostics: out.diagnostics.slice(0, 50), body, contentType, tally, cost: decodedCost(body.byteLength, out.logs.length) } };
}
