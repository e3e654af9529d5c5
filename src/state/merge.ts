// Merges two versions of one conversation's state: the store's (other instances wrote it) and this
// instance's. Requests are matched by identity (ConversationState.requestIds): a request the store
// already counts keeps the store's number, each request only this instance saw is numbered after
// the store's, in this instance's order. So the merge is exact and idempotent: merging the same
// local state twice, or a state that already holds this instance's last write, counts nothing twice
// (issue 31: concurrent writers inflated stored request counts by 8 to 47 %). The result holds the
// union of served strings, result tools, chosen calls and ledger rows, ordered by request (ledger
// rows by when they ran). Pure; never drops a store row.

import type { ConversationState } from '../runs/conversations.js';
import { CHOSEN_BYTES, REQUEST_ID_BYTES, ledgerRowBytes, servedKey } from '../runs/conversations.js';
import { ServedHistory } from '../runs/served-history.js';
import { detachedRow } from '../runs/history-result.js';
import type { EarlierServed } from '../checks/unsupported-argument.js';
import type { LedgerRow } from '../model/ledger.js';

const rowId = (r: LedgerRow) => `${r.span.traceId}/${r.span.spanId}/${r.callId ?? ''}`;

/** `store`: the state the store holds now. `local`: this instance's. */
export function mergeConversation(store: ConversationState, local: ConversationState): ConversationState {
  // Local request number -> its number in the merged state.
  const storeNumber = new Map<number, number>();
  store.requestIds.forEach((id, i) => storeNumber.set(id, i + 1));
  const renumber = new Map<number, number>();
  const newIds: number[] = [];
  local.requestIds.forEach((id, i) => {
    const at = storeNumber.get(id);
    if (at !== undefined) renumber.set(i + 1, at);
    else {
      newIds.push(id);
      renumber.set(i + 1, store.requests + newIds.length);
    }
  });
  const shift = (request: number) => renumber.get(request) ?? request;
  // Rows reading their results from a history (history-result.ts) take copies: out's history is another.
  const storeLedger = store.ledger.map(detachedRow);
  let detachedBytes = 0;
  storeLedger.forEach((r, i) => {
    if (r !== store.ledger[i]) detachedBytes += ledgerRowBytes(r) - ledgerRowBytes(store.ledger[i]!);
  });
  const out: ConversationState = {
    key: store.key,
    requests: store.requests + newIds.length,
    requestIds: [...store.requestIds, ...newIds],
    served: store.served.clone(),
    resultTools: new Set([...store.resultTools, ...local.resultTools]),
    chosen: new Map(store.chosen),
    ledger: storeLedger,
    bytes: store.bytes + detachedBytes + newIds.length * REQUEST_ID_BYTES,
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
    const own = detachedRow(r);
    out.ledger.push(own.request !== undefined ? { ...own, request: shift(own.request) } : own);
    out.bytes += ledgerRowBytes(own);
  }
  out.ledger.sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : a.startTimeUnixNano > b.startTimeUnixNano ? 1 : 0));
  if (local.pendingChoice) {
    out.pendingChoice = { ...local.pendingChoice, request: shift(local.pendingChoice.request) };
    out.bytes += local.pendingChoice.bytes;
  }
  return out;
}
