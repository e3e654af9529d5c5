// The core's memo of each conversation's last input window worth keeping (issues 11, 36; which
// ones: src/conventions/genai-window.ts worthKeeping): its raw JSON, the raw
// JSON of each of its messages and the messages read from them, so the
// conversation's next request parses only the messages it did not hold
// (src/conventions/genai-window.ts decides what is reused).
// A bounded cache (entries, bytes, idle expiry), never a source of truth: an evicted or missing
// entry only means the next request is read in full. Must never hold more than its bounds.

import type { PriorWindow, WindowMemo } from '../conventions/types.js';
import { WINDOW_MEMO_LIMITS } from '../limits.js';
import { BoundedMap } from './bounded-map.js';

/** Estimated bytes of one message object of a remembered window besides its strings (the message, its parts array and parts). */
const MESSAGE_BYTES = 96;

/**
 * Estimated bytes of one remembered window: its raw JSON (or its items' own copies) as UTF-16, the
 * strings its messages were parsed into (at most as many characters as their raw JSON), where each
 * item stands, and the message objects.
 */
export function windowBytes(w: PriorWindow): number {
  // The raw JSON's UTF-16 bytes, counted twice: the raw text, and the strings parsed from it.
  let rawBytes = 0;
  if (w.body !== undefined) rawBytes = w.body.length * 2;
  else for (const raw of w.items ?? []) rawBytes += raw.length * 2;
  return rawBytes * 2 + (w.bounds?.byteLength ?? 0) + w.messages.length * MESSAGE_BYTES + 128;
}

interface Kept {
  window: PriorWindow;
  bytes: number;
}

export class WindowMemos {
  private readonly map: BoundedMap<Kept>;
  private totalBytes = 0;

  constructor(idleMs: number, now: () => number, private readonly maxBytes: number = WINDOW_MEMO_LIMITS.maxBytes) {
    this.map = new BoundedMap({ maxEntries: WINDOW_MEMO_LIMITS.maxWindows, idleMs, now, onEvict: (_k, w) => (this.totalBytes -= w.bytes) });
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
      prior: () => this.map.get(key)?.window,
      remember: (w) => this.remember(key, w),
    };
  }

  private remember(key: string, window: PriorWindow): void {
    const before = this.map.peek(key);
    if (before) {
      this.totalBytes -= before.bytes;
      this.map.delete(key);
    }
    const bytes = windowBytes(window);
    if (bytes > this.maxBytes / 4) return; // one huge window would push every other one out
    this.map.set(key, { window, bytes });
    this.totalBytes += bytes;
    while (this.totalBytes > this.maxBytes && this.map.evictOldest()) {
      /* onEvict subtracts */
    }
  }

  clear(): void {
    this.map.clear();
    this.totalBytes = 0;
  }
}
