// A conversation's served history (issues 11, 36): the strings its earlier requests were served,
// first sighting of each, in request order, kept off the JS heap: the texts, call ids and tool
// names as UTF-8 in text chunks, and one 40-byte record of numbers per string (the text's key,
// request, message, source, its chunk and where its bytes start and end) in a store of its own. A history that lives as long as
// its conversation is then not copied by every young-generation collection (kept as strings, it cost
// the service ~10 % of its CPU). A text is read back as a string only when a check needs it (a
// finding's witnesses, the earlier user messages an answer's check reads): short-lived strings
// that die young. "Was this served before, and when" needs only the numbers.
// Must never keep a JS string of a text, and never throw over a text: a lone surrogate is written
// to the store as U+FFFD (what any UTF-8 encoder of the text does).

import type { ServedSource, ServedString } from './frame.js';
import type { EarlierServed } from '../checks/unsupported-argument.js';

/** One record's bytes, and where each number sits in it. */
export const RECORD_BYTES = 40;
const RECORD = RECORD_BYTES;
const KEY = 0; // float64: the key is a 53-bit integer
const REQUEST = 8; // uint32
const MESSAGE = 12; // int32
const META = 16; // uint32: source | flags
const CHUNK = 20; // uint32: which text chunk holds the record's bytes
const TEXT_START = 24; // uint32, as the three below: where its bytes start and where each part ends
const TEXT_END = 28;
const CALL_ID_END = 32;
const TOOL_NAME_END = 36;

const SOURCES: readonly ServedSource[] = ['system', 'user', 'tool-result', 'tool-schema'];
const SOURCE_MASK = 3;
const HAS_CALL_ID = 4;
const HAS_TOOL_NAME = 8;
const USER = SOURCES.indexOf('user');

/** Up to this many records "seen before?" scans the keys; past it a Set indexes them. */
const SCAN_UP_TO = 16;

/**
 * Bytes the history holds besides its stores' capacities: this object, its two stores' views and
 * their buffers' bookkeeping (~190 bytes a view measured, plus the allocations' own).
 */
export const HISTORY_FIXED_BYTES = 448;
/** Each text chunk after the first: its view and its buffer's bookkeeping. */
export const CHUNK_BYTES = 160;
/** A text chunk smaller than this grows in place (a copy of at most this much); past it, the next request's texts go to a chunk of their own. */
const CHUNK_IN_PLACE = 4096;
/** The most a new chunk holds beyond the request's own texts: half the history's texts so far, at most this. */
const CHUNK_AHEAD = 64 * 1024;
/** Bytes of one key in the index kept past SCAN_UP_TO records (its Set slot and number). */
const INDEX_BYTES_PER_KEY = 40;

const EMPTY = Buffer.alloc(0);

/**
 * Gives a store the history no longer reads back to the allocator now, not at the next full
 * collection (issue 36): its ArrayBuffer is handed to a short-lived copy that dies in the young
 * generation. A store outlives its request in the old generation, and freed only there, the stores
 * a growing conversation left behind piled up in malloc's heap between full collections (bench/
 * memory: 115 → 93 MB of malloc heap for 42 MB of stores). Only for a store nothing else holds.
 */
function freeNow(store: Buffer): void {
  const ab = store.buffer as ArrayBuffer;
  // Never a pooled slab (Buffer.allocUnsafeSlow gives each store its own).
  if (ab.byteLength !== store.length || store.byteOffset !== 0) return;
  structuredClone(ab, { transfer: [ab] });
}

/** One string to add: its text's key (servedKey) and what the record keeps of it. */
export interface ServedAddition {
  key: number;
  request: number;
  served: Pick<ServedString, 'source' | 'message' | 'text' | 'callId' | 'toolName'>;
}

/** A store's size for `need` bytes when `have` are too few: an eighth more, so small appends copy rarely. */
function grown(have: number, need: number): number {
  return need <= have ? have : need + (need >> 3) + 64;
}

/** The records store's size for `need` bytes: an eighth more while small, half again past 2 KiB (a request adds a few records: it would copy them all each time). */
function grownRecords(have: number, need: number): number {
  return need <= have ? have : Math.max(grown(have, need), have < 2048 ? 0 : have + (have >> 1));
}

/**
 * A conversation's served history. Texts and labels are appended to chunks (issue 36: a long
 * conversation's history was copied whole each time a request added to it; now a request's texts
 * past the first few KiB go to a chunk of their own and nothing is copied), the records to a store
 * of their own.
 */
export class ServedHistory {
  /** Text chunks; the last one has `used` bytes written. */
  private chunks: Buffer[] = [];
  private used = 0;
  private textCapacity = 0;
  /** The records, RECORD bytes each, `count` of them. */
  private records: Buffer = EMPTY;
  private count = 0;
  private index: Set<number> | undefined;

  get length(): number {
    return this.count;
  }

  /** Estimated bytes held: the stores' sizes, the index, the fixed part once anything is kept. */
  get bytes(): number {
    if (this.count === 0) return 0;
    return HISTORY_FIXED_BYTES + this.textCapacity + Math.max(0, this.chunks.length - 1) * CHUNK_BYTES + this.records.length + (this.index ? this.index.size * INDEX_BYTES_PER_KEY : 0);
  }

  /** Where record i starts. */
  private at(i: number): number {
    return i * RECORD;
  }

  /** True when a string with this key was kept. */
  has(key: number): boolean {
    if (this.index) return this.index.has(key);
    for (let i = 0; i < this.count; i++) if (this.keyAt(i) === key) return true;
    return false;
  }

  /** Where `labelled` more bytes of text go: into the last chunk as it is, the last chunk grown in place, or a new chunk. */
  private placeFor(labelled: number): { kind: 'fits' } | { kind: 'grow'; size: number } | { kind: 'new'; size: number } {
    const last = this.chunks[this.chunks.length - 1];
    if (last !== undefined && this.used + labelled <= last.length) return { kind: 'fits' };
    if (last !== undefined && last.length < CHUNK_IN_PLACE) return { kind: 'grow', size: grown(last.length, this.used + labelled) };
    // A new chunk room for what the history has grown by so far, up to CHUNK_AHEAD (a long
    // conversation then allocates a chunk every few requests, not every request).
    return { kind: 'new', size: grown(0, Math.max(labelled, Math.min(CHUNK_AHEAD, this.textCapacity >> 1))) };
  }

  /**
   * What `bytes` would be after adding these (none of them kept yet), without adding them.
   * `labelled`: their labelledLength, when the caller already has it.
   */
  bytesAfter(additions: readonly ServedAddition[], labelled = labelledLength(additions)): number {
    if (additions.length === 0) return this.bytes;
    const count = this.count + additions.length;
    const place = this.placeFor(labelled);
    const last = this.chunks[this.chunks.length - 1];
    const text = place.kind === 'fits' ? this.textCapacity : place.kind === 'grow' ? this.textCapacity - last!.length + place.size : this.textCapacity + place.size;
    const chunks = this.chunks.length + (place.kind === 'new' ? 1 : 0);
    return HISTORY_FIXED_BYTES + text + Math.max(0, chunks - 1) * CHUNK_BYTES + grownRecords(this.records.length, count * RECORD) + (count > SCAN_UP_TO ? count * INDEX_BYTES_PER_KEY : 0);
  }

  /** Appends records, in order (the caller has checked that none is kept and that they fit its bounds). */
  add(additions: readonly ServedAddition[], labelled = labelledLength(additions)): void {
    if (additions.length === 0) return;
    const place = this.placeFor(labelled);
    if (place.kind === 'grow') {
      // Its own allocation: a pooled slice would keep a shared 8 KiB slab alive.
      const last = this.chunks[this.chunks.length - 1]!;
      const chunk = Buffer.allocUnsafeSlow(place.size);
      last.copy(chunk, 0, 0, this.used);
      this.chunks[this.chunks.length - 1] = chunk;
      this.textCapacity += place.size - last.length;
      freeNow(last);
    } else if (place.kind === 'new') {
      const chunk = Buffer.allocUnsafeSlow(place.size);
      // The first chunk in an array of its own length (a push to an empty array takes V8's first
      // capacity, 16 slots: ~1.3 MB over 10,000 conversations of one chunk each, bench/memory).
      if (this.chunks.length === 0) this.chunks = [chunk];
      else this.chunks.push(chunk);
      this.used = 0;
      this.textCapacity += place.size;
    }
    const need = (this.count + additions.length) * RECORD;
    if (need > this.records.length) {
      const records = Buffer.allocUnsafeSlow(grownRecords(this.records.length, need));
      this.records.copy(records, 0, 0, this.count * RECORD);
      if (this.records !== EMPTY) freeNow(this.records);
      this.records = records;
    }
    for (const a of additions) this.append(a);
  }

  private append(a: ServedAddition): void {
    const s = a.served;
    const chunk = this.chunks[this.chunks.length - 1]!;
    const records = this.records;
    let meta = SOURCES.indexOf(s.source) & SOURCE_MASK;
    const r = this.at(this.count);
    records.writeUInt32LE(this.chunks.length - 1, r + CHUNK);
    records.writeUInt32LE(this.used, r + TEXT_START);
    this.used += chunk.write(s.text, this.used, 'utf8');
    records.writeUInt32LE(this.used, r + TEXT_END);
    if (s.callId !== undefined) {
      meta |= HAS_CALL_ID;
      this.used += chunk.write(s.callId, this.used, 'utf8');
    }
    records.writeUInt32LE(this.used, r + CALL_ID_END);
    if (s.toolName !== undefined) {
      meta |= HAS_TOOL_NAME;
      this.used += chunk.write(s.toolName, this.used, 'utf8');
    }
    records.writeUInt32LE(this.used, r + TOOL_NAME_END);
    records.writeDoubleLE(a.key, r + KEY);
    records.writeUInt32LE(a.request, r + REQUEST);
    records.writeInt32LE(s.message, r + MESSAGE);
    records.writeUInt32LE(meta, r + META);
    this.count++;
    if (this.index) this.index.add(a.key);
    else if (this.count > SCAN_UP_TO) {
      this.index = new Set();
      for (let i = 0; i < this.count; i++) this.index.add(this.keyAt(i));
    }
  }

  keyAt(i: number): number {
    return this.records.readDoubleLE(this.at(i) + KEY);
  }

  requestAt(i: number): number {
    return this.records.readUInt32LE(this.at(i) + REQUEST);
  }

  sourceAt(i: number): ServedSource {
    return SOURCES[this.records.readUInt32LE(this.at(i) + META) & SOURCE_MASK]!;
  }

  private chunkOf(i: number): Buffer {
    return this.chunks[this.records.readUInt32LE(this.at(i) + CHUNK)]!;
  }

  /**
   * The record whose text is exactly `text` (its key `key`), the latest first; -1 when none. The
   * keys are compared first, then the bytes' length, then the text decoded (keys can collide).
   */
  indexOfText(text: string, key: number): number {
    if (this.index !== undefined && !this.index.has(key)) return -1;
    for (let i = this.count - 1; i >= 0; i--) {
      if (this.keyAt(i) !== key) continue;
      const r = this.at(i);
      if (this.records.readUInt32LE(r + TEXT_END) - this.records.readUInt32LE(r + TEXT_START) !== Buffer.byteLength(text, 'utf8')) continue;
      if (this.textAt(i) === text) return i;
    }
    return -1;
  }

  /** The text of record i, decoded from its chunk (a new string each call). */
  textAt(i: number): string {
    const r = this.at(i);
    return this.chunkOf(i).toString('utf8', this.records.readUInt32LE(r + TEXT_START), this.records.readUInt32LE(r + TEXT_END));
  }

  /**
   * For each of the first `count` records, 1 when the UTF-8 bytes of its text hold `bytes`: one
   * search of each chunk (nothing decoded), its places then given to the records they fall in.
   */
  textsHolding(bytes: Uint8Array, count = this.count): Uint8Array {
    const out = new Uint8Array(count);
    if (bytes.length === 0) return out.fill(1);
    const records = this.records;
    let i = 0;
    for (let c = 0; c < this.chunks.length && i < count; c++) {
      const chunk = this.chunks[c]!;
      // The chunk's records are consecutive; each place is matched to them in order.
      let at = chunk.indexOf(bytes);
      while (i < count && records.readUInt32LE(this.at(i) + CHUNK) === c) {
        const start = records.readUInt32LE(this.at(i) + TEXT_START);
        const end = records.readUInt32LE(this.at(i) + TEXT_END);
        while (at >= 0 && at < start) at = chunk.indexOf(bytes, at + 1);
        // The first place at or after the text's start: inside it, or in none of it (any later place ends later).
        if (at >= 0 && at + bytes.length <= end) out[i] = 1;
        i++;
      }
    }
    return out;
  }

  /** The user messages' texts, in order, decoded from the store (new strings each call). */
  userTexts(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) if ((this.records.readUInt32LE(this.at(i) + META) & SOURCE_MASK) === USER) out.push(this.textAt(i));
    return out;
  }

  /** Record i as the checks read it. */
  record(i: number): EarlierServed {
    const records = this.records;
    const chunk = this.chunkOf(i);
    const r = this.at(i);
    const meta = records.readUInt32LE(r + META);
    const textEnd = records.readUInt32LE(r + TEXT_END);
    const callIdEnd = records.readUInt32LE(r + CALL_ID_END);
    const text = chunk.toString('utf8', records.readUInt32LE(r + TEXT_START), textEnd);
    const out: EarlierServed = { source: SOURCES[meta & SOURCE_MASK]!, message: records.readInt32LE(r + MESSAGE), text, request: records.readUInt32LE(r + REQUEST) };
    if (meta & HAS_CALL_ID) out.callId = chunk.toString('utf8', textEnd, callIdEnd);
    if (meta & HAS_TOOL_NAME) out.toolName = chunk.toString('utf8', callIdEnd, records.readUInt32LE(r + TOOL_NAME_END));
    return out;
  }

  /** Every record, in order (for the shared-state codec and merges: not for a hot path). */
  all(): EarlierServed[] {
    const out: EarlierServed[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.record(i));
    return out;
  }

  /**
   * Gives the stores back to the allocator now and leaves the history empty (issue 36): for a
   * conversation evicted from the core, whose history nothing reads again. Left to the next full
   * collection, the stores of the conversations evicted meanwhile piled up in malloc's heap.
   */
  release(): void {
    for (const chunk of this.chunks) freeNow(chunk);
    if (this.records !== EMPTY) freeNow(this.records);
    this.chunks = [];
    this.used = 0;
    this.textCapacity = 0;
    this.records = EMPTY;
    this.count = 0;
    this.index = undefined;
  }

  /** An independent copy (its texts in one chunk, its stores at the sizes they use). */
  clone(): ServedHistory {
    const h = new ServedHistory();
    if (this.count === 0) return h;
    const records = this.all();
    const additions = records.map((r, i) => ({ key: this.keyAt(i), request: r.request, served: r }));
    const labelled = labelledLength(additions);
    h.chunks = [Buffer.allocUnsafeSlow(labelled)];
    h.textCapacity = labelled;
    h.records = Buffer.allocUnsafeSlow(this.count * RECORD);
    for (const a of additions) h.append(a);
    return h;
  }

  /** A history holding these records, in this order, keyed by `keyOf` (the first sighting of each key kept). */
  static of(records: readonly EarlierServed[], keyOf: (text: string) => number): ServedHistory {
    const h = new ServedHistory();
    const seen = new Set<number>();
    const additions: ServedAddition[] = [];
    for (const r of records) {
      const key = keyOf(r.text);
      if (seen.has(key)) continue;
      seen.add(key);
      additions.push({ key, request: r.request, served: r });
    }
    h.add(additions);
    return h;
  }
}

/** UTF-8 bytes of the additions' texts and labels: what they take in the store besides their records. */
export function labelledLength(additions: readonly ServedAddition[]): number {
  let n = 0;
  for (const { served: s } of additions) {
    n += Buffer.byteLength(s.text, 'utf8');
    if (s.callId !== undefined) n += Buffer.byteLength(s.callId, 'utf8');
    if (s.toolName !== undefined) n += Buffer.byteLength(s.toolName, 'utf8');
  }
  return n;
}
