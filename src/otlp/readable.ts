// SpanData -> ReadableSpan adapter, so decoded (and annotated) spans can be handed to the SDK's
// OTLP exporters (@opentelemetry/exporter-trace-otlp-http / -proto) unchanged in meaning.
// Structured attribute values (kvlists, arrays of them, bytes) are passed through as plain values:
// otlp-transformer 0.223's JSON and protobuf writers both serialise arrays, Uint8Array and plain
// objects as arrayValue / bytesValue / kvlistValue, so nothing needs stringifying.
// Must never mutate its input or throw: an unusable field falls back to its OTLP default.

import type { Attributes as ApiAttributes, HrTime, Link, SpanContext, SpanKind } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { Attributes, SpanData } from '../model/telemetry.js';
import type { SpanExtras } from './proto.js';

const NS = 1_000_000_000n;

export function hrTimeOf(ns: bigint): HrTime {
  const v = ns < 0n ? 0n : ns;
  return [Number(v / NS), Number(v % NS)];
}

function traceStateOf(s: string | undefined): TraceState | undefined {
  if (!s) return undefined;
  try {
    return new TraceState(s);
  } catch {
    return undefined;
  }
}

function resourceKey(attrs: Attributes, schemaUrl: string | undefined): string {
  try {
    return JSON.stringify([schemaUrl ?? '', attrs], (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
  } catch {
    return `${Math.random()}`;
  }
}

/**
 * Builds ReadableSpans for one export batch. Spans sharing a resource share one Resource object
 * (the transformer groups by object identity), and likewise for scopes (grouped by name@version).
 */
export function toReadableSpans(items: readonly { span: SpanData; extras?: SpanExtras }[]): ReadableSpan[] {
  const resources = new Map<string, Resource>();
  // Decoded spans of one ResourceSpans share their attributes object: keyed by identity first, so
  // the content key (a JSON text) is computed once per resource, not once per span.
  const byObject = new Map<Attributes, { schemaUrl: string | undefined; resource: Resource }>();
  return items.map(({ span, extras }) => {
    const schemaUrl = extras?.resourceSchemaUrl;
    const known = byObject.get(span.resource);
    let resource = known && known.schemaUrl === schemaUrl ? known.resource : undefined;
    if (!resource) {
      const rk = resourceKey(span.resource, schemaUrl);
      resource = resources.get(rk);
      if (!resource) {
        resource = resourceFromAttributes(span.resource as ApiAttributes, schemaUrl ? { schemaUrl } : undefined);
        resources.set(rk, resource);
      }
      if (!known) byObject.set(span.resource, { schemaUrl, resource });
    }
    return toReadableSpan(span, extras, resource);
  });
}

export function toReadableSpan(span: SpanData, extras: SpanExtras = {}, resource?: Resource): ReadableSpan {
  const flags = extras.flags ?? 1;
  const traceState = traceStateOf(extras.traceState);
  const ctx: SpanContext = { traceId: span.traceId, spanId: span.spanId, traceFlags: flags & 0xff, ...(traceState ? { traceState } : {}) };
  const parentSpanContext: SpanContext | undefined = span.parentSpanId
    ? { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: flags & 0xff, isRemote: (flags & 0x200) !== 0 }
    : undefined;
  const start = hrTimeOf(span.startTimeUnixNano);
  const end = hrTimeOf(span.endTimeUnixNano);
  const durNs = span.endTimeUnixNano > span.startTimeUnixNano ? span.endTimeUnixNano - span.startTimeUnixNano : 0n;
  const events: TimedEvent[] = span.events.map((e) => ({ name: e.name, time: hrTimeOf(e.timeUnixNano), attributes: e.attributes as ApiAttributes, droppedAttributesCount: 0 }));
  const links: Link[] = (span.links ?? []).map((l, i) => {
    const lx = extras.links?.[i];
    const ts = traceStateOf(lx?.traceState);
    return {
      context: { traceId: l.traceId, spanId: l.spanId, traceFlags: (lx?.flags ?? 0) & 0xff, ...(ts ? { traceState: ts } : {}), ...((lx?.flags ?? 0) & 0x200 ? { isRemote: true } : {}) },
      attributes: l.attributes as ApiAttributes,
      droppedAttributesCount: 0,
    };
  });
  const scope = {
    name: span.scope.name,
    ...(span.scope.version ? { version: span.scope.version } : {}),
    ...(extras.scopeSchemaUrl ? { schemaUrl: extras.scopeSchemaUrl } : {}),
    ...(extras.scopeAttributes ? { attributes: extras.scopeAttributes } : {}),
  };
  return {
    name: span.name,
    // The transformer writes `kind + 1`, or 0 when kind is absent (OTLP SPAN_KIND_UNSPECIFIED).
    kind: (span.kind >= 1 && span.kind <= 5 ? span.kind - 1 : undefined) as SpanKind,
    spanContext: () => ctx,
    ...(parentSpanContext ? { parentSpanContext } : {}),
    startTime: start,
    endTime: end,
    status: span.status.message ? { code: span.status.code, message: span.status.message } : { code: span.status.code },
    attributes: span.attributes as ApiAttributes,
    links,
    events,
    duration: hrTimeOf(durNs),
    ended: true,
    resource: resource ?? resourceFromAttributes(span.resource as ApiAttributes),
    instrumentationScope: scope,
    droppedAttributesCount: extras.droppedAttributesCount ?? 0,
    droppedEventsCount: extras.droppedEventsCount ?? 0,
    droppedLinksCount: extras.droppedLinksCount ?? 0,
  };
}
