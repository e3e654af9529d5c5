// The messages between FootprintSpanProcessor's worker mode (the app thread) and its analysis
// worker (src/processor/analysis-worker.ts). Plain, structured-clone data only (Maps and BigInts
// cross a thread; functions and class instances do not). Types only; no behaviour.

import type { CoreStats, FootprintOptions, ProcessInput, ProcessResult } from '../runs/footprint.js';
import type { SpanData } from '../model/telemetry.js';

/** What the worker is started with (workerData). */
export interface AnalysisWorkerData {
  options: FootprintOptions;
}

/** What the app thread posts: every item since its last post, in order (one post per tick, not per span). */
export type ToWorker = ToWorkerItem[];

export type ToWorkerItem =
  /** A span that has just started with a conversation id (FootprintCore#noteSpanStart). */
  | { t: 'start'; span: SpanData }
  /** One ended agent span with its log records, or late log records alone. */
  | { t: 'process'; id: number; input: ProcessInput }
  /** Drop all state (FootprintCore#reset). */
  | { t: 'reset' };

/**
 * What the app thread does with a result: what to add to its spans, the carrier spans, the
 * diagnostics, the refused log records. The findings themselves stay in the worker (the app
 * thread reads them from the annotations); a result with none of these is no result at all.
 */
export type WorkerResult = Omit<ProcessResult, 'findings'>;

/** The answer to one `process` item. */
export type Answer =
  /** Nothing to add: the span goes on as it is (most spans of an agent trace). */
  | { id: number }
  | { id: number; result: WorkerResult }
  /** The core threw on this input; the span goes on unannotated, as in-thread. */
  | { id: number; error: string };

export type FromWorker =
  /** Sent once at start: the worker's OS thread id on Linux (for /proc/self/task/<tid>/stat), else undefined. */
  | { t: 'ready'; tid: number | undefined }
  /**
   * The answers to one posted batch, in its order, in one message (a message per span cost the
   * app thread a deserialization and an event each), with the core's stats once, after the batch.
   */
  | { t: 'answers'; answers: Answer[]; stats: CoreStats };
