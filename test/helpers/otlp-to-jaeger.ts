// Test helper: writes an OTLP/JSON trace export the way Jaeger (v1 query API, UI "Download JSON")
// hands it back, following the collector's OTLP -> Jaeger translator (pkg/translator/jaeger):
// attributes become typed tags (structured values as their JSON text), events become logs with an
// `event` field, the parent becomes a CHILD_OF reference and links FOLLOWS_FROM ones, kind /
// status / scope become `span.kind`, `otel.status_code`, `error`, `otel.scope.*` tags, the
// resource becomes a process, times microseconds, and a trace id with a zero high half is
// written in 16 characters. Used to make Jaeger-shaped inputs from real recordings; never by src.

import { decodeTraceRequest, type DecodedDocument } from '../../src/otlp/json.js';
import type { AttrValue, Attributes } from '../../src/model/telemetry.js';

type JaegerTag = { key: string; type: string; value: unknown };

function plain(v: AttrValue): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function tag(key: string, v: AttrValue): JaegerTag {
  if (typeof v === 'string') return { key, type: 'string', value: v };
  if (typeof v === 'boolean') return { key, type: 'bool', value: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { key, type: 'int64', value: v } : { key, type: 'float64', value: v };
  if (v instanceof Uint8Array) return { key, type: 'binary', value: Buffer.from(v).toString('base64') };
  if (v === null) return { key, type: 'string', value: '' };
  return { key, type: 'string', value: JSON.stringify(plain(v)) };
}

const tags = (a: Attributes): JaegerTag[] => Object.entries(a).map(([k, v]) => tag(k, v));
const KINDS = ['', 'internal', 'server', 'client', 'producer', 'consumer'];
const us = (ns: bigint): number => Number(ns / 1000n);
/** Jaeger's TraceID.String(): the high half is left out when it is zero. */
const jaegerTraceId = (hex: string): string => (hex.startsWith('0000000000000000') ? hex.slice(16) : hex);

/** Converts an OTLP/JSON ExportTraceServiceRequest (object) into Jaeger's `{data: [...]}` JSON. */
export function otlpToJaeger(request: unknown): { data: unknown[]; total: number; limit: number; offset: number; errors: null } {
  const doc: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [] };
  decodeTraceRequest(request, doc, 'otlp');
  const byTrace = new Map<string, { spans: unknown[]; processes: Record<string, unknown>; processIds: Map<Attributes, string> }>();
  for (const { span: s, raw } of doc.spans) {
    let t = byTrace.get(s.traceId);
    if (!t) byTrace.set(s.traceId, (t = { spans: [], processes: {}, processIds: new Map() }));
    let pid = t.processIds.get(s.resource);
    if (!pid) {
      pid = `p${t.processIds.size + 1}`;
      t.processIds.set(s.resource, pid);
      const { 'service.name': service, ...rest } = s.resource;
      t.processes[pid] = { serviceName: typeof service === 'string' ? service : '', tags: tags(rest) };
    }
    const extra: JaegerTag[] = [];
    if (s.scope.name) extra.push({ key: 'otel.scope.name', type: 'string', value: s.scope.name });
    if (s.scope.version) extra.push({ key: 'otel.scope.version', type: 'string', value: s.scope.version });
    if (s.kind > 0 && KINDS[s.kind]) extra.push({ key: 'span.kind', type: 'string', value: KINDS[s.kind] });
    if (s.status.code === 1) extra.push({ key: 'otel.status_code', type: 'string', value: 'OK' });
    if (s.status.code === 2) extra.push({ key: 'otel.status_code', type: 'string', value: 'ERROR' }, { key: 'error', type: 'bool', value: true });
    if (s.status.message) extra.push({ key: 'otel.status_description', type: 'string', value: s.status.message });
    const traceState = (raw as { traceState?: unknown }).traceState;
    if (typeof traceState === 'string' && traceState !== '') extra.push({ key: 'w3c.tracestate', type: 'string', value: traceState });
    const links = Array.isArray(raw.links) ? (raw.links as { traceId: string; spanId: string }[]) : [];
    t.spans.push({
      traceID: jaegerTraceId(s.traceId),
      spanID: s.spanId,
      operationName: s.name,
      references: [
        ...(s.parentSpanId ? [{ refType: 'CHILD_OF', traceID: jaegerTraceId(s.traceId), spanID: s.parentSpanId }] : []),
        ...links.map((l) => ({ refType: 'FOLLOWS_FROM', traceID: jaegerTraceId(l.traceId), spanID: l.spanId })),
      ],
      startTime: us(s.startTimeUnixNano),
      duration: us(s.endTimeUnixNano - s.startTimeUnixNano),
      tags: [...tags(s.attributes), ...extra],
      logs: s.events.map((e) => ({ timestamp: us(e.timeUnixNano), fields: [{ key: 'event', type: 'string', value: e.name }, ...tags(e.attributes)] })),
      processID: pid,
      warnings: null,
      flags: 1,
    });
  }
  const data = [...byTrace.entries()].map(([id, t]) => ({ traceID: jaegerTraceId(id), spans: t.spans, processes: t.processes, warnings: null }));
  return { data, total: 0, limit: 0, offset: 0, errors: null };
}
