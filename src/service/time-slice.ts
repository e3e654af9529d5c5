// Cooperative time slicing for the service's long synchronous work (decoding, analysis, building
// the onward bytes of a large batch): the work asks `due()` between steps and, when its slice is
// spent, awaits `pause()`, which gives the event loop a turn (setImmediate) so health probes and
// other requests are answered. Must never sleep (a pause is one turn of the loop, not a timer) and
// never be shared between two pieces of work that run at once.

import { performance } from 'node:perf_hooks';
import { SERVICE_SLICE_MS } from '../limits.js';

export class TimeSlice {
  private start = performance.now();
  constructor(private readonly ms: number = SERVICE_SLICE_MS) {}

  /** True when this slice has run its time: the caller should `await pause()` before going on. */
  due(): boolean {
    return performance.now() - this.start >= this.ms;
  }

  /** One turn of the event loop; the next slice starts after it. */
  async pause(): Promise<void> {
    await new Promise<void>((r) => setImmediate(r));
    this.start = performance.now();
  }

  /** `pause()` when due, else nothing (no await needed by the caller's fast path). */
  maybePause(): Promise<void> | undefined {
    return this.due() ? this.pause() : undefined;
  }
}
