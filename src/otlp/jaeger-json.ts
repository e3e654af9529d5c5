// Jaeger's own JSON (the UI's "Download JSON" / "Trace JSON" and the query API `/api/traces`:
// `{data: [{traceID, spans: [...], processes: {...}}]}`) turned into an OTLP/JSON
// ExportTraceServiceRequest, undoing what Jaeger's OTLP translator did: tags typed back to
// AnyValues, span logs back to events, references back to parent and links, processes back to
// resources, and the `span.kind` / `otel.status_code` / `otel.scope.*` tags back to fields.
// Must never throw on a bad document: an unusable span becomes a diagnostic and is left out.

import { z } from 'zod';
import type { Diagnostic } from '../model/diagnostics.js';

const num = z.union([z.number(), z.string().regex(/^\d+$/)]);

const JaegerTag = z.looseObject({ key: z.string(), type: z.string().optional(), value: z.unknown() });
const JaegerLog = z.looseObject({ timestamp: num, fields: z.array(JaegerTag).nullish() });
const JaegerReference = z.looseObject({ refType: z.string().optional(), traceID: z.string(), spanID: z.string() });
const JaegerProcess = z.looseObject({ serviceName: z.string().optional(), tags: z.array(JaegerTag).nullish() });
const JaegerSpan = z.looseObject({
  traceID: z.string(),
  spanID: z.string(),
  parentSpanID: z.string().optional(),
  operationName: z.string().optional().default(''),
  references: z.array(JaegerReference).nullish(),
  startTime: num,
  duration: num.optional(),
  tags: z.array(JaegerTag).nullish(),
  logs: z.array(JaegerLog).nullish(),
  processID: z.string().optional(),
  process: JaegerProcess.optional(),
});
const JaegerTrace = z.looseObject({ traceID: z.string().optional(), spans: z.array(z.unknown()), processes: z.record(z.string(), z.unknown()).nullish() });

type Tag = z.infer<typeof JaegerTag>;
type OtlpKeyValue = { key: string; value: Record<string, unknown> };

/** A Jaeger trace object: `traceID`, `spans` and `processes`. */
export function isJaegerTrace(v: unknown): boolean {
  return !!v && typeof v === 'object' && Array.isArray((v as { spans?: unknown }).spans) && ('processes' in v || 'traceID' in v);
}

/** The trace objects of a Jaeger document: `{data: [...]}`, an array of traces, or one trace; undefined when it is none of them. */
export function jaegerTracesOf(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc.length > 0 && doc.every(isJaegerTrace) ? doc : undefined;
  if (!doc || typeof doc !== 'object') return undefined;
  const data = (doc as { data?: unknown }).data;
  if (Array.isArray(data)) return data.every(isJaegerTrace) ? data : undefined;
  return isJaegerTrace(doc) ? [doc] : undefined;
}

/** Jaeger writes a 64-bit trace id without its zero high half; OTLP ids are 32 hex characters. */
function hexId(id: string, chars: 16 | 32): string | undefined {
  const s = id.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(s) || s.length > chars) return undefined;
  const padded = s.padStart(chars, '0');
  return /^0+$/.test(padded) ? undefined : padded;
}

/** A Jaeger tag's value as the OTLP/JSON AnyValue it was before translation. */
function anyValueOf(tag: Tag): Record<string, unknown> {
  const v = tag.value;
  switch ((tag.type ?? '').toLowerCase()) {
    case 'bool':
      return { boolValue: v === true || v === 'true' };
    case 'int64':
      return { intValue: typeof v === 'number' ? String(Math.trunc(v)) : String(v ?? '0') };
    case 'float64':
      return { doubleValue: typeof v === 'number' ? v : Number(v) };
    case 'binary':
      return { bytesValue: typeof v === 'string' ? v : '' };
    default:
      if (typeof v === 'string') return { stringValue: v };
      if (typeof v === 'boolean') return { boolValue: v };
      if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
      return { stringValue: v === undefined || v === null ? '' : JSON.stringify(v) };
  }
}

const keyValues = (tags: readonly Tag[]): OtlpKeyValue[] => tags.map((t) => ({ key: t.key, value: anyValueOf(t) }));

const SPAN_KINDS: Record<string, number> = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 };
/** Tags Jaeger's translator made from OTLP span fields; they go back to the fields, not the attributes. */
const FIELD_TAGS = new Set(['span.kind', 'otel.status_code', 'otel.status_description', 'otel.scope.name', 'otel.scope.version', 'otel.library.name', 'otel.library.version', 'w3c.tracestate', 'internal.span.format']);

const usToNs = (v: string | number): string => (BigInt(typeof v === 'number' ? Math.trunc(v) : v) * 1000n).toString();

function tagText(tags: readonly Tag[], key: string): string | undefined {
  const t = tags.find((x) => x.key === key);
  return t === undefined || t.value === undefined || t.value === null ? undefined : String(t.value);
}

interface Group {
  resource: OtlpKeyValue[];
  scopes: Map<string, { scope: { name: string; version?: string }; spans: Record<string, unknown>[] }>;
}

/**
 * Converts a Jaeger JSON document into one ExportTraceServiceRequest object (OTLP/JSON, hex ids,
 * nanosecond times), one ResourceSpans per process and one ScopeSpans per instrumentation scope.
 */
export function jaegerToOtlp(traces: readonly unknown[], where: string, diagnostics: Diagnostic[]): { resourceSpans: unknown[] } {
  const groups = new Map<string, Group>();
  let bad = 0;
  traces.forEach((rawTrace, ti) => {
    const trace = JaegerTrace.safeParse(rawTrace);
    if (!trace.success) {
      bad++;
      return;
    }
    const processes = trace.data.processes ?? {};
    for (const rawSpan of trace.data.spans) {
      const parsed = JaegerSpan.safeParse(rawSpan);
      if (!parsed.success) {
        bad++;
        continue;
      }
      const s = parsed.data;
      const traceId = hexId(s.traceID, 32);
      const spanId = hexId(s.spanID, 16);
      if (!traceId || !spanId) {
        bad++;
        continue;
      }
      const processParsed = JaegerProcess.safeParse(s.process ?? (s.processID !== undefined ? processes[s.processID] : undefined) ?? {});
      const proc = processParsed.success ? processParsed.data : { serviceName: undefined, tags: [] };
      const processKey = s.process ? JSON.stringify(s.process) : `${ti}/${s.processID ?? ''}`;
      let group = groups.get(processKey);
      if (!group) {
        const procTags = (proc.tags ?? []).filter((t) => t.key !== 'service.name');
        const resource = [...(proc.serviceName !== undefined ? [{ key: 'service.name', value: { stringValue: proc.serviceName } }] : []), ...keyValues(procTags)];
        group = { resource, scopes: new Map() };
        groups.set(processKey, group);
      }
      const tags = s.tags ?? [];
      const scopeName = tagText(tags, 'otel.scope.name') ?? tagText(tags, 'otel.library.name') ?? '';
      const scopeVersion = tagText(tags, 'otel.scope.version') ?? tagText(tags, 'otel.library.version');
      const scopeKey = `${scopeName}@${scopeVersion ?? ''}`;
      let scope = group.scopes.get(scopeKey);
      if (!scope) {
        scope = { scope: { name: scopeName, ...(scopeVersion ? { version: scopeVersion } : {}) }, spans: [] };
        group.scopes.set(scopeKey, scope);
      }
      scope.spans.push(spanOf(s, traceId, spanId, tags));
    }
  });
  if (bad > 0) diagnostics.push({ level: 'warn', code: 'jaeger.span-invalid', message: `${where}: ${bad} Jaeger span(s) or trace(s) were not of Jaeger's JSON shape (or had unusable ids); skipped` });
  return {
    resourceSpans: [...groups.values()].map((g) => ({
      resource: { attributes: g.resource },
      scopeSpans: [...g.scopes.values()].map((sc) => ({ scope: sc.scope, spans: sc.spans })),
    })),
  };
}

function spanOf(s: z.infer<typeof JaegerSpan>, traceId: string, spanId: string, tags: readonly Tag[]): Record<string, unknown> {
  // The first CHILD_OF reference in the same trace is the parent; every other reference is a link.
  const refs = (s.references ?? []).map((r) => ({ refType: (r.refType ?? 'CHILD_OF').toUpperCase(), traceId: hexId(r.traceID, 32), spanId: hexId(r.spanID, 16) }));
  let parentSpanId = s.parentSpanID ? hexId(s.parentSpanID, 16) : undefined;
  const parentRef = parentSpanId ? -1 : refs.findIndex((r) => r.refType === 'CHILD_OF' && r.traceId === traceId && r.spanId);
  if (parentRef >= 0) parentSpanId = refs[parentRef]!.spanId;
  const links = refs.filter((r, i) => i !== parentRef && r.traceId && r.spanId && !(r.spanId === parentSpanId && r.traceId === traceId)).map((r) => ({ traceId: r.traceId, spanId: r.spanId, attributes: [] }));

  const kind = SPAN_KINDS[(tagText(tags, 'span.kind') ?? '').toLowerCase()] ?? 0;
  const statusText = (tagText(tags, 'otel.status_code') ?? '').toUpperCase();
  const errorTag = tags.find((t) => t.key === 'error');
  const errorFlag = errorTag !== undefined && (errorTag.value === true || errorTag.value === 'true');
  const code = statusText === 'ERROR' || (statusText === '' && errorFlag) ? 2 : statusText === 'OK' ? 1 : 0;
  const message = tagText(tags, 'otel.status_description');
  // The translator adds `error: true` for an error status; it is not one of the span's own attributes.
  const attributes = tags.filter((t) => !FIELD_TAGS.has(t.key) && !(t.key === 'error' && errorFlag && code === 2));
  const traceState = tagText(tags, 'w3c.tracestate');

  const start = usToNs(s.startTime);
  const end = (BigInt(start) + BigInt(usToNs(s.duration ?? 0))).toString();
  const events = (s.logs ?? []).map((l) => {
    const fields = l.fields ?? [];
    return { timeUnixNano: usToNs(l.timestamp), name: tagText(fields, 'event') ?? '', attributes: keyValues(fields.filter((f) => f.key !== 'event')) };
  });
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    ...(traceState ? { traceState } : {}),
    name: s.operationName,
    kind,
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: keyValues(attributes),
    events,
    links,
    status: message ? { code, message } : { code },
  };
}
