// Rewrites an ExportTraceServiceRequest from its original bytes (laid out by trace-layout.ts):
// every span without a replacement, and every ResourceSpans / ScopeSpans holding none, is copied
// as it was sent; a replaced span's new Span message (usually its original encoding with fields
// appended: protobuf repeated fields concatenate) or its removal rewrites only the enclosing
// ScopeSpans and ResourceSpans lengths. Extra ResourceSpans (footprint's carrier spans) are
// appended at the end. Must never re-encode what it was not asked to change, never mutate its
// input, and never interpret span content.

import type { LayoutField, TraceLayout } from './trace-layout.js';

/** Per span index of the layout: its new Span message bytes (one piece or pieces in order), or null to leave it out. */
export type SpanReplacements = ReadonlyMap<number, Uint8Array | readonly Uint8Array[] | null>;

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

interface Out {
  chunks: Uint8Array[];
  length: number;
}

const push = (o: Out, b: Uint8Array): void => {
  o.chunks.push(b);
  o.length += b.length;
};

function verbatim(o: Out, body: Uint8Array, f: LayoutField): void {
  push(o, body.subarray(f.tag, f.end));
}

/** Wraps a rebuilt message's content as field `num` of its parent. */
function wrap(o: Out, num: number, inner: Out): void {
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
 * another ExportTraceServiceRequest) appended; the original bytes themselves when nothing changes.
 */
export function rebuildTraceRequest(layout: TraceLayout, replace: SpanReplacements, tail?: Uint8Array): Uint8Array {
  const { body } = layout;
  if (replace.size === 0 && !tail?.length) return body;
  const keys = [...replace.keys()].sort((a, b) => a - b);
  const out: Out = { chunks: [], length: 0 };
  for (const part of layout.parts) {
    const rl = part.resource === undefined ? undefined : layout.resources[part.resource];
    if (!rl || !touches(rl.firstSpan, rl.endSpan, keys)) {
      verbatim(out, body, part);
      continue;
    }
    const res: Out = { chunks: [], length: 0 };
    for (const rp of rl.parts) {
      const sl = rp.scope === undefined ? undefined : layout.scopes[rp.scope];
      if (!sl || !touches(sl.firstSpan, sl.endSpan, keys)) {
        verbatim(res, body, rp);
        continue;
      }
      const scope: Out = { chunks: [], length: 0 };
      for (const sp of sl.parts) {
        const r = sp.span === undefined ? undefined : replace.get(sp.span);
        if (r === undefined) verbatim(scope, body, sp);
        else if (r !== null) {
          const chunks = r instanceof Uint8Array ? [r] : [...r];
          wrap(scope, 2, { chunks, length: chunks.reduce((n, c) => n + c.length, 0) });
        }
      }
      wrap(res, 2, scope);
    }
    wrap(out, 1, res);
  }
  if (tail?.length) push(out, tail);
  return Buffer.concat(out.chunks, out.length);
}

/** A span's original Span message with `extra` (encoded Span fields) appended, as two pieces (the original not copied). */
export function appendToSpan(layout: TraceLayout, index: number, extra: Uint8Array): readonly Uint8Array[] {
  const f = layout.spans[index]!;
  return [layout.body.subarray(f.start, f.end), extra];
}
