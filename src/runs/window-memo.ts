// The core's memo of each conversation's last input window (issue 11): the raw JSON up to its
// closing `]` and the messages read from it, so the conversation's next request, whose window
// repeats it, parses only what is new (src/conventions/genai-window.ts decides when that holds).
// A window's messages are kept when it is the conversation's first or it extended the window kept
// before it; a window that did not (edited, trimmed or unrelated history: a sliding window, agents
// of their own under one id) is kept as its raw JSON alone (a string the span holds anyway), so the
// next window can still show that it extends it. Kept messages outlive the young generation: kept
// for every window of a service batch whose conversations never extended, they cost ~15 % of its
// CPU in GC.
// A bounded cache (entries, bytes, idle expiry), never a source of truth: an evicted or missing
// entry only means the next request is read in full. Must never hold more than its bounds.

import type { PriorWindow, WindowMemo } from '../conventions/types.js';
import { WINDOW_MEMO_LIMITS } from '../limits.js';
import { BoundedMap } from './bounded-map.js';

/** Estimated bytes of one remembered window: its raw JSON as UTF-16, plus the message objects. */
export function windowBytes(w: PriorWindow): number {
  return w.body.length * 2 + (w.messages?.length ?? 0) * 96 + 128;
}

export class WindowMemos {
  private readonly map: BoundedMap<PriorWindow>;
  private totalBytes = 0;

  constructor(idleMs: number, now: () => number, private readonly maxBytes: number = WINDOW_MEMO_LIMITS.maxBytes) {
    this.map = new BoundedMap({ maxEntries: WINDOW_MEMO_LIMITS.maxWindows, idleMs, now, onEvict: (_k, w) => (this.totalBytes -= windowBytes(w)) });
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.map.size;
  }

  /** The slot of one conversation (any stable key: a wrong one only costs a full read). */
  slot(key: string): WindowMemo {
    return {
      prior: () => this.map.get(key),
      remember: (w, extendsPrior) => this.remember(key, w, extendsPrior),
    };
  }

  private remember(key: string, window: Required<PriorWindow>, extendsPrior: boolean): void {
    const before = this.map.peek(key);
    // Messages only for the conversation's first window or one that extends the window before.
    const w: PriorWindow = extendsPrior || before === undefined ? window : { body: window.body };
    const size = windowBytes(w);
    if (before) {
      this.totalBytes -= windowBytes(before);
      this.map.delete(key);
    }
    if (size > this.maxBytes / 4) return; // one huge window would push every other one out
    this.map.set(key, w);
    this.totalBytes += size;
    while (this.totalBytes > this.maxBytes && this.map.evictOldest()) {
      /* onEvict subtracts */
    }
  }

  clear(): void {
    this.map.clear();
    this.totalBytes = 0;
  }
}
