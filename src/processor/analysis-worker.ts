// The analysis worker of FootprintSpanProcessor's worker mode: a worker_threads entry that owns one
// FootprintCore, built from the plain FootprintOptions it was started with, and answers each
// `process` message with the core's ProcessResult (plus its stats), in the order they came.
// Must never touch an SDK object (it only ever sees plain data), never do I/O besides reading its
// own thread id once, and never let a throw from the core escape: it is answered as an `error`.

import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { FootprintCore } from '../runs/footprint.js';
import type { AnalysisWorkerData, FromWorker, ToWorker, ToWorkerItem } from './analysis-protocol.js';

/** This thread's OS id on Linux (`/proc/thread-self` -> `<pid>/task/<tid>`), else undefined. */
function osThreadId(): number | undefined {
  try {
    const m = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

const port = parentPort;
if (port) {
  const data = workerData as AnalysisWorkerData;
  const core = new FootprintCore(data.options);
  const send = (m: FromWorker) => port.postMessage(m);
  const handle = (m: ToWorkerItem): void => {
    switch (m.t) {
      case 'start':
        try {
          core.noteSpanStart(m.span);
        } catch {
          // a start that cannot be noted costs only the early conversation link
        }
        return;
      case 'process': {
        let result;
        try {
          result = core.process(m.input);
        } catch (e) {
          send({ t: 'error', id: m.id, message: (e as Error)?.message ?? String(e) });
          return;
        }
        send({ t: 'result', id: m.id, result, stats: core.stats() });
        return;
      }
      case 'reset':
        core.reset();
        return;
    }
  };
  port.on('message', (batch: ToWorker) => {
    for (const m of batch) handle(m);
  });
  send({ t: 'ready', tid: osThreadId() });
}
