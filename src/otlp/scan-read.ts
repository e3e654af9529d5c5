// The service's light read of an ExportTraceServiceRequest from its bytes (issue 11): the request is
// laid out (trace-layout.ts, strict), each Span message is scanned at the wire level (span-scan.ts),
// and only the spans protobufjs must read (those of traces with an agent span, and spans the scanner
// is unsure of or whose values nest) are decoded with protobufjs, one Span message at a time, at the
// depth the whole decode would reach them. Spans of other traces become light spans (ids, name,
// kind, times, status, resource and scope; `whole()` decodes the rest). The result equals
// tracesOfMessage(whole decode, light = true); `undefined` (never a throw) whenever it cannot be
// sure, and the caller reads the request the ordinary way. Never interprets span content.
// readTracesLightAsync reads the same, pausing whenever the caller's time slice is spent
// (issue 31: an 18 MB request took the thread for over a second and /healthz waited).

import protobuf from 'protobufjs';
import type { SpanData, StatusCode } from '../model/telemetry.js';
import { newTally } from './decode-tally.js';
import { OtlpTypes } from './otlp-schema.js';
import { hexOf, lightSpan, rejectSpan, shallowSpan, spanHeadOf, resourceContext, spanContext, wholeSpan, type DecodedTraceSpan, type DecodedTraces, type SpanContext } from './proto.js';
import { walkTraceLayout, type TraceLayout } from './trace-layout.js';
import { scanSpan, stringAt, validUtf8, type ScannedSpan } from './span-scan.js';
import { isAgentSpanKey, isAgentSpanScope } from '../conventions/agent-span-keys.js';

type Msg = Record<string, unknown>;
type Decoder = { decode(r: protobuf.Reader, length: number, end?: undefined, depth?: number): Msg };

/** Depth of each message in the whole request's decode (protobufjs counts it against its recursion limit). */
const DEPTH_RESOURCE = 2;
const DEPTH_SCOPE = 3;
const DEPTH_SPAN = 3;

/** The message of type `t` in r's buffer [s, e), decoded by protobufjs as the whole decode would at `depth`. */
function decodeAt(t: unknown, r: protobuf.Reader, s: number, e: number, depth: number): Msg {
  r.pos = s;
  return (t as Decoder).decode(r, e - s, undefined, depth);
}

/** Distinct InstrumentationScope encodings decoded per request (a batch usually repeats a few). */
const MAX_SCOPES_CACHED = 64;

const hexAt = (buf: Buffer, s: number, e: number, bytes: number): string | undefined => {
  if (s < 0 || e - s !== bytes) return undefined;
  let any = 0;
  for (let i = s; i < e; i++) any |= buf[i]!;
  return any === 0 ? undefined : buf.toString('hex', s, e);
};

const fixed64At = (buf: Buffer, pos: number): bigint => (pos < 0 ? 0n : buf.readBigUInt64LE(pos));

function lightSpanOf(buf: Buffer, x: ScannedSpan, traceId: string, spanId: string, name: string, ctx: SpanContext): SpanData {
  const parentSpanId = hexAt(buf, x.parentSpanId, x.parentSpanIdEnd, 8);
  const code: StatusCode = x.statusCode === 1 || x.statusCode === 2 ? x.statusCode : 0;
  const message = stringAt(buf, x.statusMessage, x.statusMessageEnd);
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    kind: x.kind >= 0 && x.kind <= 5 ? x.kind : 0,
    startTimeUnixNano: fixed64At(buf, x.startTime),
    endTimeUnixNano: fixed64At(buf, x.endTime),
    attributes: {},
    events: [],
    status: message ? { code, message } : { code },
    resource: ctx.resource,
    scope: ctx.scope,
  };
}

/** A string field of a ResourceSpans / ScopeSpans (schema_url), as protobufjs reads it; undefined when invalid. */
function schemaUrlOf(body: Uint8Array, s: number, e: number): string | undefined {
  return validUtf8(body, s, e) ? stringAt(body, s, e) : undefined;
}

/** One span to read: its layout index, its context, and the scan (absent: protobufjs reads it). */
interface Pending {
  ref: number;
  ctx: SpanContext;
  scan: ScannedSpan | undefined;
  /** Decoded by protobufjs (when the scan was unsure, or its trace has an agent span). */
  message?: Msg;
}

/**
 * The request's spans read lightly from its bytes, and its layout; undefined when it cannot be
 * read this way exactly (the caller decodes it whole).
 */
type LightRead = { traces: DecodedTraces; layout: TraceLayout } | undefined;

export function readTracesLight(body: Uint8Array, where: string): LightRead {
  try {
    const steps = read(body, where);
    for (;;) {
      const n = steps.next();
      if (n.done) return n.value;
    }
  } catch {
    // protobufjs refused a piece: the ordinary decoder gives the caller its error.
    return undefined;
  }
}

/** What gives the event loop a turn between reading steps (the service's TimeSlice). */
export interface ReadingSlice {
  due(): boolean;
  pause(): Promise<void>;
}

/** readTracesLight, pausing between steps whenever `slice` says its time is spent. */
export async function readTracesLightAsync(body: Uint8Array, where: string, slice: ReadingSlice): Promise<LightRead> {
  try {
    const steps = read(body, where);
    for (;;) {
      const n = steps.next();
      if (n.done) return n.value;
      if (slice.due()) await slice.pause();
    }
  } catch {
    return undefined;
  }
}

/** Spans read between two checks of the slice clock. */
const SPANS_PER_STEP = 32;

function* read(body: Uint8Array, where: string): Generator<void, LightRead, void> {
  const layout = walkTraceLayout(body, true);
  if (!layout) return undefined;
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const reader = protobuf.Reader.create(body);
  const scopes = new Map<string, Msg>();
  const tally = newTally();
  const out: DecodedTraces = { spans: [], rejected: 0, diagnostics: [], tally };
  const pending: Pending[] = [];
  const agentTraces = new Set<string>();
  for (const rl of layout.resources) {
    const rs: Msg = {};
    for (const rp of rl.parts) {
      if (rp.num === 1) rs.resource = decodeAt(OtlpTypes.Resource, reader, rp.start, rp.end, DEPTH_RESOURCE);
      else if (rp.num === 3) {
        const url = schemaUrlOf(body, rp.start, rp.end);
        if (url === undefined) return undefined;
        rs.schemaUrl = url;
      }
    }
    const rctx = resourceContext(rs, tally);
    for (const rp of rl.parts) {
      if (rp.scope === undefined) continue;
      const sl = layout.scopes[rp.scope]!;
      const ss: Msg = {};
      for (const sp of sl.parts) {
        if (sp.num === 1) {
          // The same bytes decode to the same message: read once, shared (it is only read).
          const key = buf.toString('latin1', sp.start, sp.end);
          let scope = scopes.get(key);
          if (!scope) {
            scope = decodeAt(OtlpTypes.InstrumentationScope, reader, sp.start, sp.end, DEPTH_SCOPE);
            if (scopes.size < MAX_SCOPES_CACHED) scopes.set(key, scope);
          }
          ss.scope = scope;
        }
        else if (sp.num === 3) {
          const url = schemaUrlOf(body, sp.start, sp.end);
          if (url === undefined) return undefined;
          ss.schemaUrl = url;
        }
      }
      const ctx = spanContext(rctx, ss, tally);
      const byScope = isAgentSpanScope(ctx.scope.name);
      for (let ref = sl.firstSpan; ref < sl.endSpan; ref++) {
        if (ref % SPANS_PER_STEP === 0) yield;
        const f = layout.spans[ref]!;
        const scan = scanSpan(body, f.start, f.end);
        const p: Pending = { ref, ctx, scan };
        let traceId: string | undefined;
        let marks: boolean;
        if (scan) traceId = hexAt(buf, scan.traceId, scan.traceIdEnd, 16);
        if (scan && (!scan.marks || traceId)) marks = scan.marks;
        else {
          // Unsure, or marked (checked no further) with an unusable trace id: protobufjs reads it.
          p.scan = undefined;
          p.message = decodeAt(OtlpTypes.Span, reader, f.start, f.end, DEPTH_SPAN);
          traceId = hexOf(p.message.traceId, 16);
          marks = ((p.message.attributes as Msg[] | undefined) ?? []).some((kv) => typeof kv?.key === 'string' && isAgentSpanKey(kv.key));
        }
        if (traceId && (byScope || marks)) agentTraces.add(traceId);
        pending.push(p);
      }
    }
  }
  for (let i = 0; i < pending.length; i++) {
    if (i % SPANS_PER_STEP === 0) yield;
    const p = pending[i]!;
    const { scan, ctx, ref } = p;
    const f = layout.spans[ref]!;
    const scannedTrace = scan ? hexAt(buf, scan.traceId, scan.traceIdEnd, 16) : undefined;
    // A span of an agent trace (every marked span is one) is read by protobufjs below.
    if (scan && !(scannedTrace && agentTraces.has(scannedTrace))) {
      const traceId = scannedTrace;
      const spanId = hexAt(buf, scan.spanId, scan.spanIdEnd, 8);
      const name = stringAt(buf, scan.name, scan.nameEnd);
      if (!traceId || !spanId) {
        rejectSpan(out, where, name);
        continue;
      }
      const whole = (): DecodedTraceSpan => wholeSpan(decodeAt(OtlpTypes.Span, protobuf.Reader.create(body), f.start, f.end, DEPTH_SPAN), traceId, spanId, name, ctx, ref);
      out.spans.push({ span: lightSpanOf(buf, scan, traceId, spanId, name, ctx), extras: {}, whole, ref });
      continue;
    }
    const s = p.message ?? decodeAt(OtlpTypes.Span, reader, f.start, f.end, DEPTH_SPAN);
    const head = spanHeadOf(s, out, where);
    if (!head) continue;
    const { traceId, spanId, name } = head;
    if (!agentTraces.has(traceId) && shallowSpan(s)) {
      out.spans.push({ span: lightSpan(s, traceId, spanId, name, ctx), extras: {}, whole: () => wholeSpan(s, traceId, spanId, name, ctx, ref), ref });
      continue;
    }
    out.spans.push(wholeSpan(s, traceId, spanId, name, ctx, ref));
  }
  return { traces: out, layout };
}
