// The downstream export's timeout, on a clock that measures the downstream, not this process's
// event loop (issue 31): it advances at most two ticks per tick, so time the thread spent busy
// (decoding or analysing other batches) is not counted against the downstream; and when it runs
// out, the verdict waits one turn of the event loop (setImmediate runs after the poll phase), so an
// answer that arrived while the thread was busy is read first and wins. It tells how long the
// thread was busy meanwhile, so a timeout our own backlog caused is said as such.
// Must never keep the process alive (unref'd) and never fire after clear().

import { performance } from 'node:perf_hooks';

/** Tick of the clock, in ms (at most). */
const TICK_MS = 100;

export interface DownstreamTimer {
  clear(): void;
}

/** Calls `fire(busyMs)` once `ms` of downstream time has passed without clear(); `busyMs`: wall time not counted (the thread was busy). */
export function downstreamTimer(ms: number, fire: (busyMs: number) => void): DownstreamTimer {
  const tick = Math.max(1, Math.min(TICK_MS, ms));
  let counted = 0;
  let busy = 0;
  let last = performance.now();
  let cleared = false;
  const h = setInterval(() => {
    const t = performance.now();
    const d = t - last;
    last = t;
    const step = Math.min(d, tick * 2);
    counted += step;
    busy += d - step;
    if (counted < ms) return;
    clearInterval(h);
    // An answer already waiting on the socket is read in this turn's poll phase, before this runs.
    setImmediate(() => {
      if (!cleared) fire(Math.round(busy));
    });
  }, tick);
  h.unref();
  return {
    clear() {
      cleared = true;
      clearInterval(h);
    },
  };
}
