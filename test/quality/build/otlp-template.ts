// Reads a recorded fixture as a template and builds spans and log records in its layout: the
// recorded span skeleton and attribute order are kept, only the conversation contents change.
// Generator-only (never imported by src/); writes nothing itself.

import { readFileSync } from 'node:fs';

export type AnyValue = Record<string, unknown>;
export interface Attr {
  key: string;
  value: AnyValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Attr[];
  events: unknown[];
  status: { code: number; message?: string };
  [k: string]: unknown;
}

export function loadJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** An OTLP/JSON AnyValue, written as the recorded files write them (ints as JSON numbers). */
export function anyValue(v: unknown): AnyValue {
  if (v === null || v === undefined) return {};
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: v } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return { kvlistValue: { values: Object.entries(v as Record<string, unknown>).map(([key, x]) => ({ key, value: anyValue(x) })) } };
}

/**
 * The template's attributes with `values` substituted in place (an `undefined` drops the key);
 * keys the template lacks are appended in the order given.
 */
export function substitute(template: Attr[], values: Record<string, unknown>): Attr[] {
  const out: Attr[] = [];
  for (const a of template) {
    if (!(a.key in values)) out.push(a);
    else if (values[a.key] !== undefined) out.push({ key: a.key, value: anyValue(values[a.key]) });
  }
  for (const [key, v] of Object.entries(values)) {
    if (v !== undefined && !template.some((a) => a.key === key)) out.push({ key, value: anyValue(v) });
  }
  return out;
}

export interface SpanPlace {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  start: bigint;
  end: bigint;
  name?: string;
  error?: { type: string; message: string };
}

/** A span in the template span's skeleton (kind, flags, dropped counts) at a new place. */
export function spanLike(template: OtlpSpan, place: SpanPlace, attributes: Attr[]): OtlpSpan {
  const out: OtlpSpan = { ...template, traceId: place.traceId, spanId: place.spanId, name: place.name ?? template.name, attributes, events: [], status: { code: 0 } };
  if (place.parentSpanId) out.parentSpanId = place.parentSpanId;
  else delete out.parentSpanId;
  out.startTimeUnixNano = place.start.toString();
  out.endTimeUnixNano = place.end.toString();
  if (place.error) {
    out.status = { code: 2, message: place.error.message };
    out.events = [
      {
        attributes: [
          { key: 'exception.type', value: { stringValue: place.error.type } },
          { key: 'exception.message', value: { stringValue: place.error.message } },
        ],
        name: 'exception',
        timeUnixNano: (place.end - 1_000_000n).toString(),
        droppedAttributesCount: 0,
      },
    ];
  }
  return out;
}

export function findSpan(spans: OtlpSpan[], pred: (s: OtlpSpan) => boolean, what: string): OtlpSpan {
  const s = spans.find(pred);
  if (!s) throw new Error(`template has no ${what}`);
  return s;
}

export function attrOf(s: OtlpSpan, key: string): unknown {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
}
