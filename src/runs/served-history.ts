// A conversation's served history (issue 11): the strings its earlier requests were served, first
// sighting of each, in request order, kept in one byte store off the JS heap: the texts, call ids
// and tool names as UTF-8 from its start, and one 32-byte record of numbers per string (the text's
// key, request, message, source, where its bytes end) from its end. A history that lives as long as
// its conversation is then not copied by every young-generation collection (kept as strings, it cost
// the service ~10 % of its CPU). A text is read back as a string only when a check needs it (a
// finding's witnesses, the earlier user messages an answer's check reads): short-lived strings
// that die young. "Was this served before, and when" needs only the numbers.
// Must never keep a JS string of a text, and never throw over a text: a lone surrogate is written
// to the store as U+FFFD (what any UTF-8 encoder of the text does).

import type { ServedSource, ServedString } from './frame.js';
import type { EarlierServed } from '../checks/unsupported-argument.js';

/** One record's bytes, and where each number sits in it. */
export const RECORD_BYTES = 32;
const RECORD = RECORD_BYTES;
const KEY = 0; // float64: the key is a 53-bit integer
const REQUEST = 8; // uint32
const MESSAGE = 12; // int32
const META = 16; // uint32: source | flags
const TEXT_END = 20; // uint32, as the three below: where the bytes end
const CALL_ID_END = 24;
const TOOL_NAME_END = 28;

const SOURCES: readonly ServedSource[] = ['system', 'user', 'tool-result', 'tool-schema'];
const SOURCE_MASK = 3;
const HAS_CALL_ID = 4;
const HAS_TOOL_NAME = 8;
const USER = SOURCES.indexOf('user');

/** Up to this many records "seen before?" scans the keys; past it a Set indexes them. */
const SCAN_UP_TO = 16;

/**
 * Bytes the history holds besides its store's capacity: this object, the store's view and its
 * buffer's bookkeeping (~190 bytes for the view measured, plus the allocation's own).
 */
export const HISTORY_FIXED_BYTES = 288;
/** Bytes of one key in the index kept past SCAN_UP_TO records (its Set slot and number). */
const INDEX_BYTES_PER_KEY = 40;

const EMPTY = Buffer.alloc(0);

/** One string to add: its text's key (servedKey) and what the record keeps of it. */
export interface ServedAddition {
  key: number;
  request: number;
  served: Pick<ServedString, 'source' | 'message' | 'text' | 'callId' | 'toolName'>;
}

/** The store's size for `need` bytes when `have` are too few: an eighth more, so appends copy rarely. */
function grown(have: number, need: number): number {
  return need <= have ? have : need + (need >> 3) + 64;
}

export class ServedHistory {
  /** Texts and labels from the start (`used` bytes), records from the end (`count` of them). */
  private store: Buffer = EMPTY;
  private used = 0;
  private count = 0;
  private index: Set<number> | undefined;

  get length(): number {
    return this.count;
  }

  /** Estimated bytes held: the store's size, the index, the fixed part once anything is kept. */
  get bytes(): number {
    if (this.count === 0) return 0;
    return HISTORY_FIXED_BYTES + this.store.length + (this.index ? this.index.size * INDEX_BYTES_PER_KEY : 0);
  }

  /** Where record i starts. */
  private at(i: number): number {
    return this.store.length - (i + 1) * RECORD;
  }

  /** True when a string with this key was kept. */
  has(key: number): boolean {
    if (this.index) return this.index.has(key);
    for (let i = 0; i < this.count; i++) if (this.keyAt(i) === key) return true;
    return false;
  }

  /**
   * What `bytes` would be after adding these (none of them kept yet), without adding them.
   * `labelled`: their labelledLength, when the caller already has it.
   */
  bytesAfter(additions: readonly ServedAddition[], labelled = labelledLength(additions)): number {
    if (additions.length === 0) return this.bytes;
    const count = this.count + additions.length;
    const size = grown(this.store.length, this.used + labelled + count * RECORD);
    return HISTORY_FIXED_BYTES + size + (count > SCAN_UP_TO ? count * INDEX_BYTES_PER_KEY : 0);
  }

  /** Appends records, in order (the caller has checked that none is kept and that they fit its bounds). */
  add(additions: readonly ServedAddition[], labelled = labelledLength(additions)): void {
    if (additions.length === 0) return;
    this.reserve(this.used + labelled + (this.count + additions.length) * RECORD);
    for (const a of additions) this.append(a);
  }

  private reserve(need: number): void {
    const size = grown(this.store.length, need);
    if (size === this.store.length) return;
    // Its own allocation: a pooled slice would keep a shared 8 KiB slab alive.
    const store = Buffer.allocUnsafeSlow(size);
    this.store.copy(store, 0, 0, this.used);
    const records = this.count * RECORD;
    this.store.copy(store, size - records, this.store.length - records);
    this.store = store;
  }

  private append(a: ServedAddition): void {
    const s = a.served;
    const store = this.store;
    let meta = SOURCES.indexOf(s.source) & SOURCE_MASK;
    const r = this.at(this.count);
    this.used += store.write(s.text, this.used, 'utf8');
    store.writeUInt32LE(this.used, r + TEXT_END);
    if (s.callId !== undefined) {
      meta |= HAS_CALL_ID;
      this.used += store.write(s.callId, this.used, 'utf8');
    }
    store.writeUInt32LE(this.used, r + CALL_ID_END);
    if (s.toolName !== undefined) {
      meta |= HAS_TOOL_NAME;
      this.used += store.write(s.toolName, this.used, 'utf8');
    }
    store.writeUInt32LE(this.used, r + TOOL_NAME_END);
    store.writeDoubleLE(a.key, r + KEY);
    store.writeUInt32LE(a.request, r + REQUEST);
    store.writeInt32LE(s.message, r + MESSAGE);
    store.writeUInt32LE(meta, r + META);
    this.count++;
    if (this.index) this.index.add(a.key);
    else if (this.count > SCAN_UP_TO) {
      this.index = new Set();
      for (let i = 0; i < this.count; i++) this.index.add(this.keyAt(i));
    }
  }

  keyAt(i: number): number {
    return this.store.readDoubleLE(this.at(i) + KEY);
  }

  requestAt(i: number): number {
    return this.store.readUInt32LE(this.at(i) + REQUEST);
  }

  sourceAt(i: number): ServedSource {
    return SOURCES[this.store.readUInt32LE(this.at(i) + META) & SOURCE_MASK]!;
  }

  private startOf(i: number): number {
    return i === 0 ? 0 : this.store.readUInt32LE(this.at(i - 1) + TOOL_NAME_END);
  }

  /** The text of record i, decoded from the store (a new string each call). */
  textAt(i: number): string {
    return this.store.toString('utf8', this.startOf(i), this.store.readUInt32LE(this.at(i) + TEXT_END));
  }

  /** The user messages' texts, in order, decoded from the store (new strings each call). */
  userTexts(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) if ((this.store.readUInt32LE(this.at(i) + META) & SOURCE_MASK) === USER) out.push(this.textAt(i));
    return out;
  }

  /** Record i as the checks read it. */
  record(i: number): EarlierServed {
    const store = this.store;
    const r = this.at(i);
    const meta = store.readUInt32LE(r + META);
    const textEnd = store.readUInt32LE(r + TEXT_END);
    const callIdEnd = store.readUInt32LE(r + CALL_ID_END);
    const text = store.toString('utf8', this.startOf(i), textEnd);
    const out: EarlierServed = { source: SOURCES[meta & SOURCE_MASK]!, message: store.readInt32LE(r + MESSAGE), text, request: store.readUInt32LE(r + REQUEST) };
    if (meta & HAS_CALL_ID) out.callId = store.toString('utf8', textEnd, callIdEnd);
    if (meta & HAS_TOOL_NAME) out.toolName = store.toString('utf8', callIdEnd, store.readUInt32LE(r + TOOL_NAME_END));
    return out;
  }

  /** Every record, in order (for the shared-state codec and merges: not for a hot path). */
  all(): EarlierServed[] {
    const out: EarlierServed[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.record(i));
    return out;
  }

  /** An independent copy (its store at the size it uses). */
  clone(): ServedHistory {
    const h = new ServedHistory();
    if (this.count === 0) return h;
    const records = this.count * RECORD;
    h.store = Buffer.allocUnsafeSlow(this.used + records);
    this.store.copy(h.store, 0, 0, this.used);
    this.store.copy(h.store, this.used, this.store.length - records);
    h.used = this.used;
    h.count = this.count;
    if (this.index) h.index = new Set(this.index);
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
