// OTLP/protobuf codec: decodes ExportTraceServiceRequest / ExportLogsServiceRequest bytes into the
// plain-data SpanData / LogData shapes (ids as lower-case hex, times as bigint, AnyValues as the
// plain values anyvalue.ts produces), and encodes the Export*ServiceResponse bodies (with
// partial_success), google.rpc.Status error bodies, and ExportLogsServiceRequest for records
// footprint writes itself. Built on protobufjs over the schema in otlp-schema.ts.
// Must never throw at a caller: undecodable input becomes `{ok: false, error}`, unusable items
// become counted rejections with a diagnostic. It never interprets span content.

import type { Diagnostic } from '../model/diagnostics.js';
import type { AttrValue, Attributes, LogData, ScopeData, SpanData, SpanEventData, SpanLinkData, StatusCode } from '../model/telemetry.js';
import { MAX_VALUE_NESTING } from '../limits.js';
import { newTally, type DecodeTally } from './decode-tally.js';
import { OtlpTypes } from './otlp-schema.js';
import { isAgentSpanKey, isAgentSpanScope } from '../conventions/agent-span-keys.js';

/** Diagnostics kept per decoded request; past it only the counts grow. */
const MAX_DIAGNOSTICS = 50;

/** Span fields SpanData does not model, kept so a forwarded span loses nothing the SDK can write. */
export interface SpanExtras {
  traceState?: string;
  /** OTLP span flags: low 8 bits W3C trace flags, 0x100 has-is-remote, 0x200 is-remote. */
  flags?: number;
  droppedAttributesCount?: number;
  droppedEventsCount?: number;
  droppedLinksCount?: number;
  resourceSchemaUrl?: string;
  scopeSchemaUrl?: string;
  scopeAttributes?: Attributes;
  resourceDroppedAttributesCount?: number;
  scopeDroppedAttributesCount?: number;
  /** Per-link trace state, flags and dropped attribute count, in link order. */
  links?: { traceState?: string; flags?: number; droppedAttributesCount?: number }[];
  /** Per-event dropped attribute count, in event order. */
  events?: { droppedAttributesCount?: number }[];
}

export interface DecodedTraceSpan {
  span: SpanData;
  extras: SpanExtras;
  /** The span's index in the request's TraceLayout (trace-layout.ts), when it was read with one. */
  ref?: number;
  /**
   * Present on a span read lightly (tracesOfMessage `light`): an ordinary span of a trace with no
   * agent span in the request, whose `span` has its ids, name, kind, times, status, resource and
   * scope but no attributes, events or links. It builds the whole span (for an encoder that needs it).
   */
  whole?: () => DecodedTraceSpan;
}

export interface DecodedTraces {
  spans: DecodedTraceSpan[];
  /** Spans present in the request but unusable (bad ids): counted for partial_success. */
  rejected: number;
  diagnostics: Diagnostic[];
  /** What decoding normalised (values cut at MAX_VALUE_NESTING). */
  tally: DecodeTally;
}

export interface DecodedLogs {
  logs: LogData[];
  rejected: number;
  diagnostics: Diagnostic[];
  tally: DecodeTally;
}

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; error: string };

interface LongLike {
  low: number;
  high: number;
  unsigned?: boolean;
}

function isLong(v: unknown): v is LongLike {
  return !!v && typeof v === 'object' && typeof (v as LongLike).low === 'number' && typeof (v as LongLike).high === 'number';
}

/** fixed64 / uint64 -> bigint (0n when absent). */
export function toUnsignedBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return BigInt.asUintN(64, v);
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  if (isLong(v)) return BigInt.asUintN(64, (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0));
  return 0n;
}

/** int64 -> number when safe, else its decimal string (as the JSON decoder does). */
function int64Value(v: unknown): number | string {
  let b: bigint;
  if (typeof v === 'number') return v;
  if (isLong(v)) b = BigInt.asIntN(64, (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0));
  else if (typeof v === 'bigint') b = v;
  else return 0;
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : b.toString();
}

export function hexOf(v: unknown, bytes: 8 | 16): string | undefined {
  if (!(v instanceof Uint8Array) || v.length !== bytes) return undefined;
  // An all-zero id is invalid per the trace context spec.
  let any = 0;
  for (let i = 0; i < bytes; i++) any |= v[i]!;
  return any === 0 ? undefined : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
}

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Decodes one protobuf AnyValue message into a plain value (null for an empty or unknown value). */
export function anyValueToPlain(v: unknown, depth = 0, tally?: DecodeTally): AttrValue {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (has(o, 'stringValue')) return String(o.stringValue ?? '');
  if (has(o, 'boolValue')) return o.boolValue === true;
  if (has(o, 'intValue')) return int64Value(o.intValue);
  if (has(o, 'doubleValue')) return Number(o.doubleValue);
  if ((has(o, 'arrayValue') || has(o, 'kvlistValue')) && depth >= MAX_VALUE_NESTING) {
    if (tally) tally.deepValues++;
    return null;
  }
  if (has(o, 'arrayValue')) {
    const values = (o.arrayValue as { values?: unknown[] } | null)?.values;
    return Array.isArray(values) ? values.map((x) => anyValueToPlain(x, depth + 1, tally)) : [];
  }
  if (has(o, 'kvlistValue')) return keyValuesToPlain((o.kvlistValue as { values?: unknown[] } | null)?.values, depth + 1, tally);
  if (has(o, 'bytesValue')) {
    const b = o.bytesValue;
    return b instanceof Uint8Array ? Uint8Array.from(b) : new Uint8Array();
  }
  return null;
}

/** Decodes repeated KeyValue into an object; later duplicate keys win. */
export function keyValuesToPlain(list: unknown, depth = 0, tally?: DecodeTally): { [key: string]: AttrValue } {
  const out: { [key: string]: AttrValue } = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!kv || typeof kv !== 'object') continue;
    const key = (kv as { key?: unknown }).key;
    if (typeof key !== 'string') continue;
    const value = anyValueToPlain((kv as { value?: unknown }).value, depth, tally);
    // '__proto__' is an ordinary attribute key in OTLP: an assignment would set the prototype (or be ignored).
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

function scopeOf(s: unknown): ScopeData {
  if (!s || typeof s !== 'object') return { name: '' };
  const o = s as { name?: unknown; version?: unknown };
  const name = typeof o.name === 'string' ? o.name : '';
  return typeof o.version === 'string' && o.version !== '' ? { name, version: o.version } : { name };
}

function numberOr(v: unknown): number | undefined {
  return typeof v === 'number' && v > 0 ? v : undefined;
}

function protoDecode(type: (typeof OtlpTypes)[keyof typeof OtlpTypes], bytes: Uint8Array): DecodeResult<Record<string, unknown>> {
  try {
    return { ok: true, value: type.decode(bytes) as unknown as Record<string, unknown> };
  } catch (e) {
    const m = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `not a protobuf ${type.name} (${m.slice(0, 200)})` };
  }
}

function pushDiag(list: Diagnostic[], d: Diagnostic): void {
  if (list.length < MAX_DIAGNOSTICS) list.push(d);
}

/** Decodes ExportTraceServiceRequest bytes. */
export function decodeTraceRequestProto(bytes: Uint8Array, where = 'request'): DecodeResult<DecodedTraces> {
  const r = protoDecode(OtlpTypes.ExportTraceServiceRequest, bytes);
  if (!r.ok) return r;
  return tracesOfMessage(r.value, where);
}

/**
 * The spans of a decoded ExportTraceServiceRequest message (protobufjs's shape); `refOf` gives a
 * Span message's index in the request's layout, kept on the decoded span as `ref`.
 */
export function tracesOfMessage(message: Record<string, unknown>, where = 'request', refOf?: (span: object) => number | undefined, light = false): DecodeResult<DecodedTraces> {
  const r = { value: message };
  const tally = newTally();
  const out: DecodedTraces = { spans: [], rejected: 0, diagnostics: [], tally };
  try {
    // Light: spans of traces with no span a reader may claim are read without attributes, events or links.
    const agentTraces = light ? agentTraceIds(message) : undefined;
    for (const rs of (r.value.resourceSpans as Record<string, unknown>[] | undefined) ?? []) {
      const rctx = resourceContext(rs, tally);
      for (const ss of (rs.scopeSpans as Record<string, unknown>[] | undefined) ?? []) {
        const ctx = spanContext(rctx, ss, tally);
        for (const s of (ss.spans as Record<string, unknown>[] | undefined) ?? []) {
          const head = spanHeadOf(s, out, where);
          if (!head) continue;
          const { traceId, spanId, name } = head;
          const ref = refOf?.(s);
          if (agentTraces && !agentTraces.has(traceId) && shallowSpan(s)) {
            const item: DecodedTraceSpan = { span: lightSpan(s, traceId, spanId, name, ctx), extras: {}, whole: () => wholeSpan(s, traceId, spanId, name, ctx, ref) };
            if (ref !== undefined) item.ref = ref;
            out.spans.push(item);
            continue;
          }
          out.spans.push(wholeSpan(s, traceId, spanId, name, ctx, ref));
        }
      }
    }
  } catch (e) {
    return { ok: false, error: `the trace request could not be read (${(e instanceof Error ? e.message : String(e)).slice(0, 200)})` };
  }
  return { ok: true, value: out };
}

/** A decoded Span message's ids and name; undefined (and the span counted as rejected) when an id is unusable. */
export function spanHeadOf(s: Record<string, unknown>, out: DecodedTraces, where: string): { traceId: string; spanId: string; name: string } | undefined {
  const traceId = hexOf(s.traceId, 16);
  const spanId = hexOf(s.spanId, 8);
  const name = typeof s.name === 'string' ? s.name : '';
  if (traceId && spanId) return { traceId, spanId, name };
  rejectSpan(out, where, name);
  return undefined;
}

/** Counts a span with an unusable trace or span id, with its diagnostic. */
export function rejectSpan(out: DecodedTraces, where: string, name: string): void {
  out.rejected++;
  pushDiag(out.diagnostics, { level: 'warn', code: 'otlp.span-id-invalid', message: `${where}: span "${name.slice(0, 80)}" has an unusable trace or span id; rejected` });
}

/** What a ResourceSpans message (protobufjs's shape: `resource`, `schemaUrl`) gives each of its spans. */
export interface ResourceContext {
  resource: Attributes;
  resourceDropped: number | undefined;
  resourceSchemaUrl: string | undefined;
}

export function resourceContext(rs: Record<string, unknown>, tally: DecodeTally): ResourceContext {
  const res = rs.resource as { attributes?: unknown; droppedAttributesCount?: unknown } | undefined;
  return {
    resource: keyValuesToPlain(res?.attributes, 0, tally),
    resourceDropped: numberOr(res?.droppedAttributesCount),
    resourceSchemaUrl: typeof rs.schemaUrl === 'string' && rs.schemaUrl ? rs.schemaUrl : undefined,
  };
}

/** What a ScopeSpans message (protobufjs's shape: `scope`, `schemaUrl`) gives each of its spans. */
export function spanContext(r: ResourceContext, ss: Record<string, unknown>, tally: DecodeTally): SpanContext {
  return {
    resource: r.resource,
    resourceDropped: r.resourceDropped,
    resourceSchemaUrl: r.resourceSchemaUrl,
    scope: scopeOf(ss.scope),
    scopeAttrs: keyValuesToPlain((ss.scope as { attributes?: unknown } | undefined)?.attributes, 0, tally),
    scopeSchemaUrl: typeof ss.schemaUrl === 'string' && ss.schemaUrl ? ss.schemaUrl : undefined,
    scopeDropped: numberOr((ss.scope as { droppedAttributesCount?: unknown } | undefined)?.droppedAttributesCount),
    tally,
  };
}

export interface SpanContext {
  resource: Attributes;
  scope: ScopeData;
  scopeAttrs: Attributes;
  resourceSchemaUrl: string | undefined;
  scopeSchemaUrl: string | undefined;
  resourceDropped: number | undefined;
  scopeDropped: number | undefined;
  tally: DecodeTally;
}

type Msg = Record<string, unknown>;

/** The whole span of a Span message whose ids were checked. */
export function wholeSpan(s: Msg, traceId: string, spanId: string, name: string, ctx: SpanContext, ref: number | undefined): DecodedTraceSpan {
  const { resource, scope, scopeAttrs, resourceSchemaUrl, scopeSchemaUrl, resourceDropped, scopeDropped, tally } = ctx;
  const parentSpanId = hexOf(s.parentSpanId, 8);
  const st = (s.status ?? {}) as { code?: unknown; message?: unknown };
  const code: StatusCode = st.code === 1 || st.code === 2 ? st.code : 0;
  const rawEvents = (s.events as Record<string, unknown>[] | undefined) ?? [];
  const events: SpanEventData[] = rawEvents.map((e) => ({
    name: typeof e.name === 'string' ? e.name : '',
    timeUnixNano: toUnsignedBigInt(e.timeUnixNano),
    attributes: keyValuesToPlain(e.attributes, 0, tally),
  }));
  const eventExtras = rawEvents.map((e) => (numberOr(e.droppedAttributesCount) ? { droppedAttributesCount: e.droppedAttributesCount as number } : {}));
  const links: SpanLinkData[] = [];
  const linkExtras: NonNullable<SpanExtras['links']> = [];
  for (const l of (s.links as Record<string, unknown>[] | undefined) ?? []) {
    const lt = hexOf(l.traceId, 16);
    const ls = hexOf(l.spanId, 8);
    if (!lt || !ls) continue;
    links.push({ traceId: lt, spanId: ls, attributes: keyValuesToPlain(l.attributes, 0, tally) });
    linkExtras.push({
      ...(typeof l.traceState === 'string' && l.traceState ? { traceState: l.traceState } : {}),
      ...(numberOr(l.flags) !== undefined ? { flags: l.flags as number } : {}),
      ...(numberOr(l.droppedAttributesCount) ? { droppedAttributesCount: l.droppedAttributesCount as number } : {}),
    });
  }
  const span: SpanData = {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    kind: typeof s.kind === 'number' && s.kind >= 0 && s.kind <= 5 ? s.kind : 0,
    startTimeUnixNano: toUnsignedBigInt(s.startTimeUnixNano),
    endTimeUnixNano: toUnsignedBigInt(s.endTimeUnixNano),
    attributes: keyValuesToPlain(s.attributes, 0, tally),
    events,
    ...(links.length ? { links } : {}),
    status: typeof st.message === 'string' && st.message ? { code, message: st.message } : { code },
    resource,
    scope,
  };
  const extras: SpanExtras = {};
  if (typeof s.traceState === 'string' && s.traceState) extras.traceState = s.traceState;
  if (numberOr(s.flags) !== undefined) extras.flags = s.flags as number;
  if (numberOr(s.droppedAttributesCount)) {
    extras.droppedAttributesCount = s.droppedAttributesCount as number;
    span.droppedAttributesCount = s.droppedAttributesCount as number;
  }
  if (numberOr(s.droppedEventsCount)) extras.droppedEventsCount = s.droppedEventsCount as number;
  if (numberOr(s.droppedLinksCount)) extras.droppedLinksCount = s.droppedLinksCount as number;
  if (resourceSchemaUrl) extras.resourceSchemaUrl = resourceSchemaUrl;
  if (scopeSchemaUrl) extras.scopeSchemaUrl = scopeSchemaUrl;
  if (Object.keys(scopeAttrs).length) extras.scopeAttributes = scopeAttrs;
  if (resourceDropped) extras.resourceDroppedAttributesCount = resourceDropped;
  if (scopeDropped) extras.scopeDroppedAttributesCount = scopeDropped;
  if (linkExtras.some((x) => x.traceState || x.flags || x.droppedAttributesCount)) extras.links = linkExtras;
  if (eventExtras.some((x) => x.droppedAttributesCount)) extras.events = eventExtras;
  return ref === undefined ? { span, extras } : { span, extras, ref };
}

/** An ordinary span without its attributes, events and links (see DecodedTraceSpan.whole). */
export function lightSpan(s: Msg, traceId: string, spanId: string, name: string, ctx: SpanContext): SpanData {
  const parentSpanId = hexOf(s.parentSpanId, 8);
  const st = (s.status ?? {}) as { code?: unknown; message?: unknown };
  const code: StatusCode = st.code === 1 || st.code === 2 ? st.code : 0;
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    kind: typeof s.kind === 'number' && s.kind >= 0 && s.kind <= 5 ? s.kind : 0,
    startTimeUnixNano: toUnsignedBigInt(s.startTimeUnixNano),
    endTimeUnixNano: toUnsignedBigInt(s.endTimeUnixNano),
    attributes: {},
    events: [],
    status: typeof st.message === 'string' && st.message ? { code, message: st.message } : { code },
    resource: ctx.resource,
    scope: ctx.scope,
  };
}

const listOf = (v: unknown): Msg[] => (Array.isArray(v) ? (v as Msg[]) : []);

/** True when no attribute value of the span, its events or links nests (so the whole read could not add to the tally). */
export function shallowSpan(s: Msg): boolean {
  if (!shallowValues(s.attributes)) return false;
  for (const e of listOf(s.events)) if (!shallowValues(e.attributes)) return false;
  for (const l of listOf(s.links)) if (!shallowValues(l.attributes)) return false;
  return true;
}

function shallowValues(kvs: unknown): boolean {
  for (const kv of listOf(kvs)) {
    const v = kv?.value as Msg | null | undefined;
    if (v && typeof v === 'object' && (has(v, 'arrayValue') || has(v, 'kvlistValue'))) return false;
  }
  return true;
}

/** Trace ids of the spans a convention reader may claim (agent-span-keys.ts): their traces are read whole. */
function agentTraceIds(message: Msg): Set<string> {
  const out = new Set<string>();
  for (const rs of listOf(message.resourceSpans)) {
    for (const ss of listOf(rs.scopeSpans)) {
      const scopeName = (ss.scope as { name?: unknown } | null | undefined)?.name;
      const byScope = typeof scopeName === 'string' && isAgentSpanScope(scopeName);
      for (const s of listOf(ss.spans)) {
        if (!byScope && !listOf(s.attributes).some((kv) => typeof kv?.key === 'string' && isAgentSpanKey(kv.key))) continue;
        const t = hexOf(s.traceId, 16);
        if (t) out.add(t);
      }
    }
  }
  return out;
}

/** Decodes ExportLogsServiceRequest bytes. */
export function decodeLogsRequestProto(bytes: Uint8Array, where = 'request'): DecodeResult<DecodedLogs> {
  const r = protoDecode(OtlpTypes.ExportLogsServiceRequest, bytes);
  if (!r.ok) return r;
  const tally = newTally();
  const out: DecodedLogs = { logs: [], rejected: 0, diagnostics: [], tally };
  try {
    for (const rl of (r.value.resourceLogs as Record<string, unknown>[] | undefined) ?? []) {
      const resource = keyValuesToPlain((rl.resource as { attributes?: unknown } | undefined)?.attributes, 0, tally);
      for (const sl of (rl.scopeLogs as Record<string, unknown>[] | undefined) ?? []) {
        const scope = scopeOf(sl.scope);
        for (const l of (sl.logRecords as Record<string, unknown>[] | undefined) ?? []) {
          const traceId = hexOf(l.traceId, 16);
          const spanId = hexOf(l.spanId, 8);
          if ((l.traceId instanceof Uint8Array && l.traceId.length > 0 && !traceId) || (l.spanId instanceof Uint8Array && l.spanId.length > 0 && !spanId)) {
            pushDiag(out.diagnostics, { level: 'info', code: 'otlp.log-id-invalid', message: `${where}: a log record has an unusable trace or span id; read without span context` });
          }
          const time = toUnsignedBigInt(l.timeUnixNano) || toUnsignedBigInt(l.observedTimeUnixNano);
          const sev = typeof l.severityNumber === 'number' && has(l, 'severityNumber') ? l.severityNumber : undefined;
          out.logs.push({
            ...(traceId ? { traceId } : {}),
            ...(spanId ? { spanId } : {}),
            ...(typeof l.eventName === 'string' && l.eventName ? { eventName: l.eventName } : {}),
            timeUnixNano: time,
            ...(sev !== undefined ? { severityNumber: sev } : {}),
            body: has(l, 'body') ? anyValueToPlain(l.body, 0, tally) : undefined,
            attributes: keyValuesToPlain(l.attributes, 0, tally),
            resource,
            scope,
          });
        }
      }
    }
  } catch (e) {
    return { ok: false, error: `the logs request could not be read (${(e instanceof Error ? e.message : String(e)).slice(0, 200)})` };
  }
  return { ok: true, value: out };
}

export interface PartialSuccess {
  rejected: number;
  errorMessage?: string;
}

/** ExportTraceServiceResponse bytes; partial_success only when something was rejected or said. */
export function encodeTraceResponseProto(partial?: PartialSuccess): Uint8Array {
  const body = partial && (partial.rejected > 0 || partial.errorMessage)
    ? { partialSuccess: { rejectedSpans: partial.rejected, errorMessage: partial.errorMessage ?? '' } }
    : {};
  return OtlpTypes.ExportTraceServiceResponse.encode(OtlpTypes.ExportTraceServiceResponse.fromObject(body)).finish();
}

/** ExportLogsServiceResponse bytes. */
export function encodeLogsResponseProto(partial?: PartialSuccess): Uint8Array {
  const body = partial && (partial.rejected > 0 || partial.errorMessage)
    ? { partialSuccess: { rejectedLogRecords: partial.rejected, errorMessage: partial.errorMessage ?? '' } }
    : {};
  return OtlpTypes.ExportLogsServiceResponse.encode(OtlpTypes.ExportLogsServiceResponse.fromObject(body)).finish();
}

/** The OTLP/JSON form of the same responses. */
export function traceResponseJson(partial?: PartialSuccess): Record<string, unknown> {
  return partial && (partial.rejected > 0 || partial.errorMessage)
    ? { partialSuccess: { rejectedSpans: String(partial.rejected), errorMessage: partial.errorMessage ?? '' } }
    : {};
}
export function logsResponseJson(partial?: PartialSuccess): Record<string, unknown> {
  return partial && (partial.rejected > 0 || partial.errorMessage)
    ? { partialSuccess: { rejectedLogRecords: String(partial.rejected), errorMessage: partial.errorMessage ?? '' } }
    : {};
}

/** google.rpc.Status bytes, the body of an OTLP/HTTP error response. */
export function encodeStatusProto(code: number, message: string): Uint8Array {
  return OtlpTypes.Status.encode(OtlpTypes.Status.fromObject({ code, message })).finish();
}

/** Decodes an ExportTraceServiceResponse / ExportLogsServiceResponse (tests, clients). */
export function decodeExportResponseProto(bytes: Uint8Array, signal: 'traces' | 'logs'): DecodeResult<PartialSuccess> {
  const type = signal === 'traces' ? OtlpTypes.ExportTraceServiceResponse : OtlpTypes.ExportLogsServiceResponse;
  const r = protoDecode(type, bytes);
  if (!r.ok) return r;
  const p = r.value.partialSuccess as Record<string, unknown> | undefined;
  if (!p) return { ok: true, value: { rejected: 0 } };
  const rej = int64Value(signal === 'traces' ? p.rejectedSpans : p.rejectedLogRecords);
  return { ok: true, value: { rejected: Number(rej) || 0, ...(p.errorMessage ? { errorMessage: String(p.errorMessage) } : {}) } };
}

function plainToAnyValue(v: AttrValue | undefined, depth = 0): Record<string, unknown> {
  if (v === null || v === undefined) return {};
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: v } : { doubleValue: v };
  if (v instanceof Uint8Array) return { bytesValue: v };
  if (depth >= MAX_VALUE_NESTING) return {};
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => plainToAnyValue(x, depth + 1)) } };
  return { kvlistValue: { values: plainToKeyValues(v, depth + 1) } };
}

function plainToKeyValues(attrs: Attributes, depth = 0): { key: string; value: Record<string, unknown> }[] {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: plainToAnyValue(value, depth) }));
}

const hexBytes = (hex: string | undefined): Uint8Array | undefined => (hex && /^[0-9a-f]+$/.test(hex) ? Uint8Array.from(Buffer.from(hex, 'hex')) : undefined);

/** Encodes log records (grouped by resource and scope) as ExportLogsServiceRequest bytes. */
export function encodeLogsRequestProto(logs: readonly LogData[]): Uint8Array {
  const groups = new Map<string, { resource: Attributes; scope: ScopeData; records: LogData[] }>();
  for (const l of logs) {
    const key = JSON.stringify([Object.entries(l.resource).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v]), l.scope.name, l.scope.version ?? '']);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { resource: l.resource, scope: l.scope, records: [] }));
    g.records.push(l);
  }
  const resourceLogs = [...groups.values()].map((g) => ({
    resource: { attributes: plainToKeyValues(g.resource) },
    scopeLogs: [
      {
        scope: { name: g.scope.name, ...(g.scope.version ? { version: g.scope.version } : {}) },
        logRecords: g.records.map((l) => ({
          timeUnixNano: l.timeUnixNano.toString(),
          observedTimeUnixNano: l.timeUnixNano.toString(),
          ...(l.severityNumber !== undefined ? { severityNumber: l.severityNumber } : {}),
          ...(l.body !== undefined ? { body: plainToAnyValue(l.body) } : {}),
          attributes: plainToKeyValues(l.attributes),
          ...(hexBytes(l.traceId) ? { traceId: hexBytes(l.traceId) } : {}),
          ...(hexBytes(l.spanId) ? { spanId: hexBytes(l.spanId) } : {}),
          ...(l.eventName ? { eventName: l.eventName } : {}),
        })),
      },
    ],
  }));
  const T = OtlpTypes.ExportLogsServiceRequest;
  return T.encode(T.fromObject({ resourceLogs })).finish();
}
