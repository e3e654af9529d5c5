// Where things sit in an ExportTraceServiceRequest's bytes: one walk over the request's tags and
// lengths (ResourceSpans -> ScopeSpans -> Span), recording the byte range of every field at those
// three levels, and the request decoded whole (protobufjs) with each decoded Span message matched
// to its place in the bytes. The service uses
// the layout to forward the original bytes (forward-bytes.ts) instead of re-encoding them.
// Must never throw: bytes it cannot walk exactly (a group, a truncated length, a singular message
// field sent twice, which protobuf would merge) give `undefined`, and the caller decodes the whole
// request the ordinary way. It never interprets span content.

import { OtlpTypes } from './otlp-schema.js';

/** One field of a message: `tag` is where its tag starts, [start, end) its value (content for LEN). */
export interface LayoutField {
  num: number;
  wire: number;
  tag: number;
  start: number;
  end: number;
}

export interface ScopeLayout {
  field: LayoutField;
  /** Every field of the ScopeSpans, in order; `span` is the index into TraceLayout.spans of a span field. */
  parts: (LayoutField & { span?: number })[];
  firstSpan: number;
  endSpan: number;
}

export interface ResourceLayout {
  field: LayoutField;
  /** Every field of the ResourceSpans, in order; `scope` is the index into TraceLayout.scopes of a scopeSpans field. */
  parts: (LayoutField & { scope?: number })[];
  firstSpan: number;
  endSpan: number;
}

export interface TraceLayout {
  body: Uint8Array;
  /** Every top-level field, in order; `resource` is the index into resources of a resourceSpans field. */
  parts: (LayoutField & { resource?: number })[];
  resources: ResourceLayout[];
  scopes: ScopeLayout[];
  /** Every Span field (its content range is the Span message). */
  spans: LayoutField[];
}

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

/** Reads a varint at `pos`; [value, next position], or undefined past `end` or over 2^53. */
function varint(b: Uint8Array, pos: number, end: number): [number, number] | undefined {
  let value = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) return undefined;
    const byte = b[pos++]!;
    value += (byte & 0x7f) * mul;
    if (byte < 0x80) return value > Number.MAX_SAFE_INTEGER ? undefined : [value, pos];
    mul *= 128;
  }
  return undefined;
}

/**
 * A tag or length as protobufjs reads it (Reader.uint32): at most 5 bytes and below 2^32, else
 * undefined (a longer or larger varint protobufjs would read differently: the caller is unsure).
 */
function strictVarint(b: Uint8Array, pos: number, end: number): [number, number] | undefined {
  const v = varint(b, pos, end);
  return v && v[1] - pos <= 5 && v[0] < 2 ** 32 ? v : undefined;
}

/**
 * The fields of the message in b[start, end), or undefined when they cannot be walked exactly.
 * `strict`: tags and lengths must also read the same under protobufjs's 32-bit varint reader (a
 * caller that trusts this walk without protobufjs reading the same bytes needs it).
 */
export function fieldsOf(b: Uint8Array, start: number, end: number, strict = false): LayoutField[] | undefined {
  const out: LayoutField[] = [];
  const head = strict ? strictVarint : varint;
  let pos = start;
  while (pos < end) {
    const tag = pos;
    const t = head(b, pos, end);
    if (!t) return undefined;
    pos = t[1];
    const num = Math.floor(t[0] / 8);
    const wire = t[0] % 8;
    if (num === 0) return undefined;
    let s = pos;
    if (wire === WIRE_VARINT) {
      const v = varint(b, pos, end);
      if (!v) return undefined;
      pos = v[1];
    } else if (wire === WIRE_I64) pos += 8;
    else if (wire === WIRE_I32) pos += 4;
    else if (wire === WIRE_LEN) {
      const l = varint(b, pos, end);
      if (!l) return undefined;
      s = l[1];
      pos = s + l[0];
    } else return undefined; // groups (deprecated) and invalid wire types
    if (pos > end) return undefined;
    out.push({ num, wire, tag, start: s, end: pos });
  }
  return out;
}

/** The request's layout and its message tree (the shape protobufjs decodes the whole request to). */
export interface LaidOutRequest {
  layout: TraceLayout;
  message: { resourceSpans: Record<string, unknown>[] };
  /** The layout index of each decoded Span message object. */
  spanIndex: Map<object, number>;
}

/** Walks and decodes an ExportTraceServiceRequest piece by piece; undefined when it cannot be done exactly. */
export function readTraceLayout(body: Uint8Array): LaidOutRequest | undefined {
  try {
    return readWith(body);
  } catch {
    // protobufjs refused a piece: the ordinary decoder gives the caller its error.
    return undefined;
  }
}

/** The layout alone: tags and lengths down to the Span fields, nothing decoded (`strict`: see fieldsOf). */
export function walkTraceLayout(body: Uint8Array, strict = false): TraceLayout | undefined {
  const top = fieldsOf(body, 0, body.length, strict);
  if (!top) return undefined;
  const layout: TraceLayout = { body, parts: [], resources: [], scopes: [], spans: [] };
  for (const f of top) {
    if (f.num !== 1) {
      layout.parts.push(f);
      continue;
    }
    if (f.wire !== WIRE_LEN) return undefined;
    const rparts = fieldsOf(body, f.start, f.end, strict);
    if (!rparts) return undefined;
    const rl: ResourceLayout = { field: f, parts: [], firstSpan: layout.spans.length, endSpan: 0 };
    let seenResource = false;
    let seenSchema = false;
    for (const rp of rparts) {
      if (rp.num === 1 || rp.num === 3) {
        if (rp.wire !== WIRE_LEN || (rp.num === 1 ? seenResource : seenSchema)) return undefined;
        if (rp.num === 1) seenResource = true;
        else seenSchema = true;
        rl.parts.push(rp);
      } else if (rp.num === 2) {
        if (rp.wire !== WIRE_LEN) return undefined;
        const sparts = fieldsOf(body, rp.start, rp.end, strict);
        if (!sparts) return undefined;
        const sl: ScopeLayout = { field: rp, parts: [], firstSpan: layout.spans.length, endSpan: 0 };
        let seenScope = false;
        let seenScopeSchema = false;
        for (const sp of sparts) {
          if (sp.num === 1 || sp.num === 3) {
            if (sp.wire !== WIRE_LEN || (sp.num === 1 ? seenScope : seenScopeSchema)) return undefined;
            if (sp.num === 1) seenScope = true;
            else seenScopeSchema = true;
          } else if (sp.num === 2) {
            if (sp.wire !== WIRE_LEN) return undefined;
            (sp as LayoutField & { span?: number }).span = layout.spans.length;
            layout.spans.push(sp);
          }
          sl.parts.push(sp);
        }
        sl.endSpan = layout.spans.length;
        (rp as LayoutField & { scope?: number }).scope = layout.scopes.length;
        rl.parts.push(rp);
        layout.scopes.push(sl);
      } else rl.parts.push(rp);
    }
    rl.endSpan = layout.spans.length;
    (f as LayoutField & { resource?: number }).resource = layout.resources.length;
    layout.parts.push(f);
    layout.resources.push(rl);
  }
  return layout;
}

type Msg = Record<string, unknown>;
const list = (v: unknown): Msg[] => (Array.isArray(v) ? (v as Msg[]) : []);

/**
 * The layout, and the request decoded whole by protobufjs (one pass: faster than piece by piece),
 * its Span messages matched to the layout's spans in order; undefined unless every ResourceSpans,
 * ScopeSpans and span count agrees.
 */
function readWith(body: Uint8Array): LaidOutRequest | undefined {
  const layout = walkTraceLayout(body);
  if (!layout) return undefined;
  const message = OtlpTypes.ExportTraceServiceRequest.decode(body) as unknown as { resourceSpans: Msg[] };
  const spanIndex = new Map<object, number>();
  const rss = list(message.resourceSpans);
  if (rss.length !== layout.resources.length) return undefined;
  for (let i = 0; i < rss.length; i++) {
    const rl = layout.resources[i]!;
    const scopes = rl.parts.filter((p) => p.scope !== undefined).map((p) => layout.scopes[p.scope!]!);
    const sss = list(rss[i]!.scopeSpans);
    if (sss.length !== scopes.length) return undefined;
    for (let j = 0; j < sss.length; j++) {
      const sl = scopes[j]!;
      const spans = list(sss[j]!.spans);
      if (spans.length !== sl.endSpan - sl.firstSpan) return undefined;
      for (let k = 0; k < spans.length; k++) spanIndex.set(spans[k]!, sl.firstSpan + k);
    }
  }
  return { layout, message, spanIndex };
}
