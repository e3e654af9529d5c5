// The shared conversation-state store's interface (load-and-lease many / compare-and-set one /
// release / ready / close), the store key of a conversation, and the in-process `memory`
// implementation (for tests, the bench and embedding; the `memory` setting itself runs no store).
// A store holds, per conversation, an opaque snapshot (src/state/conversation-codec.ts) with a
// version, and the leases of the batches being analysed against it: a reader that sets its lease
// in the same step as it reads sees every other instance's lease, so a turn analysed while another
// instance's write of the same conversation is owed knows it (src/state/sync.ts).
// Must never throw at a caller: failures reject the returned promise, and the caller (sync.ts)
// bounds the wait. A stored value that is not ours (another type, an unreadable version) is
// reported as `corrupt` for its key alone, never as a failure of the whole read.

import { randomBytes } from 'node:crypto';
import { BoundedMap } from '../runs/bounded-map.js';

export interface StoredSnapshot {
  version: number;
  snapshot: string;
  /**
   * Set when the key is created: versions restart at 1 after a store lost the key (restarted
   * empty, evicted it), so a reader compares the lineage too before taking a version as known.
   */
  lineage: string;
}

/** A fresh lineage id. */
export function newLineage(): string {
  return randomBytes(8).toString('hex');
}

/** A lease field and its value as written (src/state/lease.ts reads it). */
export interface StoredLease {
  field: string;
  value: string;
}

/** What one key holds: nothing (perhaps leases), a snapshot (and leases), or a value that is not ours. */
export type LoadedRow =
  | { kind: 'none'; leases: StoredLease[] }
  | ({ kind: 'state'; leases: StoredLease[] } & StoredSnapshot)
  | { kind: 'corrupt'; why: string };

/** ok: written as `version` (of `lineage`); conflict: the store holds another version than the one expected. */
export type SaveOutcome = { ok: true; version: number; lineage: string } | { ok: false; current: number };

export interface ReadyState {
  ok: boolean;
  kind: 'memory' | 'valkey';
  detail: string;
  /** When the store came back after it was unreachable (ms since the epoch), if it ever was. */
  recoveredAt?: number;
}

export interface ConversationStateStore {
  readonly kind: 'memory' | 'valkey';
  /**
   * Each key's row, in the order asked, in one round trip; with `lease`, the lease field is set on
   * every key in the same step (a reader's own lease is among the leases it gets back).
   */
  load(keys: readonly string[], lease?: { field: string; value: string }): Promise<LoadedRow[]>;
  /**
   * Writes `snapshot` as version expectedVersion + 1 if the store still holds expectedVersion (0:
   * none; a value that is not ours counts as none and is replaced), and removes the `release`
   * lease fields with it.
   */
  save(key: string, snapshot: string, expectedVersion: number, release?: readonly string[]): Promise<SaveOutcome>;
  /** Removes lease fields of a key (a batch that had nothing to write). */
  release(key: string, fields: readonly string[]): Promise<void>;
  ready(): ReadyState;
  /** Resolves once connected, or after `maxMs` (then ready() says why not). */
  connect(maxMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The store key of a core conversation key (`tenant\0conv\0id` or `tenant\0trace\0traceId`):
 * `fp:{<tenant>:c:<id>}` or `fp:{<tenant>:t:<traceId>}`, each part percent-encoded so no tenant or
 * id can make another's key, and the braces make the whole key one Redis Cluster hash slot.
 */
export function storeKey(conversationKey: string): string {
  const [tenant = '', scope = '', id = ''] = conversationKey.split('\u0000');
  return `fp:{${encodeURIComponent(tenant)}:${scope === 'conv' ? 'c' : 't'}:${encodeURIComponent(id)}}`;
}

interface MemoryEntry {
  snapshot?: StoredSnapshot;
  leases: Map<string, string>;
  /** Tests: a value of another type sits at the key. */
  corrupt?: string;
}

/** One process's store: what two cores in one process (tests, bench) can share. Bounded like the core's maps. */
export class MemoryStateStore implements ConversationStateStore {
  readonly kind = 'memory' as const;
  private readonly map: BoundedMap<MemoryEntry>;
  /** When set, every call rejects (tests: a store that is down). */
  down = false;
  /** Milliseconds every call waits (tests: a slow store). */
  delayMs = 0;

  constructor(opts: { maxEntries: number; ttlMs: number; now?: () => number }) {
    this.map = new BoundedMap({ maxEntries: opts.maxEntries, idleMs: opts.ttlMs, now: opts.now ?? Date.now });
  }

  private async gate(): Promise<void> {
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.down) throw new Error('memory store is down');
  }

  /** Tests: puts a value that is not a conversation at a key (as a wrong-type value in Redis). */
  corrupt(key: string, why = 'a value of another type'): void {
    this.map.set(storeKey(key), { leases: new Map(), corrupt: why });
  }

  /** The stored snapshot of a key, if any (tests, the bench). */
  peekSnapshot(key: string): StoredSnapshot | undefined {
    return this.map.peek(storeKey(key))?.snapshot;
  }

  async load(keys: readonly string[], lease?: { field: string; value: string }): Promise<LoadedRow[]> {
    await this.gate();
    return keys.map((k): LoadedRow => {
      const sk = storeKey(k);
      let e = this.map.get(sk);
      if (e?.corrupt) return { kind: 'corrupt', why: e.corrupt };
      if (lease) {
        e ??= { leases: new Map() };
        e.leases.set(lease.field, lease.value);
        this.map.set(sk, e);
      }
      const leases = e ? [...e.leases].map(([field, value]) => ({ field, value })) : [];
      return e?.snapshot ? { kind: 'state', ...e.snapshot, leases } : { kind: 'none', leases };
    });
  }

  async save(key: string, snapshot: string, expectedVersion: number, release: readonly string[] = []): Promise<SaveOutcome> {
    await this.gate();
    const k = storeKey(key);
    let e = this.map.get(k);
    if (e?.corrupt) e = undefined;
    const current = e?.snapshot?.version ?? 0;
    if (current !== expectedVersion) return { ok: false, current };
    const lineage = current > 0 && e?.snapshot ? e.snapshot.lineage : newLineage();
    const next: MemoryEntry = { snapshot: { version: current + 1, snapshot, lineage }, leases: new Map(e?.leases ?? []) };
    for (const f of release) next.leases.delete(f);
    this.map.set(k, next);
    return { ok: true, version: current + 1, lineage };
  }

  async release(key: string, fields: readonly string[]): Promise<void> {
    await this.gate();
    const e = this.map.peek(storeKey(key));
    if (!e || e.corrupt) return;
    for (const f of fields) e.leases.delete(f);
  }

  ready(): ReadyState {
    return { ok: !this.down, kind: 'memory', detail: this.down ? 'down' : 'in process' };
  }

  async connect(): Promise<void> {}

  async close(): Promise<void> {
    this.map.clear();
  }
}
