// The analysis worker of FootprintSpanProcessor's worker mode: a worker_threads entry that owns one
// FootprintCore, built from the plain FootprintOptions it was started with, and answers each
// posted batch with one message: each `process` item's ProcessResult, in order, plus its stats.
// Must never touch an SDK object (it only ever sees plain data), never do I/O besides reading its
// own thread id once, and never let a throw from the core escape: it is answered as an `error`.

import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { FootprintCore, type ProcessResult } from '../runs/footprint.js';
import { WORKER_ANSWERS_PER_MESSAGE } from '../limits.js';
import type { AnalysisWorkerData, Answer, FromWorker, ToWorker, ToWorkerItem } from './analysis-protocol.js';

/** This thread's OS id on Linux (`/proc/thread-self` -> `<pid>/task/<tid>`), else undefined. */
function osThreadId(): number | undefined {
  try {
    const m = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer the app thread needs: nothing for a result that adds nothing (the clone of an empty
 * result, its map and arrays, cost both threads more than the span's analysis on small spans),
 * else the result without its findings (the annotations carry them).
 */
function answerOf(id: number, r: ProcessResult): Answer {
  if (r.annotations.size === 0 && r.carriers.length === 0 && r.diagnostics.length === 0 && r.foreignLogs === undefined) return { id };
  return { id, result: { annotations: r.annotations, carriers: r.carriers, diagnostics: r.diagnostics, ...(r.foreignLogs ? { foreignLogs: r.foreignLogs } : {}) } };
}

const port = parentPort;
if (port) {
  const data = workerData as AnalysisWorkerData;
  const core = new FootprintCore(data.options);
  const send = (m: FromWorker) => port.postMessage(m);
  /** Handles one item; a `process` item's answer goes into `answers`. */
  const handle = (m: ToWorkerItem, answers: Answer[]): void => {
    switch (m.t) {
      case 'start':
        try {
          core.noteSpanStart(m.span);
        } catch {
          // a start that cannot be noted costs only the early conversation link
        }
        return;
      case 'process':
        try {
          answers.push(answerOf(m.id, core.process(m.input)));
        } catch (e) {
          answers.push({ id: m.id, error: (e as Error)?.message ?? String(e) });
        }
        return;
      case 'reset':
        core.reset();
        return;
    }
  };
  port.on('message', (batch: ToWorker) => {
    let answers: Answer[] = [];
    for (const m of batch) {
      handle(m, answers);
      // A long batch (a burst) is answered in parts, so its first spans go on before its last are read.
      if (answers.length === WORKER_ANSWERS_PER_MESSAGE) {
        send({ t: 'answers', answers, stats: core.stats() });
        answers = [];
      }
    }
    if (answers.length > 0) send({ t: 'answers', answers, stats: core.stats() });
  });
  send({ t: 'ready', tid: osThreadId() });
}
