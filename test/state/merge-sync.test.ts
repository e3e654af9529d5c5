// Conflicts between instances, on the in-process store (no redis needed): two cores that analysed
// different turns of one conversation from the same base both write; the second write meets the
// first's newer version, reads it and merges, so the store ends with the union of both (requests
// numbered after the store's), and neither write is lost. Plus merge's own ordering rules.
import { describe, expect, it } from 'vitest';
import { MemoryStateStore, storeKey } from '../../src/state/store.js';
import { decodeConversation, encodeConversation } from '../../src/state/conversation-codec.js';
import { StateSync } from '../../src/state/sync.js';
import type { ConversationStateAccess } from '../../src/runs/state-access.js';
import { mergeConversation } from '../../src/state/merge.js';
import type { ConversationState } from '../../src/runs/conversations.js';
import { servedKey } from '../../src/runs/conversations.js';
import { ServedHistory } from '../../src/runs/served-history.js';
import { conversationCopy, instance, send } from './helpers.js';
import { metricSum, parseMetrics } from '../service/helpers.js';
import * as N from '../../src/service/names.js';

function state(key: string, requests: number, served: [string, number][], calls: [string, number][], ids: number[] = Array.from({ length: requests }, (_, i) => 1000 + i)): ConversationState {
  const s = served.map(([text, request]) => ({ source: 'tool-result' as const, message: 1, text, request }));
  return {
    key,
    requests,
    requestIds: ids,
    served: ServedHistory.of(s, servedKey),
    resultTools: new Set(['t']),
    chosen: new Map(calls.map(([id, request]) => [id, { request, toolName: 't' }])),
    ledger: calls.map(([id, request], i) => ({ span: { traceId: 'a'.repeat(32), spanId: id.padStart(16, '0') }, traceId: 'a'.repeat(32), request, toolName: 't', callId: id, arguments: {}, result: [], outcome: 'ran' as const, reading: { emptiness: 'undeclared-empty' as const, shape: 'array' as const }, startTimeUnixNano: BigInt(request * 10 + i), source: 'span' as const })),
    bytes: 100,
    incomplete: false,
  };
}

describe('merge of two versions grown from one base', () => {
  it('keeps every store row and appends the local additions numbered after the store', () => {
    const base: [string, number][] = [['alpha', 1]];
    // Request 1 is the same request on both sides; each side's request 2 is its own.
    const store = state('k', 2, [...base, ['beta', 2]], [['c1', 1], ['c2', 2]], [7, 8]);
    const local = state('k', 2, [...base, ['gamma', 2]], [['c1', 1], ['c3', 2]], [7, 9]);
    const m = mergeConversation(store, local);
    expect(m.requests).toBe(3);
    expect(m.served.all().map((s) => [s.text, s.request])).toEqual([['alpha', 1], ['beta', 2], ['gamma', 3]]);
    expect([...m.chosen].map(([id, c]) => [id, c.request])).toEqual([['c1', 1], ['c2', 2], ['c3', 3]]);
    expect(m.ledger.map((r) => [r.callId, r.request])).toEqual([['c1', 1], ['c2', 2], ['c3', 3]]);
    expect(m.served.has(servedKey('gamma'))).toBe(true);
    // The store's own history is left as it was (the merge is pure).
    expect(store.served.all().map((s) => s.text)).toEqual(['alpha', 'beta']);
    expect(m.requestIds).toEqual([7, 8, 9]);
  });

  it('is idempotent: merging a state the store already holds (in part or whole) counts nothing twice', () => {
    const store = state('k', 3, [['alpha', 1], ['beta', 2], ['gamma', 3]], [['c1', 1], ['c2', 2], ['c3', 3]], [7, 8, 9]);
    // This instance's state already written (requests 7 and 9, numbered 1 and 2 here).
    const local = state('k', 2, [['alpha', 1], ['gamma', 2]], [['c1', 1], ['c3', 2]], [7, 9]);
    const m = mergeConversation(store, local);
    expect(m.requests).toBe(3);
    expect(m.requestIds).toEqual([7, 8, 9]);
    expect(m.served.all().map((s) => [s.text, s.request])).toEqual([['alpha', 1], ['beta', 2], ['gamma', 3]]);
    const again = mergeConversation(m, local);
    expect(again.requests).toBe(3);
    expect(mergeConversation(m, m).requests).toBe(3);
  });
});

type Entries = { map: { pairs(): [string, { snapshot?: { snapshot: string; version: number } }][] } };
function storedOf(store: MemoryStateStore, conversationId: string): { state: ConversationState; version: number; key: string } {
  const hit = (store as unknown as Entries).map.pairs().find(([k, e]) => k.includes(`:c:${encodeURIComponent(conversationId)}}`) && e.snapshot);
  if (!hit) throw new Error('conversation not stored');
  return { state: decodeConversation(hit[1].snapshot!.snapshot)!, version: hit[1].snapshot!.version, key: hit[0] };
}

describe('concurrent writes through the sync (in-process store)', () => {
  it('two instances writing the same conversation from one base: the store holds both turns, nothing lost', async () => {
    // Reference: one instance, turns in order.
    const alone = new MemoryStateStore({ maxEntries: 100, ttlMs: 60_000 });
    const ref = conversationCopy('openinference-openai', 6);
    const one = instance({ store: alone });
    for (const t of ref.turns) await send(one, t);
    const expected = storedOf(alone, ref.conversationId).state;

    const shared = new MemoryStateStore({ maxEntries: 100, ttlMs: 60_000 });
    const a = instance({ store: shared });
    const b = instance({ store: shared });
    const conv = conversationCopy('openinference-openai', 7);
    shared.delayMs = 5; // both reads land before either write
    // Both read the empty base and analyse a different turn of the conversation at the same time.
    await Promise.all([send(a, conv.turns[0]!), send(b, conv.turns[1]!)]);
    const got = storedOf(shared, conv.conversationId);
    // Two writes from the same base: the second met the first's version, merged and wrote version 2.
    expect(got.version).toBe(2);
    const conflicts = async (i: typeof a) => metricSum(parseMetrics((await i.metrics.text()).body), N.M_STATE_STORE_OPS, 'outcome="conflict"');
    expect((await conflicts(a)) + (await conflicts(b))).toBe(1);
    expect(storeKey(got.state.key)).toBe(got.key);
    expect(got.state.requests).toBe(expected.requests);
    expect(new Set(got.state.ledger.map((r) => r.traceId))).toEqual(new Set(conv.turns.map((t) => t.traceId)));
    expect(got.state.ledger.map((r) => r.callId)).toEqual(expected.ledger.map((r) => r.callId));
    expect(new Set(got.state.served.all().map((s) => s.text))).toEqual(new Set(expected.served.all().map((s) => s.text)));
    expect(new Set(got.state.chosen.keys())).toEqual(new Set(expected.chosen.keys()));
  });

  it('a conversation the core evicts while its write meets a newer version is still merged and written (from its snapshot, its released history never read)', async () => {
    const key = 'tenant\u0000conv\u0000evicted-during-write';
    const store = new MemoryStateStore({ maxEntries: 100, ttlMs: 60_000 });
    // Another instance wrote its turn first: the store holds version 1 without this instance's turn.
    const remote = state(key, 1, [['remote result', 1]], [['c1', 1]], [1000]);
    expect((await store.save(key, encodeConversation(remote), 0)).ok).toBe(true);
    const local = state(key, 1, [['local result', 1]], [['c2', 1]], [2000]);
    const held = new Map([[key, local]]);
    const access: ConversationStateAccess = {
      keysOf: () => [key],
      tracesOf: () => [],
      keysByTrace: () => new Map(),
      earliestStartMs: () => Infinity,
      peek: (k) => held.get(k),
      hydrate: (k, st) => void held.set(k, st),
    };
    // The write meets version 1; while it waits, the core evicts the conversation and gives its history back.
    const save = store.save.bind(store);
    let conflicts = 0;
    store.save = async (...args) => {
      const r = await save(...args);
      if (!r.ok && conflicts++ === 0) {
        held.delete(key);
        local.served.release();
      }
      return r;
    };
    const sync = new StateSync({ store, access, maxSnapshotBytes: 1 << 20, maxConversations: 100, idleMs: 60_000 });
    const hold = { keys: [key], waitedMs: 0, unavailable: false, lease: 'lease', leased: false, written: [], stale: new Map() };
    const settled = await sync.after(hold, { spans: [] }, { annotations: new Map(), carriers: [], findings: [], diagnostics: [] });
    expect(settled).toBe('stored');
    expect(conflicts).toBe(1);
    const got = decodeConversation(store.peekSnapshot(key)!.snapshot)!;
    expect(store.peekSnapshot(key)!.version).toBe(2);
    expect(got.requests).toBe(2);
    expect(got.requestIds).toEqual([1000, 2000]);
    expect(got.ledger.map((r) => r.callId)).toEqual(['c1', 'c2']);
    expect(got.served.all().map((r) => r.text)).toEqual(['remote result', 'local result']);
  });
});
