// The store budget in fake time: a batch waits on the shared state store at most
// STATE_STORE_BUDGET_MS, read and write together, however long the store takes to answer. The
// clock is vitest's, so a loaded machine cannot make this pass or fail (the outage test with a
// real redis-server checks the rest, without timing anything).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StateSync } from '../../src/state/sync.js';
import type { ConversationStateStore } from '../../src/state/store.js';
import { STATE_STORE_BUDGET_MS } from '../../src/limits.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { conversationCopy } from './helpers.js';

/** A store that never answers (a network partition): every call hangs. */
function hangingStore(): ConversationStateStore & { loads: number; saves: number } {
  const s = {
    kind: 'valkey' as const,
    loads: 0,
    saves: 0,
    load: () => {
      s.loads++;
      return new Promise<never>(() => {});
    },
    save: () => {
      s.saves++;
      return new Promise<never>(() => {});
    },
    ready: () => ({ ok: true }),
    connect: async () => {},
    close: async () => {},
  };
  return s as never;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  // The sync measures waits with performance.now(): the same fake clock.
  vi.spyOn(performance, 'now').mockImplementation(() => Date.now());
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('state store budget (fake time)', () => {
  it('a read the store never answers gives up at the budget, not a tick later, and the turn is judged without it', async () => {
    const store = hangingStore();
    const core = new FootprintCore({});
    const sync = new StateSync({ store, access: core.stateAccess(), maxSnapshotBytes: 1 << 20, maxConversations: 100, idleMs: 60_000 });
    const turn = conversationCopy('openinference-openai', 900).turns[0]!;
    let held: Awaited<ReturnType<StateSync['before']>> | undefined;
    void sync.before({ spans: turn.spans }).then((h) => (held = h));
    await vi.advanceTimersByTimeAsync(STATE_STORE_BUDGET_MS - 1);
    expect(held, 'still waiting one millisecond before the budget').toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(held).toMatchObject({ unavailable: true });
    expect(held!.waitedMs).toBe(STATE_STORE_BUDGET_MS);
    expect(store.loads).toBe(1);

    // The write shares the same budget: what the read used is not given again.
    const result = core.process({ spans: turn.spans });
    let wrote = false;
    void sync.after(held!, { spans: turn.spans }, result).then(() => (wrote = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(wrote, 'the read used the whole budget: the write does not hold the batch').toBe(true);
    expect(store.saves).toBeGreaterThan(0); // it was started, and finishes (or not) in the background
  });

  it('a read answered late but within the budget is used; the write then gets only what is left', async () => {
    const store = hangingStore();
    let answer!: (v: null[]) => void;
    store.load = (keys) => {
      store.loads++;
      return new Promise((r) => (answer = () => r(keys.map(() => null))));
    };
    const core = new FootprintCore({});
    const sync = new StateSync({ store, access: core.stateAccess(), maxSnapshotBytes: 1 << 20, maxConversations: 100, idleMs: 60_000 });
    const turn = conversationCopy('openinference-openai', 901).turns[0]!;
    let held: Awaited<ReturnType<StateSync['before']>> | undefined;
    void sync.before({ spans: turn.spans }).then((h) => (held = h));
    await vi.advanceTimersByTimeAsync(STATE_STORE_BUDGET_MS - 10);
    answer([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(held).toMatchObject({ unavailable: false, waitedMs: STATE_STORE_BUDGET_MS - 10 });
    let wrote = false;
    void sync.after(held!, { spans: turn.spans }, core.process({ spans: turn.spans })).then(() => (wrote = true));
    await vi.advanceTimersByTimeAsync(9);
    expect(wrote).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(wrote, 'read + write together: the budget').toBe(true);
  });
});
