// The shared conversation-state store's interface (load many / compare-and-set one / ready /
// close), the store key of a conversation, and the in-process `memory` implementation (for tests,
// the bench and embedding; the `memory` setting itself runs no store at all).
// A store holds opaque snapshots (src/state/conversation-codec.ts) with a version each. Must never
// throw at a caller: failures reject the returned promise, and the caller (sync.ts) bounds the wait.

import { BoundedMap } from '../runs/bounded-map.js';

export interface StoredSnapshot {
  version: number;
  snapshot: string;
}

/** ok: written as `version`; conflict: the store holds another version than the one expected. */
export type SaveOutcome = { ok: true; version: number } | { ok: false; current: number };

export interface ReadyState {
  ok: boolean;
  kind: 'memory' | 'valkey';
  detail: string;
}

export interface ConversationStateStore {
  readonly kind: 'memory' | 'valkey';
  /** The stored snapshot of each key (null: none), in the order asked, in one round trip. */
  load(keys: readonly string[]): Promise<(StoredSnapshot | null)[]>;
  /** Writes `snapshot` as version expectedVersion + 1 if the store still holds expectedVersion (0: none). */
  save(key: string, snapshot: string, expectedVersion: number): Promise<SaveOutcome>;
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

/** One process's store: what two cores in one process (tests, bench) can share. Bounded like the core's maps. */
export class MemoryStateStore implements ConversationStateStore {
  readonly kind = 'memory' as const;
  private readonly map: BoundedMap<StoredSnapshot>;
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

  async load(keys: readonly string[]): Promise<(StoredSnapshot | null)[]> {
    await this.gate();
    return keys.map((k) => this.map.get(storeKey(k)) ?? null);
  }

  async save(key: string, snapshot: string, expectedVersion: number): Promise<SaveOutcome> {
    await this.gate();
    const k = storeKey(key);
    const current = this.map.get(k)?.version ?? 0;
    if (current !== expectedVersion) return { ok: false, current };
    this.map.set(k, { version: current + 1, snapshot });
    return { ok: true, version: current + 1 };
  }

  ready(): ReadyState {
    return { ok: !this.down, kind: 'memory', detail: this.down ? 'down' : 'in process' };
  }

  async connect(): Promise<void> {}

  async close(): Promise<void> {
    this.map.clear();
  }
}
