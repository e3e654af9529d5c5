// The in-process deployment: a SpanProcessor that wraps the user's own (`next`), reads each ended
// agent span (with the log records joined to it) through FootprintCore, and hands `next` the span
// with its finding events added, as a read-only view, followed by any carrier spans.
// With `analysis: 'worker'` the core runs in a worker thread (src/processor/worker-analysis.ts) and
// spans wait, in the order they ended, until the worker has read them (bounded; past the bound they
// go on unanalysed and marked).
// Must never lose, duplicate or reorder a span on its way to `next`, never throw out of an SDK
// hook, never mutate an SDK span, and never do more than a cheap key test for ordinary spans.

import { diag, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Resource } from '@opentelemetry/resources';
import { FootprintCore, type CoreStats, type FootprintOptions, type ProcessInput, type ProcessResult, type Redaction } from '../runs/footprint.js';
import type { Declarations } from '../declarations/types.js';
import { loadDeclarationsFile } from '../declarations/load.js';
import { resolveLimits, type Limits } from '../limits.js';
import { ATTR_ANALYSIS_SKIPPED } from '../findings/names.js';
import { DEFAULT_EVALUATION_EVENTS, EVALUATION_EVENTS_VALUES, type EvaluationEvents } from '../findings/evaluation.js';
import type { Diagnostic } from '../model/diagnostics.js';
import { armedChecks, armedLine, checkTiers, tierLine } from '../declarations/armed.js';
import type { LogData, SpanData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import { annotate, fromSpanData, hrTimeToNanos, otlpKind, resourceAttributes, scopeOf, toSpanData } from './sdk-span.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
import { hasConversationKey, looksLikeAgentSpan } from './recognize.js';
import { linkFindingEvents } from '../explain/link.js';
import { tenantOfResource } from '../model/tenant.js';
import { PendingLogs, type PendingLogStats } from './log-buffer.js';
import { WorkerAnalysis, postedBytes, type WorkerAnalysisStats } from './worker-analysis.js';

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
  /**
   * Standard `gen_ai.evaluation.result` span events: `off`, `findings` (default: one per finding, on
   * its span) or `all` (also one `pass` / `not_run` per check per turn, on the turn's span).
   */
  evaluationEvents?: EvaluationEvents;
  /** Log records waiting for their span (shared with FootprintLogRecordProcessor; `footprint()` wires it). */
  pendingLogs?: PendingLogs;
  /** A core to use instead of a new FootprintCore (shared deployments, tests). Runs in-thread only. */
  core?: CoreLike;
  /**
   * Where the core runs. `in-thread` (default): inside onEnd, on the app's thread. `worker`: in one
   * worker thread; onEnd only copies the agent span and posts it, and spans reach `next` once it
   * is read, in the order they ended. Bounded by limits.maxAnalysisQueueSpans and
   * maxAnalysisQueueBytes: past them an agent span goes on unanalysed, carrying
   * `footprint.analysis.skipped`. If the worker cannot start (an injected `core`, no build beside
   * this file) or dies, a diag warning says so once and the core runs in-thread from then on.
   */
  analysis?: 'in-thread' | 'worker';
  /**
   * Where people open the "Explain this answer" page (a footprint-otel service that receives these
   * traces): each finding event gets `footprint.explain.url`; with `linkSecret` (the service's
   * FOOTPRINT_LINK_SECRET, at least 16 characters) a signed link valid `linkTtlMinutes` (default 60)
   * and `footprint.explain.link`. Default: none written.
   */
  explain?: { publicUrl: string; linkSecret?: string; linkTtlMinutes?: number };
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
  /** Where the core runs now (`worker` falls back to `in-thread` when the worker cannot run). */
  analysis: 'in-thread' | 'worker';
  /** Worker mode: what is held and what went on unanalysed. */
  worker?: WorkerAnalysisStats;
}

/** A value that is not one of off, findings, all: the default, with a diag warning (never a throw). */
function validEvaluationEvents(v: EvaluationEvents): EvaluationEvents {
  if ((EVALUATION_EVENTS_VALUES as readonly string[]).includes(v)) return v;
  diag.warn(`footprint-otel: evaluationEvents "${String(v)}" is not one of ${EVALUATION_EVENTS_VALUES.join(', ')}; using "${DEFAULT_EVALUATION_EVENTS}"`);
  return DEFAULT_EVALUATION_EVENTS;
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
  /** The in-thread core: built when first needed (worker mode builds it only on fallback). */
  private coreInstance: CoreLike | undefined;
  /** Worker mode while its worker runs. */
  private worker: WorkerAnalysis | undefined;
  /** The last worker's counters, kept after it stopped. */
  private workerStats: WorkerAnalysisStats | undefined;
  readonly pendingLogs: PendingLogs;
  private readonly diagnostics = new DiagReporter();
  private lastResource: Resource | undefined;
  /** Traces that held agent spans and whose local root has not ended yet. */
  private readonly agentTraces = new Set<string>();
  private readonly counters = { ended: 0, agentSpans: 0, annotated: 0, carriers: 0, errors: 0 };
  /** Where finding events link to (options.explain), checked once. */
  private readonly explain?: { publicUrl: string; secret?: string; ttlSeconds: number };
  /**
   * Whether onStart looks for a conversation id: decided once, at construction. True unless an
   * injected core has no noteSpanStart (the worker, and the FootprintCore it falls back to, have it).
   */
  private readonly notesStarts: boolean;
  /**
   * The SDK's experimental onEnding hook, present only when `next` has one (decided at
   * construction): the SDK calls a processor's onEnding for every span when it is there, so an
   * ordinary span pays nothing for a `next` that does not use it.
   */
  declare readonly onEnding?: (span: Span) => void;

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
      ...(options.evaluationEvents !== undefined ? { evaluationEvents: validEvaluationEvents(options.evaluationEvents) } : {}),
      // The SDK ends each span once: nothing here is ever handed to the core twice.
      rememberSpans: false,
    };
    this.injectedCore = options.core;
    const ex = options.explain;
    if (ex && /^https?:\/\/\S+$/.test(ex.publicUrl) && (ex.linkSecret === undefined || ex.linkSecret.length >= 16)) {
      this.explain = { publicUrl: ex.publicUrl.replace(/\/+$/, ''), ...(ex.linkSecret ? { secret: ex.linkSecret } : {}), ttlSeconds: Math.max(1, ex.linkTtlMinutes ?? 60) * 60 };
    } else if (ex) diag.warn('footprint-otel: explain.publicUrl must be an http(s) URL and explain.linkSecret at least 16 characters; no footprint.explain.url is written');
    this.notesStarts = options.core === undefined || typeof options.core.noteSpanStart === 'function';
    if (typeof (options.next as SpanProcessor & { onEnding?: unknown }).onEnding === 'function') {
      this.onEnding = (span: Span) => this.forwardEnding(span);
    }
    this.pendingLogs = options.pendingLogs ?? new PendingLogs({ limits });
    if (options.analysis === 'worker') this.startWorker();
    else if (options.analysis !== undefined && options.analysis !== 'in-thread') diag.warn(`footprint-otel: analysis "${String(options.analysis)}" is not one of in-thread, worker; running in-thread`);
    this.coreInstance = options.core ?? (this.worker ? undefined : new FootprintCore(this.coreOptions));
    // Said once at start, like serve does: which checks run, and by what.
    if (this.coreOptions.checks !== false) {
      diag.info(`footprint-otel: checks ${armedLine(armedChecks(this.coreOptions.declarations), 'declarations')}`);
      diag.info(`footprint-otel: ${tierLine(checkTiers(this.coreOptions.declarations))}`);
    }
  }

  private get core(): CoreLike {
    return (this.coreInstance ??= new FootprintCore(this.coreOptions));
  }

  private startWorker(): void {
    if (this.injectedCore) {
      diag.warn('footprint-otel: analysis "worker" cannot carry an injected core to a worker thread; running in-thread');
      return;
    }
    const w = WorkerAnalysis.start(this.coreOptions, this.coreOptions.limits as Limits, {
      apply: (span, result) => this.applyResult(span, result),
      onError: (span, message) => {
        this.counters.errors++;
        diag.warn(`footprint-otel: reading span "${String(span?.name ?? 'late log records').slice(0, 80)}" failed in the analysis worker; it passes on unannotated: ${message}`);
      },
      onFailed: (reason) => {
        diag.warn(`footprint-otel: ${reason}; what it held went on unanalysed (${ATTR_ANALYSIS_SKIPPED}) and analysis runs in-thread from now on`);
        this.stopWorker();
      },
      forward: (span) => this.forward(span),
    });
    if (typeof w === 'string') {
      diag.warn(`footprint-otel: analysis "worker" is not available: ${w}; running in-thread`);
      return;
    }
    this.worker = w;
  }

  /** Forgets the worker (keeping its counters): from now on the core runs in-thread. */
  private stopWorker(): void {
    if (!this.worker) return;
    this.workerStats = this.worker.stats();
    if (this.worker.coreStats) this.lastWorkerCore = this.worker.coreStats;
    this.worker = undefined;
  }

  private lastWorkerCore: CoreStats | undefined;

  onStart(span: Span, parentContext: Context): void {
    // A turn span usually carries the conversation id from its start, but ends after its children:
    // tell the core now, so the chat spans that end first are already in their conversation.
    // Kept small (the rare paths are methods of their own): V8 inlines this hook into the SDK's
    // span constructor, and every byte here is inlining budget the SDK's own code no longer gets.
    if (this.notesStarts) {
      try {
        const attrs = (span as unknown as ReadableSpan).attributes;
        if (attrs && hasConversationKey(attrs)) this.noteConversationStart(span as unknown as ReadableSpan, attrs);
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

  /** Hands the core (or the worker) the span's first non-empty conversation id, as it starts. */
  private noteConversationStart(span: ReadableSpan, attrs: ReadableSpan['attributes']): void {
    for (let i = 0; i < CONVERSATION_ID_KEYS.length; i++) {
      const k = CONVERSATION_ID_KEYS[i]!;
      const v = attrs[k];
      if (typeof v === 'string' && v !== '') {
        const started = startedSpanData(span, k, v);
        if (this.worker) this.worker.noteStart(started);
        else this.core.noteSpanStart?.(started);
        return;
      }
    }
  }

  /** Forwards `next.onEnding` (the SDK's experimental hook), if `next` has one; see the constructor. */
  private forwardEnding(span: Span): void {
    try {
      (this.next as SpanProcessor & { onEnding(s: Span): void }).onEnding(span);
    } catch (e) {
      this.warn('next.onEnding threw', e);
    }
  }

  onEnd(span: ReadableSpan): void {
    this.counters.ended++;
    // The O(1) early exit: ordinary spans go straight on. The one exception is the root of a trace
    // that held agent spans (the disposition's fallback home when the app wrote no invoke_agent).
    // Kept small like onStart: the agent path is a method of its own.
    if (looksLikeAgentSpan(span.attributes, span.instrumentationScope?.name) || this.isRootOfAgentTrace(span)) {
      this.endAgentSpan(span);
      return;
    }
    if (this.pendingLogs.size !== 0) this.discardLogs(span);
    if (this.worker?.busy) this.worker.hold(span);
    else this.forward(span);
  }

  /** An agent span (or the root of an agent trace): read, annotated, forwarded with its carriers. */
  private endAgentSpan(span: ReadableSpan): void {
    if (this.worker) {
      this.submitToWorker(this.worker, span);
      return;
    }
    let out: ReadableSpan = span;
    let carriers: ReadableSpan[] = [];
    try {
      const result = this.core.process(this.inputOf(span));
      const r = this.applyResult(span, result);
      out = r.out ?? span;
      carriers = r.carriers;
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
    await this.drainWorker();
    await this.next.forceFlush();
  }

  async shutdown(): Promise<void> {
    this.flushLate();
    await this.drainWorker();
    const w = this.worker;
    if (w) {
      this.stopWorker();
      await w.terminate();
      this.workerStats = w.stats();
    }
    this.dropState();
    await this.next.shutdown();
  }

  stats(): SpanProcessorStats {
    const s: SpanProcessorStats = { ...this.counters, pendingLogs: this.pendingLogs.stats(), analysis: this.worker ? 'worker' : 'in-thread' };
    const core = this.worker ? this.worker.coreStats : (this.coreInstance?.stats?.() ?? this.lastWorkerCore);
    if (core) s.core = core;
    const ws = this.worker?.stats() ?? this.workerStats;
    if (ws) s.worker = ws;
    return s;
  }

  /** Worker mode: copies the span (and its log records) and posts it, or forwards it marked when the analysis queue is full. */
  private submitToWorker(worker: WorkerAnalysis, span: ReadableSpan): void {
    try {
      const input = this.inputOf(span);
      const data = input.spans[0]!;
      const bytes = postedBytes(data, input.logs?.length ?? 0);
      if (worker.fits(bytes)) worker.submit(span, input, bytes);
      else worker.skip(span);
    } catch (e) {
      this.counters.errors++;
      this.warn(`reading span "${String(span.name).slice(0, 80)}" failed; it passes on unannotated`, e);
      if (worker.busy) worker.hold(span);
      else this.forward(span);
    }
  }

  private async drainWorker(): Promise<void> {
    if (!this.worker) return;
    try {
      await this.worker.drain(this.coreOptions.limits?.analysisFlushTimeoutMs ?? 30_000);
    } catch (e) {
      this.warn('waiting for the analysis worker failed', e);
    }
  }

  /** What one span's analysis adds: the span to forward (annotated or not) and its carrier spans. */
  private applyResult(span: ReadableSpan | undefined, result: ProcessResult): { out: ReadableSpan | undefined; carriers: ReadableSpan[] } {
    if (this.explain) this.linkFindings(span, result, this.explain);
    let out = span;
    if (span) {
      const ann = result.annotations.get(spanKey(span.spanContext()));
      if (ann) {
        out = annotate(span, ann.events, ann.attributes);
        if (out !== span) this.counters.annotated++;
      }
    }
    const resource = span?.resource ?? this.lastResource;
    const carriers = resource ? this.carrierSpans(result, resource) : [];
    for (const d of result.diagnostics) this.diagnostics.report(d);
    return { out, carriers };
  }

  /** footprint.explain.url (and a signed footprint.explain.link) on every finding event of the result. */
  private linkFindings(span: ReadableSpan | undefined, result: ProcessResult, ex: { publicUrl: string; secret?: string; ttlSeconds: number }): void {
    const resource = span?.resource ?? this.lastResource;
    const attr = this.coreOptions.tenantAttribute ?? 'service.name';
    const tenant = tenantOfResource(resource ? resourceAttributes(resource) : {}, attr);
    const signed = ex.secret ? { secret: ex.secret, expiresAt: Math.floor(Date.now() / 1000) + ex.ttlSeconds } : undefined;
    for (const [key, ann] of result.annotations) linkFindingEvents(ann.events, ex.publicUrl, key.split('/')[0]!, tenant, signed);
    for (const c of result.carriers) linkFindingEvents(c.events, ex.publicUrl, c.traceId, tenant, signed);
  }

  /** One agent span with its waiting log records (and any late ones), as the core reads it. */
  private inputOf(span: ReadableSpan): ProcessInput {
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
    return logs.length > 0 ? { spans: [data], logs } : { spans: [data] };
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
      if (this.worker) {
        this.worker.submit(undefined, { spans: [], logs: late }, late.length * 1024);
        return;
      }
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
    if (this.worker) this.worker.reset();
    else if (this.coreInstance?.reset) this.coreInstance.reset();
    else if (!this.injectedCore) this.coreInstance = undefined;
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
