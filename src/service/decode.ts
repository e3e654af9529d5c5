// Turns a request body (protobuf or OTLP/JSON bytes, already inflated) into a pipeline batch,
// reusing src/otlp/proto.ts and src/otlp/json.ts. Undecodable bodies, and trace bodies with no
// usable span at all, become `{ok: false, error}` (answered 400: final); unusable spans or
// records are counted as rejected (partialSuccess), never thrown. A JSON body of another trace
// file shape (Jaeger's, Tempo's) is refused naming it. What decoding normalised
// (values nested past MAX_VALUE_NESTING cut, lone surrogates replaced) is counted and said.
// Each batch carries its decoded cost (admission.ts). decodeTraceBodyAsync and decodeLogsBodyAsync
// read the same way, giving the event loop a turn while they read (a large request no longer holds
// the thread): protobuf with the light scanner's slices, OTLP/JSON parsed in chunks by
// @discoveryjs/json-ext's parseChunked (native JSON.parse over each chunk's complete values) and
// then read span by span, both on the service's TimeSlice.
// Must never interpret span content.

import { parseChunked } from '@discoveryjs/json-ext';
import { decodeLogsRequest, decodeLogsRequestAsync, decodeTraceRequest, decodeTraceRequestAsync, type DecodedDocument } from '../otlp/json.js';
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

/** Bytes of the body parseChunked is handed at a time (a pause may follow each). */
const JSON_CHUNK_BYTES = 64 * 1024;

function parseJson(body: Uint8Array, tally: DecodeTally): DecodeResult<Record<string, unknown>> {
  let doc: unknown;
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON (${(e as Error).message.slice(0, 200)})` };
  }
  return jsonObject(doc, mayHoldSurrogateEscapes(text), tally);
}

function jsonObject(doc: unknown, surrogateEscapes: boolean, tally: DecodeTally): DecodeResult<Record<string, unknown>> {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, error: 'the body must be a JSON object (an OTLP Export*ServiceRequest)' };
  // A lone surrogate (an emoji cut in half) would be written downstream as invalid UTF-8.
  if (surrogateEscapes) scrubSurrogates(doc, tally);
  return { ok: true, value: doc as Record<string, unknown> };
}

/** mayHoldSurrogateEscapes over the bytes, without making the body a string. */
function bytesMayHoldSurrogateEscapes(body: Uint8Array): boolean {
  const b = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  for (const lead of ['\\ud', '\\uD']) for (let i = b.indexOf(lead); i >= 0; i = b.indexOf(lead, i + 3)) if (/[89a-fA-F]/.test(String.fromCharCode(b[i + 3] ?? 0))) return true;
  return false;
}

/** Sent around the body: parseChunked returns `[body, 0]` only for a body that is one complete JSON value. */
const WRAP_OPEN = Buffer.from('[');
const WRAP_CLOSE = Buffer.from('\n,0]');
/** A `__proto__` key: parseChunked merges a value cut between chunks with Object.assign, which would set a prototype where JSON.parse makes a key. */
const PROTO_KEY = Buffer.from('"__proto__"');

/**
 * parseJson, the body handed to @discoveryjs/json-ext's parseChunked in chunks, the event loop given
 * a turn whenever the slice is spent. parseChunked accepts a body cut after an opening bracket
 * (`{"resourceSpans": [` reads as an empty request), so the body is sent wrapped as
 * `[<body>\n,0]`: a complete body gives exactly `[value, 0]`, a cut or trailing one an error or
 * another shape, refused as not JSON. A body holding a `__proto__` key is read whole (JSON.parse).
 */
async function parseJsonAsync(body: Uint8Array, tally: DecodeTally, slice: TimeSlice): Promise<DecodeResult<Record<string, unknown>>> {
  if (Buffer.from(body.buffer, body.byteOffset, body.byteLength).indexOf(PROTO_KEY) >= 0) return parseJson(body, tally);
  let wrapped: unknown;
  try {
    wrapped = await parseChunked(async function* () {
      yield WRAP_OPEN;
      for (let at = 0; at < body.byteLength; at += JSON_CHUNK_BYTES) {
        yield body.subarray(at, at + JSON_CHUNK_BYTES);
        const p = slice.maybePause();
        if (p) await p;
      }
      yield WRAP_CLOSE;
    });
  } catch (e) {
    return { ok: false, error: `not JSON (${(e as Error).message.slice(0, 200)})` };
  }
  if (!Array.isArray(wrapped) || wrapped.length !== 2 || wrapped[1] !== 0) return { ok: false, error: 'not JSON (the body ends before its value does, or holds more than one value)' };
  return jsonObject(wrapped[0], bytesMayHoldSurrogateEscapes(body), tally);
}

export function decodeTraceBody(body: Uint8Array, encoding: Encoding, transport: Transport): DecodeResult<TraceBatch> {
  return traceBodyOf(body, encoding, transport, encoding === 'protobuf' ? readTracesLight(body, transport) : undefined);
}

/** decodeTraceBody, giving the event loop a turn while the body is read (protobuf or OTLP/JSON). */
export async function decodeTraceBodyAsync(body: Uint8Array, encoding: Encoding, transport: Transport): Promise<DecodeResult<TraceBatch>> {
  const slice = new TimeSlice();
  if (encoding === 'protobuf') return traceBodyOf(body, encoding, transport, await readTracesLightAsync(body, transport, slice));
  const tally = newTally();
  const j = await parseJsonAsync(body, tally, slice);
  if (!j.ok) return j;
  const read = jsonTraceRequest(j.value, tally);
  if (!read.ok) return read;
  await decodeTraceRequestAsync(j.value, read.value, 'request', () => slice.maybePause());
  return finishTraceBatch(jsonTraceBatch(read.value, transport, body));
}

/** Refuses what is not an OTLP trace request; else the document the spans are read into. */
function jsonTraceRequest(doc: Record<string, unknown>, tally: DecodeTally): DecodeResult<DecodedDocument> {
  if (doc.resourceSpans !== undefined && !Array.isArray(doc.resourceSpans)) return { ok: false, error: '"resourceSpans" must be an array' };
  // A trace file of another shape (Jaeger's or Tempo's JSON) posted here holds no resourceSpans:
  // refused, saying what it is and where it is read, never acknowledged as an empty request.
  const other = doc.resourceSpans === undefined ? shapesOf(doc).filter((x) => x !== 'otlp') : [];
  if (other.length > 0) return { ok: false, error: `the body is ${SHAPE_NAMES[other[0]!]}, not an OTLP ExportTraceServiceRequest (no resourceSpans): send OTLP here, or read the file with \`footprint-otel check FILE\`` };
  return { ok: true, value: { spans: [], logs: [], diagnostics: [], documents: [], tally } };
}

function jsonTraceBatch(out: DecodedDocument, transport: Transport, body: Uint8Array): TraceBatch {
  const rejected = out.diagnostics.filter((dg) => REJECTING_CODES.has(dg.code)).length;
  const spans: DecodedTraceSpan[] = out.spans.map((s) => ({ span: s.span, extras: s.extras }));
  return { signal: 'traces', transport, spans, rejected, diagnostics: out.diagnostics.slice(0, 50), body, tally: out.tally! };
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
    const read = jsonTraceRequest(j.value, tally);
    if (!read.ok) return read;
    decodeTraceRequest(j.value, read.value, 'request');
    value = jsonTraceBatch(read.value, transport, body);
  }
  return finishTraceBatch(value);
}

/** A batch with no usable span at all is refused; else its decoded cost is set. */
function finishTraceBatch(value: TraceBatch): DecodeResult<TraceBatch> {
  const body = value.body;
  if (value.spans.length === 0 && value.rejected > 0) {
    const first = value.diagnostics.find((d) => d.level !== 'info')?.message;
    return { ok: false, error: `no usable span in the request (${value.rejected} refused${first ? `: ${first.slice(0, 300)}` : ''})` };
  }
  value.cost = decodedCost(body.byteLength, value.spans.length);
  return { ok: true, value };
}

/** decodeLogsBody, giving the event loop a turn while an OTLP/JSON body is parsed and read. */
export async function decodeLogsBodyAsync(body: Uint8Array, encoding: Encoding, transport: Transport, contentType: string): Promise<DecodeResult<LogsBatch>> {
  if (encoding === 'protobuf') return decodeLogsBody(body, encoding, transport, contentType);
  const slice = new TimeSlice();
  const tally = newTally();
  const j = await parseJsonAsync(body, tally, slice);
  if (!j.ok) return j;
  if (j.value.resourceLogs !== undefined && !Array.isArray(j.value.resourceLogs)) return { ok: false, error: '"resourceLogs" must be an array' };
  const out: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [], tally };
  await decodeLogsRequestAsync(j.value, out, 'request', () => slice.maybePause());
  return { ok: true, value: jsonLogsBatch(out, transport, body, contentType) };
}

function jsonLogsBatch(out: DecodedDocument, transport: Transport, body: Uint8Array, contentType: string): LogsBatch {
  // Invalid log records stay in the forwarded body (it goes on unchanged) but are not read.
  return { signal: 'logs', transport, logs: out.logs, rejected: 0, diagnostics: out.diagnostics.slice(0, 50), body, contentType, tally: out.tally!, cost: decodedCost(body.byteLength, out.logs.length) };
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
  return { ok: true, value: jsonLogsBatch(out, transport, body, contentType) };
}
