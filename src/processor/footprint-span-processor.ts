// The in-process deployment: a SpanProcessor that wraps the user's own (`next`), reads each ended
// agent span (with the log records joined to it) through FootprintCore, and hands `next` the span
// with its finding events added, as a read-only view, followed by any carrier spans.
// Must never lose, duplicate or reorder a span on its way to `next`, never throw out of an SDK
// hook, never mutate an SDK span, and never do more than a cheap key test for ordinary spans.

import { diag, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Resource } from '@opentelemetry/resources';
import { FootprintCore, type CoreStats, type FootprintOptions, type ProcessInput, type ProcessResult, type Redaction } from '../runs/footprint.js';
import type { Declarations } from '../declarations/types.js';
import { loadDeclarationsFile } from '../declarations/load.js';
import { resolveLimits, type Limits } from '../limits.js';
import type { Diagnostic } from '../model/diagnostics.js';
import type { LogData, SpanData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import { annotate, fromSpanData, hrTimeToNanos, otlpKind, resourceAttributes, scopeOf, toSpanData } from './sdk-span.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
import { hasAnyKey, looksLikeAgentSpan } from './recognize.js';

const CONVERSATION_KEY_SET: ReadonlySet<string> = new Set(CONVERSATION_ID_KEYS);
import { PendingLogs, type PendingLogStats } from './log-buffer.js';

const MAX_AGENT_TRACES = 10_000;

/** The little the core needs of a span that has just started: ids, name, the conversation key. */
function startedSpanData(span: ReadableSpan, key: string, value: string): SpanData {
  const ctx = span.spanContext();
  const out: SpanData = {
    traceId: ctx.traceId,
    spanId: ctx.spanId,
    name: span.name,
    kind: otlpKind(span.kind),
    startTimeUnixNano: hrTimeToNanos(span.startTime),
    endTimeUnixNano: 0n,
    attributes: { [key]: value },
    events: [],
    status: { code: 0 },
    resource: resourceAttributes(span.resource),
    scope: scopeOf(span.instrumentationScope),
  };
  if (span.parentSpanContext?.spanId) out.parentSpanId = span.parentSpanContext.spanId;
  return out;
}

/** What the processor needs of a core: one call per ended agent span. */
export interface CoreLike {
  process(input: ProcessInput): ProcessResult;
  stats?(): CoreStats;
  /** Learns a trace's conversation id from a span as it starts (before its children end). */
  noteSpanStart?(span: SpanData): void;
  /** Drops all state. */
  reset?(): void;
}

export interface FootprintSpanProcessorOptions {
  /** Where every span goes on, annotated or not: usually a BatchSpanProcessor with an OTLP exporter. */
  next: SpanProcessor;
  /** Tool declarations, or the path of a YAML/JSON declarations file (read once, at construction). Default: none. */
  declarations?: Declarations | string;
  /** How finding values are written: `quote` (default), `hash` or `omit`. */
  redaction?: Redaction;
  /** Bounds; unset ones keep DEFAULT_LIMITS (src/limits.ts). */
  limits?: Partial<Limits>;
  /** Resource attribute naming the tenant. Default `service.name`. */
  tenantAttribute?: string;
  /** false: forward only, run no check. Default true. */
  checks?: boolean;
  /** Log records waiting for their span (shared with FootprintLogRecordProcessor; `footprint()` wires it). */
  pendingLogs?: PendingLogs;
  /** A core to use instead of a new FootprintCore (shared deployments, tests). */
  core?: CoreLike;
}

export interface SpanProcessorStats {
  /** Spans handed to onEnd. */
  ended: number;
  /** Spans that passed the recognition test and were read. */
  agentSpans: number;
  /** Spans that reached next with events or attributes added. */
  annotated: number;
  /** Carrier spans handed to next. */
  carriers: number;
  /** Times the core or the bridge threw; the span passed on unannotated. */
  errors: number;
  pendingLogs: PendingLogStats;
  core?: CoreStats;
}

function resolveDeclarations(d: Declarations | string | undefined): Declarations | undefined {
  if (typeof d !== 'string') return d;
  const r = loadDeclarationsFile(d);
  if (!r.ok) throw new Error(`footprint-otel: declarations not loaded: ${r.errors.join('; ')}`);
  return r.declarations;
}

/** Says each diagnostic code once as a warning (then at debug level), so bad telemetry cannot flood the log. */
class DiagReporter {
  private readonly seen = new Set<string>();
  report(d: Diagnostic): void {
    const line = `footprint-otel: ${d.code}: ${d.message}`;
    if (d.level === 'info' || this.seen.has(d.code)) {
      diag.debug(line);
      return;
    }
    if (this.seen.size < 512) this.seen.add(d.code);
    diag.warn(line);
  }
  clear(): void {
    this.seen.clear();
  }
}

export class FootprintSpanProcessor implements SpanProcessor {
  private readonly next: SpanProcessor;
  private readonly coreOptions: FootprintOptions;
  private readonly injectedCore: CoreLike | undefined;
  private core: CoreLike;
  readonly pendingLogs: PendingLogs;
  private readonly diagnostics = new DiagReporter();
  private lastResource: Resource | undefined;
  /** Traces that held agent spans and whose local root has not ended yet. */
  private readonly agentTraces = new Set<string>();
  private readonly counters = { ended: 0, agentSpans: 0, annotated: 0, carriers: 0, errors: 0 };

  constructor(options: FootprintSpanProcessorOptions) {
    if (!options || !options.next) throw new Error('footprint-otel: FootprintSpanProcessor needs { next: SpanProcessor }');
    this.next = options.next;
    const limits = resolveLimits(options.limits);
    this.coreOptions = {
      declarations: resolveDeclarations(options.declarations),
      limits,
      redaction: options.redaction ?? 'quote',
      tenantAttribute: options.tenantAttribute ?? 'service.name',
      checks: options.checks ?? true,
      // The SDK ends each span once: nothing here is ever handed to the core twice.
      rememberSpans: false,
    };
    this.injectedCore = options.core;
    this.core = options.core ?? new FootprintCore(this.coreOptions);
    this.pendingLogs = options.pendingLogs ?? new PendingLogs({ limits });
  }

  onStart(span: Span, parentContext: Context): void {
    // A turn span usually carries the conversation id from its start, but ends after its children:
    // tell the core now, so the chat spans that end first are already in their conversation.
    if (this.core.noteSpanStart) {
      try {
        const attrs = (span as unknown as ReadableSpan).attributes;
        if (attrs && hasAnyKey(attrs, CONVERSATION_KEY_SET)) {
          for (let i = 0; i < CONVERSATION_ID_KEYS.length; i++) {
            const k = CONVERSATION_ID_KEYS[i]!;
            const v = attrs[k];
            if (typeof v === 'string' && v !== '') {
              this.core.noteSpanStart(startedSpanData(span as unknown as ReadableSpan, k, v));
              break;
            }
          }
        }
      } catch (e) {
        this.warn('noting a span start failed', e);
      }
    }
    try {
      this.next.onStart(span, parentContext);
    } catch (e) {
      this.warn('next.onStart threw', e);
    }
  }

  /** Forwarded so a `next` that uses the (experimental) hook still sees it. */
  onEnding(span: Span): void {
    const n = this.next as SpanProcessor & { onEnding?: (s: Span) => void };
    if (typeof n.onEnding !== 'function') return;
    try {
      n.onEnding(span);
    } catch (e) {
      this.warn('next.onEnding threw', e);
    }
  }

  onEnd(span: ReadableSpan): void {
    this.counters.ended++;
    // The O(1) early exit: ordinary spans go straight on. The one exception is the root of a trace
    // that held agent spans (the disposition's fallback home when the app wrote no invoke_agent).
    if (!looksLikeAgentSpan(span.attributes, span.instrumentationScope?.name) && !this.isRootOfAgentTrace(span)) {
      if (this.pendingLogs.size !== 0) this.discardLogs(span);
      this.forward(span);
      return;
    }
    let out: ReadableSpan = span;
    let carriers: ReadableSpan[] = [];
    try {
      const result = this.read(span);
      if (result) {
        const ctx = span.spanContext();
        const ann = result.annotations.get(spanKey(ctx));
        if (ann) {
          out = annotate(span, ann.events, ann.attributes);
          if (out !== span) this.counters.annotated++;
        }
        carriers = this.carrierSpans(result, span.resource);
        for (const d of result.diagnostics) this.diagnostics.report(d);
      }
    } catch (e) {
      this.counters.errors++;
      out = span;
      carriers = [];
      this.warn(`reading span "${String(span.name).slice(0, 80)}" failed; it passes on unannotated`, e);
    }
    this.forward(out);
    for (const c of carriers) this.forward(c);
  }

  async forceFlush(): Promise<void> {
    this.flushLate();
    await this.next.forceFlush();
  }

  async shutdown(): Promise<void> {
    this.flushLate();
    this.dropState();
    await this.next.shutdown();
  }

  stats(): SpanProcessorStats {
    const s: SpanProcessorStats = { ...this.counters, pendingLogs: this.pendingLogs.stats() };
    const core = this.core.stats?.();
    if (core) s.core = core;
    return s;
  }

  /** Reads one agent span with its waiting log records (and any late ones) through the core. */
  private read(span: ReadableSpan): ProcessResult | undefined {
    const ctx = span.spanContext();
    // Also remembers the span as ended, so a record arriving after it counts as late.
    const taken = this.pendingLogs.take(ctx.traceId, ctx.spanId);
    const data = toSpanData(span);
    this.counters.agentSpans++;
    this.noteTrace(ctx.traceId, span);
    this.lastResource = span.resource;
    const late = this.pendingLogs.takeLate();
    let logs: LogData[] = taken.logs;
    if (late.length > 0) logs = logs.length > 0 ? [...late, ...logs] : late;
    if (taken.dropped > 0) {
      this.diagnostics.report({ level: 'warn', code: 'logs.over-bound', message: `${taken.dropped} log record(s) of span "${span.name.slice(0, 80)}" were past limits.maxLogsPerSpan and were not joined`, traceId: ctx.traceId, spanId: ctx.spanId });
    }
    return this.core.process(logs.length > 0 ? { spans: [data], logs } : { spans: [data] });
  }

  private carrierSpans(result: ProcessResult, resource: Resource): ReadableSpan[] {
    if (result.carriers.length === 0) return [];
    this.counters.carriers += result.carriers.length;
    return result.carriers.map((c) => fromSpanData(c, resource));
  }

  /** Late log records (their span already left) go to the core now; their findings leave as carriers. */
  private flushLate(): void {
    try {
      const late = this.pendingLogs.takeLate();
      if (late.length === 0 || !this.lastResource) return;
      const result = this.core.process({ spans: [], logs: late });
      for (const d of result.diagnostics) this.diagnostics.report(d);
      for (const c of this.carrierSpans(result, this.lastResource)) this.forward(c);
    } catch (e) {
      this.counters.errors++;
      this.warn('reading late log records failed', e);
    }
  }

  private isRootOfAgentTrace(span: ReadableSpan): boolean {
    if (this.agentTraces.size === 0) return false;
    const p = span.parentSpanContext;
    if (p && !p.isRemote) return false;
    return this.agentTraces.has(span.spanContext().traceId);
  }

  /** Remembers traces with agent spans until their local root ends (bounded, oldest dropped first). */
  private noteTrace(traceId: string, span: ReadableSpan): void {
    const p = span.parentSpanContext;
    if (!p || p.isRemote) {
      this.agentTraces.delete(traceId);
      return;
    }
    if (this.agentTraces.has(traceId)) return;
    if (this.agentTraces.size >= MAX_AGENT_TRACES) {
      const oldest = this.agentTraces.values().next();
      if (!oldest.done) this.agentTraces.delete(oldest.value);
    }
    this.agentTraces.add(traceId);
  }

  private discardLogs(span: ReadableSpan): void {
    try {
      const ctx = span.spanContext();
      this.pendingLogs.discard(ctx.traceId, ctx.spanId);
    } catch {
      // a span whose context cannot be read has nothing waiting
    }
  }

  private dropState(): void {
    this.pendingLogs.clear();
    this.diagnostics.clear();
    this.lastResource = undefined;
    this.agentTraces.clear();
    if (this.core.reset) this.core.reset();
    else if (!this.injectedCore) this.core = new FootprintCore(this.coreOptions);
  }

  private forward(span: ReadableSpan): void {
    try {
      this.next.onEnd(span);
    } catch (e) {
      this.warn('next.onEnd threw', e);
    }
  }

  private warn(what: string, e: unknown): void {
    diag.warn(`footprint-otel: ${what}: ${(e as Error)?.message ?? String(e)}`);
  }
}
