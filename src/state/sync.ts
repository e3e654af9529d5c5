// The per-batch hook between a core's in-memory conversations and the shared state store: before
// the core analyses a batch, the states of the conversations its agent spans belong to are read in
// one round trip and put in place of stale local ones; after, the states the batch changed are
// written (compare-and-set on the version; a newer version written meanwhile by another instance
// is read, merged and written again, never overwritten). A batch waits on the store at most
// STATE_STORE_BUDGET_MS in all; past it, or with the store down, its turns are judged with what this
// instance holds and their dispositions say "conversation state unavailable".
// Must never throw at the pipeline and never hold a span back: every failure is counted and logged.

import { performance } from 'node:perf_hooks';
import { BoundedMap } from '../runs/bounded-map.js';
import type { ConversationState } from '../runs/conversations.js';
import type { ConversationStateAccess } from '../runs/state-access.js';
import type { ProcessInput, ProcessResult } from '../runs/options.js';
import { STATE_STORE_BUDGET_MS, STATE_STORE_WRITE_ATTEMPTS } from '../limits.js';
import { ATTR_DISPOSITION_STATE, EVENT_DISPOSITION, STATE_UNAVAILABLE } from '../findings/names.js';
import { decodeConversation, encodeConversation } from './conversation-codec.js';
import { mergeConversation } from './merge.js';
import type { ConversationStateStore } from './store.js';
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
  budgetMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  now?: () => number;
}

/** What before() learned, handed to after(). */
export interface BatchStateHold {
  keys: string[];
  /** Milliseconds this batch has waited on the store so far. */
  waitedMs: number;
  unavailable: boolean;
}

interface Synced {
  /** The store version this instance last read or wrote. */
  version: number;
  /** The state's fingerprint when it was that version ('' when changed since). */
  fp: string;
  /** Its requests then: local requests past it are this instance's own additions. */
  requests: number;
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

export class StateSync {
  private readonly synced: BoundedMap<Synced>;
  /** Traces judged (in part) without their shared state: their dispositions say so. */
  private readonly lacked: BoundedMap<true>;
  /** Writes under way, by key: the next write of the same key waits for it (no self-conflicts). */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly budgetMs: number;

  constructor(private readonly o: StateSyncOptions) {
    const now = o.now ?? Date.now;
    this.synced = new BoundedMap({ maxEntries: o.maxConversations, idleMs: o.idleMs, now });
    this.lacked = new BoundedMap({ maxEntries: o.maxConversations, idleMs: o.idleMs, now });
    this.budgetMs = o.budgetMs ?? STATE_STORE_BUDGET_MS;
  }

  /** Reads the batch's conversations from the store (bounded wait) and hydrates the core. */
  async before(input: ProcessInput): Promise<BatchStateHold> {
    const { access, store, metrics } = this.o;
    const keys = access.keysOf(input);
    const hold: BatchStateHold = { keys, waitedMs: 0, unavailable: false };
    if (keys.length === 0) return hold;
    const t0 = performance.now();
    const r = await within(store.load(keys), this.budgetMs);
    hold.waitedMs = performance.now() - t0;
    metrics?.seconds.observe({ op: 'load' }, hold.waitedMs / 1000);
    if (!r.ok) {
      hold.unavailable = true;
      metrics?.ops.inc({ op: 'load', outcome: r.why });
      for (const t of access.tracesOf(input)) {
        if (this.lacked.peek(t) === undefined) metrics?.unavailableTurns.inc();
        this.lacked.set(t, true);
      }
      return hold;
    }
    metrics?.ops.inc({ op: 'load', outcome: 'ok' });
    r.value.forEach((row, i) => {
      const key = keys[i]!;
      if (!row) return;
      const s = this.synced.peek(key);
      if (s && s.version >= row.version) return;
      const remote = decodeConversation(row.snapshot);
      // A snapshot of another key (or none we can read) is never used: no state crosses keys.
      if (!remote || remote.key !== key) {
        metrics?.ops.inc({ op: 'load', outcome: 'undecodable' });
        return;
      }
      const local = access.peek(key);
      const dirty = local !== undefined && (s === undefined ? local.requests > 0 || local.ledger.length > 0 : s.fp !== fingerprint(local));
      const next = dirty ? mergeConversation(remote, local, s?.requests ?? 0) : remote;
      access.hydrate(key, next);
      this.synced.set(key, { version: row.version, fp: dirty ? '' : fingerprint(remote), requests: remote.requests });
    });
    return hold;
  }

  /** Marks dispositions of turns that lacked state, then writes what the batch changed (bounded wait). */
  async after(hold: BatchStateHold, input: ProcessInput, result: ProcessResult): Promise<void> {
    this.markDispositions(result);
    const { access } = this.o;
    const keys = new Set([...hold.keys, ...access.keysOf(input)]);
    const changed = [...keys].filter((k) => {
      const st = access.peek(k);
      return st !== undefined && fingerprint(st) !== this.synced.peek(k)?.fp;
    });
    if (changed.length === 0) return;
    const t0 = performance.now();
    const writes = Promise.all(changed.map((k) => this.write(k)));
    const r = await within(writes, this.budgetMs - hold.waitedMs);
    this.o.metrics?.seconds.observe({ op: 'save' }, (performance.now() - t0) / 1000);
    if (!r.ok) this.o.metrics?.ops.inc({ op: 'save', outcome: 'over-budget' });
  }

  /** Writes one key after any write of it under way; failures counted, the state kept to retry. */
  private write(key: string): Promise<void> {
    const prev = this.writing.get(key) ?? Promise.resolve();
    const next = prev.then(() =>
      this.writeOnce(key).catch((e: unknown) => {
        this.o.metrics?.ops.inc({ op: 'save', outcome: 'unavailable' });
        this.o.log?.('warn', `state store write failed (${(e as Error)?.message ?? String(e)}); the conversation stays in this instance's memory and is written with its next turn`);
      }),
    );
    this.writing.set(key, next);
    void next.finally(() => {
      if (this.writing.get(key) === next) this.writing.delete(key);
    });
    return next;
  }

  private async writeOnce(key: string): Promise<void> {
    const { access, store, metrics } = this.o;
    for (let attempt = 0; attempt < STATE_STORE_WRITE_ATTEMPTS; attempt++) {
      const st = access.peek(key);
      if (!st) return;
      const base = this.synced.peek(key);
      const fp = fingerprint(st);
      if (base?.fp === fp) return;
      const text = encodeConversation(st);
      if (Buffer.byteLength(text) > this.o.maxSnapshotBytes) {
        // Kept in this instance only; not retried until it changes again.
        metrics?.ops.inc({ op: 'save', outcome: 'too-large' });
        this.synced.set(key, { version: base?.version ?? 0, fp, requests: base?.requests ?? 0 });
        return;
      }
      const r = await store.save(key, text, base?.version ?? 0);
      if (r.ok) {
        metrics?.ops.inc({ op: 'save', outcome: 'ok' });
        this.synced.set(key, { version: r.version, fp, requests: st.requests });
        return;
      }
      // Another instance wrote a newer version (or the store lost ours): read it, merge, retry.
      metrics?.ops.inc({ op: 'save', outcome: 'conflict' });
      const [row] = await store.load([key]);
      const local = access.peek(key) ?? st;
      if (!row) {
        this.synced.set(key, { version: 0, fp: '', requests: base?.requests ?? 0 });
        continue;
      }
      const remote = decodeConversation(row.snapshot);
      if (!remote || remote.key !== key) {
        metrics?.ops.inc({ op: 'save', outcome: 'undecodable' });
        this.synced.set(key, { version: row.version, fp: '', requests: base?.requests ?? 0 });
        continue;
      }
      access.hydrate(key, mergeConversation(remote, local, base?.requests ?? 0));
      this.synced.set(key, { version: row.version, fp: '', requests: remote.requests });
    }
    this.o.log?.('warn', `state store write of one conversation met a newer version ${STATE_STORE_WRITE_ATTEMPTS} times; kept in memory and written with its next turn`);
  }

  /** Dispositions of traces judged without their shared state get footprint.disposition.state. */
  private markDispositions(result: ProcessResult): void {
    for (const [key, ann] of result.annotations) {
      const traceId = key.slice(0, key.indexOf('/'));
      if (this.lacked.peek(traceId) === undefined) continue;
      for (const e of ann.events) if (e.name === EVENT_DISPOSITION) e.attributes[ATTR_DISPOSITION_STATE] = STATE_UNAVAILABLE;
    }
    for (const c of result.carriers) {
      if (this.lacked.peek(c.traceId) === undefined) continue;
      for (const e of c.events) if (e.name === EVENT_DISPOSITION) e.attributes[ATTR_DISPOSITION_STATE] = STATE_UNAVAILABLE;
    }
  }

  /** Waits for writes under way (shutdown), at most `maxMs`. */
  async flush(maxMs: number): Promise<void> {
    await within(Promise.all([...this.writing.values()]), maxMs);
  }
}
