// SpanData (+ SpanExtras) -> ExportTraceServiceRequest protobuf bytes, encoded by protobufjs over
// our own schema (otlp-schema.ts), and the ExportTraceServiceResponse reader: the serializer the
// service's traces exporter hands to the SDK's OTLP/HTTP export delegate (retries, compression,
// headers, timeouts and concurrency stay the SDK's). protobufjs writes long strings with the
// native UTF-8 writer; the SDK's ProtobufTraceSerializer walks every string character by character.
// Spans are grouped by resource (attributes + schema URL) and by scope (name, version, schema URL,
// attributes). Values are written as the decoders read them back: strings, bools, safe integers as
// int_value, every other number as double_value, Uint8Array as bytes, arrays, objects as kvlists,
// null as an empty AnyValue.
// Must never mutate its input; it never interprets span content.

import type { AttrValue, Attributes, SpanData } from '../model/telemetry.js';
import { MAX_VALUE_NESTING } from '../limits.js';
import { OtlpTypes } from './otlp-schema.js';
import type { SpanExtras } from './proto.js';

/** One span to export, as the service's pipeline hands it on. */
export interface ExportItem {
  span: SpanData;
  extras?: SpanExtras;
}


/** Span flags written when none were received: sampled, remoteness known (not remote), as the SDK path wrote them. */
const DEFAULT_SPAN_FLAGS = 0x101;
/** Link flags written when none were received, as the SDK path wrote them. */
const DEFAULT_LINK_FLAGS = 0x100;

type AnyValueMsg = Record<string, unknown>;
interface KeyValueMsg {
  key: string;
  value: AnyValueMsg;
}

const EMPTY: AnyValueMsg = Object.freeze({}) as AnyValueMsg;

function anyValue(v: AttrValue | undefined, depth: number): AnyValueMsg {
  if (v === null || v === undefined) return EMPTY;
  switch (typeof v) {
    case 'string':
      return { stringValue: v };
    case 'boolean':
      return { boolValue: v };
    case 'number':
      return Number.isSafeInteger(v) ? { intValue: v } : { doubleValue: v };
    case 'object':
      break;
    default:
      // bigint, function, symbol: not an AttrValue; written empty rather than thrown on.
      return EMPTY;
  }
  if (v instanceof Uint8Array) return { bytesValue: v };
  // The decoders' cap (src/limits.ts): a deeper container is written as an empty AnyValue.
  if (depth >= MAX_VALUE_NESTING) return EMPTY;
  if (Array.isArray(v)) {
    const values = new Array<AnyValueMsg>(v.length);
    for (let i = 0; i < v.length; i++) values[i] = anyValue(v[i], depth + 1);
    return { arrayValue: { values } };
  }
  return { kvlistValue: { values: keyValues(v, depth + 1) } };
}

function keyValues(attrs: Attributes | undefined, depth = 0): KeyValueMsg[] {
  const out: KeyValueMsg[] = [];
  if (!attrs) return out;
  for (const key in attrs) {
    if (!Object.prototype.hasOwnProperty.call(attrs, key)) continue;
    out.push({ key, value: anyValue(attrs[key], depth) });
  }
  return out;
}

function idBytes(hex: string | undefined): Uint8Array | undefined {
  if (!hex) return undefined;
  return Buffer.from(hex, 'hex');
}

const MASK32 = 0xffffffffn;

/** A uint64 nanosecond time as the {low, high} pair protobufjs writes as fixed64 (negative -> 0). */
function fixed64(ns: bigint): { low: number; high: number; unsigned: true } {
  const v = typeof ns === 'bigint' ? (ns < 0n ? 0n : BigInt.asUintN(64, ns)) : 0n;
  return { low: Number(v & MASK32), high: Number(v >> 32n), unsigned: true };
}

function count(n: number | undefined): number | undefined {
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

function flagsOf(f: number | undefined, dflt: number): number {
  return typeof f === 'number' && Number.isInteger(f) && f > 0 ? f >>> 0 : dflt;
}

function spanMessage(span: SpanData, x: SpanExtras): Record<string, unknown> {
  const m: Record<string, unknown> = {
    traceId: idBytes(span.traceId),
    spanId: idBytes(span.spanId),
  };
  if (x.traceState) m.traceState = x.traceState;
  const parent = idBytes(span.parentSpanId);
  if (parent) m.parentSpanId = parent;
  m.flags = flagsOf(x.flags, DEFAULT_SPAN_FLAGS);
  m.name = span.name ?? '';
  if (span.kind >= 1 && span.kind <= 5) m.kind = span.kind;
  m.startTimeUnixNano = fixed64(span.startTimeUnixNano);
  m.endTimeUnixNano = fixed64(span.endTimeUnixNano);
  m.attributes = keyValues(span.attributes);
  const da = count(x.droppedAttributesCount) ?? count(span.droppedAttributesCount);
  if (da) m.droppedAttributesCount = da;
  m.events = span.events.map((e, i) => {
    const ev: Record<string, unknown> = { timeUnixNano: fixed64(e.timeUnixNano), name: e.name ?? '', attributes: keyValues(e.attributes) };
    const d = count(x.events?.[i]?.droppedAttributesCount);
    if (d) ev.droppedAttributesCount = d;
    return ev;
  });
  const de = count(x.droppedEventsCount);
  if (de) m.droppedEventsCount = de;
  if (span.links?.length) {
    m.links = span.links.map((l, i) => {
      const lx = x.links?.[i];
      const link: Record<string, unknown> = { traceId: idBytes(l.traceId), spanId: idBytes(l.spanId) };
      if (lx?.traceState) link.traceState = lx.traceState;
      link.attributes = keyValues(l.attributes);
      const d = count(lx?.droppedAttributesCount);
      if (d) link.droppedAttributesCount = d;
      link.flags = flagsOf(lx?.flags, DEFAULT_LINK_FLAGS);
      return link;
    });
  }
  const dl = count(x.droppedLinksCount);
  if (dl) m.droppedLinksCount = dl;
  const code = span.status?.code === 1 || span.status?.code === 2 ? span.status.code : 0;
  m.status = span.status?.message ? { message: span.status.message, code } : { code };
  return m;
}

/** An injective key of an attribute set (its own protobuf encoding) plus a schema URL. */
function contentKey(attrs: Attributes, schemaUrl: string | undefined, extra = ''): string {
  const bytes = OtlpTypes.ExportTraceServiceRequest.encode({ resourceSpans: [{ resource: { attributes: keyValues(attrs) }, schemaUrl: schemaUrl ?? '' }] }).finish();
  return `${extra}\u0000${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')}`;
}

interface ScopeGroup {
  scope: Record<string, unknown>;
  schemaUrl: string | undefined;
  spans: Record<string, unknown>[];
}
interface ResourceGroup {
  attributes: Attributes;
  schemaUrl: string | undefined;
  dropped: number | undefined;
  scopes: Map<string, ScopeGroup>;
}

/** Builds the ExportTraceServiceRequest message (plain objects protobufjs encodes as they are). */
export function traceRequestMessage(items: readonly ExportItem[]): { resourceSpans: Record<string, unknown>[] } {
  const groups = new Map<string, ResourceGroup>();
  // Decoded spans of one ResourceSpans / ScopeSpans share their objects: keyed by identity first,
  // so the content key is computed once per resource (and scope attributes) object, not per span.
  const resourceKeys = new Map<Attributes, Map<string | undefined, string>>();
  const scopeAttrKeys = new Map<Attributes, string>();
  const keyOfResource = (attrs: Attributes, schemaUrl: string | undefined): string => {
    let bySchema = resourceKeys.get(attrs);
    if (!bySchema) resourceKeys.set(attrs, (bySchema = new Map()));
    let k = bySchema.get(schemaUrl);
    if (k === undefined) bySchema.set(schemaUrl, (k = contentKey(attrs, schemaUrl)));
    return k;
  };
  const keyOfScopeAttrs = (attrs: Attributes | undefined): string => {
    if (!attrs) return '';
    let k = scopeAttrKeys.get(attrs);
    if (k === undefined) scopeAttrKeys.set(attrs, (k = Object.keys(attrs).length ? contentKey(attrs, undefined) : ''));
    return k;
  };

  for (const { span, extras } of items) {
    const x = extras ?? {};
    const resource = span.resource ?? {};
    const resourceDropped = count(x.resourceDroppedAttributesCount);
    const rk = `${resourceDropped ?? 0}:${keyOfResource(resource, x.resourceSchemaUrl || undefined)}`;
    let rg = groups.get(rk);
    if (!rg) groups.set(rk, (rg = { attributes: resource, schemaUrl: x.resourceSchemaUrl || undefined, dropped: resourceDropped, scopes: new Map() }));
    const name = span.scope?.name ?? '';
    const version = span.scope?.version || undefined;
    const scopeSchemaUrl = x.scopeSchemaUrl || undefined;
    const scopeDropped = count(x.scopeDroppedAttributesCount);
    const sk = JSON.stringify([name, version ?? '', scopeSchemaUrl ?? '', scopeDropped ?? 0]) + keyOfScopeAttrs(x.scopeAttributes);
    let sg = rg.scopes.get(sk);
    if (!sg) {
      const scope: Record<string, unknown> = { name };
      if (version) scope.version = version;
      if (x.scopeAttributes && Object.keys(x.scopeAttributes).length) scope.attributes = keyValues(x.scopeAttributes);
      if (scopeDropped) scope.droppedAttributesCount = scopeDropped;
      rg.scopes.set(sk, (sg = { scope, schemaUrl: scopeSchemaUrl, spans: [] }));
    }
    sg.spans.push(spanMessage(span, x));
  }

  const resourceSpans: Record<string, unknown>[] = [];
  for (const rg of groups.values()) {
    const scopeSpans: Record<string, unknown>[] = [];
    for (const sg of rg.scopes.values()) scopeSpans.push(sg.schemaUrl ? { scope: sg.scope, spans: sg.spans, schemaUrl: sg.schemaUrl } : { scope: sg.scope, spans: sg.spans });
    const res: Record<string, unknown> = { attributes: keyValues(rg.attributes) };
    if (rg.dropped) res.droppedAttributesCount = rg.dropped;
    const r: Record<string, unknown> = { resource: res, scopeSpans };
    if (rg.schemaUrl) r.schemaUrl = rg.schemaUrl;
    resourceSpans.push(r);
  }
  return { resourceSpans };
}

/** ExportTraceServiceRequest bytes for one export batch. */
export function encodeTraceRequest(items: readonly ExportItem[]): Uint8Array {
  return OtlpTypes.ExportTraceServiceRequest.encode(traceRequestMessage(items)).finish();
}

/** The response shape the SDK's export delegate logs (partial success only when the server sent one). */
export interface TraceExportResponse {
  partialSuccess?: { rejectedSpans?: number; errorMessage?: string };
}

/** Parses ExportTraceServiceResponse bytes; throws on bytes that are not one (the delegate logs it). */
export function decodeTraceResponse(bytes: Uint8Array): TraceExportResponse {
  const m = OtlpTypes.ExportTraceServiceResponse.decode(bytes) as unknown as { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } | null };
  const p = m.partialSuccess;
  if (!p) return {};
  const out: { rejectedSpans?: number; errorMessage?: string } = {};
  const r = p.rejectedSpans;
  if (r !== undefined && r !== null) {
    const l = r as { low?: unknown; high?: unknown };
    const n = typeof l.low === 'number' && typeof l.high === 'number' ? Number(BigInt.asIntN(64, (BigInt(l.high >>> 0) << 32n) | BigInt(l.low >>> 0))) : Number(r);
    if (n) out.rejectedSpans = n;
  }
  if (typeof p.errorMessage === 'string' && p.errorMessage) out.errorMessage = p.errorMessage;
  return { partialSuccess: out };
}

/** The serializer object the OTLP export delegate takes (`ISerializer` of otlp-transformer). */
export const TraceRequestSerializer = {
  serializeRequest(items: readonly ExportItem[]): Uint8Array {
    return encodeTraceRequest(items);
  },
  deserializeResponse(bytes: Uint8Array): TraceExportResponse {
    return decodeTraceResponse(bytes);
  },
};

const HEX_ID_KEYS = new Set(['traceId', 'spanId', 'parentSpanId']);

function isFixed64(v: unknown): v is { low: number; high: number } {
  return !!v && typeof v === 'object' && typeof (v as { low?: unknown }).low === 'number' && typeof (v as { high?: unknown }).high === 'number';
}

/** One value of the protobuf message in its OTLP/JSON form (hex ids, decimal 64-bit numbers, base64 bytes). */
function jsonValue(key: string, v: unknown): unknown {
  if (v instanceof Uint8Array) return HEX_ID_KEYS.has(key) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (isFixed64(v)) return ((BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0)).toString();
  if (key === 'intValue') return String(v);
  if (key === 'doubleValue' && typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  if (Array.isArray(v)) return v.map((x) => jsonValue('', x));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = jsonValue(k, x);
    return out;
  }
  return v;
}

/** ExportTraceServiceRequest as OTLP/JSON bytes: the same message as the protobuf encoding, field for field. */
export function encodeTraceRequestJson(items: readonly ExportItem[]): Uint8Array {
  return Buffer.from(JSON.stringify(jsonValue('', traceRequestMessage(items))), 'utf8');
}

/**
 * The protobuf bytes of Span fields `attributes` (9) and `events` (11) only: appended to a Span
 * message's original encoding they add these (repeated fields concatenate), leaving the rest as sent.
 */
export function encodeSpanAdditions(attributes: Attributes, events: SpanData['events']): Uint8Array {
  const m: Record<string, unknown> = {};
  const kv = keyValues(attributes);
  if (kv.length) m.attributes = kv;
  if (events.length) m.events = events.map((e) => ({ timeUnixNano: fixed64(e.timeUnixNano), name: e.name ?? '', attributes: keyValues(e.attributes) }));
  return OtlpTypes.Span.encode(m).finish();
}

/** One Span message's bytes, written from the decoded span as traceRequestMessage writes it. */
export function encodeSpanMessage(item: ExportItem): Uint8Array {
  return OtlpTypes.Span.encode(spanMessage(item.span, item.extras ?? {})).finish();
}
