// Disposition events by tally signature (issue 11): most turns of an app have the same counts and
// reasons, so the sentence and the checks JSON are built once per distinct set of rows, not per
// turn. Bounded (oldest signature dropped first); each event gets its own attributes object.
// Must give exactly what dispositionEvent gives for the same rows, request count and byte bound.

import type { CheckTally } from '../model/finding.js';
import type { Attributes, SpanEventData } from '../model/telemetry.js';
import { dispositionEvent, type LedgerSources } from '../findings/disposition.js';
import { EVENT_DISPOSITION } from '../findings/names.js';

/** Distinct signatures kept. */
const MAX_SIGNATURES = 256;

/** Every field dispositionEvent reads, in order, so equal signatures give equal events. */
function signature(rows: readonly CheckTally[], llmRequests: number, maxBytes: number, ledger: LedgerSources | undefined): string {
  let s = `${llmRequests}\u0001${maxBytes}\u0001${ledger?.spans ?? 0}\u0001${ledger?.windows ?? 0}`;
  for (const r of rows) {
    s += `\u0001${r.check}\u0002${r.seam}\u0002${r.checked}\u0002${r.findings}\u0002${r.notApplicable}\u0002${r.unreachable}`;
    for (const k in r.unreachableReasons) s += `\u0003${k}\u0004${r.unreachableReasons[k]}`;
  }
  return s;
}

export class DispositionCache {
  private readonly map = new Map<string, Attributes>();

  event(rows: readonly CheckTally[], llmRequests: number, time: bigint, maxBytes: number, ledger?: LedgerSources): SpanEventData {
    return this.eventByKey(`r${signature(rows, llmRequests, maxBytes, ledger)}`, () => rows, llmRequests, time, maxBytes, ledger);
  }

  /**
   * The same, keyed by the caller (trace-record.ts dispositionKey: equal keys for equal rows, counts
   * and bounds), the rows made only when the key was not seen before.
   */
  eventByKey(key: string, rowsOf: () => readonly CheckTally[], llmRequests: number, time: bigint, maxBytes: number, ledger?: LedgerSources): SpanEventData {
    const hit = this.map.get(key);
    if (hit) {
      return { name: EVENT_DISPOSITION, timeUnixNano: time, attributes: { ...hit } };
    }
    const ev = dispositionEvent(rowsOf(), llmRequests, time, maxBytes, ledger);
    if (this.map.size >= MAX_SIGNATURES) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, { ...ev.attributes });
    return ev;
  }
}
