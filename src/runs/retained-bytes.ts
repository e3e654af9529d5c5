// What a cached span, log record or annotation really holds in memory, estimated: every string
// (stringBytes), number, byte array and container in it, with no cap on how many are walked (issue
// 31: an estimate that stopped at 100,000 values said 36 MB while 15 waiting spans held 1.2 GB). The
// walk is iterative and O(values): a value is only ever counted once per entry into a cache (and
// once out), never per request. Measured against V8's heap (node --expose-gc, 8 copies each): an
// array of 400,000 doubles or integers 3.20 MB (estimate 3.20), 100,000 small objects 7.2 MB
// (estimate 9.4): it errs on the high side. Pure; never throws (a cycle is walked once per object).

import { stringBytes } from './string-bytes.js';

/** An object or array: its header and its hidden class / elements backing. */
const OBJECT_BYTES = 32;
/** One property or element slot (a pointer or an unboxed double). */
const SLOT_BYTES = 8;
/** A number, boolean or null held as an object's property (a boxed double) or alone; in an array its slot is all it takes (packed SMI or double elements). */
const SCALAR_BYTES = 8;
/** A typed array's own object and its ArrayBuffer's, beside its bytes. */
const TYPED_ARRAY_BYTES = 96;

export function retainedBytes(v: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [v];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === 'string') bytes += stringBytes(x);
    else if (typeof x === 'bigint') bytes += 24;
    else if (x instanceof Uint8Array) bytes += x.byteLength + TYPED_ARRAY_BYTES;
    else if (x !== null && typeof x === 'object') {
      if (seen.has(x)) continue;
      seen.add(x);
      bytes += OBJECT_BYTES;
      if (Array.isArray(x)) {
        bytes += x.length * SLOT_BYTES;
        for (const c of x) if (c !== null && (typeof c === 'object' || typeof c === 'string' || typeof c === 'bigint')) stack.push(c);
      } else if (x instanceof Map) {
        for (const [k, c] of x) {
          bytes += 2 * SLOT_BYTES;
          stack.push(k, c);
        }
      } else {
        for (const k in x as Record<string, unknown>) {
          bytes += SLOT_BYTES + (k.length > 16 ? stringBytes(k) : 0);
          stack.push((x as Record<string, unknown>)[k]);
        }
      }
    } else bytes += SCALAR_BYTES;
  }
  return bytes;
}
