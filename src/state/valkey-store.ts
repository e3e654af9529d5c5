// The Valkey/Redis implementation of the shared conversation-state store, on iovalkey (the
// maintained Valkey fork of ioredis; it speaks to Redis too). One hash per conversation, key
// `fp:{...}` (one cluster hash slot), fields v (version) and s (snapshot); writes are a Lua
// compare-and-set on v that also sets the TTL. Reads are one pipelined round trip for a batch.
// Must never queue commands while disconnected (they fail at once, the caller judges without
// history) and never throw at a caller: failures reject the returned promise.

import { Redis } from 'iovalkey';
import { STATE_STORE_COMMAND_TIMEOUT_MS } from '../limits.js';
import { storeKey, type ConversationStateStore, type ReadyState, type SaveOutcome, type StoredSnapshot } from './store.js';

/** KEYS[1] the conversation; ARGV: expected version, snapshot, TTL ms. Returns {1, new} or {0, current}. */
const CAS_SCRIPT = `
local cur = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if cur ~= tonumber(ARGV[1]) then return {0, cur} end
redis.call('HSET', KEYS[1], 'v', cur + 1, 's', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, cur + 1}
`;

type CasClient = Redis & { fpCas(key: string, expected: number, snapshot: string, ttlMs: number): Promise<[number, number]> };

export interface ValkeyStoreOptions {
  url: string;
  /** TTL of each conversation, refreshed on every write: the conversation expiry. */
  ttlMs: number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** The URL with any password replaced, for logs and /readyz. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export class ValkeyStateStore implements ConversationStateStore {
  readonly kind = 'valkey' as const;
  private readonly client: CasClient;
  private lastError = '';
  private closed = false;

  constructor(private readonly o: ValkeyStoreOptions) {
    const client = new Redis(o.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 0,
      commandTimeout: STATE_STORE_COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      // Reconnect forever, backing off to 1 s: the service runs on without the store meanwhile.
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), 1000),
    });
    client.defineCommand('fpCas', { numberOfKeys: 1, lua: CAS_SCRIPT });
    let wasReady = false;
    client.on('error', (e: Error) => {
      const msg = e.message || String(e);
      if (msg !== this.lastError && wasReady) o.log?.('warn', `state store ${redactedUrl(o.url)}: ${msg}; turns are judged without shared history until it is back`);
      this.lastError = msg;
    });
    client.on('ready', () => {
      if (wasReady || this.lastError) o.log?.('info', `state store ${redactedUrl(o.url)} connected`);
      wasReady = true;
      this.lastError = '';
    });
    this.client = client as CasClient;
  }

  async connect(maxMs: number): Promise<void> {
    const timer = new Promise<void>((r) => setTimeout(r, maxMs).unref());
    await Promise.race([this.client.connect().catch((e: Error) => void (this.lastError = e.message)), timer]);
  }

  async load(keys: readonly string[]): Promise<(StoredSnapshot | null)[]> {
    const p = this.client.pipeline();
    for (const k of keys) p.hmget(storeKey(k), 'v', 's');
    const rows = (await p.exec()) ?? [];
    return keys.map((_k, i) => {
      const [err, val] = rows[i] ?? [new Error('no reply'), null];
      if (err) throw err;
      const [v, s] = (val ?? []) as (string | null)[];
      const version = Number(v);
      return v && s !== null && s !== undefined && Number.isInteger(version) && version > 0 ? { version, snapshot: s } : null;
    });
  }

  async save(key: string, snapshot: string, expectedVersion: number): Promise<SaveOutcome> {
    const [ok, v] = await this.client.fpCas(storeKey(key), expectedVersion, snapshot, this.o.ttlMs);
    return Number(ok) === 1 ? { ok: true, version: Number(v) } : { ok: false, current: Number(v) };
  }

  ready(): ReadyState {
    const ok = this.client.status === 'ready';
    return { ok, kind: 'valkey', detail: `${redactedUrl(this.o.url)}: ${ok ? 'connected' : `${this.client.status}${this.lastError ? ` (${this.lastError})` : ''}`}` };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
