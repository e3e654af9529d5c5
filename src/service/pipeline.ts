// The service's one pipeline engine, shared by the HTTP and gRPC receivers: a bounded in-flight
// queue, the core (findings as events on the spans they concern, carrier spans for those that
// passed), the downstream export (or the embedded default), and the FINAL or retryable answer
// the receiver gives. A batch is acknowledged only once every part of it was accepted
// downstream, and what the downstream said is passed on: its partialSuccess merged into ours, its
// Retry-After as it was sent, a permanent refusal (400, 413, ...) as a final refusal, never as a
// retryable 503 (except 401/403/404, a downstream misconfiguration the operator can fix: those
// stay retryable, logged once and counted). A failed batch's analysis is kept in a small replay cache so the sender's retry
// re-exports the same annotated spans (the core writes each finding once, so re-analysing would
// lose it) and parts that did go through are not sent twice. Must never drop a span silently:
// every span not forwarded is counted with a reason and logged. Must never throw at a receiver.

import type { Diagnostic } from '../model/diagnostics.js';
import type { LogData, SpanData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import type { CoreStats, ProcessInput, ProcessResult } from '../runs/footprint.js';
import type { DecodedTraceSpan, PartialSuccess } from '../otlp/proto.js';
import { fitBytes } from '../findings/events.js';
import { evaluationRecords } from './evaluation-records.js';
import { tallyMessage, type DecodeTally } from '../otlp/decode-tally.js';
import type { TraceLayout } from '../otlp/trace-layout.js';
import type { Pieces } from '../otlp/forward-bytes.js';
import type { ServiceConfig } from './config.js';
import { onwardTracePayload } from './onward.js';
import { TimeSlice } from './time-slice.js';
import { encodeLogsBody } from './logs-body.js';
import { batchKey } from './batch-key.js';
import type { Downstream, ExportOutcome } from './downstream.js';
import type { FindingsStore } from './findings-store.js';
import { findingLine } from './findings-store.js';
import { tenantOfSpan } from '../explain/record.js';
import type { ServiceMetrics, Transport } from './metrics.js';
import * as N from './names.js';
import type { StateHook } from '../state/hook.js';
import { AdmissionBudget } from './admission.js';
import { traceChunks } from '../runs/trace-chunks.js';
import type { BatchStateHold, StateSettle } from '../state/sync.js';

/** What the service needs of a core (FootprintCore satisfies it). */
export interface CoreLike {
  process(input: ProcessInput): ProcessResult;
  stats(): CoreStats;
}

export type LogFn = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface TraceBatch {
  signal: 'traces';
  transport: Transport;
  spans: DecodedTraceSpan[];
  /** Spans the decoder could not use (counted into partial_success). */
  rejected: number;
  diagnostics: Diagnostic[];
  /** Uncompressed request body: its hash recognises a retry of the same batch. */
  body: Uint8Array;
  /** True once the sender has gone away (checked before a queued batch is processed). */
  abandoned?: () => boolean;
  /** What decoding normalised (said to the sender as a partialSuccess warning). */
  tally?: DecodeTally;
  /** Where each span sits in `body` (protobuf only): the onward export reuses the original bytes. */
  layout?: TraceLayout;
  /** What the batch holds once decoded (admission.ts decodedCost); default its body's length. */
  cost?: number;
}

export interface LogsBatch {
  signal: 'logs';
  transport: Transport;
  logs: LogData[];
  rejected: number;
  diagnostics: Diagnostic[];
  body: Uint8Array;
  contentType: string;
  abandoned?: () => boolean;
  tally?: DecodeTally;
  /** What the batch holds once decoded (admission.ts decodedCost); default its body's length. */
  cost?: number;
}

export type Batch = TraceBatch | LogsBatch;

export type BatchOutcome =
  | { status: 'ok'; partial?: PartialSuccess }
  | { status: 'busy'; retryAfterSeconds: number; message: string }
  | { status: 'unavailable'; retryAfterSeconds: number; message: string }
  /** Final: the batch can never be delivered as it is (the downstream refused it permanently). */
  | { status: 'refused'; httpStatus: number; message: string };

const RETRY_AFTER_BUSY_S = 1;
const RETRY_AFTER_DOWNSTREAM_S = 2;
const REPLAY_MAX_ENTRIES = 256;
/** Batches acknowledged recently, by content: a re-send whose 200 was lost is not exported twice. */
const ACKED_MAX_ENTRIES = 2048;
const ACKED_TTL_MS = 5 * 60 * 1000;
const REPLAY_TTL_MS = 10 * 60 * 1000;
const DIAGNOSTIC_LINES_PER_BATCH = 5;

interface Prepared {
  spansOut: { span: SpanData; extras?: DecodedTraceSpan['extras'] }[];
  evaluations: LogData[];
  findings: number;
  /** Parts already accepted downstream (a retry re-sends only the rest). */
  done: { traces: boolean; logs: boolean; evaluations: boolean };
  at: number;
  /** Request bytes this entry stands for (its share of limits.replayBytes). */
  bytes: number;
  /** The onward trace export, encoded once, as pieces (onward.ts); absent: spansOut is encoded by the downstream. */
  payload?: Pieces;
  /** Log records of this batch refused for the join: they name a span of another tenant. */
  foreignLogs: number;
  /** The shared state this batch read and wrote (with a state store); settled once its writes are stored or covered. */
  state?: { hold: BatchStateHold; settled: boolean };
}

export interface PipelineDeps {
  config: ServiceConfig;
  core: CoreLike;
  downstream: Downstream | null;
  store: FindingsStore;
  metrics: ServiceMetrics;
  log: LogFn;
  stdout: (line: string) => void;
  now?: () => number;
  /** The shared conversation-state store's per-batch hook (src/state/); absent with `state: memory`. */
  state?: StateHook;
}


export class Pipeline {
  private active = 0;
  /** Decoded cost (admission.ts) held by batches in flight or waiting. */
  private heldBytes = 0;
  /** The one budget of bodies being read and batches held, shared by the receivers. */
  readonly admission: AdmissionBudget;
  /** Batches are analysed one at a time (each trace by trace, yielding between): a turn is never analysed before an earlier batch's. */
  private analysing: Promise<void> = Promise.resolve();
  private replayBytes = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly replay = new Map<string, Prepared>();
  /** Batches being exported right now, by content: a concurrent duplicate waits for the first. */
  private readonly running = new Map<string, Promise<BatchOutcome>>();
  private readonly acked = new Map<string, { at: number; outcome: BatchOutcome }>();
  private readonly now: () => number;
  private closed = false;
  /** Downstream statuses 401/403/404 already logged (once each). */
  private readonly misconfiguredSaid = new Set<number>();

  constructor(private readonly d: PipelineDeps) {
    this.now = d.now ?? Date.now;
    this.admission = new AdmissionBudget(() => d.config.limits.queuedBytes, () => this.heldBytes);
  }

  /** True, or why a new body of decoded cost `cost` would be refused now (queue or byte budget). */
  admits(cost: number, what: string): true | string {
    const l = this.d.config.limits;
    if (this.full || this.admission.readers + this.inFlight >= l.inFlightBatches + l.queuedBatches) {
      return `queue full (${l.inFlightBatches} in flight, ${l.queuedBatches} waiting, ${this.admission.readers} being read); retry later`;
    }
    return this.admission.fits(cost, what);
  }

  get inFlight(): number {
    return this.active + this.waiting.length;
  }

  /** Inflated request bytes held by batches in flight or waiting (the receivers' admission reads it). */
  get bytesHeld(): number {
    return this.heldBytes;
  }

  /** True when a new batch would be refused for the queue bound (so a receiver can refuse before reading). */
  get full(): boolean {
    const { limits } = this.d.config;
    return this.active >= limits.inFlightBatches && this.waiting.length >= limits.queuedBatches;
  }

  /** Stops admitting batches; resolves once those in flight are answered (or the wait is up). */
  async drain(maxMs: number): Promise<void> {
    this.closed = true;
    const until = this.now() + maxMs;
    while (this.inFlight > 0 && this.now() < until) await new Promise((r) => setTimeout(r, 20));
  }

  async submit(batch: Batch): Promise<BatchOutcome> {
    const d = this.d;
    const { limits } = this.d.config;
    const m = this.d.metrics;
    const count = batch.signal === 'traces' ? batch.spans.length + batch.rejected : batch.logs.length + batch.rejected;
    if (batch.signal === 'traces') m.spansReceived.inc({ transport: batch.transport }, count);
    else m.logsReceived.inc({ transport: batch.transport }, count);
    if (this.closed) return this.refuse(batch, count, 'unavailable', 'the service is shutting down; retry against another instance');
    if (this.active >= limits.inFlightBatches && this.waiting.length >= limits.queuedBatches) {
      return this.refuse(batch, count, 'busy', `queue full (${limits.inFlightBatches} in flight, ${limits.queuedBatches} waiting); retry later`);
    }
    const size = batch.cost ?? batch.body.byteLength;
    // A batch bigger than the whole byte budget still runs when nothing else is held. (Bodies being
    // read were admitted against the same budget; this one's reservation ends once this returns.)
    if (this.heldBytes > 0 && this.heldBytes + size > limits.queuedBytes) {
      return this.refuse(batch, count, 'busy', `queue holds ${this.heldBytes} bytes of decoded batches (limits.queuedBytes ${limits.queuedBytes}); retry later`);
    }
    this.heldBytes += size;
    // A finishing batch hands its slot straight to the next waiter, so `active` never passes the bound.
    if (this.active >= limits.inFlightBatches) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    m.inFlight.set(this.inFlight);
    try {
      if (batch.abandoned?.()) {
        // The sender gave up while this waited: it will re-send; exporting now would only duplicate.
        m.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: 'abandoned' });
        d.log('warn', `${batch.signal} batch of ${count} dropped from the queue: its sender disconnected while it waited (the sender still holds it)`);
        return { status: 'unavailable', retryAfterSeconds: RETRY_AFTER_BUSY_S, message: 'sender disconnected' };
      }
      return await this.run(batch);
    } catch (e) {
      // A bug here must not lose the batch: the sender keeps it and retries.
      this.d.log('error', `batch failed inside the service (${(e as Error)?.message ?? String(e)}); answered 503`);
      return this.refuse(batch, count, 'unavailable', 'internal error; retry');
    } finally {
      this.heldBytes -= size;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
      m.inFlight.set(this.inFlight);
    }
  }

  private refuse(batch: Batch, count: number, status: 'busy' | 'unavailable', message: string): BatchOutcome {
    const m = this.d.metrics;
    const code = status === 'busy' ? '429' : '503';
    m.retryResponses.inc({ status: code });
    m.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: status });
    this.d.log('warn', `${batch.signal} batch of ${count} ${batch.signal === 'traces' ? 'spans' : 'log records'} not accepted (${code}): ${message}; the sender keeps it`);
    return { status, retryAfterSeconds: status === 'busy' ? RETRY_AFTER_BUSY_S : RETRY_AFTER_DOWNSTREAM_S, message };
  }

  private async run(batch: Batch): Promise<BatchOutcome> {
    const key = batchKey(batch);
    this.expireAcked();
    const acked = this.acked.get(key);
    if (acked) {
      this.d.metrics.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: 'duplicate' });
      return acked.outcome;
    }
    const same = this.running.get(key);
    if (same) {
      // A sender re-sent a batch whose first copy is still being exported (its own timeout was
      // shorter): answer with the first copy's outcome instead of exporting it twice.
      this.d.metrics.exportRetries.inc({ signal: batch.signal });
      return same;
    }
    const p = this.runOnce(batch, key);
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }

  private async runOnce(batch: Batch, key: string): Promise<BatchOutcome> {
    const { d } = this;
    const m = d.metrics;
    this.expireReplay();
    let prepared = this.replay.get(key);
    let settling: Promise<StateSettle> | undefined;
    if (prepared) {
      m.exportRetries.inc({ signal: batch.signal });
      if (prepared.state && !prepared.state.settled) settling = d.state!.retry(prepared.state.hold);
    } else {
      const p = await this.prepare(batch);
      prepared = p.prepared;
      settling = p.settling;
    }
    // Conversation state first: a batch is exported and acknowledged only once what it taught the
    // shared store is stored, or its absence is visible to every reader (src/state/sync.ts).
    if (settling) {
      const s = await settling;
      if (s === 'unstored') {
        this.remember(key, prepared);
        m.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: 'state-unstored' });
        m.retryResponses.inc({ status: '503' });
        const message = 'conversation state could not be stored in time (the state store is slow or not taking writes); retry';
        d.log('warn', `${batch.signal} batch not acknowledged (503, Retry-After ${RETRY_AFTER_BUSY_S}): ${message}; the sender keeps it`);
        return { status: 'unavailable', retryAfterSeconds: RETRY_AFTER_BUSY_S, message };
      }
      prepared.state!.settled = true;
    }

    const own = batch.signal === 'traces' ? batch.spans.length : batch.logs.length;
    const notes = batch.tally ? tallyMessage(batch.tally) : undefined;
    const foreign = prepared.foreignLogs > 0 ? foreignMessage(prepared.foreignLogs, d.config.tenantAttribute) : '';
    let partial: PartialSuccess | undefined = batch.rejected > 0 || notes || foreign ? { rejected: batch.rejected, errorMessage: [batch.rejected > 0 ? rejectMessage(batch) : '', foreign, notes ?? ''].filter(Boolean).join('; ') } : undefined;
    if (batch.rejected > 0) {
      if (batch.signal === 'traces') m.spansRejected.inc({ reason: 'invalid-span' }, batch.rejected);
      else m.logsRejected.inc({ reason: 'invalid-record' }, batch.rejected);
    }
    if (batch.tally?.deepValues) m.valuesNormalised.inc({ reason: 'nesting-cut' }, batch.tally.deepValues);
    if (batch.tally?.loneSurrogates) m.valuesNormalised.inc({ reason: 'lone-surrogate' }, batch.tally.loneSurrogates);

    const ds = d.downstream;
    if (!ds) {
      // Embedded default: analysed, findings printed and kept; nothing is exported, nothing refused.
      if (prepared.spansOut.length) m.spansForwarded.inc(prepared.spansOut.length);
      if (batch.signal === 'logs' && batch.logs.length) m.logsForwarded.inc(batch.logs.length);
      m.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: 'ok' });
      return partial ? { status: 'ok', partial } : { status: 'ok' };
    }

    /** Retryable failures (the batch stays with the sender), and the longest Retry-After asked for. */
    const failures: string[] = [];
    let retryAfter: number | undefined;
    /** A permanent refusal of the sender's own data: the final answer. */
    let refusal: { httpStatus: number; message: string } | undefined;
    /** Failures our own backlog caused, not the downstream (said apart). */
    let backlog = 0;
    const fail = (part: string, o: Extract<ExportOutcome, { ok: false }>, mine: boolean, what: () => void) => {
      m.exportFailures.inc({ signal: part === 'traces' ? 'traces' : 'logs', reason: o.status ? `http-${o.status}` : o.cause === 'backlog' ? 'backlog' : 'error' });
      if (o.cause === 'backlog') backlog++;
      // 401/403/404: a wrong downstream token or path, which the operator can fix. Dropping the
      // data for it would be worse than holding it: retryable, said once per status, counted.
      const misconfigured = !o.retryable && (o.status === 401 || o.status === 403 || o.status === 404);
      if (misconfigured) {
        m.downstreamMisconfigured.inc({ signal: part === 'traces' ? 'traces' : 'logs', status: String(o.status) });
        if (!this.misconfiguredSaid.has(o.status!)) {
          this.misconfiguredSaid.add(o.status!);
          d.log('error', `downstream answered ${o.status} (${o.reason}): check the downstream endpoint path and its token (downstream.headers / OTEL_EXPORTER_OTLP_HEADERS); batches are answered 503 and stay with their senders until it is fixed (said once per status; counted in ${N.M_DOWNSTREAM_MISCONFIGURED})`);
        }
      }
      if (o.retryable || misconfigured) {
        failures.push(o.reason);
        if (o.retryAfterSeconds !== undefined) retryAfter = Math.max(retryAfter ?? 0, o.retryAfterSeconds);
        return;
      }
      // Permanent: re-sending cannot help, so this part is done either way.
      what();
      if (mine) refusal ??= { httpStatus: o.status && o.status >= 400 && o.status < 500 ? o.status : 400, message: o.reason };
      else d.log('error', `${part} refused permanently by the downstream and dropped (the sender's own batch is unaffected): ${o.reason}`);
    };
    const accepted = (rejected: number | undefined, errorMessage: string | undefined, mine: number) => {
      if (!rejected) return;
      const r = Math.min(rejected, mine);
      if (r > 0) partial = mergePartial(partial, { rejected: r, errorMessage: `downstream rejected ${rejected}${errorMessage ? `: ${errorMessage}` : ''}` });
    };

    const tasks: Promise<void>[] = [];
    if (!prepared.done.traces) {
      const p = prepared;
      const mine = batch.signal === 'traces';
      tasks.push(
        (p.payload && ds.exportTraceBytes ? ds.exportTraceBytes(p.payload) : ds.exportSpans(p.spansOut)).then((o) => {
          if (o.ok) {
            p.done.traces = true;
            const rejected = Math.min(o.rejected ?? 0, p.spansOut.length);
            m.spansForwarded.inc(p.spansOut.length - rejected);
            if (rejected) m.spansRejected.inc({ reason: 'downstream-partial' }, rejected);
            if (mine) accepted(o.rejected, o.errorMessage, own);
          } else {
            fail('traces', o, mine, () => {
              p.done.traces = true;
              m.spansRejected.inc({ reason: 'downstream-refused' }, p.spansOut.length);
            });
          }
        }),
      );
    }
    if (batch.signal === 'logs' && !prepared.done.logs) {
      const p = prepared;
      if (!ds.hasLogs) {
        p.done.logs = true;
        if (batch.logs.length) {
          m.logsRejected.inc({ reason: 'no-logs-endpoint' }, batch.logs.length);
          d.log('warn', `${batch.logs.length} log records read for the join and not forwarded: no logs endpoint is configured`);
        }
      } else {
        tasks.push(
          ds.forwardLogs(batch.body, batch.contentType).then((o) => {
            if (o.ok) {
              p.done.logs = true;
              const rejected = Math.min(o.rejected ?? 0, batch.logs.length);
              m.logsForwarded.inc(batch.logs.length - rejected);
              if (rejected) m.logsRejected.inc({ reason: 'downstream-partial' }, rejected);
              accepted(o.rejected, o.errorMessage, own);
            } else {
              fail('logs', o, true, () => {
                p.done.logs = true;
                m.logsRejected.inc({ reason: 'downstream-refused' }, batch.logs.length);
              });
            }
          }),
        );
      }
    }
    if (!prepared.done.evaluations) {
      const p = prepared;
      if (!ds.hasLogs || p.evaluations.length === 0) p.done.evaluations = true;
      else {
        tasks.push(
          encodeLogsBody(p.evaluations, new TimeSlice()).then((body) => ds.forwardLogs(body, N.CONTENT_TYPE_PROTOBUF)).then((o) => {
            if (o.ok) {
              p.done.evaluations = true;
              m.evaluations.inc({ outcome: 'forwarded' }, p.evaluations.length);
            } else {
              fail('evaluation records', { ...o, reason: `evaluation records: ${o.reason}` }, false, () => {
                p.done.evaluations = true;
                m.evaluations.inc({ outcome: 'refused' }, p.evaluations.length);
              });
            }
          }),
        );
      }
    }
    await Promise.all(tasks);
    if (refusal) {
      // Final: the sender must not retry; what other parts could send went through.
      this.forget(key);
      m.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: 'refused' });
      const message = fitBytes(`the downstream refused this batch permanently (${refusal.message}); it will not be accepted as it is`, 1000);
      d.log('warn', `${batch.signal} batch of ${own} refused (${refusal.httpStatus}, final): ${refusal.message}`);
      const outcome: BatchOutcome = { status: 'refused', httpStatus: refusal.httpStatus, message };
      this.rememberAcked(key, outcome);
      return outcome;
    }
    if (failures.length) {
      this.remember(key, prepared);
      m.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: 'export-failed' });
      m.retryResponses.inc({ status: '503' });
      const message = backlog === failures.length ? `export not completed, this service is busy (not a downstream failure): ${failures.join('; ')}` : `downstream export failed: ${failures.join('; ')}`;
      const seconds = retryAfter ?? RETRY_AFTER_DOWNSTREAM_S;
      d.log('warn', `${batch.signal} batch not acknowledged (503, Retry-After ${seconds}): ${message}; the sender keeps it and retries`);
      return { status: 'unavailable', retryAfterSeconds: seconds, message: fitBytes(message, 1000) };
    }
    this.forget(key);
    m.batches.inc({ signal: batch.signal, transport: batch.transport, outcome: 'ok' });
    const outcome: BatchOutcome = partial ? { status: 'ok', partial } : { status: 'ok' };
    this.rememberAcked(key, outcome);
    return outcome;
  }

  /** A final answer, kept so a re-send of the same bytes gets it again without a second export. */
  private rememberAcked(key: string, outcome: BatchOutcome): void {
    this.acked.set(key, { at: this.now(), outcome });
    while (this.acked.size > ACKED_MAX_ENTRIES) {
      const oldest = this.acked.keys().next().value;
      if (oldest === undefined) break;
      this.acked.delete(oldest);
    }
  }

  /** Runs the core once per distinct batch and builds what is to be sent (and the state writes' settling, with a store). */
  private async prepare(batch: Batch): Promise<{ prepared: Prepared; settling?: Promise<StateSettle> }> {
    const { d } = this;
    const m = d.metrics;
    const cap = d.config.limits.spansPerBatch;
    const spans = batch.signal === 'traces' ? batch.spans : [];
    const analysed = spans.slice(0, cap);
    if (spans.length > cap) {
      m.spansUnanalysed.inc({ reason: 'spans-per-batch' }, spans.length - cap);
      d.log('warn', `batch of ${spans.length} spans is over limits.spansPerBatch (${cap}); the last ${spans.length - cap} are forwarded without analysis`);
    }
    const logs = batch.signal === 'logs' ? batch.logs : [];
    // Spans read lightly (decode.ts) are in traces no reader claims a span of: the core would pass them by.
    const input = { spans: analysed.filter((s) => !s.whole).map((s) => s.span), logs };
    // Shared conversation state: read before, written after, each wait bounded (src/state/sync.ts).
    const held = d.state ? await d.state.before(input) : undefined;
    const result = await this.analyse(input);
    // Marks the result's dispositions now; the writes settle while the rest is built.
    const settling = held ? d.state!.after(held, input, result) : undefined;
    this.logDiagnostics([...batch.diagnostics, ...result.diagnostics]);
    // Records naming another tenant's span: refused for the join (the core), counted here; those
    // of this batch are said in its answer. (Others waited since an earlier batch.)
    const foreignLogs = new Set(result.foreignLogs ?? []);
    if (foreignLogs.size) m.logsUnjoined.inc({ reason: 'span-of-another-tenant' }, foreignLogs.size);
    const ownForeign = foreignLogs.size ? logs.filter((l) => foreignLogs.has(l)).length : 0;

    // What follows is tens of milliseconds for a batch of thousands of annotated spans: it gives
    // the event loop a turn whenever its slice is spent, as the analysis does.
    const slice = new TimeSlice();
    const spansOut: Prepared['spansOut'] = [];
    for (const item of spans) {
      if (slice.due()) await slice.pause();
      const ann = result.annotations.get(spanKey(item.span));
      spansOut.push(
        ann ? { span: { ...item.span, attributes: { ...item.span.attributes, ...ann.attributes }, events: [...item.span.events, ...ann.events] }, extras: item.extras } : item,
      );
    }
    for (const c of result.carriers) spansOut.push({ span: c });
    if (result.carriers.length) m.carrierSpans.inc(result.carriers.length);

    const traces = new Map<string, number>();
    for (const s of spans) traces.set(s.span.traceId, (traces.get(s.span.traceId) ?? 0) + 1);
    const tenantOf = new Map(spans.map((s) => [spanKey(s.span), tenantOfSpan(s.span, d.config.tenantAttribute)]));
    const tenantsIn = new Map<string, Set<string>>();
    for (const s of spans) (tenantsIn.get(s.span.traceId) ?? tenantsIn.set(s.span.traceId, new Set()).get(s.span.traceId)!).add(tenantOf.get(spanKey(s.span))!);
    for (const [t, n] of traces) d.store.touch(t, n, 0, [...(tenantsIn.get(t) ?? [])]);
    if (batch.signal === 'logs') {
      const lt = new Map<string, number>();
      for (const l of logs) if (l.traceId && !foreignLogs.has(l)) lt.set(l.traceId, (lt.get(l.traceId) ?? 0) + 1);
      for (const [t, n] of lt) d.store.touch(t, 0, n);
    }
    for (const f of result.findings) {
      if (slice.due()) await slice.pause();
      m.findings.inc({ kind: f.kind, seam: f.seam });
      const view = d.store.add(f, f.tenant ?? tenantOf.get(spanKey(f.span)));
      if (!d.downstream && d.config.embedded.print) d.stdout(findingLine(view));
    }
    const evaluations = d.config.evaluations && d.downstream?.hasLogs ? evaluationRecords(result, spans, BigInt(this.now()) * 1_000_000n) : [];
    const layout = batch.signal === 'traces' ? batch.layout : undefined;
    const json = d.config.downstream?.protocol === 'http/json';
    // Unless the original bytes go on, a span read lightly is read whole for the encoder.
    const readWhole = () => {
      for (let i = 0; i < spansOut.length; i++) spansOut[i] = wholeOf(spansOut[i]!);
    };
    if (d.downstream && !(d.downstream.exportTraceBytes && layout && !json)) readWhole();
    const payload = d.downstream?.exportTraceBytes && spansOut.length
      ? await onwardTracePayload({ layout, spans, annotations: result.annotations, carriers: result.carriers, spansOut, json }, slice)
      : undefined;
    if (!payload && d.downstream) readWhole();
    const prepared: Prepared = { spansOut, evaluations, findings: result.findings.length, foreignLogs: ownForeign, done: { traces: spansOut.length === 0, logs: batch.signal !== 'logs', evaluations: evaluations.length === 0 }, at: this.now(), bytes: batch.body.byteLength, ...(payload ? { payload } : {}), ...(held ? { state: { hold: held, settled: false } } : {}) };
    return settling ? { prepared, settling } : { prepared };
  }

  /**
   * core.process over the input trace by trace (as the core itself splits it), giving the event
   * loop a turn every SERVICE_SLICE_MS (TimeSlice), so health probes and other requests are answered while a
   * large batch is analysed; one batch at a time, in the order they got here.
   */
  private async analyse(input: ProcessInput): Promise<ProcessResult> {
    const turn = this.analysing;
    let done!: () => void;
    this.analysing = new Promise<void>((r) => (done = r));
    await turn;
    try {
      const parts = traceChunks(input);
      if (parts.length <= 1) return this.d.core.process(input);
      const result: ProcessResult = { annotations: new Map(), carriers: [], findings: [], diagnostics: [] };
      const slice = new TimeSlice();
      for (const part of parts) {
        const r = this.d.core.process(part);
        for (const [key, ann] of r.annotations) {
          const before = result.annotations.get(key);
          if (!before) result.annotations.set(key, ann);
          else {
            before.events.push(...ann.events);
            Object.assign(before.attributes, ann.attributes);
          }
        }
        for (const c of r.carriers) result.carriers.push(c);
        for (const f of r.findings) result.findings.push(f);
        for (const dg of r.diagnostics) result.diagnostics.push(dg);
        if (r.foreignLogs) result.foreignLogs = [...(result.foreignLogs ?? []), ...r.foreignLogs];
        if (slice.due()) await slice.pause();
      }
      return result;
    } finally {
      done();
    }
  }

  private remember(key: string, p: Prepared): void {
    this.forget(key);
    this.replay.set(key, p);
    this.replayBytes += p.bytes;
    const maxBytes = this.d.config.limits.replayBytes;
    while (this.replay.size > REPLAY_MAX_ENTRIES || (this.replay.size > 1 && this.replayBytes > maxBytes) || (maxBytes === 0 && this.replay.size > 0)) {
      const oldest = this.replay.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
      this.d.log('warn', 'replay cache full: the oldest failed batch was forgotten; if re-sent it is analysed again');
    }
  }

  private forget(key: string): void {
    const p = this.replay.get(key);
    if (!p) return;
    this.replayBytes -= p.bytes;
    this.replay.delete(key);
  }

  private expireAcked(): void {
    const cutoff = this.now() - ACKED_TTL_MS;
    for (const [k, v] of this.acked) {
      if (v.at >= cutoff) break;
      this.acked.delete(k);
    }
  }

  private expireReplay(): void {
    const cutoff = this.now() - REPLAY_TTL_MS;
    for (const [k, v] of this.replay) {
      if (v.at >= cutoff) break;
      this.forget(k);
    }
  }

  private logDiagnostics(list: Diagnostic[]): void {
    let shown = 0;
    for (const dg of list) {
      if (dg.level === 'info') continue;
      if (shown++ >= DIAGNOSTIC_LINES_PER_BATCH) break;
      this.d.log(dg.level, `${dg.code}: ${dg.message}`);
    }
    const rest = list.filter((x) => x.level !== 'info').length - DIAGNOSTIC_LINES_PER_BATCH;
    if (rest > 0) this.d.log('warn', `${rest} more diagnostics in this batch not shown`);
  }
}

function wholeOf(item: Prepared['spansOut'][number]): Prepared['spansOut'][number] {
  const whole = (item as DecodedTraceSpan).whole;
  if (!whole) return item;
  const w = whole();
  return { span: w.span, extras: w.extras };
}

function mergePartial(a: PartialSuccess | undefined, b: PartialSuccess): PartialSuccess {
  if (!a) return b;
  const msg = [a.errorMessage, b.errorMessage].filter(Boolean).join('; ');
  return { rejected: a.rejected + b.rejected, ...(msg ? { errorMessage: fitBytes(msg, 1000) } : {}) };
}

function foreignMessage(n: number, tenantAttribute: string): string {
  return `${n} log record${n === 1 ? ' names' : 's name'} a span of another tenant (resource attribute ${tenantAttribute}): not joined to it (forwarded unchanged)`;
}

function rejectMessage(batch: Batch): string {
  const what = batch.signal === 'traces' ? 'spans' : 'log records';
  const first = batch.diagnostics.find((x) => x.level !== 'info')?.message;
  return fitBytes(`${batch.rejected} ${what} rejected (unusable trace or span id, or not an OTLP ${batch.signal === 'traces' ? 'span' : 'log record'})${first ? `: ${first}` : ''}`, 1000);
}
