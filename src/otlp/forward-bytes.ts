// Rewrites an ExportTraceServiceRequest from its original bytes (laid out by trace-layout.ts):
// every span without a replacement, and every ResourceSpans / ScopeSpans holding none, is copied
// as it was sent; a replaced span's new Span message (usually its original encoding with fields
// appended: protobuf repeated fields concatenate) or its removal rewrites only the enclosing
// ScopeSpans and ResourceSpans lengths. Extra ResourceSpans (footprint's carrier spans) are
// appended at the end. The result is pieces in order (runs of the original bytes as views, new
// headers and additions), never copied into one buffer: a fresh 4.5 MB buffer a batch cost ~6 % of
// the service's CPU in page faults alone, and a socket writes the pieces as one writev.
// Must never re-encode what it was not asked to change, never mutate its input, and never
// interpret span content.

import type { LayoutField, TraceLayout } from './trace-layout.js';

/** Per span index of the layout: its new Span message bytes (one piece or pieces in order), or null to leave it out. */
export type SpanReplacements = ReadonlyMap<number, Uint8Array | readonly Uint8Array[] | null>;

/** One message as pieces whose concatenation is its bytes. */
export type Pieces = readonly Uint8Array[];

/** The total length of `pieces`. */
export function piecesLength(pieces: Pieces): number {
  let n = 0;
  for (const p of pieces) n += p.byteLength;
  return n;
}

const WIRE_LEN = 2;

function varintBytes(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** Tag and length of a length-delimited field. */
function header(num: number, length: number): Uint8Array {
  return Uint8Array.from([...varintBytes(num * 8 + WIRE_LEN), ...varintBytes(length)]);
}

/** Pieces being gathered; adjacent original fields are kept as one pending run [runStart, runEnd) of `body`. */
interface Out {
  body: Uint8Array;
  chunks: Uint8Array[];
  length: number;
  runStart: number;
  runEnd: number;
}

const newOut = (body: Uint8Array): Out => ({ body, chunks: [], length: 0, runStart: 0, runEnd: -1 });

function endRun(o: Out): void {
  if (o.runEnd > o.runStart) o.chunks.push(o.body.subarray(o.runStart, o.runEnd));
  o.runStart = 0;
  o.runEnd = -1;
}

const push = (o: Out, b: Uint8Array): void => {
  endRun(o);
  o.chunks.push(b);
  o.length += b.length;
};

/** An original field as it was sent: it extends the pending run when it follows it in the body. */
function verbatim(o: Out, f: LayoutField): void {
  if (o.runEnd !== f.tag) {
    endRun(o);
    o.runStart = f.tag;
  }
  o.runEnd = f.end;
  o.length += f.end - f.tag;
}

/** Wraps a rebuilt message's content as field `num` of its parent. */
function wrap(o: Out, num: number, inner: Out): void {
  endRun(inner);
  push(o, header(num, inner.length));
  for (const c of inner.chunks) o.chunks.push(c);
  o.length += inner.length;
}

function touches(first: number, end: number, keys: readonly number[]): boolean {
  // keys is sorted: the first key ≥ first decides.
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < first) lo = mid + 1;
    else hi = mid;
  }
  return lo < keys.length && keys[lo]! < end;
}

/**
 * The request with `replace` applied and `tail` (serialized ResourceSpans fields, i.e. the bytes of
 * another ExportTraceServiceRequest) appended, as pieces; `[body]` itself when nothing changes.
 */
export function rebuildTraceRequest(layout: TraceLayout, replace: SpanReplacements, tail?: Uint8Array): Pieces {
  const { body } = layout;
  if (replace.size === 0 && !tail?.length) return [body];
  const keys = [...replace.keys()].sort((a, b) => a - b);
  const out = newOut(body);
  for (const part of layout.parts) {
    const rl = part.resource === undefined ? undefined : layout.resources[part.resource];
    if (!rl || !touches(rl.firstSpan, rl.endSpan, keys)) {
      verbatim(out, part);
      continue;
    }
    const res = newOut(body);
    for (const rp of rl.parts) {
      const sl = rp.scope === undefined ? undefined : layout.scopes[rp.scope];
      if (!sl || !touches(sl.firstSpan, sl.endSpan, keys)) {
        verbatim(res, rp);
        continue;
      }
      const scope = newOut(body);
      for (const sp of sl.parts) {
        const r = sp.span === undefined ? undefined : replace.get(sp.span);
        if (r === undefined) verbatim(scope, sp);
        else if (r !== null) {
          const span = newOut(body);
          for (const c of r instanceof Uint8Array ? [r] : r) push(span, c);
          wrap(scope, 2, span);
        }
      }
      wrap(res, 2, scope);
    }
    wrap(out, 1, res);
  }
  if (tail?.length) push(out, tail);
  endRun(out);
  return out.chunks;
}

/** A span's original Span message with `extra` (encoded Span fields) appended, as two pieces (the original not copied). */
export function appendToSpan(layout: TraceLayout, index: number, extra: Uint8Array): readonly Uint8Array[] {
  const f = layout.spans[index]!;
  return [layout.body.subarray(f.start, f.end), extra];
}
