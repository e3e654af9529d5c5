// Merges two versions of one conversation's state that grew apart from a common base: the store's
// (another instance wrote it) and this instance's (analysed since it last read or wrote the base).
// The result holds the store's state plus whatever this instance added since the base, its
// requests numbered after the store's: the union of served strings, result tools, chosen calls and
// ledger rows, ordered by request (ledger rows by when they ran). Pure; never drops a store row.

import type { ConversationState } from '../runs/conversations.js';
import { CHOSEN_BYTES, ledgerRowBytes, servedKey } from '../runs/conversations.js';
import { ServedHistory } from '../runs/served-history.js';
import type { EarlierServed } from '../checks/unsupported-argument.js';
import type { LedgerRow } from '../model/ledger.js';

const rowId = (r: LedgerRow) => `${r.span.traceId}/${r.span.spanId}/${r.callId ?? ''}`;

/**
 * `store`: the state the store holds now. `local`: this instance's. `baseRequests`: the requests
 * of the state both grew from (what this instance last read or wrote); local requests past it are
 * this instance's own additions.
 */
export function mergeConversation(store: ConversationState, local: ConversationState, baseRequests: number): ConversationState {
  const added = Math.max(0, local.requests - baseRequests);
  const offset = Math.max(0, store.requests - baseRequests);
  const shift = (request: number) => (request > baseRequests ? request + offset : request);
  const out: ConversationState = {
    key: store.key,
    requests: store.requests + added,
    served: store.served.clone(),
    resultTools: new Set([...store.resultTools, ...local.resultTools]),
    chosen: new Map(store.chosen),
    ledger: [...store.ledger],
    bytes: store.bytes,
    incomplete: store.incomplete || local.incomplete,
  };
  // The served history: the store's records and the local ones it lacks, ordered by request.
  const newServed: EarlierServed[] = [];
  for (let i = 0; i < local.served.length; i++) {
    if (store.served.has(local.served.keyAt(i))) continue;
    const s = local.served.record(i);
    newServed.push({ ...s, request: shift(s.request) });
  }
  if (newServed.length > 0) out.served = ServedHistory.of([...store.served.all(), ...newServed].sort((a, b) => a.request - b.request), servedKey);
  out.bytes += out.served.bytes - store.served.bytes;
  for (const [id, c] of local.chosen) {
    if (out.chosen.has(id)) continue;
    out.chosen.set(id, { ...c, request: shift(c.request) });
    out.bytes += CHOSEN_BYTES;
  }
  const have = new Set(out.ledger.map(rowId));
  for (const r of local.ledger) {
    if (have.has(rowId(r))) continue;
    out.ledger.push(r.request !== undefined ? { ...r, request: shift(r.request) } : r);
    out.bytes += ledgerRowBytes(r);
  }
  out.ledger.sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : a.startTimeUnixNano > b.startTimeUnixNano ? 1 : 0));
  if (local.pendingChoice) {
    out.pendingChoice = local.pendingChoice;
    out.bytes += local.pendingChoice.bytes;
  }
  return out;
}
