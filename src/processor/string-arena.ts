// Worker mode's string arena: one SharedArrayBuffer ring that carries the long strings of a posted
// span (a 50-message window is ~40 KB) from the app thread to the analysis worker, instead of
// postMessage's structured clone. Measured on Node 20: cloning a 41 KB string costs the posting
// thread ~10–22 µs (V8's serializer) and the worker as much again; writing it into shared memory
// costs ~1.3 µs and reading it back out ~4 µs.
//
// The app thread (StringArenaWriter) moves each long string value of an item's span attributes, its
// events' attributes and its log records' attributes and string bodies into the ring, leaves '' in
// its place (the key keeps its place in the object) and lists the move on the item; the worker
// (StringArenaReader) copies each back into the same place before the core reads the item, then
// frees the ring up to the item's last byte. Items are read in the order they were written, so
// one position, stored atomically by the reader, is all the two threads share.
//
// Must never change a string (one-byte strings go as latin1, every other as UTF-16 code units, so
// a lone surrogate survives), never block or wait (a string that does not fit now stays in the
// message), and never hold more than its fixed size.

import type { AttrValue, LogData, SpanData } from '../model/telemetry.js';

/** One moved string: where it stood (holder index in `holdersOf` order, key), where it is in the ring, its bytes and encoding. */
export type MovedString = [holder: number, key: string, position: number, bytes: number, twoByte: 0 | 1];

/** What crosses the thread once, at start: the ring and its one shared position. */
export interface StringArenaShared {
  /** The ring's bytes. */
  ring: SharedArrayBuffer;
  /** One BigInt64: the position up to which the reader has copied everything out (monotonic). */
  consumed: SharedArrayBuffer;
}

/** A string at least this long goes through the arena (shorter ones cost the clone little). */
export const ARENA_MIN_STRING_CHARS = 2048;

const NOT_ONE_BYTE = /[^\x00-\xff]/;

type Holder = Record<string, unknown>;

/**
 * The places of an item that may hold a long string, in one order both threads compute the same
 * way: each span's attributes, then each of its events' attributes, then each log record's
 * attributes, then each log record itself (for its `body`, the only key looked at there).
 */
function holdersOf(spans: readonly SpanData[], logs: readonly LogData[] | undefined): Holder[] {
  const out: Holder[] = [];
  for (const s of spans) {
    out.push(s.attributes as Holder);
    for (const e of s.events) out.push(e.attributes as Holder);
  }
  for (const l of logs ?? []) out.push(l.attributes as Holder);
  for (const l of logs ?? []) out.push(l as unknown as Holder);
  return out;
}

/** The app thread's side: writes long strings into the ring while there is room. */
export class StringArenaWriter {
  readonly shared: StringArenaShared;
  private readonly bytes: Buffer;
  private readonly consumed: BigInt64Array;
  private readonly size: number;
  /** Next byte to write, as a position that only grows (its offset in the ring is position % size). */
  private position = 0;

  constructor(sizeBytes: number) {
    this.size = sizeBytes;
    const ring = new SharedArrayBuffer(sizeBytes);
    const consumed = new SharedArrayBuffer(8);
    this.shared = { ring, consumed };
    this.bytes = Buffer.from(ring);
    this.consumed = new BigInt64Array(consumed);
  }

  /**
   * Moves the long strings of one item's spans and logs into the ring (each replaced by '' where
   * it stood) and returns the list of moves, or undefined when none moved. Strings that do not fit
   * (the worker is behind) stay where they are.
   */
  moveLongStrings(spans: readonly SpanData[], logs: readonly LogData[] | undefined): MovedString[] | undefined {
    let moved: MovedString[] | undefined;
    const holders = holdersOf(spans, logs);
    const bodiesFrom = holders.length - (logs?.length ?? 0);
    for (let h = 0; h < holders.length; h++) {
      const holder = holders[h]!;
      if (h >= bodiesFrom) {
        const body = holder['body'];
        if (typeof body === 'string' && body.length >= ARENA_MIN_STRING_CHARS) {
          const m = this.put(h, 'body', body);
          if (m) {
            holder['body'] = '';
            (moved ??= []).push(m);
          }
        }
        continue;
      }
      for (const key in holder) {
        const v = holder[key];
        if (typeof v !== 'string' || v.length < ARENA_MIN_STRING_CHARS) continue;
        const m = this.put(h, key, v);
        if (!m) continue;
        holder[key] = '';
        (moved ??= []).push(m);
      }
    }
    return moved;
  }

  private put(holder: number, key: string, s: string): MovedString | undefined {
    const twoByte = NOT_ONE_BYTE.test(s) ? 1 : 0;
    const n = twoByte ? s.length * 2 : s.length;
    if (n > this.size) return undefined;
    let at = this.position;
    const offset = at % this.size;
    // A string is never split at the ring's end: it starts the next lap instead (the gap is freed with it).
    if (offset + n > this.size) at += this.size - offset;
    if (at + n - Number(Atomics.load(this.consumed, 0)) > this.size) return undefined;
    const start = at % this.size;
    this.bytes.write(s, start, n, twoByte ? 'utf16le' : 'latin1');
    this.position = at + n;
    return [holder, key, at, n, twoByte];
  }
}

/** The worker's side: copies moved strings back and frees their bytes. */
export class StringArenaReader {
  private readonly bytes: Buffer;
  private readonly consumed: BigInt64Array;
  private readonly size: number;

  constructor(shared: StringArenaShared) {
    this.bytes = Buffer.from(shared.ring);
    this.size = shared.ring.byteLength;
    this.consumed = new BigInt64Array(shared.consumed);
  }

  /** Puts every moved string of an item back where it stood, then frees the ring up to the item's last byte. */
  restore(spans: readonly SpanData[], logs: readonly LogData[] | undefined, moved: readonly MovedString[]): void {
    const holders = holdersOf(spans, logs);
    let end = 0;
    try {
      for (const [h, key, position, n, twoByte] of moved) {
        const start = position % this.size;
        const s = this.bytes.toString(twoByte ? 'utf16le' : 'latin1', start, start + n);
        const holder = holders[h];
        if (holder) holder[key] = s as AttrValue;
        end = Math.max(end, position + n);
      }
    } finally {
      if (end > 0) Atomics.store(this.consumed, 0, BigInt(end));
    }
  }
}
