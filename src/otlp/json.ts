// Reads OTLP/JSON documents: ExportTraceServiceRequest and ExportLogsServiceRequest as the
// collector's file exporter and the JS serializer write them, Tempo's API wrappers (`trace`,
// `batches`), and JSON-lines files mixing both. Bad items become diagnostics, the rest is kept.
// Must never throw on garbage input; it never interprets span content (conventions do).

import { z } from 'zod';
import type { Diagnostic } from '../model/diagnostics.js';
import type { Attributes, LogData, ScopeData, SpanData, SpanEventData, SpanLinkData, StatusCode } from '../model/telemetry.js';
import { decodeKeyValues, decodeAnyValue } from './anyvalue.js';
import type { DecodeTally } from './decode-tally.js';
import type { SpanExtras } from './proto.js';

/** A decoded span with the JSON object it came from, so a writer can add events in place. */
export interface DecodedSpan {
  span: SpanData;
  raw: Record<string, unknown>;
  /** The OTLP fields SpanData does not model (as the protobuf decoder keeps them), for re-encoding. */
  extras: SpanExtras;
}

export interface DecodedDocument {
  spans: DecodedSpan[];
  logs: LogData[];
  diagnostics: Diagnostic[];
  /** The parsed documents, in input order, for writing back out. */
  documents: unknown[];
  /** When given, what decoding normalised is counted here (values cut at MAX_VALUE_NESTING). */
  tally?: DecodeTally;
}

const looseObject = z.looseObject({});
const keyValues = z.array(z.unknown()).optional();

const SpanJson = z.looseObject({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional().nullable(),
  name: z.string().optional().default(''),
  kind: z.union([z.number(), z.string()]).optional(),
  startTimeUnixNano: z.union([z.string(), z.number()]).optional(),
  endTimeUnixNano: z.union([z.string(), z.number()]).optional(),
  attributes: keyValues,
  events: z.array(z.unknown()).optional(),
  links: z.array(z.unknown()).optional(),
  status: z.looseObject({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }).optional().nullable(),
  droppedAttributesCount: z.union([z.number(), z.string()]).optional().nullable(),
});

const LogJson = z.looseObject({
  traceId: z.string().optional(),
  spanId: z.string().optional(),
  eventName: z.string().optional(),
  timeUnixNano: z.union([z.string(), z.number()]).optional(),
  observedTimeUnixNano: z.union([z.string(), z.number()]).optional(),
  severityNumber: z.union([z.number(), z.string()]).optional(),
  body: z.unknown().optional(),
  attributes: keyValues,
});

const SPAN_KINDS: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODES: Record<string, StatusCode> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

/**
 * Normalises a trace or span id to lower-case hex. OTLP/JSON writes hex; some exports (Tempo's
 * API, protobuf-JSON mappings) write base64. Returns undefined for anything else.
 */
export function normaliseId(id: unknown, bytes: 8 | 16): string | undefined {
  if (typeof id !== 'string' || id.length === 0) return undefined;
  const hexLen = bytes * 2;
  let hex: string | undefined;
  if (id.length === hexLen && /^[0-9a-fA-F]+$/.test(id)) hex = id.toLowerCase();
  else {
    const b64Len = Math.ceil(bytes / 3) * 4;
    if (id.length === b64Len && /^[A-Za-z0-9+/_-]+=*$/.test(id)) {
      const buf = Buffer.from(id, 'base64');
      if (buf.length === bytes) hex = buf.toString('hex');
    }
  }
  // An all-zero id is invalid in OTLP (as the protobuf path also rules).
  return hex === undefined || /^0+$/.test(hex) ? undefined : hex;
}

function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  return 0n;
}

function scopeOf(v: unknown): ScopeData {
  const s = looseObject.safeParse(v);
  if (!s.success) return { name: '' };
  const name = typeof s.data.name === 'string' ? s.data.name : '';
  const version = typeof s.data.version === 'string' && s.data.version !== '' ? s.data.version : undefined;
  return version ? { name, version } : { name };
}

function resourceOf(v: unknown, tally?: DecodeTally): Attributes {
  if (!v || typeof v !== 'object') return {};
  return decodeKeyValues((v as { attributes?: unknown }).attributes, 0, tally);
}

/** A positive integer count (OTLP/JSON writes uint32 as a number, some writers as a string). */
function countOf(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 0xffffffff ? n : undefined;
}

function decodeEvents(list: unknown[] | undefined, extras: SpanExtras, tally?: DecodeTally): SpanEventData[] {
  if (!list) return [];
  const out: SpanEventData[] = [];
  const ex: NonNullable<SpanExtras['events']> = [];
  for (const e of list) {
    if (!e || typeof e !== 'object') continue;
    const o = e as Record<string, unknown>;
    out.push({
      name: typeof o.name === 'string' ? o.name : '',
      timeUnixNano: toBigInt(o.timeUnixNano),
      attributes: decodeKeyValues(o.attributes, 0, tally),
    });
    const d = countOf(o.droppedAttributesCount);
    ex.push(d ? { droppedAttributesCount: d } : {});
  }
  if (ex.some((x) => x.droppedAttributesCount)) extras.events = ex;
  return out;
}

function decodeLinks(list: unknown[] | undefined, extras: SpanExtras, tally?: DecodeTally): SpanLinkData[] {
  if (!list) return [];
  const out: SpanLinkData[] = [];
  const ex: NonNullable<SpanExtras['links']> = [];
  for (const l of list) {
    if (!l || typeof l !== 'object') continue;
    const o = l as Record<string, unknown>;
    const traceId = normaliseId(o.traceId, 16);
    const spanId = normaliseId(o.spanId, 8);
    // As the protobuf decoder: a link without a usable context is not a link.
    if (!traceId || !spanId) continue;
    out.push({ traceId, spanId, attributes: decodeKeyValues(o.attributes, 0, tally) });
    const flags = countOf(o.flags);
    const dropped = countOf(o.droppedAttributesCount);
    ex.push({
      ...(typeof o.traceState === 'string' && o.traceState ? { traceState: o.traceState } : {}),
      ...(flags ? { flags } : {}),
      ...(dropped ? { droppedAttributesCount: dropped } : {}),
    });
  }
  if (ex.some((x) => x.traceState || x.flags || x.droppedAttributesCount)) extras.links = ex;
  return out;
}

/** The span-level extras of one OTLP/JSON span (trace state, flags, dropped counts). */
function spanExtrasOf(raw: Record<string, unknown>): SpanExtras {
  const x: SpanExtras = {};
  if (typeof raw.traceState === 'string' && raw.traceState) x.traceState = raw.traceState;
  const flags = countOf(raw.flags);
  if (flags) x.flags = flags;
  for (const k of ['droppedAttributesCount', 'droppedEventsCount', 'droppedLinksCount'] as const) {
    const v = countOf(raw[k]);
    if (v) x[k] = v;
  }
  return x;
}

/** Resource- and scope-level fields every span of a ScopeSpans shares. */
interface SharedExtras {
  resourceSchemaUrl?: string;
  resourceDroppedAttributesCount?: number;
  scopeSchemaUrl?: string;
  scopeAttributes?: Attributes;
  scopeDroppedAttributesCount?: number;
}

/** Reads one ExportTraceServiceRequest-shaped object (also `{batches}` and `{trace: …}`). */
export function decodeTraceRequest(doc: unknown, out: DecodedDocument, where: string): void {
  drain(traceRequestSteps(doc, out, where));
}

/** decodeTraceRequest, awaiting `pause()` between spans when it returns a promise (the service's time slice). */
export function decodeTraceRequestAsync(doc: unknown, out: DecodedDocument, where: string, pause: () => Promise<void> | undefined): Promise<void> {
  return drainPausing(traceRequestSteps(doc, out, where), pause);
}

/** Runs a reader's steps to the end. */
function drain(steps: Generator<void>): void {
  for (let r = steps.next(); !r.done; r = steps.next()) {
    /* each step read one item */
  }
}

/** Runs a reader's steps to the end, awaiting `pause()` between them when it returns a promise. */
async function drainPausing(steps: Generator<void>, pause: () => Promise<void> | undefined): Promise<void> {
  for (let r = steps.next(); !r.done; r = steps.next()) {
    const p = pause();
    if (p) await p;
  }
}

/** Reads an ExportTraceServiceRequest-shaped object into `out`, one span a step. */
function* traceRequestSteps(doc: unknown, out: DecodedDocument, where: string): Generator<void> {
  const root = unwrap(doc);
  const resourceSpans = (root.resourceSpans ?? root.batches) as unknown;
  if (!Array.isArray(resourceSpans)) return;
  for (const rs of resourceSpans) {
    if (!rs || typeof rs !== 'object') continue;
    const rso = rs as Record<string, unknown>;
    const resource = resourceOf(rso.resource, out.tally);
    const resourceShared: SharedExtras = {};
    if (typeof rso.schemaUrl === 'string' && rso.schemaUrl) resourceShared.resourceSchemaUrl = rso.schemaUrl;
    const rd = countOf((rso.resource as { droppedAttributesCount?: unknown } | undefined)?.droppedAttributesCount);
    if (rd) resourceShared.resourceDroppedAttributesCount = rd;
    const scopes = (rso.scopeSpans ?? rso.instrumentationLibrarySpans) as unknown;
    if (!Array.isArray(scopes)) continue;
    for (const ss of scopes) {
      if (!ss || typeof ss !== 'object') continue;
      const sso = ss as Record<string, unknown>;
      const rawScope = sso.scope ?? sso.instrumentationLibrary;
      const scope = scopeOf(rawScope);
      const shared: SharedExtras = { ...resourceShared };
      if (typeof sso.schemaUrl === 'string' && sso.schemaUrl) shared.scopeSchemaUrl = sso.schemaUrl;
      if (rawScope && typeof rawScope === 'object') {
        const sa = decodeKeyValues((rawScope as { attributes?: unknown }).attributes, 0, out.tally);
        if (Object.keys(sa).length) shared.scopeAttributes = sa;
        const sd = countOf((rawScope as { droppedAttributesCount?: unknown }).droppedAttributesCount);
        if (sd) shared.scopeDroppedAttributesCount = sd;
      }
      const spans = sso.spans;
      if (spans !== undefined && spans !== null && !Array.isArray(spans)) {
        // Not silently dropped: whatever it holds cannot be read as spans.
        out.diagnostics.push({ level: 'warn', code: 'otlp.spans-not-array', message: `${where}: "spans" of a scopeSpans is ${typeof spans === 'object' ? 'an object' : `a ${typeof spans}`}, not an array; refused` });
        continue;
      }
      if (!Array.isArray(spans)) continue;
      for (const raw of spans) {
        const parsed = SpanJson.safeParse(raw);
        if (!parsed.success) {
          out.diagnostics.push({ level: 'warn', code: 'otlp.span-invalid', message: `${where}: a span is not an OTLP span (${firstIssue(parsed.error)}); skipped` });
          continue;
        }
        const s = parsed.data;
        const traceId = normaliseId(s.traceId, 16);
        const spanId = normaliseId(s.spanId, 8);
        if (!traceId || !spanId) {
          out.diagnostics.push({ level: 'warn', code: 'otlp.span-id-invalid', message: `${where}: span "${String(s.name).slice(0, 80)}" has an unusable trace or span id; skipped` });
          continue;
        }
        const parentSpanId = s.parentSpanId ? normaliseId(s.parentSpanId, 8) : undefined;
        const kind = typeof s.kind === 'number' ? s.kind : (SPAN_KINDS[String(s.kind)] ?? (Number(s.kind) || 0));
        const codeRaw = s.status?.code;
        const code: StatusCode = typeof codeRaw === 'number' ? ((codeRaw === 1 || codeRaw === 2 ? codeRaw : 0) as StatusCode) : (STATUS_CODES[String(codeRaw)] ?? 0);
        const span: SpanData = {
          traceId,
          spanId,
          ...(parentSpanId ? { parentSpanId } : {}),
          name: s.name,
          kind,
          startTimeUnixNano: toBigInt(s.startTimeUnixNano),
          endTimeUnixNano: toBigInt(s.endTimeUnixNano),
          attributes: decodeKeyValues(s.attributes, 0, out.tally),
          events: [],
          status: s.status?.message ? { code, message: s.status.message } : { code },
          resource,
          scope,
        };
        const extras: SpanExtras = { ...spanExtrasOf(raw as Record<string, unknown>), ...shared };
        span.events = decodeEvents(s.events, extras, out.tally);
        const links = decodeLinks(s.links, extras, out.tally);
        if (links.length) span.links = links;
        const dropped = Number(s.droppedAttributesCount ?? 0);
        if (Number.isFinite(dropped) && dropped > 0) span.droppedAttributesCount = dropped;
        out.spans.push({ span, raw: raw as Record<string, unknown>, extras });
        yield;
      }
    }
  }
}

/** Reads one ExportLogsServiceRequest-shaped object. */
export function decodeLogsRequest(doc: unknown, out: DecodedDocument, where: string): void {
  drain(logsRequestSteps(doc, out, where));
}

/** decodeLogsRequest, awaiting `pause()` between records when it returns a promise. */
export function decodeLogsRequestAsync(doc: unknown, out: DecodedDocument, where: string, pause: () => Promise<void> | undefined): Promise<void> {
  return drainPausing(logsRequestSteps(doc, out, where), pause);
}

/** Reads an ExportLogsServiceRequest-shaped object into `out`, one record a step. */
function* logsRequestSteps(doc: unknown, out: DecodedDocument, where: string): Generator<void> {
  const root = unwrap(doc);
  const resourceLogs = root.resourceLogs;
  if (!Array.isArray(resourceLogs)) return;
  for (const rl of resourceLogs) {
    if (!rl || typeof rl !== 'object') continue;
    const rlo = rl as Record<string, unknown>;
    const resource = resourceOf(rlo.resource, out.tally);
    const scopes = rlo.scopeLogs;
    if (!Array.isArray(scopes)) continue;
    for (const sl of scopes) {
      if (!sl || typeof sl !== 'object') continue;
      const slo = sl as Record<string, unknown>;
      const scope = scopeOf(slo.scope);
      const records = slo.logRecords;
      if (!Array.isArray(records)) continue;
      for (const raw of records) {
        const parsed = LogJson.safeParse(raw);
        if (!parsed.success) {
          out.diagnostics.push({ level: 'warn', code: 'otlp.log-invalid', message: `${where}: a log record is not an OTLP log record (${firstIssue(parsed.error)}); skipped` });
          continue;
        }
        const l = parsed.data;
        const traceId = normaliseId(l.traceId, 16);
        const spanId = normaliseId(l.spanId, 8);
        const time = toBigInt(l.timeUnixNano) || toBigInt(l.observedTimeUnixNano);
        const log: LogData = {
          ...(traceId ? { traceId } : {}),
          ...(spanId ? { spanId } : {}),
          ...(l.eventName ? { eventName: l.eventName } : {}),
          timeUnixNano: time,
          ...(l.severityNumber !== undefined ? { severityNumber: Number(l.severityNumber) || 0 } : {}),
          body: l.body === undefined ? undefined : decodeAnyValue(l.body, 0, out.tally),
          attributes: decodeKeyValues(l.attributes, 0, out.tally),
          resource,
          scope,
        };
        out.logs.push(log);
        yield;
      }
    }
  }
}

function unwrap(doc: unknown): Record<string, unknown> {
  if (!doc || typeof doc !== 'object') return {};
  const o = doc as Record<string, unknown>;
  if (o.trace && typeof o.trace === 'object' && !Array.isArray(o.trace)) return o.trace as Record<string, unknown>;
  return o;
}

function firstIssue(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join('.') || 'value'}: ${i.message}` : 'invalid';
}

/** True when a parsed document holds spans or logs in any shape this reader understands. */
function isKnownDocument(doc: unknown): boolean {
  const root = unwrap(doc);
  return Array.isArray(root.resourceSpans) || Array.isArray(root.batches) || Array.isArray(root.resourceLogs);
}

/**
 * Decodes the text of a file: one JSON document, or JSON lines (one document a line).
 * Returns diagnostics for every line or document it could not read.
 */
export function decodeOtlpJsonText(text: string, where: string, into?: DecodedDocument): DecodedDocument {
  const out: DecodedDocument = into ?? { spans: [], logs: [], diagnostics: [], documents: [] };
  for (const { doc, where: w } of parseJsonDocuments(text, where, out.diagnostics)) {
    if (!isKnownDocument(doc)) {
      out.diagnostics.push({ level: 'error', code: 'otlp.not-otlp', message: `${w}: not an OTLP/JSON trace or logs export (no resourceSpans, batches or resourceLogs)` });
      continue;
    }
    out.documents.push(doc);
    decodeTraceRequest(doc, out, w);
    decodeLogsRequest(doc, out, w);
  }
  return out;
}

function parsesAlone(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * "LINE:COLUMN: not JSON (…)" for a document JSON.parse refused, from the position in its message;
 * a document that simply stops (a truncated file) is said so, at its last line.
 */
export function wholeDocumentError(text: string, message: string): string {
  const lineCol = (offset: number) => {
    const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
    const line = before.split('\n').length;
    return `${line}:${offset - before.lastIndexOf('\n')}`;
  };
  // JSON.parse ran on the trimmed text: its positions are offsets past the leading whitespace.
  const lead = text.length - text.trimStart().length;
  const at = /position (\d+)/.exec(message);
  if (/Unexpected end of JSON input/.test(message) || (at && Number(at[1]) + lead >= text.trimEnd().length)) {
    return `${lineCol(text.trimEnd().length)}: not JSON: the file ends before the document does (truncated?)`;
  }
  return at ? `${lineCol(Number(at[1]) + lead)}: not JSON (${message})` : `1: not JSON (${message})`;
}

/** The JSON documents of a file's text: one document, or JSON lines; unreadable lines become diagnostics. */
export function parseJsonDocuments(text: string, where: string, diagnostics: Diagnostic[]): { doc: unknown; where: string }[] {
  const trimmed = text.trim();
  if (trimmed === '') {
    diagnostics.push({ level: 'error', code: 'otlp.empty', message: `${where}: the file is empty` });
    return [];
  }
  const docs: { doc: unknown; where: string }[] = [];
  try {
    docs.push({ doc: JSON.parse(trimmed), where });
  } catch (whole) {
    const lines = trimmed.split(/\r?\n/);
    // One document that does not parse (the first line alone is not JSON either): say where in the
    // file it broke, not "line 1" of a JSON-lines reading it never was.
    const first = lines.find((l) => l.trim() !== '') ?? '';
    if (lines.length === 1 || !parsesAlone(first)) {
      diagnostics.push({ level: 'error', code: 'otlp.json-invalid', message: `${where}:${wholeDocumentError(text, (whole as Error).message)}` });
      return docs;
    }
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        docs.push({ doc: JSON.parse(line), where: `${where}:${i + 1}` });
      } catch (e) {
        diagnostics.push({ level: 'error', code: 'otlp.json-invalid', message: `${where}:${i + 1}: not JSON (${(e as Error).message})` });
      }
    });
  }
  return docs;
}
