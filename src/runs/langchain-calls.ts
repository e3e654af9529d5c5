// The calls OpenLLMetry's LangChain instrumentation recorded (src/conventions/traceloop-langchain.ts),
// kept so a later chat span's text-only window can be rebuilt from them: in-process each span comes
// alone, and the tool spans end before the request that shows their results. Kept per tenant and
// trace (trace-key.ts); a span that is the root of its own trace (the instrumentation parents
// nothing when no app span is active) goes to its tenant's pool of such calls instead, joined only
// when exactly one call there has the text. Bounded in traces, calls per trace and idle time.
// Must never join across tenants, never pick among several equal candidates, never throw.

import type { SpanData } from '../model/telemetry.js';
import type { LcCall, LcCallFinder } from '../conventions/traceloop-langchain.js';
import { BoundedMap } from './bounded-map.js';
import { traceKey } from './trace-key.js';
import { stringBytes } from './string-bytes.js';

/** Calls kept per trace (and in a tenant's pool of parentless spans): the oldest go first. */
export const MAX_LC_CALLS_PER_TRACE = 256;
/** Estimated bytes of one kept call beyond its strings (the object, its slot). */
const CALL_BYTES = 120;
/** The key of a tenant's pool of calls whose spans had no parent. */
const POOL = '\u0000pool';

export class LangChainCalls {
  private readonly byTrace: BoundedMap<LcCall[]>;
  bytes = 0;

  constructor(maxTraces: number, idleMs: number, now: () => number) {
    this.byTrace = new BoundedMap({ maxEntries: maxTraces, idleMs, now, onEvict: (_k, v) => (this.bytes -= callsBytes(v)) });
  }

  private keyOf(tenant: string, span: SpanData): string {
    return span.parentSpanId === undefined ? `${tenant}${POOL}` : traceKey(tenant, span.traceId);
  }

  add(tenant: string, span: SpanData, calls: readonly LcCall[]): void {
    if (calls.length === 0) return;
    const key = this.keyOf(tenant, span);
    const list = this.byTrace.get(key) ?? [];
    for (const c of calls) {
      if (list.some((x) => x.callId === c.callId)) continue;
      list.push(c);
      this.bytes += callBytes(c);
    }
    while (list.length > MAX_LC_CALLS_PER_TRACE) this.bytes -= callBytes(list.shift()!);
    this.byTrace.set(key, list);
  }

  /**
   * The finder for a chat span's window: the first call of its own trace with that text not used
   * yet in the window; for a span that is its trace's root, the one call of the tenant's pool with
   * that text (none when several have it).
   */
  finder(tenant: string, span: SpanData): LcCallFinder {
    const list = this.byTrace.peek(this.keyOf(tenant, span)) ?? [];
    const pooled = span.parentSpanId === undefined;
    return (shown, used) => {
      const hits = list.filter((c) => c.shown === shown && !used.has(c));
      if (pooled) return list.filter((c) => c.shown === shown).length === 1 ? hits[0] : undefined;
      return hits[0];
    };
  }

  clear(): void {
    this.byTrace.clear();
    this.bytes = 0;
  }
}

function callBytes(c: LcCall): number {
  return CALL_BYTES + stringBytes(c.callId) + stringBytes(c.name) + stringBytes(c.shown) + (typeof c.arguments === 'string' ? stringBytes(c.arguments) : 256);
}

function callsBytes(list: readonly LcCall[]): number {
  let n = 0;
  for (const c of list) n += callBytes(c);
  return n;
}
