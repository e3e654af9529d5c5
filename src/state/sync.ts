// The per-batch hook between a core's in-memory conversations and the shared state store, and what
// it guarantees (issue 31): conversation state is never silently missing.
//   before: the states of the conversations a batch's agent spans and records belong to are read in
//     one round trip (at most STATE_STORE_BUDGET_MS), each merged with the local one, and this
//     batch's lease is set on each in the same step (src/state/lease.ts).
//   after: the states the batch changed are written (compare-and-set on the version; a newer
//     version written meanwhile is read, merged and written again; the merge is idempotent per
//     request, so counts stay exact), each write removing the batch's lease. The batch's answer
//     waits for the writes (at most STATE_STORE_ACK_WAIT_MS): `stored`; or, not landed yet but
//     covered (the batch's leases are in the store, so every reader says its turn may lack this
//     state, or the store is unreachable, so every instance says so for a while after it is back):
//     `covered`, and the write is retried until it lands; else `unstored`, and the pipeline answers
//     503 so the sender retries (retry() writes again).
//   Any turn judged without state it should have had says so, with the reason, on its disposition
//   and answer standing (footprint.state.incomplete): store unreachable or too slow, another
//   instance's owed or lost write, an unreadable stored value (another type, undecodable, another
//   conversation's, malformed: isolated to its own key, counted, and replaced by the next write),
//   the store just back from an outage, or a gap an earlier turn left (kept in the snapshot).
// Must never throw at the pipeline and never hold a span back past its bounds: every failure is
// counted and logged.

import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { BoundedMap } from '../runs/bounded-map.js';
import type { ConversationState } from '../runs/conversations.js';
import type { ConversationStateAccess } from '../runs/state-access.js';
import type { ProcessInput, ProcessResult } from '../runs/options.js';
import { STATE_STORE_ACK_WAIT_MS, STATE_STORE_BUDGET_MS, STATE_STORE_LEASE_MS, STATE_STORE_OWED_RETRY_MS, STATE_STORE_RECOVERY_GRACE_MS, STATE_STORE_WRITE_ATTEMPTS } from '../limits.js';
import {
  ATTR_DISPOSITION_STATE,
  ATTR_STATE_INCOMPLETE,
  EVENT_ANSWER_STANDING,
  EVENT_DISPOSITION,
  STATE_INCOMPLETE_CONCURRENT,
  STATE_INCOMPLETE_EARLIER,
  STATE_INCOMPLETE_LOST,
  STATE_INCOMPLETE_RECOVERING,
  STATE_INCOMPLETE_UNREADABLE,
  STATE_UNAVAILABLE,
} from '../findings/names.js';
import { decodeSnapshot, encodeConversation } from './conversation-codec.js';
import { mergeConversation } from './merge.js';
import { encodeLease, isOwnLease, leaseField, parseLease } from './lease.js';
import type { ConversationStateStore, LoadedRow } from './store.js';
import type { StateMetrics } from './metrics.js';

export interface StateSyncOptions {
  store: ConversationStateStore;
  access: ConversationStateAccess;
  metrics?: StateMetrics;
  /** Bytes one encoded conversation may take in the store (limits.bytesPerConversation). */
  maxSnapshotBytes: number;
  /** Bounds of the sync's own maps (as the core's: conversations and their idle expiry). */
  maxConversations: number;
  idleMs: number;
  /** The read's wait (default STATE_STORE_BUDGET_MS). */
  budgetMs?: number;
  /** The acknowledgement's wait for the writes (default STATE_STORE_ACK_WAIT_MS). */
  ackWaitMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  now?: () => number;
}

/** What before() learned, handed to after() and retry(). */
export interface BatchStateHold {
  keys: string[];
  /** Milliseconds this batch has waited on the store's read. */
  waitedMs: number;
  unavailable: boolean;
  /** This batch's lease field (set on every key of `keys` when `leased`). */
  lease: string;
  /** The read landed, so the lease is in the store on every key of `keys`. */
  leased: boolean;
  /** Keys the batch wrote (those of `keys` and any the analysis added), filled by after(). */
  written: string[];
  /** Lapsed leases of other instances seen, by key: removed with this batch's write. */
  stale: Map<string, string[]>;
}

/** How a batch's state writes stand when its answer is due (see the header). */
export type StateSettle = 'stored' | 'covered' | 'unstored';

/** One write: landed (or nothing to write), failed because the store could not be reached, or not landed otherwise (slow, conflicts). */
type WriteResult = 'landed' | 'unreachable' | 'not-landed';

/** A failure to reach the store at all (as opposed to a command it was too slow to answer). */
const UNREACHABLE = /writeable|closed|ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EHOSTUNREACH|down/i;

interface Synced {
  /** The store version this instance last read or wrote (0: none), and the key's lineage then. */
  version: number;
  lineage?: string;
  /** The state's fingerprint when it was that version ('' when changed since). */
  fp: string;
}

/** Changes whenever the core adds to a state (everything it adds grows one of these). */
function fingerprint(s: ConversationState): string {
  return `${s.requests}:${s.served.length}:${s.chosen.size}:${s.ledger.length}:${s.resultTools.size}:${s.incomplete ? 1 : 0}:${s.bytes - (s.pendingChoice?.bytes ?? 0)}`;
}

type Within<T> = { ok: true; value: T } | { ok: false; why: 'unavailable' | 'over-budget'; error?: string };

function within<T>(p: Promise<T>, ms: number): Promise<Within<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, why: 'over-budget' }), Math.max(0, ms));
    p.then(
      (value) => {
        clearTimeout(timer);
        resolve({ ok: true, value });
      },
      (e: unknown) => {
        clearTimeout(timer);
        resolve({ ok: false, why: 'unavailable', error: (e as Error)?.message ?? String(e) });
      },
    );
  });
}

/** Short label of each reason, for the metric. */
const REASON_LABEL: Record<string, string> = {
  [STATE_UNAVAILABLE]: 'unavailable',
  [STATE_INCOMPLETE_CONCURRENT]: 'concurrent',
  [STATE_INCOMPLETE_LOST]: 'lost',
  [STATE_INCOMPLETE_UNREADABLE]: 'unreadable',
  [STATE_INCOMPLETE_RECOVERING]: 'recovering',
  [STATE_INCOMPLETE_EARLIER]: 'earlier-gap',
};

export class StateSync {
  private readonly synced: BoundedMap<Synced>;
  /** Traces judged (in part) without state they should have had, with why: their dispositions say so. */
  private readonly lacked: BoundedMap<string[]>;
  /** Conversations whose history is known to have a gap, and why (written into their snapshot). */
  private readonly gaps: BoundedMap<string>;
  /** Writes not landed yet (key -> lease fields to remove with it): retried until they land. */
  private readonly owed: BoundedMap<string[]>;
  /** Writes under way, by key: the next write of the same key waits for it (no self-conflicts). */
  private readonly writing = new Map<string, Promise<WriteResult>>();
  private readonly budgetMs: number;
  private readonly ackWaitMs: number;
  private readonly now: () => number;
  /** This process's name in lease fields. */
  private readonly instance = randomBytes(6).toString('hex');
  private seq = 0;
  private owedTimer: NodeJS.Timeout | null = null;
  private owedRunning = false;

  constructor(private readonly o: StateSyncOptions) {
    const now = (this.now = o.now ?? Date.now);
    this.synced = new BoundedMap({ maxEntries: o.maxConversations, idleMs: o.idleMs, now });
    this.lacked = new BoundedMap({ maxEntries: o.maxConversations, idleMs: o.idleMs, now });
    this.gaps = new BoundedMap({ maxEntries: o.maxConversations, idleMs: o.idleMs, now });
    this.owed = new BoundedMap({ maxEntries: o.maxConversations, idleMs: o.idleMs, now, onEvict: () => o.log?.('warn', 'a conversation state write owed to the store expired before it landed (its conversation went idle, or too many were owed)') });
    this.budgetMs = o.budgetMs ?? STATE_STORE_BUDGET_MS;
    this.ackWaitMs = o.ackWaitMs ?? STATE_STORE_ACK_WAIT_MS;
  }

  /** Writes not landed yet (they are retried until they do). */
  get owedWrites(): number {
    return this.owed.size;
  }

  /** Reads the batch's conversations from the store (bounded wait), sets its lease on them, hydrates the core. */
  async before(input: ProcessInput): Promise<BatchStateHold> {
    const { access, store, metrics } = this.o;
    const keys = access.keysOf(input);
    const hold: BatchStateHold = { keys, waitedMs: 0, unavailable: false, lease: leaseField(this.instance, ++this.seq), leased: false, written: [], stale: new Map() };
    if (keys.length === 0) return hold;
    const byTrace = access.keysByTrace(input);
    const tracesOfKey = new Map<string, string[]>();
    for (const [t, ks] of byTrace) for (const k of ks) (tracesOfKey.get(k) ?? tracesOfKey.set(k, []).get(k)!).push(t);
    const traces = [...byTrace.keys()];
    const start = access.earliestStartMs(input);
    const t0 = performance.now();
    const r = await within(store.load(keys, { field: hold.lease, value: encodeLease({ expiresAt: this.now() + STATE_STORE_LEASE_MS, start, traces }) }), this.budgetMs);
    hold.waitedMs = performance.now() - t0;
    metrics?.seconds.observe({ op: 'load' }, hold.waitedMs / 1000);
    if (!r.ok) {
      hold.unavailable = true;
      metrics?.ops.inc({ op: 'load', outcome: r.why });
      for (const t of traces) this.lack(t, STATE_UNAVAILABLE);
      return hold;
    }
    hold.leased = true;
    metrics?.ops.inc({ op: 'load', outcome: 'ok' });
    const recovered = store.ready().recoveredAt;
    if (recovered !== undefined && this.now() - recovered < STATE_STORE_RECOVERY_GRACE_MS) for (const t of traces) this.lack(t, STATE_INCOMPLETE_RECOVERING);
    const ours = new Set(traces);
    r.value.forEach((row, i) => this.take(keys[i]!, row, tracesOfKey.get(keys[i]!) ?? traces, ours, start, hold));
    return hold;
  }

  /** One key's row: leases of others read, the snapshot merged in (or, unreadable, said and set to be replaced). */
  private take(key: string, row: LoadedRow, traces: readonly string[], ours: ReadonlySet<string>, start: number, hold: BatchStateHold): void {
    const { access, metrics } = this.o;
    if (row.kind === 'corrupt') {
      metrics?.ops.inc({ op: 'load', outcome: 'corrupt' });
      this.o.log?.('warn', `state store: the value at one conversation's key is not a conversation state (${row.why}); its turn is judged without it and the value is replaced`);
      this.unreadable(key, traces, 0);
      return;
    }
    for (const l of row.leases) {
      if (isOwnLease(l.field, this.instance)) continue;
      const lease = parseLease(l.value);
      if (!lease || lease.expiresAt < this.now()) {
        for (const t of traces) this.lack(t, STATE_INCOMPLETE_LOST);
        this.gaps.set(key, STATE_INCOMPLETE_LOST);
        (hold.stale.get(key) ?? hold.stale.set(key, []).get(key)!).push(l.field);
      } else if (!lease.traces.some((t) => ours.has(t)) && lease.start <= start) {
        for (const t of traces) this.lack(t, STATE_INCOMPLETE_CONCURRENT);
      }
    }
    if (row.kind === 'none') return;
    const s = this.synced.peek(key);
    if (s && s.lineage === row.lineage && s.version >= row.version) {
      if (this.gaps.peek(key) !== undefined) for (const t of traces) this.lack(t, STATE_INCOMPLETE_EARLIER);
      return;
    }
    const decoded = decodeSnapshot(row.snapshot);
    // A snapshot of another key (or none we can read) is never used: no state crosses keys.
    if (!decoded || decoded.state.key !== key) {
      metrics?.ops.inc({ op: 'load', outcome: 'undecodable' });
      this.o.log?.('warn', 'state store: one conversation\'s stored state is unreadable (undecodable, of another version or conversation, or malformed); its turn is judged without it and the state is replaced');
      this.unreadable(key, traces, row.version);
      return;
    }
    if (decoded.gap !== undefined) this.gaps.set(key, decoded.gap);
    if (this.gaps.peek(key) !== undefined) for (const t of traces) this.lack(t, STATE_INCOMPLETE_EARLIER);
    const local = access.peek(key);
    // The merge is exact and idempotent: whatever this instance holds that the store lacks is kept.
    const next = local ? mergeConversation(decoded.state, local) : decoded.state;
    access.hydrate(key, next);
    this.synced.set(key, { version: row.version, lineage: row.lineage, fp: fingerprint(next) === fingerprint(decoded.state) ? fingerprint(next) : '' });
  }

  /** The stored value of `key` cannot be read: the turn says so, the conversation has a gap, and the next write replaces it. */
  private unreadable(key: string, traces: readonly string[], version: number): void {
    for (const t of traces) this.lack(t, STATE_INCOMPLETE_UNREADABLE);
    this.gaps.set(key, STATE_INCOMPLETE_UNREADABLE);
    this.synced.set(key, { version, fp: '' });
    const st = this.o.access.peek(key);
    if (st) st.incomplete = true;
  }

  private lack(traceId: string, reason: string): void {
    const had = this.lacked.peek(traceId) ?? [];
    if (had.includes(reason)) return;
    if (reason === STATE_UNAVAILABLE && !had.includes(reason)) this.o.metrics?.unavailableTurns.inc();
    this.o.metrics?.incompleteTurns.inc({ reason: REASON_LABEL[reason] ?? 'other' });
    this.lacked.set(traceId, [...had, reason]);
  }

  /**
   * Marks the dispositions and standings of turns that lacked state, then writes what the batch
   * changed; resolves once the writes landed or the acknowledgement's wait is up (see StateSettle).
   */
  after(hold: BatchStateHold, input: ProcessInput, result: ProcessResult): Promise<StateSettle> {
    this.markDispositions(result);
    const keys = new Set([...hold.keys, ...this.o.access.keysOf(input)]);
    hold.written = [...keys];
    return this.settle(hold);
  }

  /** A re-sent batch whose writes had not landed: writes again, with the same bounds. */
  retry(hold: BatchStateHold): Promise<StateSettle> {
    return this.settle(hold);
  }

  private async settle(hold: BatchStateHold): Promise<StateSettle> {
    const keys = hold.written;
    if (keys.length === 0) return 'stored';
    const release = (k: string) => [...(hold.keys.includes(k) ? [hold.lease] : []), ...(hold.stale.get(k) ?? [])];
    const t0 = performance.now();
    const writes = keys.map((k) =>
      this.write(k, release(k)).then((w) => {
        if (w !== 'landed') this.owe(k, release(k));
        return w;
      }),
    );
    const r = await within(Promise.all(writes), this.ackWaitMs);
    this.o.metrics?.seconds.observe({ op: 'save' }, (performance.now() - t0) / 1000);
    if (r.ok && r.value.every((w) => w === 'landed')) return 'stored';
    if (!r.ok) {
      this.o.metrics?.ops.inc({ op: 'save', outcome: 'over-budget' });
      for (const k of keys) this.owe(k, release(k));
    }
    // Covered: every reader of these conversations says its turn may lack this state until it lands.
    if (hold.leased && keys.every((k) => hold.keys.includes(k))) return 'covered';
    // Unreachable: every instance says so for a while after the store is back.
    if (!this.o.store.ready().ok || (r.ok && r.value.every((w) => w !== 'not-landed'))) return 'covered';
    return 'unstored';
  }

  private owe(key: string, release: string[]): void {
    const before = this.owed.peek(key) ?? [];
    this.owed.set(key, [...new Set([...before, ...release])]);
    if (!this.owedTimer) {
      this.owedTimer = setInterval(() => void this.payOwed(), STATE_STORE_OWED_RETRY_MS);
      this.owedTimer.unref();
    }
  }

  /** Retries writes not landed yet; stops when none is owed. */
  private async payOwed(): Promise<void> {
    if (this.owedRunning) return;
    this.owedRunning = true;
    try {
      if (!this.o.store.ready().ok) return;
      for (const [key, release] of this.owed.pairs().slice(0, 256)) {
        if ((await this.write(key, release)) === 'landed') this.owed.delete(key);
      }
    } finally {
      this.owedRunning = false;
      if (this.owed.size === 0 && this.owedTimer) {
        clearInterval(this.owedTimer);
        this.owedTimer = null;
      }
    }
  }

  /** Writes one key after any write of it under way. */
  private write(key: string, release: readonly string[]): Promise<WriteResult> {
    const prev = this.writing.get(key) ?? Promise.resolve<WriteResult>('landed');
    const next = prev.then(() =>
      this.writeOnce(key, release).then(
        (landed): WriteResult => (landed ? 'landed' : 'not-landed'),
        (e: unknown): WriteResult => {
          const message = (e as Error)?.message ?? String(e);
          this.o.metrics?.ops.inc({ op: 'save', outcome: 'unavailable' });
          this.o.log?.('warn', `state store write failed (${message}); the conversation stays in this instance's memory and the write is retried until it lands`);
          return UNREACHABLE.test(message) ? 'unreachable' : 'not-landed';
        },
      ),
    );
    this.writing.set(key, next);
    void next.finally(() => {
      if (this.writing.get(key) === next) this.writing.delete(key);
    });
    return next;
  }

  private async writeOnce(key: string, release: readonly string[]): Promise<boolean> {
    const { access, store, metrics } = this.o;
    for (let attempt = 0; attempt < STATE_STORE_WRITE_ATTEMPTS; attempt++) {
      const st = access.peek(key);
      const base = this.synced.peek(key);
      const gap = this.gaps.peek(key);
      if (st && gap !== undefined) st.incomplete = true;
      if (!st || base?.fp === fingerprint(st)) {
        if (release.length > 0) await store.release(key, release);
        return true;
      }
      const fp = fingerprint(st);
      const text = encodeConversation(st, gap);
      if (Buffer.byteLength(text) > this.o.maxSnapshotBytes) {
        // Kept in this instance only; not retried until it changes again.
        metrics?.ops.inc({ op: 'save', outcome: 'too-large' });
        this.synced.set(key, { version: base?.version ?? 0, fp });
        if (release.length > 0) await store.release(key, release);
        return true;
      }
      const r = await store.save(key, text, base?.version ?? 0, release);
      if (r.ok) {
        metrics?.ops.inc({ op: 'save', outcome: 'ok' });
        this.synced.set(key, { version: r.version, lineage: r.lineage, fp });
        return true;
      }
      // Another instance wrote a newer version (or the store lost ours): read it, merge, retry.
      metrics?.ops.inc({ op: 'save', outcome: 'conflict' });
      const [row] = await store.load([key]);
      if (!row || row.kind !== 'state') {
        this.synced.set(key, { version: 0, fp: '' });
        continue;
      }
      const remote = decodeSnapshot(row.snapshot);
      if (!remote || remote.state.key !== key) {
        metrics?.ops.inc({ op: 'save', outcome: 'undecodable' });
        this.synced.set(key, { version: row.version, fp: '' });
        continue;
      }
      if (remote.gap !== undefined) this.gaps.set(key, remote.gap);
      // The core's state as it is now. Evicted during the awaits, `st` is never read again (the core
      // gave its history's stores back: ConversationStore.releaseEvicted); the snapshot just
      // encoded from it stands for it, so its requests still reach the store.
      const local = access.peek(key) ?? decodeSnapshot(text)?.state;
      if (local === undefined) continue;
      access.hydrate(key, mergeConversation(remote.state, local));
      this.synced.set(key, { version: row.version, lineage: row.lineage, fp: '' });
    }
    this.o.log?.('warn', `state store write of one conversation met a newer version ${STATE_STORE_WRITE_ATTEMPTS} times; kept in memory and retried`);
    return false;
  }

  /** Dispositions and standings of traces judged without state they should have had say why. */
  private markDispositions(result: ProcessResult): void {
    const mark = (traceId: string, events: readonly { name: string; attributes: Record<string, unknown> }[]) => {
      const why = this.lacked.peek(traceId);
      if (why === undefined) return;
      for (const e of events) {
        if (e.name !== EVENT_DISPOSITION && e.name !== EVENT_ANSWER_STANDING) continue;
        e.attributes[ATTR_STATE_INCOMPLETE] = why.join('; ');
        if (e.name === EVENT_DISPOSITION && why.includes(STATE_UNAVAILABLE)) e.attributes[ATTR_DISPOSITION_STATE] = STATE_UNAVAILABLE;
      }
    };
    for (const [key, ann] of result.annotations) mark(key.slice(0, key.indexOf('/')), ann.events);
    for (const c of result.carriers) mark(c.traceId, c.events);
  }

  /** Waits for writes under way and owed (shutdown), at most `maxMs`. */
  async flush(maxMs: number): Promise<void> {
    const until = this.now() + maxMs;
    await within(Promise.all([...this.writing.values()]), maxMs);
    while (this.owed.size > 0 && this.now() < until && this.o.store.ready().ok) {
      await within(this.payOwed(), Math.max(0, until - this.now()));
      if (this.owed.size > 0) await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops the retry timer (the owed writes stay owed). */
  stop(): void {
    if (this.owedTimer) clearInterval(this.owedTimer);
    this.owedTimer = null;
  }
}
