// A window ledger row whose result is read from the conversation's served history (issue 36). A
// row read from the windows (window-reads.ts) holds its tool's result as the window showed it: a
// string the served history keeps too, as UTF-8 off the JS heap. Kept as a JS string besides, it
// was a second copy of every such result for as long as the conversation (~1.9 KiB of ~9 a held
// conversation on bench/memory's workload). Once the request's strings are in the history, the
// row's `result` becomes a getter that decodes the history's record (a new string each read: rows'
// results are read by the answer-seam checks and merges, not on every request).
// Must never link a row to a record whose text is not exactly the result (keys can collide: the
// text is compared), and a linked row must never outlive its history's place in the conversation:
// a row moved to another conversation's state (adopt, merge) is detached first (detachedRow).

import type { LedgerRow } from '../model/ledger.js';
import type { ServedHistory } from './served-history.js';

const HISTORY = Symbol('footprint.resultHistory');
const RECORD = Symbol('footprint.resultRecord');

interface Linked {
  [HISTORY]: ServedHistory;
  [RECORD]: number;
}

function resultFromHistory(this: Linked): string {
  return this[HISTORY].textAt(this[RECORD]);
}

/** One getter for every linked row, so they all share one hidden class (measured: fast properties, one map). */
const RESULT: PropertyDescriptor = { get: resultFromHistory, enumerable: true, configurable: true };

/** What a linked row holds for its result: two slots (history and record) besides the getter's. */
export const LINKED_RESULT_BYTES = 24;

/** True for a row whose result is read from a served history. */
export function isLinkedRow(row: LedgerRow): boolean {
  return (row as Partial<Linked>)[HISTORY] !== undefined;
}

/**
 * The row with its result read from record `at` of `history` (the caller has checked that the
 * record's text is the row's result). The same properties in the same order as ledgerRowOf's, so
 * a snapshot or a spread of it reads as the row did.
 */
export function linkedRow(row: LedgerRow, history: ServedHistory, at: number): LedgerRow {
  const out: Record<string | symbol, unknown> = { span: row.span, traceId: row.traceId };
  if (row.request !== undefined) out.request = row.request;
  out.toolName = row.toolName;
  if (row.callId !== undefined) out.callId = row.callId;
  out.arguments = row.arguments;
  Object.defineProperty(out, 'result', RESULT);
  out.outcome = row.outcome;
  if (row.errorMessage !== undefined) out.errorMessage = row.errorMessage;
  out.reading = row.reading;
  out.startTimeUnixNano = row.startTimeUnixNano;
  out.source = row.source;
  Object.defineProperty(out, HISTORY, { value: history });
  Object.defineProperty(out, RECORD, { value: at });
  return out as unknown as LedgerRow;
}

/** The row with its result as a string of its own (a linked row's history is not going with it); any other row as it is. */
export function detachedRow(row: LedgerRow): LedgerRow {
  return isLinkedRow(row) ? { ...row } : row;
}
