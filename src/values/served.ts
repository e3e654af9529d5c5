// The typed values a window served, indexed by typed key, read lazily: the token-exact index of
// the checks stays the fast path, and a kind is read from the served strings only when a value the
// fast path did not ground asks for it (numbers, dates and times, phones, identifiers: one pass
// each). Each served string's readings go through a per-conversation memo (`ValueMemo`, capped),
// so a string is read once per conversation, not once per request or check (the memo keys by a
// hash of the text and is bounded in entries and bytes). Later requests win
// "last served", as in the evidence index. Pure apart from the memo it is handed: no I/O, no clocks.

import { textLeaves } from './leaves.js';
import { readForms, readNumbers } from './read.js';
import { identifierKeys, lettersAndDigits, NON_ASCII } from './identifiers.js';
import { unitOfKey } from './quantities.js';
import { KEY, numberKey, type TypedValue } from './types.js';

/** A number a window served, where, and the unit it was served in when one is named. */
export interface ServedNumber {
  value: number;
  /** As written where it was served. */
  text: string;
  /** Position of its source in the caller's list. */
  at: number;
  unit?: string;
}

/** A date a window served (an anchor for relative expressions). */
export interface ServedDate {
  date: string;
  at: number;
}

/** A time of day a window served (minutes after midnight, each reading of it), for durations between two. */
export interface ServedTime {
  minutes: number;
  at: number;
}

type Group = 'number' | 'date' | 'phone' | 'identifier';

/** What one string holds of one group: its keys, and its numbers, or its dates and times of day. */
interface Reading {
  keys: string[];
  numbers?: Omit<ServedNumber, 'at'>[];
  dates?: string[];
  /** Minutes after midnight of each time read (every reading of an ambiguous one). */
  times?: number[];
}

/** A 53-bit identity of a text (its length and two 32-bit FNV-style hashes of every character). */
function textKey(text: string): number {
  let h1 = 0x811c9dc5 ^ text.length;
  let h2 = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0) * 0x200000 + (h2 >>> 11);
}

/** What one memo entry costs besides its readings, and one key or number in them (estimates). */
const ENTRY_BYTES = 96;
const ITEM_BYTES = 48;

/**
 * A bounded memo of served strings' readings, one per conversation, keyed by a 53-bit hash of the
 * text (never the text itself, so the memo keeps no copy of what it read): at most `maxTexts`
 * strings and about `maxBytes` of readings (least recently used dropped first), and strings of at
 * most `maxTextChars` characters (longer ones are read every time, never kept).
 */
export class ValueMemo {
  private readonly map = new Map<number, { readings: Partial<Record<Group, Reading>>; bytes: number }>();
  private total = 0;
  constructor(
    readonly maxTexts = 512,
    readonly maxTextChars = 64 * 1024,
    readonly maxBytes = 2 * 1024 * 1024,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Estimated bytes of the readings kept. */
  get bytes(): number {
    return this.total;
  }

  read(text: string, group: Group, reader: () => Reading): Reading {
    if (text.length > this.maxTextChars) return reader();
    const key = textKey(text);
    let entry = this.map.get(key);
    if (entry) {
      this.map.delete(key);
      this.map.set(key, entry);
    } else {
      entry = { readings: {}, bytes: ENTRY_BYTES };
      this.map.set(key, entry);
      this.total += ENTRY_BYTES;
    }
    const hit = entry.readings[group];
    if (hit) return hit;
    const r = reader();
    const cost = ITEM_BYTES * (r.keys.length + (r.numbers?.length ?? 0) + (r.dates?.length ?? 0) + (r.times?.length ?? 0));
    entry.readings[group] = r;
    entry.bytes += cost;
    this.total += cost;
    while ((this.map.size > this.maxTexts || this.total > this.maxBytes) && this.map.size > 1) {
      const [oldest, e] = this.map.entries().next().value!;
      if (oldest === key) break;
      this.map.delete(oldest);
      this.total -= e.bytes;
    }
    return r;
  }
}

/** A text's letters and digits, lower-cased (NFKC first when it is not ASCII), as identifier keys take them. */
function alnumProjection(text: string): string {
  return NON_ASCII.test(text) ? sigmaFolded(lettersAndDigits(text.normalize('NFKC'), false)) : lettersAndDigits(text, true);
}
/** Whether an ASCII text's letters and digits, lower-cased, hold `wanted` (lower-case ASCII letters and digits), without building them. */
export function asciiAlnumContains(text: string, wanted: string): boolean {
  const first = wanted.charCodeAt(0);
  const n = text.length;
  for (let i = 0; i < n; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c |= 32;
    if (c !== first) continue;
    let j = 1;
    let k = i + 1;
    while (j < wanted.length && k < n) {
      let d = text.charCodeAt(k++);
      if (d >= 65 && d <= 90) d |= 32;
      else if (!((d >= 97 && d <= 122) || (d >= 48 && d <= 57))) continue;
      if (d !== wanted.charCodeAt(j)) break;
      j++;
    }
    if (j === wanted.length) return true;
  }
  return false;
}
/**
 * asciiAlnumContains as one regular expression (issue 36: the engine's scan, not a character loop
 * in JS, over every served text of a window for an ungrounded identifier): `wanted`'s characters
 * in order, with anything but a letter or digit between them, case-insensitive (ASCII letters
 * only: the texts it is given are ASCII; a class per letter, `[sS]`, made the engine's scan
 * slower). Undefined unless `wanted` is lower-case ASCII letters and digits (then the loop decides).
 */
export function asciiAlnumPattern(wanted: string): RegExp | undefined {
  if (!/^[a-z0-9]+$/.test(wanted)) return undefined;
  return new RegExp(wanted.split('').join('[^a-z0-9]*'), 'i');
}
/** True when a text is ASCII only (its UTF-8 is one byte a character): a test NON_ASCII answers, without the engine's character-by-character scan. */
export function isAscii(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}
/** Greek final sigma is the one context-dependent lower-casing: compared as σ on both sides. */
const sigmaFolded = (s: string) => s.replace(/ς/g, 'σ');

const groupOf = (key: string): Group =>
  key.startsWith(KEY.number) ? 'number' : key.startsWith(KEY.phone) ? 'phone' : key.startsWith(KEY.identifier) ? 'identifier' : 'date';

/** Most values read per leaf (a leaf past it is read in part). */
const MAX_PER_LEAF = 2000;

/** A value and, for a range, its ends instead (a served range serves each end). */
function* flat(values: readonly TypedValue[]): Generator<TypedValue> {
  for (const v of values) {
    if (v.parts) yield* v.parts;
    else yield v;
  }
}

/** Minutes after midnight of a time key (`t:13:30`, `t:13:30:15`, `t:06:55+1`: the clock only). */
export function minutesOfKey(key: string): number | undefined {
  const m = /^t:(\d{2}):(\d{2})/.exec(key);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

function readGroup(text: string, group: Group): Reading {
  const keys: string[] = [];
  const numbers: Omit<ServedNumber, 'at'>[] = [];
  const dates: string[] = [];
  const times = new Set<number>();
  textLeaves(text, (leaf, key) => {
    if (typeof leaf === 'number') {
      if (group === 'number') {
        const unit = unitOfKey(key);
        numbers.push({ value: leaf, text: String(leaf), ...(unit ? { unit } : {}) });
        keys.push(numberKey(leaf));
      } else if (group === 'phone' && Number.isInteger(leaf) && leaf >= 1e9) {
        for (const v of readForms(String(leaf), MAX_PER_LEAF, true)) if (v.kind === 'phone') keys.push(...v.keys);
      }
      return true;
    }
    const s = leaf.normalize('NFKC');
    if (group === 'number') {
      for (const v of flat(readNumbers(s, MAX_PER_LEAF, true))) {
        const unit = v.unit ?? unitOfKey(key);
        for (const r of v.numbers ?? []) numbers.push({ value: r.value, text: v.raw, ...(unit ? { unit } : {}) });
        keys.push(...v.keys);
      }
    } else if (group === 'identifier') {
      identifierKeys(s, MAX_PER_LEAF, (k) => (keys.push(k), true));
    } else {
      for (const v of flat(readForms(s, MAX_PER_LEAF, true))) {
        if ((group === 'phone') !== (v.kind === 'phone')) continue;
        keys.push(...v.keys);
        if (v.kind === 'date' && v.date) dates.push(v.date);
        if (v.kind === 'time') for (const k of v.keys) if (!k.includes('+')) times.add(minutesOfKey(k) ?? -1);
      }
    }
    return true;
  });
  times.delete(-1);
  return { keys, ...(group === 'number' ? { numbers } : {}), ...(group === 'date' ? { dates, times: [...times] } : {}) };
}

export interface ServedSourceText {
  text: string;
  request?: number;
}

/** The typed index of a window's served strings (one per request and side: results, or user and system text). */
export class ServedValues {
  private readonly keys = new Map<string, number>();
  private readonly built = new Set<Group>();
  private numberPool: ServedNumber[] = [];
  /** Each source's numbers, in its order (for the latest-first operand order). */
  private perSource: Omit<ServedNumber, 'at'>[][] = [];
  private datePool: ServedDate[] = [];
  private timePool: ServedTime[] = [];
  private cut = false;

  constructor(
    private readonly sources: readonly ServedSourceText[],
    private readonly memo: ValueMemo = new ValueMemo(),
    private readonly maxKeys = 200_000,
  ) {}

  /** True when some group held more keys than the bound: keys past it were not indexed. */
  get truncated(): boolean {
    return this.cut;
  }

  private build(group: Group): void {
    if (this.built.has(group)) return;
    this.built.add(group);
    const seenNumbers = new Set<number>();
    const seenDates = new Set<string>();
    const seenTimes = new Set<number>();
    for (let at = 0; at < this.sources.length; at++) {
      const src = this.sources[at]!;
      const r = this.memo.read(src.text, group, () => readGroup(src.text, group));
      for (const k of r.keys) {
        const prev = this.keys.get(k);
        if (prev === undefined) {
          if (this.keys.size >= this.maxKeys) {
            this.cut = true;
            break;
          }
          this.keys.set(k, at);
        } else if ((src.request ?? -Infinity) >= (this.sources[prev]!.request ?? -Infinity)) this.keys.set(k, at);
      }
      if (group === 'number') this.perSource[at] = r.numbers ?? [];
      for (const n of r.numbers ?? []) {
        if (seenNumbers.has(n.value)) continue;
        seenNumbers.add(n.value);
        this.numberPool.push({ ...n, at });
      }
      for (const d of r.dates ?? []) {
        if (seenDates.has(d)) continue;
        seenDates.add(d);
        this.datePool.push({ date: d, at });
      }
      for (const t of r.times ?? []) {
        if (seenTimes.has(t)) continue;
        seenTimes.add(t);
        this.timePool.push({ minutes: t, at });
      }
    }
  }

  /** Position of the source that last served this typed key, if any did. */
  lookup(key: string): number | undefined {
    const group = groupOf(key);
    if (group === 'identifier' && !this.built.has(group) && !this.mayServeIdentifier(key.slice(KEY.identifier.length))) return undefined;
    this.build(group);
    return this.keys.get(key);
  }

  /**
   * False only when no source can hold an identifier whose key is `alnum`: an identifier's key is
   * its letters and digits, lower-cased, so they stand together in the source's letters and digits
   * (JSON structure, blanks and punctuation dropped). A source with a backslash (a JSON escape
   * whose decoded leaf may differ) always may. Saves reading every identifier of a long window
   * for a value none of it holds (measured: most of an ungrounded argument's cost).
   */
  private mayServeIdentifier(alnum: string): boolean {
    const ascii = !NON_ASCII.test(alnum);
    const wanted = ascii ? alnum : sigmaFolded(alnum);
    const pattern = ascii ? asciiAlnumPattern(wanted) : undefined;
    for (const src of this.sources) {
      const text = src.text;
      if (text.includes('\\')) return true;
      if (ascii && isAscii(text) ? (pattern ? pattern.test(text) : asciiAlnumContains(text, wanted)) : alnumProjection(text).includes(wanted)) return true;
    }
    return false;
  }

  /** The first key of `keys` served, with its position. */
  lookupAny(keys: readonly string[]): { key: string; at: number } | undefined {
    for (const k of keys) {
      const at = this.lookup(k);
      if (at !== undefined) return { key: k, at };
    }
    return undefined;
  }

  /** Distinct served numbers, in source order. */
  numbers(): readonly ServedNumber[] {
    this.build('number');
    return this.numberPool;
  }

  /** Distinct served numbers, the latest source first (each source's numbers in its order), at most `max`. */
  numbersLatestFirst(max: number): ServedNumber[] {
    this.build('number');
    const out: ServedNumber[] = [];
    const seen = new Set<number>();
    for (let at = this.perSource.length - 1; at >= 0 && out.length < max; at--) {
      for (const n of this.perSource[at] ?? []) {
        if (out.length >= max) break;
        if (seen.has(n.value)) continue;
        seen.add(n.value);
        out.push({ ...n, at });
      }
    }
    return out;
  }

  /** Distinct served dates, in source order. */
  dates(): readonly ServedDate[] {
    this.build('date');
    return this.datePool;
  }

  /** Distinct served times of day (at most 1,440: one per minute), in source order. */
  times(): readonly ServedTime[] {
    this.build('date');
    return this.timePool;
  }
}
