// What an account is built from: the spans of one trace (with the events footprint added to them)
// and the log records joined to them, plus the spans of earlier turns of the same conversation.
// Gives each span its record view (the document pointers are paths into) and its role.
// Pure; must never mutate the spans it is given.

import type { Attributes, AttrValue, LogData, SpanData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import type { Declarations } from '../declarations/types.js';
import type { Redaction } from '../model/finding.js';
import { tenantOfResource } from '../model/tenant.js';

export interface ExplainRecord {
  /** The trace being explained. */
  traceId: string;
  /** Every span held: the trace's, and earlier traces' of the same conversation (annotated as written). */
  spans: readonly SpanData[];
  logs: readonly LogData[];
}

/**
 * The raw values the core's findings quoted (their values and `sensitive`, and what their witnesses
 * quote), handed over in process (never written anywhere): under `hash`/`omit` any tool-declared
 * words (coverage, looked_for) that hold one are redacted whole. Absent under `hash`/`omit`: every
 * such string is redacted whole, as none can be told safe.
 */
export interface SensitiveValues {
  values: readonly string[];
  witnessValues: readonly string[];
}

export interface ExplainOptions {
  declarations?: Declarations;
  redaction?: Redaction;
  sensitive?: SensitiveValues;
  /** Resource attribute naming the tenant (default `service.name`). */
  tenantAttribute?: string;
  /** The tenant whose account this is; default: the tenant of the trace's first span. */
  tenant?: string;
}

export type SpanRole = 'turn' | 'chat' | 'tool' | 'other';

/** The document a pointer's path walks: the span's own fields and its joined log records. */
export interface SpanRecordView {
  name: string;
  status: { code: number; message?: string };
  attributes: Attributes;
  events: { name: string; attributes: Attributes }[];
  logs: { eventName?: string; attributes: Attributes; body: AttrValue | null }[];
}

export function recordView(span: SpanData, logs: readonly LogData[]): SpanRecordView {
  return {
    name: span.name,
    status: { code: span.status.code, ...(span.status.message !== undefined ? { message: span.status.message } : {}) },
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    logs: logs.map((l) => ({ ...(l.eventName !== undefined ? { eventName: l.eventName } : {}), attributes: l.attributes, body: l.body ?? null })),
  };
}

export function tenantOfSpan(span: SpanData, tenantAttribute: string): string {
  return tenantOfResource(span.resource, tenantAttribute);
}

/** Index of spans and their joined logs by `traceId/spanId`. */
export interface RecordIndex {
  span(key: string): SpanData | undefined;
  logsOf(key: string): readonly LogData[];
  view(key: string): SpanRecordView | undefined;
}

export function indexRecord(record: ExplainRecord, logsBySpan: ReadonlyMap<string, LogData[]>): RecordIndex {
  const spans = new Map<string, SpanData>();
  for (const s of record.spans) if (!spans.has(spanKey(s))) spans.set(spanKey(s), s);
  const views = new Map<string, SpanRecordView>();
  return {
    span: (key) => spans.get(key),
    logsOf: (key) => logsBySpan.get(key) ?? [],
    view: (key) => {
      const s = spans.get(key);
      if (!s) return undefined;
      let v = views.get(key);
      if (!v) views.set(key, (v = recordView(s, logsBySpan.get(key) ?? [])));
      return v;
    },
  };
}
