// FootprintSpanProcessor's worker mode, app-thread side: one worker_threads Worker that owns the
// FootprintCore (src/processor/analysis-worker.ts), and the one FIFO that keeps every span that
// ended after the oldest span still in analysis, so spans reach `next` in the order they ended.
// Bounded (limits.maxAnalysisQueueSpans / maxAnalysisQueueBytes): past the bound an agent span goes
// on unanalysed with ATTR_ANALYSIS_SKIPPED saying why, and a worker that dies releases what it
// held the same way. Must never lose, duplicate or reorder a span, never throw out of a call made
// from an SDK hook, and never keep the process alive except while a flush waits for it.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { CoreStats, FootprintOptions, ProcessInput, ProcessResult } from '../runs/footprint.js';
import type { Limits } from '../limits.js';
import type { SpanData } from '../model/telemetry.js';
import { ANALYSIS_SKIPPED_QUEUE_FULL, ANALYSIS_SKIPPED_TIMED_OUT, ANALYSIS_SKIPPED_WORKER_FAILED, ATTR_ANALYSIS_SKIPPED } from '../findings/names.js';
import { annotate } from './sdk-span.js';
import type { AnalysisWorkerData, FromWorker, ToWorkerItem } from './analysis-protocol.js';

/** What the processor does with a reply: the span to forward (annotated or not) and its carriers. */
export interface WorkerHooks {
  /** Turns a result into what goes to `next` for this entry (span may be absent: late logs). */
  apply(span: ReadableSpan | undefined, result: ProcessResult): { out: ReadableSpan | undefined; carriers: ReadableSpan[] };
  /** The core threw in the worker: the span goes on unannotated (as in-thread). */
  onError(span: ReadableSpan | undefined, message: string): void;
  /** The worker died or could not start: said once; the processor falls back to in-thread. */
  onFailed(reason: string): void;
  forward(span: ReadableSpan): void;
}

export interface WorkerAnalysisStats {
  /** Spans held in order now (in analysis, or waiting behind one). */
  held: number;
  /** Agent spans in analysis now. */
  inAnalysis: number;
  /** Agent spans handed to the worker. */
  submitted: number;
  /** Agent spans forwarded unanalysed, by reason. */
  unanalysedQueueFull: number;
  unanalysedWorkerFailed: number;
  unanalysedTimedOut: number;
  /** The worker's OS thread id (Linux), for per-thread CPU from /proc/self/task/<tid>/stat. */
  workerThreadId?: number;
}

interface Held {
  span: ReadableSpan | undefined;
  done: boolean;
  out: ReadableSpan | undefined;
  carriers: ReadableSpan[];
  bytes: number;
  id: number;
}

/** Rough bytes of what is posted for one span: its string attribute values and its log records. */
export function postedBytes(data: SpanData, logCount: number): number {
  let n = 256 + logCount * 1024;
  const a = data.attributes;
  for (const k in a) {
    const v = a[k];
    n += k.length + (typeof v === 'string' ? v.length : 16);
  }
  return n;
}

/** The worker entry beside this file (dist/processor/analysis-worker.js); undefined when absent (e.g. run from src/). */
export function workerEntry(): URL | undefined {
  const url = new URL('./analysis-worker.js', import.meta.url);
  try {
    return existsSync(fileURLToPath(url)) ? url : undefined;
  } catch {
    return undefined;
  }
}

export class WorkerAnalysis {
  private worker: Worker | undefined;
  private readonly fifo: Held[] = [];
  private head = 0;
  private readonly inFlight = new Map<number, Held>();
  private inFlightBytes = 0;
  private nextId = 1;
  private failed = false;
  private drainWaiters: (() => void)[] = [];
  private readonly counters = { submitted: 0, unanalysedQueueFull: 0, unanalysedWorkerFailed: 0, unanalysedTimedOut: 0 };
  private tid: number | undefined;
  private outbox: ToWorkerItem[] = [];
  private flushQueued = false;
  /** The core's stats as of its latest reply. */
  coreStats: CoreStats | undefined;

  private constructor(
    private readonly limits: Limits,
    private readonly hooks: WorkerHooks,
  ) {}

  /** Starts the worker; undefined (with the reason) when it cannot start here. */
  static start(options: FootprintOptions, limits: Limits, hooks: WorkerHooks): WorkerAnalysis | string {
    const entry = workerEntry();
    if (!entry) return 'the worker entry (analysis-worker.js) is not beside the processor (run from a build: dist/)';
    const w = new WorkerAnalysis(limits, hooks);
    try {
      const data: AnalysisWorkerData = { options };
      w.worker = new Worker(entry, { workerData: data });
    } catch (e) {
      return `the worker did not start: ${(e as Error)?.message ?? String(e)}`;
    }
    w.worker.on('message', (m: FromWorker) => w.onMessage(m));
    w.worker.on('error', (e) => w.fail(`the analysis worker threw: ${e?.message ?? String(e)}`));
    w.worker.on('exit', (code) => w.fail(`the analysis worker exited (code ${code})`));
    // Like the BatchSpanProcessor's timer: spans not flushed at exit are the app's choice. (After
    // the listeners: adding a 'message' listener refs the worker again.)
    w.worker.unref();
    return w;
  }

  get alive(): boolean {
    return !this.failed;
  }

  /** Whether some span is held: an ordinary span that ends now must wait behind it. */
  get busy(): boolean {
    return this.head < this.fifo.length;
  }

  /** Whether one more agent span of `bytes` fits in analysis. */
  fits(bytes: number): boolean {
    return this.fifo.length - this.head < this.limits.maxAnalysisQueueSpans && this.inFlightBytes + bytes <= this.limits.maxAnalysisQueueBytes;
  }

  noteStart(span: SpanData): void {
    this.post({ t: 'start', span });
  }

  reset(): void {
    this.post({ t: 'reset' });
  }

  /** Hands an agent span (or, span undefined, late log records) to the worker; it goes on when answered. */
  submit(span: ReadableSpan | undefined, input: ProcessInput, bytes: number): void {
    const h: Held = { span, done: false, out: span, carriers: [], bytes, id: this.nextId++ };
    this.push(h);
    this.inFlight.set(h.id, h);
    this.inFlightBytes += bytes;
    this.counters.submitted++;
    if (!this.post({ t: 'process', id: h.id, input })) this.release(h, ANALYSIS_SKIPPED_WORKER_FAILED);
    this.bound();
  }

  /** An ordinary span that ended while others are held: it waits its turn. */
  hold(span: ReadableSpan): void {
    this.push({ span, done: true, out: span, carriers: [], bytes: 0, id: 0 });
    this.bound();
  }

  /** An agent span that does not fit: it goes on (in its turn) unanalysed, marked. */
  skip(span: ReadableSpan): void {
    this.counters.unanalysedQueueFull++;
    const out = marked(span, ANALYSIS_SKIPPED_QUEUE_FULL);
    if (!this.busy) {
      this.hooks.forward(out);
      return;
    }
    this.push({ span, done: true, out, carriers: [], bytes: 0, id: 0 });
    this.bound();
  }

  /** Resolves once nothing is held, or after `timeoutMs` with what is still in analysis released unanalysed. */
  async drain(timeoutMs: number): Promise<void> {
    this.flushOutbox();
    if (!this.busy) return;
    this.worker?.ref();
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve) => {
        this.drainWaiters.push(resolve);
        timer = setTimeout(() => {
          for (const h of [...this.inFlight.values()]) this.release(h, ANALYSIS_SKIPPED_TIMED_OUT);
          this.forwardReady();
          resolve();
        }, timeoutMs);
      });
    } finally {
      if (timer) clearTimeout(timer);
      if (!this.failed) this.worker?.unref();
    }
  }

  /** Stops the worker (after drain); what it still held goes on unanalysed. */
  async terminate(): Promise<void> {
    const w = this.worker;
    this.failWith(ANALYSIS_SKIPPED_WORKER_FAILED, undefined);
    if (w) {
      try {
        await w.terminate();
      } catch {
        // already gone
      }
    }
  }

  stats(): WorkerAnalysisStats {
    const s: WorkerAnalysisStats = { held: this.fifo.length - this.head, inAnalysis: this.inFlight.size, ...this.counters };
    if (this.tid !== undefined) s.workerThreadId = this.tid;
    return s;
  }

  private onMessage(m: FromWorker): void {
    if (m.t === 'ready') {
      this.tid = m.tid;
      return;
    }
    this.coreStats = m.stats;
    for (const a of m.answers) {
      try {
        const h = this.inFlight.get(a.id);
        if (!h) continue; // released already (bound, timeout): it went on unanalysed
        this.inFlight.delete(a.id);
        this.inFlightBytes -= h.bytes;
        h.done = true;
        if ('error' in a) {
          this.hooks.onError(h.span, a.error);
        } else if ('result' in a) {
          const r = this.hooks.apply(h.span, { ...a.result, findings: [] });
          h.out = r.out;
          h.carriers = r.carriers;
        }
        // No result: nothing to add; the span goes on as it is (h.out).
      } catch (e) {
        this.hooks.onError(undefined, (e as Error)?.message ?? String(e));
      }
    }
    this.forwardReady();
  }

  /** Queues one item for the worker; the items go in one post when the current task ends. */
  private post(m: ToWorkerItem): boolean {
    if (this.failed || !this.worker) return false;
    this.outbox.push(m);
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flushOutbox);
    }
    return true;
  }

  private readonly flushOutbox = (): void => {
    this.flushQueued = false;
    const items = this.outbox;
    if (items.length === 0) return;
    this.outbox = [];
    if (this.failed || !this.worker) {
      this.releaseItems(items);
      return;
    }
    try {
      this.worker.postMessage(items);
    } catch (e) {
      // Not cloneable (or the worker is going): these go on unanalysed; the worker is not trusted further.
      this.releaseItems(items);
      this.fail(`a message to the analysis worker failed: ${(e as Error)?.message ?? String(e)}`);
    }
  };

  private releaseItems(items: ToWorkerItem[]): void {
    for (const m of items) {
      if (m.t !== 'process') continue;
      const h = this.inFlight.get(m.id);
      if (h) this.release(h, ANALYSIS_SKIPPED_WORKER_FAILED);
    }
    this.forwardReady();
  }

  private push(h: Held): void {
    this.fifo.push(h);
  }

  /** Past twice the span bound (a stalled worker), the oldest in analysis go on unanalysed. */
  private bound(): void {
    const cap = 2 * this.limits.maxAnalysisQueueSpans;
    while (this.fifo.length - this.head > cap) {
      const h = this.fifo[this.head]!;
      if (!h.done) this.release(h, ANALYSIS_SKIPPED_QUEUE_FULL);
      this.forwardReady();
    }
  }

  /** Gives up on one span in analysis: it goes on (in its turn) marked with `reason`. */
  private release(h: Held, reason: string): void {
    if (h.done) return;
    if (this.inFlight.delete(h.id)) this.inFlightBytes -= h.bytes;
    h.done = true;
    h.carriers = [];
    h.out = h.span ? marked(h.span, reason) : undefined;
    if (h.span) {
      if (reason === ANALYSIS_SKIPPED_QUEUE_FULL) this.counters.unanalysedQueueFull++;
      else if (reason === ANALYSIS_SKIPPED_TIMED_OUT) this.counters.unanalysedTimedOut++;
      else this.counters.unanalysedWorkerFailed++;
    }
  }

  /** Forwards every finished span at the head of the FIFO, in order. */
  private forwardReady(): void {
    while (this.head < this.fifo.length) {
      const h = this.fifo[this.head]!;
      if (!h.done) break;
      this.fifo[this.head] = undefined as unknown as Held;
      this.head++;
      if (h.out) this.hooks.forward(h.out);
      for (const c of h.carriers) this.hooks.forward(c);
    }
    if (this.head === this.fifo.length) {
      this.fifo.length = 0;
      this.head = 0;
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    } else if (this.head > 1024 && this.head * 2 > this.fifo.length) {
      this.fifo.splice(0, this.head);
      this.head = 0;
    }
  }

  private fail(reason: string): void {
    if (this.failed) return;
    this.failWith(ANALYSIS_SKIPPED_WORKER_FAILED, reason);
  }

  /** Marks the worker gone: everything in analysis goes on unanalysed, in order. `reason` undefined: a planned stop. */
  private failWith(mark: string, reason: string | undefined): void {
    const first = !this.failed;
    this.failed = true;
    for (const h of [...this.inFlight.values()]) this.release(h, mark);
    this.forwardReady();
    this.worker = undefined;
    if (first && reason !== undefined) this.hooks.onFailed(reason);
  }
}

function marked(span: ReadableSpan, reason: string): ReadableSpan {
  return annotate(span, [], { [ATTR_ANALYSIS_SKIPPED]: reason });
}
