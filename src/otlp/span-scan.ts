// A wire-level reader of one OTLP Span message (the bytes trace-layout.ts found), for the service's
// light read of ordinary spans: it finds what a light span needs (ids, parent, name, kind, times,
// status) and whether an attribute key marks an agent span (agent-span-keys.ts), without protobufjs.
// Exact or silent: it answers only when protobufjs would decode the same bytes to the same values
// without an error (any field order, repeated fields split, singular fields sent twice: last one
// wins, status merged), checking every wire type, every string's UTF-8 (as protobufjs's strict
// reader does) and every varint's length. Anything else, and any span with a nested (array or
// kvlist) attribute value, is `undefined`: the caller decodes that span with protobufjs.
// Must never throw and never read attribute values.

import protobuf from 'protobufjs';
import { AGENT_SPAN_MARKING_KEYS } from '../conventions/agent-span-keys.js';

const readStrict = (protobuf.util.utf8 as unknown as { readStrict(b: Uint8Array, s: number, e: number): string }).readStrict;

/** What a light span is built from: byte ranges [start, end) into the body, -1 when absent. */
export interface ScannedSpan {
  traceId: number;
  traceIdEnd: number;
  spanId: number;
  spanIdEnd: number;
  parentSpanId: number;
  parentSpanIdEnd: number;
  name: number;
  nameEnd: number;
  /** The kind as protobufjs's int32 reads it (0 when absent). */
  kind: number;
  /** Where the 8 bytes of the fixed64 times start (-1: absent, i.e. 0). */
  startTime: number;
  endTime: number;
  statusCode: number;
  statusMessage: number;
  statusMessageEnd: number;
  /** An attribute key of the span is one of AGENT_SPAN_MARKING_KEYS. */
  marks: boolean;
}

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

/** Marking keys as bytes, by length (a key is compared only against keys of its own length). */
const KEYS_BY_LENGTH = new Map<number, Uint8Array[]>();
for (const k of AGENT_SPAN_MARKING_KEYS) {
  const b = Buffer.from(k, 'utf8');
  (KEYS_BY_LENGTH.get(b.length) ?? KEYS_BY_LENGTH.set(b.length, []).get(b.length)!).push(b);
}

function isMarkingKey(b: Uint8Array, s: number, e: number): boolean {
  const cands = KEYS_BY_LENGTH.get(e - s);
  if (!cands) return false;
  outer: for (const c of cands) {
    for (let i = 0; i < c.length; i++) if (b[s + i] !== c[i]) continue outer;
    return true;
  }
  return false;
}

/** True when b[s, e) is a string protobufjs's strict reader accepts (ASCII at once, else its own decoder). */
export function validUtf8(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    if (b[i]! >= 0x80) {
      try {
        readStrict(b, s, e);
        return true;
      } catch {
        return false;
      }
    }
  }
  return true;
}

/** b[s, e) as protobufjs reads a string (call validUtf8 first). */
export function stringAt(b: Uint8Array, s: number, e: number): string {
  if (s < 0) return '';
  return readStrict(b, s, e);
}

/**
 * A cursor over one message's fields. `next()` reads a tag: false at the end or when unsure (then
 * `bad` is set). After it, `num`, `wire`, and for LEN `s`/`e` (content) or for VARINT `v` and `vlen`.
 */
class Fields {
  pos: number;
  num = 0;
  wire = 0;
  s = 0;
  e = 0;
  v = 0;
  vlen = 0;
  bad = false;
  constructor(private readonly b: Uint8Array, start: number, private readonly end: number) {
    this.pos = start;
  }

  /** A varint of at most 10 bytes; its value exact below 2^53 (else NaN); -1 when malformed. */
  private varint(): number {
    const { b, end } = this;
    let value = 0;
    let mul = 1;
    const start = this.pos;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) return -1;
      const byte = b[this.pos++]!;
      value += (byte & 0x7f) * mul;
      if (byte < 0x80) {
        this.vlen = this.pos - start;
        return value > Number.MAX_SAFE_INTEGER ? NaN : value;
      }
      mul *= 128;
    }
    return -1;
  }

  /** A tag or a length as protobufjs's uint32 reads it: ≤ 5 bytes and < 2^32. */
  private head(): number {
    const v = this.varint();
    return v >= 0 && this.vlen <= 5 && v < 2 ** 32 ? v : -1;
  }

  next(): boolean {
    if (this.pos >= this.end) return false;
    const t = this.head();
    if (t < 0) return this.fail();
    this.num = Math.floor(t / 8);
    this.wire = t % 8;
    if (this.num === 0) return this.fail();
    switch (this.wire) {
      case VARINT: {
        const v = this.varint();
        if (v === -1) return this.fail();
        this.v = v;
        return true;
      }
      case I64:
        this.s = this.pos;
        this.pos += 8;
        return this.pos <= this.end || this.fail();
      case I32:
        this.s = this.pos;
        this.pos += 4;
        return this.pos <= this.end || this.fail();
      case LEN: {
        const l = this.head();
        if (l < 0) return this.fail();
        this.s = this.pos;
        this.pos += l;
        this.e = this.pos;
        return this.pos <= this.end || this.fail();
      }
      default:
        return this.fail(); // groups and invalid wire types
    }
  }

  /** The varint just read is one protobufjs's 32-bit reader (uint32, int32, bool, enum) reads the same: ≤ 5 bytes, or a 10-byte negative int32. */
  small(): boolean {
    return this.wire === VARINT && (this.vlen <= 5 || this.vlen === 10);
  }

  private fail(): false {
    this.bad = true;
    return false;
  }
}

/** int32 of a varint of ≤ 5 bytes (< 2^35) as protobufjs reads it; a 10-byte one (NaN here) is unsure. */
function int32Of(f: Fields): number | undefined {
  if (!Number.isFinite(f.v) || f.vlen > 5) return undefined;
  const low = f.v % 2 ** 32;
  return low >= 2 ** 31 ? low - 2 ** 32 : low;
}

/** Checks an AnyValue: true when it is shallow and valid (no array or kvlist: those are read by protobufjs). */
function shallowValue(b: Uint8Array, s: number, e: number): boolean {
  const f = new Fields(b, s, e);
  while (f.next()) {
    switch (f.num) {
      case 1: // string_value
        if (f.wire !== LEN || !validUtf8(b, f.s, f.e)) return false;
        break;
      case 2: // bool_value
        if (!f.small()) return false;
        break;
      case 3: // int_value (int64: protobufjs reads up to 10 bytes)
        if (f.wire !== VARINT) return false;
        break;
      case 4: // double_value
        if (f.wire !== I64) return false;
        break;
      case 7: // bytes_value
        if (f.wire !== LEN) return false;
        break;
      case 5: // array_value
      case 6: // kvlist_value
        return false;
      default:
        break; // unknown: skipped
    }
  }
  return !f.bad;
}

/** Checks a KeyValue; `marks` is set when its (last) key is a marking key. */
function keyValue(b: Uint8Array, s: number, e: number, out: { marks: boolean }): boolean {
  const f = new Fields(b, s, e);
  let ks = -1;
  let ke = -1;
  let unchecked = false;
  while (f.next()) {
    if (f.num === 1) {
      if (f.wire !== LEN || !validUtf8(b, f.s, f.e)) return false;
      ks = f.s;
      ke = f.e;
    } else if (f.num === 2) {
      if (f.wire !== LEN) return false;
      // A marked span is read by protobufjs (its trace is an agent trace): its values need no check.
      if (out.marks || (ks >= 0 && isMarkingKey(b, ks, ke))) unchecked = true;
      else if (!shallowValue(b, f.s, f.e)) return false;
    }
  }
  if (f.bad) return false;
  if (ks >= 0 && isMarkingKey(b, ks, ke)) out.marks = true;
  // A value left unchecked for a key a later key replaced: unsure.
  return !unchecked || out.marks;
}

/** Checks a Span.Event (its attribute keys mark nothing). */
function event(b: Uint8Array, s: number, e: number): boolean {
  const f = new Fields(b, s, e);
  const sink = { marks: false };
  while (f.next()) {
    if (f.num === 1 && f.wire !== I64) return false;
    if (f.num === 2 && (f.wire !== LEN || !validUtf8(b, f.s, f.e))) return false;
    if (f.num === 3 && (f.wire !== LEN || !keyValue(b, f.s, f.e, sink))) return false;
    if (f.num === 4 && !f.small()) return false;
  }
  return !f.bad;
}

/** Checks a Span.Link. */
function link(b: Uint8Array, s: number, e: number): boolean {
  const f = new Fields(b, s, e);
  const sink = { marks: false };
  while (f.next()) {
    if ((f.num === 1 || f.num === 2) && f.wire !== LEN) return false;
    if (f.num === 3 && (f.wire !== LEN || !validUtf8(b, f.s, f.e))) return false;
    if (f.num === 4 && (f.wire !== LEN || !keyValue(b, f.s, f.e, sink))) return false;
    if (f.num === 5 && !f.small()) return false;
    if (f.num === 6 && f.wire !== I32) return false;
  }
  return !f.bad;
}

/**
 * The span in b[start, end) when protobufjs would read it to the same light values without an
 * error and none of its attribute values (span, events, links) nests; else undefined. A span found
 * to carry a marking key (`marks`) is checked no further: only its trace id is valid in the answer,
 * and the caller must have protobufjs read it (scan-read.ts does).
 */
export function scanSpan(b: Uint8Array, start: number, end: number): ScannedSpan | undefined {
  const out: ScannedSpan = {
    traceId: -1, traceIdEnd: -1, spanId: -1, spanIdEnd: -1, parentSpanId: -1, parentSpanIdEnd: -1, name: -1, nameEnd: -1,
    kind: 0, startTime: -1, endTime: -1, statusCode: 0, statusMessage: -1, statusMessageEnd: -1, marks: false,
  };
  const f = new Fields(b, start, end);
  while (f.next()) {
    if (out.marks && f.num !== 1) continue; // marked: protobufjs reads it; only its trace id is wanted
    switch (f.num) {
      case 1:
      case 2:
      case 4: {
        if (f.wire !== LEN) return undefined;
        if (f.num === 1) (out.traceId = f.s), (out.traceIdEnd = f.e);
        else if (f.num === 2) (out.spanId = f.s), (out.spanIdEnd = f.e);
        else (out.parentSpanId = f.s), (out.parentSpanIdEnd = f.e);
        break;
      }
      case 3: // trace_state
        if (f.wire !== LEN || !validUtf8(b, f.s, f.e)) return undefined;
        break;
      case 5:
        if (f.wire !== LEN || !validUtf8(b, f.s, f.e)) return undefined;
        out.name = f.s;
        out.nameEnd = f.e;
        break;
      case 6: {
        const k = f.small() ? int32Of(f) : undefined;
        if (k === undefined) return undefined;
        out.kind = k;
        break;
      }
      case 7:
      case 8:
        if (f.wire !== I64) return undefined;
        if (f.num === 7) out.startTime = f.s;
        else out.endTime = f.s;
        break;
      case 9:
        if (f.wire !== LEN || !keyValue(b, f.s, f.e, out)) return undefined;
        break;
      case 10:
      case 12:
      case 14:
        if (!f.small()) return undefined;
        break;
      case 11:
        if (f.wire !== LEN || !event(b, f.s, f.e)) return undefined;
        break;
      case 13:
        if (f.wire !== LEN || !link(b, f.s, f.e)) return undefined;
        break;
      case 15: {
        // Status: a second one merges into the first (each field: the last one wins).
        if (f.wire !== LEN) return undefined;
        const st = new Fields(b, f.s, f.e);
        while (st.next()) {
          if (st.num === 2) {
            if (st.wire !== LEN || !validUtf8(b, st.s, st.e)) return undefined;
            out.statusMessage = st.s;
            out.statusMessageEnd = st.e;
          } else if (st.num === 3) {
            const c = st.small() ? int32Of(st) : undefined;
            if (c === undefined) return undefined;
            out.statusCode = c;
          }
        }
        if (st.bad) return undefined;
        break;
      }
      case 16:
        if (f.wire !== I32) return undefined;
        break;
      default:
        break; // unknown: skipped, as protobufjs does
    }
  }
  return f.bad ? undefined : out;
}
