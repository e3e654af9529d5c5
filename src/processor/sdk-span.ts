// Bridges the OpenTelemetry JS SDK's span and log-record objects and footprint's plain data:
// ReadableSpan -> SpanData, SDK log record -> LogData, SpanData -> ReadableSpan (carrier spans),
// and a read-only annotated view that adds events and attributes over an ended span.
// Must never mutate an SDK object (no writes to a span's attributes, events or status), and never
// spread an SDK span (`{...span}` loses spanContext(), duration, ended and dropped*): copy fields.

import { TraceFlags, type Attributes as OtelAttributes, type AttributeValue, type HrTime, type Link, type SpanContext, type SpanKind, type SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { Resource } from '@opentelemetry/resources';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { AttrValue, Attributes, LogData, ScopeData, SpanData, SpanEventData, StatusCode } from '../model/telemetry.js';

const NS_PER_S = 1_000_000_000n;

export function hrTimeToNanos(t: HrTime | undefined): bigint {
  if (!t) return 0n;
  const s = Number.isFinite(t[0]) ? Math.trunc(t[0]) : 0;
  const n = Number.isFinite(t[1]) ? Math.trunc(t[1]) : 0;
  return BigInt(s) * NS_PER_S + BigInt(n);
}

export function nanosToHrTime(ns: bigint): HrTime {
  if (ns < 0n) ns = 0n;
  return [Number(ns / NS_PER_S), Number(ns % NS_PER_S)];
}

/** Bounds the copy of nested log bodies/attributes (api-logs AnyValue may nest). */
const MAX_COPY_DEPTH = 64;

/**
 * Copies an SDK attribute/AnyValue into plain data. Undefined becomes null inside arrays and is
 * dropped as a map value; nested maps become plain objects; bytes stay bytes; depth is bounded.
 */
export function copyValue(v: unknown, depth = 0): AttrValue | undefined {
  if (v === null) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    case 'undefined':
      return undefined;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (depth >= MAX_COPY_DEPTH) return null;
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (Array.isArray(v)) {
    const out: AttrValue[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const c = copyValue(v[i], depth + 1);
      out[i] = c === undefined ? null : c;
    }
    return out;
  }
  const out: { [key: string]: AttrValue } = {};
  for (const k of Object.keys(v as object)) {
    const c = copyValue((v as Record<string, unknown>)[k], depth + 1);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

export function copyAttributes(attrs: Readonly<Record<string, unknown>> | undefined): Attributes {
  const out: Attributes = {};
  if (!attrs) return out;
  for (const k of Object.keys(attrs)) {
    const v = attrs[k];
    // Fast path for the common primitive case; arrays are copied so later SDK writes cannot reach us.
    const t = typeof v;
    if (t === 'string' || t === 'number' || t === 'boolean') out[k] = v as string | number | boolean;
    else {
      const c = copyValue(v);
      if (c !== undefined) out[k] = c;
    }
  }
  return out;
}

// Resources are shared by every span of a provider: convert each once.
const resourceCache = new WeakMap<object, Attributes>();

export function resourceAttributes(resource: Resource | undefined): Attributes {
  if (!resource) return {};
  const hit = resourceCache.get(resource);
  if (hit) return hit;
  let attrs: Attributes;
  try {
    attrs = copyAttributes(resource.attributes as Record<string, unknown>);
  } catch {
    attrs = {};
  }
  // Async resource attributes may still be pending; cache only a settled resource.
  if (!resource.asyncAttributesPending) resourceCache.set(resource, attrs);
  return attrs;
}

export function scopeOf(scope: InstrumentationScope | undefined): ScopeData {
  if (!scope) return { name: '' };
  return scope.version !== undefined ? { name: scope.name, version: scope.version } : { name: scope.name };
}

/** API SpanKind (0 internal .. 4 consumer) -> OTLP kind (1 internal .. 5 consumer). */
export function otlpKind(kind: SpanKind | number): number {
  return typeof kind === 'number' && kind >= 0 && kind <= 4 ? kind + 1 : 0;
}

function statusOf(status: SpanStatus | undefined): { code: StatusCode; message?: string } {
  const code = status?.code === 1 || status?.code === 2 ? status.code : 0;
  return status?.message ? { code, message: status.message } : { code };
}

function eventOf(e: TimedEvent): SpanEventData {
  return { name: e.name, timeUnixNano: hrTimeToNanos(e.time), attributes: copyAttributes(e.attributes) };
}

/** ReadableSpan -> SpanData, field by field (spanContext() is a method; duration/ended/dropped* are getters). */
export function toSpanData(span: ReadableSpan): SpanData {
  const ctx = span.spanContext();
  const parent = span.parentSpanContext;
  const out: SpanData = {
    traceId: ctx.traceId,
    spanId: ctx.spanId,
    name: span.name,
    kind: otlpKind(span.kind),
    startTimeUnixNano: hrTimeToNanos(span.startTime),
    endTimeUnixNano: hrTimeToNanos(span.endTime),
    attributes: copyAttributes(span.attributes),
    events: span.events.map(eventOf),
    status: statusOf(span.status),
    resource: resourceAttributes(span.resource),
    scope: scopeOf(span.instrumentationScope),
  };
  if (parent?.spanId) out.parentSpanId = parent.spanId;
  if (parent?.spanId && parent.isRemote) out.parentIsRemote = true;
  if (span.links.length > 0) {
    out.links = span.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId, attributes: copyAttributes(l.attributes) }));
  }
  return out;
}

/** An SDK log record (ReadableLogRecord / SdkLogRecord) -> LogData, copied so later writes cannot reach it. */
export function toLogData(record: ReadableLogRecord): LogData {
  const ctx = record.spanContext;
  const out: LogData = {
    timeUnixNano: hrTimeToNanos(record.hrTime),
    body: copyValue(record.body),
    attributes: copyAttributes(record.attributes as Record<string, unknown>),
    resource: resourceAttributes(record.resource),
    scope: scopeOf(record.instrumentationScope),
  };
  if (ctx?.traceId) out.traceId = ctx.traceId;
  if (ctx?.spanId) out.spanId = ctx.spanId;
  if (record.eventName) out.eventName = record.eventName;
  if (record.severityNumber !== undefined) out.severityNumber = record.severityNumber;
  return out;
}

/**
 * Plain value -> an SDK attribute value. SDK 2.x accepts primitives and homogeneous primitive
 * arrays only, so maps and mixed arrays are written as JSON text; null and bytes are dropped.
 */
export function toOtelAttributeValue(v: AttrValue | undefined): AttributeValue | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return undefined;
  if (Array.isArray(v)) {
    if (v.length === 0) return [] as string[];
    const t = typeof v[0];
    if ((t === 'string' || t === 'number' || t === 'boolean') && v.every((x) => typeof x === t)) return v as string[] | number[] | boolean[];
  }
  try {
    return JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? undefined : x));
  } catch {
    return undefined;
  }
}

export function toOtelAttributes(attrs: Attributes): OtelAttributes {
  const out: OtelAttributes = {};
  for (const k of Object.keys(attrs)) {
    const v = toOtelAttributeValue(attrs[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function toTimedEvent(e: SpanEventData): TimedEvent {
  return { name: e.name, time: nanosToHrTime(e.timeUnixNano), attributes: toOtelAttributes(e.attributes), droppedAttributesCount: 0 };
}

/**
 * An ended span with events and attributes added: every other field is read from the original on
 * each access. The original span is not touched; added attributes win over the original's keys.
 */
export class AnnotatedSpan implements ReadableSpan {
  readonly events: TimedEvent[];
  readonly attributes: OtelAttributes;
  constructor(
    readonly original: ReadableSpan,
    extraEvents: readonly TimedEvent[],
    extraAttributes: OtelAttributes,
  ) {
    this.events = extraEvents.length > 0 ? [...original.events, ...extraEvents] : original.events;
    this.attributes = Object.keys(extraAttributes).length > 0 ? { ...original.attributes, ...extraAttributes } : original.attributes;
  }
  spanContext(): SpanContext {
    return this.original.spanContext();
  }
  get name(): string {
    return this.original.name;
  }
  get kind(): SpanKind {
    return this.original.kind;
  }
  get parentSpanContext(): SpanContext | undefined {
    return this.original.parentSpanContext;
  }
  get startTime(): HrTime {
    return this.original.startTime;
  }
  get endTime(): HrTime {
    return this.original.endTime;
  }
  get status(): SpanStatus {
    return this.original.status;
  }
  get links(): Link[] {
    return this.original.links;
  }
  get duration(): HrTime {
    return this.original.duration;
  }
  get ended(): boolean {
    return this.original.ended;
  }
  get resource(): Resource {
    return this.original.resource;
  }
  get instrumentationScope(): InstrumentationScope {
    return this.original.instrumentationScope;
  }
  get droppedAttributesCount(): number {
    return this.original.droppedAttributesCount;
  }
  get droppedEventsCount(): number {
    return this.original.droppedEventsCount;
  }
  get droppedLinksCount(): number {
    return this.original.droppedLinksCount;
  }
}

/** The view next receives: the original itself when there is nothing to add. */
export function annotate(span: ReadableSpan, events: readonly SpanEventData[], attributes: Attributes): ReadableSpan {
  const extraAttrs = toOtelAttributes(attributes);
  if (events.length === 0 && Object.keys(extraAttrs).length === 0) return span;
  return new AnnotatedSpan(span, events.map(toTimedEvent), extraAttrs);
}

/**
 * SpanData -> a ReadableSpan (for carrier spans the core creates). `resource` is the provider's
 * resource object (in-process every span shares it, and exporters group spans by it).
 */
export function fromSpanData(data: SpanData, resource: Resource, traceFlags: number = TraceFlags.SAMPLED): ReadableSpan {
  const ctx: SpanContext = { traceId: data.traceId, spanId: data.spanId, traceFlags };
  const parent: SpanContext | undefined = data.parentSpanId ? { traceId: data.traceId, spanId: data.parentSpanId, traceFlags } : undefined;
  const startTime = nanosToHrTime(data.startTimeUnixNano);
  const endTime = nanosToHrTime(data.endTimeUnixNano);
  const dur = data.endTimeUnixNano > data.startTimeUnixNano ? data.endTimeUnixNano - data.startTimeUnixNano : 0n;
  const scope: InstrumentationScope = data.scope.version !== undefined ? { name: data.scope.name, version: data.scope.version } : { name: data.scope.name };
  const status: SpanStatus = data.status.message !== undefined ? { code: data.status.code, message: data.status.message } : { code: data.status.code };
  const span: ReadableSpan = {
    name: data.name,
    kind: (data.kind >= 1 && data.kind <= 5 ? data.kind - 1 : 0) as SpanKind,
    spanContext: () => ctx,
    parentSpanContext: parent,
    startTime,
    endTime,
    duration: nanosToHrTime(dur),
    status,
    attributes: toOtelAttributes(data.attributes),
    links: (data.links ?? []).map((l) => ({ context: { traceId: l.traceId, spanId: l.spanId, traceFlags }, attributes: toOtelAttributes(l.attributes) })),
    events: data.events.map(toTimedEvent),
    ended: true,
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
  return span;
}
