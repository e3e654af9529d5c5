// The Valkey/Redis implementation of the shared conversation-state store, on iovalkey (the
// maintained Valkey fork of ioredis; it speaks to Redis too). One hash per conversation, key
// `fp:{...}` (one cluster hash slot), fields v (version), s (snapshot) and one `p:...` field per
// batch being analysed against it (its lease, src/state/lease.ts). Reads are one pipelined round
// trip for a batch, each key a Lua script that reads the hash and sets the reader's lease in one
// step; writes are a Lua compare-and-set on v that also sets the TTL and removes released leases.
// A key holding another type is reported corrupt for that key alone (its neighbours are read) and
// is replaced by the next write.
// Must never queue commands while disconnected (they fail at once, the caller judges without
// history) and never throw at a caller: failures reject the returned promise.

import { Redis } from 'iovalkey';
import { STATE_STORE_COMMAND_TIMEOUT_MS } from '../limits.js';
import { newLineage, storeKey, type ConversationStateStore, type LoadedRow, type ReadyState, type SaveOutcome, type StoredLease } from './store.js';

/**
 * KEYS[1] the conversation; ARGV: lease field ('' for none), its value, TTL ms for a key the lease
 * creates. Returns {0, type} for a key of another type, else {1, [field, value, ...]} (the hash as
 * it was before the lease was set).
 */
const READ_SCRIPT = `
local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'hash' and t ~= 'none' then return {0, t} end
local all = redis.call('HGETALL', KEYS[1])
if ARGV[1] ~= '' then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
return {1, all}
`;

/**
 * KEYS[1] the conversation; ARGV: expected version, snapshot, TTL ms, a lineage id for a key this
 * write creates, then lease fields to remove. A value of another type, or an unreadable version,
 * counts as none (and is replaced). Returns {1, new, lineage} or {0, current, lineage}.
 */
const CAS_SCRIPT = `
local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'hash' and t ~= 'none' then redis.call('DEL', KEYS[1]) end
local cur = tonumber(redis.call('HGET', KEYS[1], 'v') or '0') or 0
local g = redis.call('HGET', KEYS[1], 'g')
if cur ~= tonumber(ARGV[1]) then return {0, cur, g or ''} end
if cur == 0 or not g then g = ARGV[4] end
redis.call('HSET', KEYS[1], 'v', cur + 1, 's', ARGV[2], 'g', g)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
for i = 5, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
return {1, cur + 1, g}
`;

type CasClient = Redis & {
  fpCas(key: string, expected: number, snapshot: string, ttlMs: number, lineage: string, ...release: string[]): Promise<[number, number, string]>;
  fpRead(key: string, leaseField: string, leaseValue: string, ttlMs: number): Promise<[number, string | string[]]>;
};

/** A server-side error about the value at a key (another type, a script error): that key is corrupt, not the store down. */
const VALUE_ERROR = /^(WRONGTYPE|ERR)|script/i;

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
  private recoveredAt: number | undefined;

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
    client.defineCommand('fpRead', { numberOfKeys: 1, lua: READ_SCRIPT });
    let wasReady = false;
    let lost = false;
    client.on('error', (e: Error) => {
      const msg = e.message || String(e);
      if (msg !== this.lastError && wasReady) o.log?.('warn', `state store ${redactedUrl(o.url)}: ${msg}; turns are judged without shared history until it is back`);
      this.lastError = msg;
    });
    client.on('close', () => {
      if (wasReady) lost = true;
    });
    client.on('ready', () => {
      if (wasReady || this.lastError) o.log?.('info', `state store ${redactedUrl(o.url)} connected`);
      if (lost) this.recoveredAt = Date.now();
      lost = false;
      wasReady = true;
      this.lastError = '';
    });
    this.client = client as CasClient;
  }

  async connect(maxMs: number): Promise<void> {
    const timer = new Promise<void>((r) => setTimeout(r, maxMs).unref());
    await Promise.race([this.client.connect().catch((e: Error) => void (this.lastError = e.message)), timer]);
  }

  async load(keys: readonly string[], lease?: { field: string; value: string }): Promise<LoadedRow[]> {
    const p = this.client.pipeline() as unknown as { fpRead(...a: unknown[]): void; exec(): Promise<[Error | null, unknown][] | null> };
    for (const k of keys) p.fpRead(storeKey(k), lease?.field ?? '', lease?.value ?? '', this.o.ttlMs);
    const rows = (await p.exec()) ?? [];
    return keys.map((_k, i): LoadedRow => {
      const [err, val] = rows[i] ?? [new Error('no reply'), null];
      if (err) {
        // The value at this key is the problem, not the store: that key alone.
        if (VALUE_ERROR.test(err.message)) return { kind: 'corrupt', why: err.message.slice(0, 200) };
        throw err;
      }
      const [found, body] = (val ?? [0, 'no reply']) as [number, string | string[]];
      if (Number(found) !== 1) return { kind: 'corrupt', why: `a value of type ${String(body)}` };
      const fields = Array.isArray(body) ? body : [];
      let v: string | undefined;
      let s: string | undefined;
      let g = '';
      const leases: StoredLease[] = [];
      for (let j = 0; j + 1 < fields.length; j += 2) {
        const f = String(fields[j]);
        const value = String(fields[j + 1]);
        if (f === 'v') v = value;
        else if (f === 's') s = value;
        else if (f === 'g') g = value;
        else if (f.startsWith('p:')) leases.push({ field: f, value });
      }
      if (v === undefined && s === undefined) return { kind: 'none', leases };
      const version = Number(v);
      if (v === undefined || s === undefined || !Number.isInteger(version) || version <= 0) return { kind: 'corrupt', why: 'an unreadable version' };
      return { kind: 'state', version, snapshot: s, lineage: g, leases };
    });
  }

  async save(key: string, snapshot: string, expectedVersion: number, release: readonly string[] = []): Promise<SaveOutcome> {
    const [ok, v, g] = await this.client.fpCas(storeKey(key), expectedVersion, snapshot, this.o.ttlMs, newLineage(), ...release);
    return Number(ok) === 1 ? { ok: true, version: Number(v), lineage: String(g) } : { ok: false, current: Number(v) };
  }

  async release(key: string, fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return;
    try {
      await this.client.hdel(storeKey(key), ...fields);
    } catch (e) {
      // A key of another type holds no lease of ours; anything else is the store's failure.
      if (!VALUE_ERROR.test((e as Error)?.message ?? '')) throw e;
    }
  }

  ready(): ReadyState {
    const ok = this.client.status === 'ready';
    return { ok, kind: 'valkey', detail: `${redactedUrl(this.o.url)}: ${ok ? 'connected' : `${this.client.status}${this.lastError ? ` (${this.lastError})` : ''}`}`, ...(this.recoveredAt !== undefined ? { recoveredAt: this.recoveredAt } : {}) };
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
