// "Explain this answer" in the service: a bounded store of recent traces as they left the core
// (spans with the events it added, carriers, joined log records), a core wrapper that fills it
// and, when a public base URL is configured, writes `footprint.explain.url` on each finding
// event, and the routes GET /api/explain/{traceId} (JSON: account + shown map) and
// GET /explain/{traceId} (the page), tenant-scoped (`?tenant=`), behind the receiver's auth; a
// token bound to tenants (auth.tokens) sees only those tenants' traces.
// Bounded in traces, spans and logs per trace, bytes and idle time. Must never throw at the
// receiver or the pipeline, and never answer a trace of a tenant the request did not name when
// the trace holds more than one.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogData, SpanData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import type { ProcessInput, ProcessResult } from '../runs/options.js';
import type { Declarations } from '../declarations/types.js';
import type { Redaction } from '../model/finding.js';
import { EXPLAIN_LIMITS, DEFAULT_LIMITS } from '../limits.js';
import { annotatedSpans } from '../explain/annotate.js';
import { explainTrace } from '../explain/explain.js';
import { renderPage, pageHeaders } from '../explain/html.js';
import { escapeHtml } from '../explain/escape.js';
import { tenantOfSpan } from '../explain/record.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
import { ATTR_CARRIER_SUBJECT_SPAN_ID, ATTR_EXPLAIN_URL, ATTR_FINDING_ID, CARRIER_SPAN_NAME, EVENT_FINDING } from '../findings/names.js';
import type { CoreLike } from './pipeline.js';
import * as N from './names.js';
import { ownTenantLogs } from './tenant-scope.js';
import { retainedBytes } from '../runs/retained-bytes.js';

interface Kept {
  spans: SpanData[];
  logs: LogData[];
  conversation?: string;
  bytes: number;
  at: number;
  /** Spans or logs past the per-trace bounds were not kept. */
  cut: boolean;
}

/** Bytes a kept span or record holds: every value walked, no cap (issue 31; src/runs/retained-bytes.ts). */
const approxBytes = retainedBytes;

type ExplainLimits = Record<keyof typeof EXPLAIN_LIMITS, number>;

export interface ExplainStoreOptions {
  limits?: Partial<ExplainLimits>;
  now?: () => number;
}

export class ExplainStore {
  private readonly traces = new Map<string, Kept>();
  private bytes = 0;
  private readonly limits: ExplainLimits;
  private readonly now: () => number;

  constructor(o: ExplainStoreOptions = {}) {
    this.limits = { ...EXPLAIN_LIMITS, ...o.limits };
    this.now = o.now ?? Date.now;
  }

  get size(): number {
    return this.traces.size;
  }

  private kept(traceId: string): Kept {
    let k = this.traces.get(traceId);
    if (k) this.traces.delete(traceId); // most recently written last
    else k = { spans: [], logs: [], bytes: 0, at: 0, cut: false };
    k.at = this.now();
    this.traces.set(traceId, k);
    return k;
  }

  add(spans: readonly SpanData[], logs: readonly LogData[]): void {
    this.expire();
    for (const s of spans) {
      const k = this.kept(s.traceId);
      if (k.spans.length >= this.limits.maxSpansPerTrace) {
        k.cut = true;
        continue;
      }
      // A span seen again (a retried batch) replaces the earlier copy.
      const i = k.spans.findIndex((x) => x.spanId === s.spanId);
      const n = approxBytes(s);
      if (i >= 0) {
        const before = approxBytes(k.spans[i]);
        k.spans[i] = s;
        k.bytes += n - before;
        this.bytes += n - before;
      } else {
        k.spans.push(s);
        k.bytes += n;
        this.bytes += n;
      }
      if (!k.conversation) for (const key of CONVERSATION_ID_KEYS) if (typeof s.attributes[key] === 'string' && s.attributes[key] !== '') k.conversation = s.attributes[key] as string;
    }
    for (const l of logs) {
      if (!l.traceId) continue;
      const k = this.kept(l.traceId);
      if (k.logs.length >= this.limits.maxLogsPerTrace) {
        k.cut = true;
        continue;
      }
      const n = approxBytes(l);
      k.logs.push(l);
      k.bytes += n;
      this.bytes += n;
    }
    while ((this.traces.size > this.limits.maxTraces || this.bytes > this.limits.maxBytes) && this.traces.size > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const oldest = this.traces.keys().next().value;
    if (oldest === undefined) return;
    this.bytes -= this.traces.get(oldest)!.bytes;
    this.traces.delete(oldest);
  }

  private expire(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [id, k] of this.traces) {
      if (k.at >= cutoff) break;
      this.bytes -= k.bytes;
      this.traces.delete(id);
    }
  }

  /** The record of a trace: its spans and logs, plus those of kept traces of the same conversation. */
  record(traceId: string): { spans: SpanData[]; logs: LogData[]; cut: boolean } | undefined {
    this.expire();
    const k = this.traces.get(traceId);
    if (!k) return undefined;
    const spans = [...k.spans];
    const logs = [...k.logs];
    if (k.conversation) {
      for (const [id, other] of this.traces) {
        if (id === traceId || other.conversation !== k.conversation) continue;
        spans.push(...other.spans);
        logs.push(...other.logs);
      }
    }
    return { spans, logs, cut: k.cut };
  }
}

export interface ExplainServiceOptions {
  declarations?: Declarations;
  redaction: Redaction;
  tenantAttribute: string;
  /** Base URL people reach the service at; null: no footprint.explain.url is written. */
  publicUrl: string | null;
}

/** The URL of a finding's page (tenant named when it fits the attribute bound). */
export function explainUrl(base: string, traceId: string, tenant: string, findingId: string | undefined): string {
  const withTenant = `${base}${N.PATH_EXPLAIN_PAGE}${traceId}?tenant=${encodeURIComponent(tenant)}${findingId ? `#finding-${findingId}` : ''}`;
  return Buffer.byteLength(withTenant, 'utf8') <= DEFAULT_LIMITS.maxWrittenAttributeBytes ? withTenant : `${base}${N.PATH_EXPLAIN_PAGE}${traceId}${findingId ? `#finding-${findingId}` : ''}`;
}

/** A core that keeps what it returns for the explain routes, and links each finding to its page. */
export function explainingCore(core: CoreLike, store: ExplainStore, o: ExplainServiceOptions): CoreLike {
  return {
    stats: () => core.stats(),
    process(input: ProcessInput): ProcessResult {
      const result = core.process(input);
      try {
        if (o.publicUrl) addExplainUrls(input, result, o);
        const foreign = new Set(result.foreignLogs ?? []);
        store.add(annotatedSpans(input.spans, result), foreign.size ? (input.logs ?? []).filter((l) => !foreign.has(l)) : input.logs ?? []);
      } catch {
        // Explaining is secondary: a failure here never costs the batch its analysis.
      }
      return result;
    },
  };
}

function addExplainUrls(input: ProcessInput, result: ProcessResult, o: ExplainServiceOptions): void {
  const byKey = new Map(input.spans.map((s) => [spanKey(s), s]));
  const mark = (traceId: string, tenant: string, events: { name: string; attributes: Record<string, unknown> }[]) => {
    for (const e of events) {
      if (e.name !== EVENT_FINDING) continue;
      const id = typeof e.attributes[ATTR_FINDING_ID] === 'string' ? (e.attributes[ATTR_FINDING_ID] as string) : undefined;
      e.attributes[ATTR_EXPLAIN_URL] = explainUrl(o.publicUrl!, traceId, tenant, id);
    }
  };
  for (const [key, ann] of result.annotations) {
    const span = byKey.get(key);
    if (span) mark(span.traceId, tenantOfSpan(span, o.tenantAttribute), ann.events);
  }
  for (const c of result.carriers) {
    const subject = c.attributes[ATTR_CARRIER_SUBJECT_SPAN_ID];
    const of = typeof subject === 'string' ? byKey.get(spanKey({ traceId: c.traceId, spanId: subject })) : undefined;
    if (c.name === CARRIER_SPAN_NAME) mark(c.traceId, tenantOfSpan(of ?? c, o.tenantAttribute), c.events);
  }
}

function sendText(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.end(body);
}

/**
 * Answers GET /api/explain/{traceId} and GET /explain/{traceId}; returns false for any other path
 * (the receiver goes on). Call it after the receiver's auth check.
 */
export function handleExplain(req: IncomingMessage, res: ServerResponse, url: URL, store: ExplainStore, o: ExplainServiceOptions, allowed?: readonly string[]): boolean {
  const api = url.pathname.startsWith(N.PATH_EXPLAIN_API);
  const page = url.pathname.startsWith(N.PATH_EXPLAIN_PAGE);
  if (!api && !page) return false;
  req.resume();
  const json = (status: number, body: unknown) => sendText(res, status, { 'Content-Type': N.CONTENT_TYPE_JSON, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }, JSON.stringify(body));
  const fail = (status: number, message: string) =>
    api ? json(status, { code: status, message }) : sendText(res, status, pageHeaders(), renderPageMessage(message));
  if (req.method !== 'GET') {
    res.setHeader('Allow', 'GET');
    fail(405, `${url.pathname.slice(0, 100)} takes GET`);
    return true;
  }
  const traceId = url.pathname.slice(api ? N.PATH_EXPLAIN_API.length : N.PATH_EXPLAIN_PAGE.length).toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(traceId)) {
    fail(400, 'the trace id must be 32 hex characters');
    return true;
  }
  const record = store.record(traceId);
  if (!record) {
    fail(404, `trace ${traceId} is not held (the service keeps the last ${EXPLAIN_LIMITS.maxTraces} traces for ${EXPLAIN_LIMITS.idleMs / 60_000} minutes)`);
    return true;
  }
  // Only the tenants the token may see (undefined: every tenant); a trace with none of them is "not held".
  const tenants = [...new Set(record.spans.filter((s) => s.traceId === traceId && s.name !== CARRIER_SPAN_NAME).map((s) => tenantOfSpan(s, o.tenantAttribute)))].filter((t) => !allowed || allowed.includes(t));
  if (tenants.length === 0) {
    fail(404, `trace ${traceId} is not held (the service keeps the last ${EXPLAIN_LIMITS.maxTraces} traces for ${EXPLAIN_LIMITS.idleMs / 60_000} minutes)`);
    return true;
  }
  const asked = url.searchParams.get('tenant');
  let tenant: string;
  if (asked !== null) {
    if (!tenants.includes(asked)) {
      fail(404, `trace ${traceId} holds nothing of that tenant`);
      return true;
    }
    tenant = asked;
  } else if (tenants.length === 1) tenant = tenants[0]!;
  else {
    fail(400, `trace ${traceId} holds spans of ${tenants.length} tenants: name one with ?tenant=`);
    return true;
  }
  const e = explainTrace({ traceId, spans: record.spans, logs: ownTenantLogs(record.spans, record.logs, o.tenantAttribute) }, { ...(o.declarations ? { declarations: o.declarations } : {}), redaction: o.redaction, tenantAttribute: o.tenantAttribute, tenant });
  if (api) json(200, { ...e, ...(record.cut ? { incomplete: 'spans or log records past the per-trace bound were not kept' } : {}) });
  else sendText(res, 200, pageHeaders(), renderPage([e]));
  return true;
}

function renderPageMessage(message: string): string {
  return renderPage([]).replace('<p>No agent trace to explain.</p>', `<p>${escapeHtml(message)}</p>`);
}
