// Per-conversation state, scoped by tenant: the strings earlier requests were served, which
// tools' results earlier windows held, which request chose which call, and the negative ledger
// (every tool read). Kept only as far as the byte and call bounds allow; past a bound the state is
// marked incomplete, so a check that reads it says so instead of guessing.

import type { Limits } from '../limits.js';
import type { LedgerRow, ResultReading } from '../model/ledger.js';
import { BoundedMap } from './bounded-map.js';
import type { EarlierServed } from '../checks/unsupported-argument.js';
import type { Frame, ServedString } from './frame.js';
import type { ToolCall } from '../model/agent.js';
import type { SpanRef } from '../model/telemetry.js';
import { soleArgumentOf, type SoleArgument } from './sole-argument.js';
import { ServedHistory, labelledLength, type ServedAddition } from './served-history.js';
import { stringBytes } from './string-bytes.js';
import { detachedRow, isLinkedRow, linkedRow, LINKED_RESULT_BYTES } from './history-result.js';
import type { ValueMemo } from '../values/served.js';

export interface ConversationState {
  key: string;
  requests: number;
  /**
   * The identity of each request counted in `requests`, in order (requestKey of its span): what
   * makes merging two instances' versions of the state exact and idempotent (src/state/merge.ts),
   * so a request is counted once however many writers saw it.
   */
  requestIds: number[];
  /** Served strings of earlier requests, first sighting of each text only (keyed by `servedKey`). */
  served: ServedHistory;
  /** Tools whose results some earlier request's window held. */
  resultTools: Set<string>;
  /**
   * Call id -> the request (1-based) that chose it and the tool it named; and the call's only
   * argument when it had one (sole-argument.ts; kept in memory only, the shared-state codec drops it).
   */
  chosen: Map<string, { request: number; toolName: string; soleArgument?: SoleArgument }>;
  /** Every tool read of the conversation, in the order they ran. */
  ledger: LedgerRow[];
  /**
   * The last request that chose calls to tools nobody had declared yet: kept so a declaration that
   * arrives on the tool's own span (footprint's helpers) can still judge that choice.
   */
  pendingChoice?: PendingChoice;
  bytes: number;
  incomplete: boolean;
  /**
   * Typed readings of the strings this conversation was served (src/values/served.ts), so each is
   * read once per conversation; capped in entries and string length, kept in memory only (the
   * shared-state codec drops it; a lost memo is only read again).
   */
  valueMemo?: ValueMemo;
  /** The memo's bytes already counted in `bytes` (chargeMemo keeps them equal). */
  memoBytes?: number;
}

export interface PendingChoice {
  request: number;
  span: SpanRef;
  frame: Frame;
  toolCalls: ToolCall[];
  /** Read only if the late check files a finding. */
  earlierServed: (needle?: string) => readonly EarlierServed[];
  idsMatchedByOrder: boolean;
  /**
   * The request chose calls its span did not record (OpenLLMetry LangChain: finish reason
   * tool_call, text only): they are the calls of the assistant message at this index of the next
   * request's window, once that window is rebuilt (src/conventions/traceloop-langchain.ts).
   */
  unrecordedAt?: number;
  bytes: number;
}

export function conversationKey(tenant: string, conversationId: string | undefined, traceId: string): string {
  // Without a conversation id, state is scoped to the trace: never merged across traces by guess.
  return conversationId ? `${tenant}\u0000conv\u0000${conversationId}` : `${tenant}\u0000trace\u0000${traceId}`;
}

/**
 * The identity of a served string for "first sighting" bookkeeping: a 53-bit number hashed from
 * its length and both ends (the whole text up to 160 characters), not the whole text, so a long
 * window is not hashed on every request, and kept as a number, not as a copy of the text's ends
 * (issue 11: a string key cost ~280 bytes per served string). Two different strings with the same
 * length and ends share a key, as do (at odds of about 2^-53 a pair) two whose hashes meet: the
 * later one is then not kept as a separate sighting, which can only leave out a "served earlier"
 * witness, never add a false one.
 */
export function servedKey(text: string): number {
  const n = text.length;
  let h1 = 0x811c9dc5 ^ n;
  let h2 = 0x9e3779b9 ^ Math.imul(n, 0x85ebca6b);
  // Up to 160 characters the whole text; past it the first 64 and the last 64. The two hashes are
  // mixed in the loops themselves, not in a closure (issue 36: its variables live in a context the
  // closure writes on every character; ~1.6x the time for the same numbers).
  const head = n <= 160 ? n : 64;
  for (let i = 0; i < head; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  if (n > 160) {
    for (let i = n - 64; i < n; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
  }
  h1 ^= h1 >>> 16;
  // 32 bits of one hash and 21 of the other: an exact integer below 2^53.
  return (h1 >>> 0) * 0x200000 + (h2 >>> 11);
}

export { stringBytes };

/**
 * What a string held as a JS string costs besides its text: its record and slot. Counts the
 * pending choice's frame (src/runs/served-history.ts counts the history's own bytes).
 */
export const SERVED_RECORD_BYTES = 136;
/** One ledger row besides its arguments and result: the row, its span ref and ids, its reading, its start time and slot (~360 measured). */
export const LEDGER_ROW_BYTES = 360;
/** One chosen call: its id, its entry and value object. */
export const CHOSEN_BYTES = 96;
/**
 * One held conversation with nothing in it yet: its map entry and key, the state object, its
 * empty arrays, sets and map (~900 bytes measured with one result tool, seven served strings and
 * three rows in them; their contents are counted apart).
 */
export const CONVERSATION_BYTES = 896;
/** One request id: a number in a packed array, with growth slack. */
export const REQUEST_ID_BYTES = 12;

/** The identity of a request kept in ConversationState.requestIds: a 53-bit hash of its span key (trace and span id). */
export function requestKey(spanKey: string): number {
  return servedKey(spanKey);
}

/** Estimated bytes of one served or written string kept as a JS string with its record (a pending choice's frame). */
export const servedBytes = (text: string) => stringBytes(text) + SERVED_RECORD_BYTES;

/** A parsed value (arguments, a result): about its JSON's length, one byte a character when Latin-1. */
function valueBytes(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === 'string') return stringBytes(value);
  try {
    return stringBytes(JSON.stringify(value) ?? '');
  } catch {
    return 64;
  }
}

/** Estimated bytes of one ledger row as the conversation keeps it. */
export function ledgerRowBytes(row: LedgerRow): number {
  // A row whose result is read from the served history: the history counts the text.
  return LEDGER_ROW_BYTES + (isLinkedRow(row) ? LINKED_RESULT_BYTES : valueBytes(row.result)) + valueBytes(row.arguments);
}

/** Distinct readings and tool names the store's rows share (sharedParts); past it a row keeps its own. */
const SHARED_PARTS = 256;

/**
 * The key of a reading made of numbers and strings only (emptiness, rows, shape: most rows'), its
 * properties in their order; undefined for any other (absence, coverage, refusal...: kept as they are).
 */
function plainReadingKey(reading: ResultReading): string | undefined {
  let key = '';
  for (const k in reading) {
    const v = (reading as unknown as Record<string, unknown>)[k];
    if (typeof v !== 'string' && typeof v !== 'number') return undefined;
    key += `${k}\u0000${typeof v === 'number' ? 'n' : 's'}${v}\u0000`;
  }
  return key;
}

export class ConversationStore {
  private readonly map: BoundedMap<ConversationState>;
  evicted = 0;
  private totalBytes = 0;
  /**
   * States evicted since the last releaseEvicted(): their histories' stores are given back then,
   * not at once, as the request that evicted them may still be reading one (its own conversation,
   * evicted by its own growth).
   */
  private evictedStates: ConversationState[] = [];
  /**
   * Readings and tool names kept rows (and result tools, chosen calls) share (issue 36): each kept
   * its own copy of the same few readings ({ emptiness, rows, shape }) and tool names, ~0.6 KiB a
   * held conversation on bench/memory's workload. Kept rows' readings are never changed once read.
   */
  private readonly readings = new Map<string, ResultReading>();
  private readonly toolNames = new Map<string, string>();

  constructor(
    private readonly limits: Limits,
    now: () => number,
    /** Bytes the owner's other caches hold: they share limits.maxStateBytes with the conversations. */
    private readonly otherBytes: () => number = () => 0,
  ) {
    this.map = new BoundedMap<ConversationState>({
      maxEntries: limits.maxConversations,
      idleMs: limits.conversationIdleMs,
      now,
      onEvict: (_k, v) => {
        this.evicted++;
        this.totalBytes -= v.bytes;
        this.evictedStates.push(v);
      },
    });
  }

  get size(): number {
    return this.map.size;
  }

  /** Estimated bytes of every held conversation: what each holds plus its fixed shell. */
  get bytes(): number {
    return this.totalBytes + this.map.size * CONVERSATION_BYTES;
  }

  get(key: string): ConversationState {
    let s = this.map.get(key);
    if (!s) {
      s = { key, requests: 0, requestIds: [], served: new ServedHistory(), resultTools: new Set(), chosen: new Map(), ledger: [], bytes: 0, incomplete: false };
      this.map.set(key, s);
    }
    return s;
  }

  private fits(state: ConversationState, size: number, items: number): boolean {
    return state.bytes + size <= this.limits.maxBytesPerConversation && items < this.limits.maxCallsPerConversation;
  }

  private room(state: ConversationState, size: number, items: number): boolean {
    if (!this.fits(state, size, items)) {
      state.incomplete = true;
      return false;
    }
    this.charge(state, size);
    return true;
  }

  /**
   * Counts what the conversation's value memo holds now in its bytes (and the store's total), so
   * the memo is bounded by maxStateBytes like the rest of its state; called after each check.
   */
  chargeMemo(state: ConversationState): void {
    const now = state.valueMemo?.bytes ?? 0;
    const delta = now - (state.memoBytes ?? 0);
    if (delta === 0) return;
    state.memoBytes = now;
    this.charge(state, delta);
  }

  private charge(state: ConversationState, size: number): void {
    state.bytes += size;
    this.totalBytes += size;
    this.enforceTotal();
  }

  /** Records a request's served strings and result tools after it was checked. */
  recordServed(state: ConversationState, request: number, served: readonly ServedString[], resultTools: Iterable<string>): void {
    for (const t of resultTools) if (!state.resultTools.has(t)) state.resultTools.add(this.sharedName(t));
    const history = state.served;
    const additions: ServedAddition[] = [];
    let keys: Set<number> | undefined;
    for (const s of served) {
      if (s.source === 'tool-schema') continue;
      const key = servedKey(s.text);
      if (history.has(key) || keys?.has(key)) continue;
      (keys ??= new Set()).add(key);
      additions.push({ key, request, served: s });
    }
    if (additions.length === 0) return;
    const before = history.bytes;
    // All of the request's new strings at once (one growth of the history's stores), when they fit.
    const labelled = labelledLength(additions);
    const all = history.bytesAfter(additions, labelled) - before;
    if (this.fits(state, all, history.length + additions.length - 1)) {
      history.add(additions, labelled);
      this.charge(state, history.bytes - before);
      return;
    }
    // Else one at a time, as far as the bounds allow (the state is then marked incomplete).
    for (const a of additions) {
      const was = history.bytes;
      if (!this.room(state, history.bytesAfter([a]) - was, history.length)) continue;
      history.add([a]);
      // bytesAfter is what add allocates: charged above.
    }
  }

  /** Notes the identity of the request just counted (state.requests), once; its bytes are charged, never refused. */
  recordRequestId(state: ConversationState, spanKey: string): void {
    if (state.requestIds.length >= state.requests) return;
    state.requestIds.push(requestKey(spanKey));
    this.charge(state, REQUEST_ID_BYTES);
  }

  recordChosen(state: ConversationState, request: number, calls: readonly { id?: string; name: string; arguments?: unknown }[]): void {
    for (const c of calls) {
      if (!c.id || state.chosen.has(c.id)) continue;
      const sole = soleArgumentOf(c);
      if (!this.room(state, CHOSEN_BYTES + (sole ? stringBytes(sole.key) + stringBytes(String(sole.value)) : 0), state.chosen.size)) continue;
      state.chosen.set(c.id, { request, toolName: this.sharedName(c.name), ...(sole ? { soleArgument: sole } : {}) });
    }
  }

  /** Appends a read to the ledger; false when the bounds left no room (the state is then marked incomplete). */
  recordRead(state: ConversationState, row: LedgerRow): boolean {
    if (!this.room(state, ledgerRowBytes(row), state.ledger.length)) return false;
    this.sharedParts(row);
    state.ledger.push(row);
    return true;
  }

  /** The row's reading and tool name replaced by an equal one another kept row holds, when there is one (the same values, in the same order). */
  private sharedParts(row: LedgerRow): void {
    const key = plainReadingKey(row.reading);
    if (key !== undefined) {
      const have = this.readings.get(key);
      if (have !== undefined) row.reading = have;
      else if (this.readings.size < SHARED_PARTS) this.readings.set(key, row.reading);
    }
    row.toolName = this.sharedName(row.toolName);
  }

  /** An equal tool name another kept row, result tool or chosen call holds, when there is one. */
  private sharedName(name: string): string {
    const have = this.toolNames.get(name);
    if (have !== undefined) return have;
    if (this.toolNames.size < SHARED_PARTS) this.toolNames.set(name, name);
    return name;
  }

  /**
   * The window rows at [from, to) of the ledger whose result is a string the served history holds
   * (exactly, at some record) read it from there from now on (history-result.ts): the history keeps
   * the text as UTF-8, the row no second copy. Called once the request's strings are recorded.
   * `moved(before, after)` is told of each row replaced.
   */
  linkResults(state: ConversationState, from: number, to: number, moved?: (before: LedgerRow, after: LedgerRow) => void): void {
    const history = state.served;
    for (let k = from; k < to && k < state.ledger.length; k++) {
      const row = state.ledger[k]!;
      if (row.source !== 'window' || isLinkedRow(row) || typeof row.result !== 'string' || row.result === '') continue;
      const at = history.indexOfText(row.result, servedKey(row.result));
      if (at < 0) continue;
      const linked = linkedRow(row, history, at);
      state.ledger[k] = linked;
      this.charge(state, ledgerRowBytes(linked) - ledgerRowBytes(row));
      moved?.(row, linked);
    }
  }

  /** Puts `row` in place of the ledger's row at `index` (a span row replacing the window row of the same call). */
  replaceRead(state: ConversationState, index: number, row: LedgerRow): void {
    const before = state.ledger[index];
    if (before === undefined) return;
    this.sharedParts(row);
    state.ledger[index] = row;
    this.charge(state, ledgerRowBytes(row) - ledgerRowBytes(before));
  }

  /** Keeps (or, with undefined, drops) the conversation's pending choice, within the byte bounds. */
  setPendingChoice(state: ConversationState, choice: Omit<PendingChoice, 'bytes'> | undefined): void {
    if (state.pendingChoice) {
      state.bytes -= state.pendingChoice.bytes;
      this.totalBytes -= state.pendingChoice.bytes;
      delete state.pendingChoice;
    }
    if (!choice) return;
    const bytes = choice.frame.served.reduce((n, x) => n + servedBytes(x.text), 0) + choice.frame.written.reduce((n, x) => n + servedBytes(x.text), 0);
    if (state.bytes + bytes > this.limits.maxBytesPerConversation) return;
    state.bytes += bytes;
    this.totalBytes += bytes;
    state.pendingChoice = { ...choice, bytes };
    this.enforceTotal();
  }

  /** Past the total state bound, whole conversations go, least recently used first (and are counted). */
  enforceTotal(): void {
    while (this.bytes + this.otherBytes() > this.limits.maxStateBytes && this.map.evictOldest()) {
      /* each eviction subtracts its bytes in onEvict */
    }
  }

  /**
   * A trace's conversation became known after some of its requests were kept under the trace:
   * their state moves into the conversation's, in order, so later turns can see it.
   */
  adopt(traceKey: string, convKey: string): void {
    const orphan = this.map.peek(traceKey);
    if (!orphan || traceKey === convKey) return;
    this.map.delete(traceKey);
    const into = this.get(convKey);
    const offset = into.requests;
    const additions: ServedAddition[] = [];
    for (let i = 0; i < orphan.served.length; i++) {
      const key = orphan.served.keyAt(i);
      if (into.served.has(key)) continue;
      const s = orphan.served.record(i);
      additions.push({ key, request: offset + s.request, served: s });
    }
    // The orphan's history goes with it; what `into`'s grows by is counted instead.
    const historyBefore = into.served.bytes;
    into.served.add(additions);
    const historyDelta = into.served.bytes - historyBefore - orphan.served.bytes;
    this.totalBytes += historyDelta;
    into.bytes += historyDelta;
    for (const t of orphan.resultTools) into.resultTools.add(t);
    for (const [id, c] of orphan.chosen) if (!into.chosen.has(id)) into.chosen.set(id, { ...c, request: offset + c.request });
    // A row reading its result from the orphan's history takes a copy of it (the history goes).
    let detached = 0;
    for (const row of orphan.ledger) {
      const own = detachedRow(row);
      if (own !== row) detached += ledgerRowBytes(own) - ledgerRowBytes(row);
      into.ledger.push(own.request !== undefined ? { ...own, request: offset + own.request } : own);
    }
    this.totalBytes += detached;
    into.bytes += detached;
    // The orphan's bytes were already counted in the total; they now belong to `into`.
    into.bytes += orphan.bytes;
    into.requests += orphan.requests;
    for (const id of orphan.requestIds) into.requestIds.push(id);
    into.incomplete ||= orphan.incomplete;
  }

  clear(): void {
    this.map.clear();
    this.totalBytes = 0;
    this.evictedStates = [];
  }

  /**
   * Gives back the served-history stores of the conversations evicted since the last call (issue 36:
   * malloc's heap held them until a full collection). The owner calls it when no request is being
   * checked (the end of a batch); nothing may read an evicted state afterwards (src/state/sync.ts
   * reads the core's states by key, never one it held across an await). A state put back meanwhile
   * is kept.
   */
  releaseEvicted(): void {
    if (this.evictedStates.length === 0) return;
    const states = this.evictedStates;
    this.evictedStates = [];
    for (const s of states) if (this.map.peek(s.key) !== s) s.served.release();
  }

  // ---- For a shared store (src/runs/state-access.ts, src/state/) ----

  /** Reads a state without creating it, touching recency or expiry. */
  peek(key: string): ConversationState | undefined {
    return this.map.peek(key);
  }

  /**
   * Puts a state read from a shared store in place of this one's, its bytes accounted. A pending
   * choice held here (never stored) stays with the conversation.
   */
  replace(key: string, state: ConversationState): void {
    const before = this.map.peek(key);
    if (before === state) return;
    if (before) {
      this.totalBytes -= before.bytes;
      if (before.pendingChoice && !state.pendingChoice) {
        state.pendingChoice = before.pendingChoice;
        state.bytes += before.pendingChoice.bytes;
      }
    }
    this.map.set(key, state);
    this.totalBytes += state.bytes;
    this.enforceTotal();
  }
}
