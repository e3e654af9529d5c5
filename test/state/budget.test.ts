// The store budgets in fake time: a batch's read waits on the shared state store at most
// STATE_STORE_BUDGET_MS, and its acknowledgement waits for the write at most
// STATE_STORE_ACK_WAIT_MS (a write that never lands is then said covered or unstored, never
// stored), however long the store takes to answer. The
// clock is vitest's, so a loaded machine cannot make this pass or fail (the outage test with a
// real redis-server checks the rest, without timing anything).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StateSync } from '../../src/state/sync.js';
import type { ConversationStateStore } from '../../src/state/store.js';
import { STATE_STORE_ACK_WAIT_MS, STATE_STORE_BUDGET_MS } from '../../src/limits.js';
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

    // The acknowledgement waits for the write, bounded by its own wait (issue 31): never past it.
    const result = core.process({ spans: turn.spans });
    let settled: string | undefined;
    void sync.after(held!, { spans: turn.spans }, result).then((r) => (settled = r));
    await vi.advanceTimersByTimeAsync(STATE_STORE_ACK_WAIT_MS - 1);
    expect(settled, 'the write is still awaited one millisecond before its wait is up').toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled, 'a write that never lands is not claimed stored').toMatch(/^(covered|unstored)$/);
    expect(store.saves).toBeGreaterThan(0);
  });

  it('a read answered late but within the budget is used; the write then has its own bounded wait', async () => {
    const store = hangingStore();
    let answer!: () => void;
    store.load = (keys) => {
      store.loads++;
      return new Promise((r) => (answer = () => r(keys.map(() => ({ kind: 'none' as const, leases: [] })))));
    };
    const core = new FootprintCore({});
    const sync = new StateSync({ store, access: core.stateAccess(), maxSnapshotBytes: 1 << 20, maxConversations: 100, idleMs: 60_000 });
    const turn = conversationCopy('openinference-openai', 901).turns[0]!;
    let held: Awaited<ReturnType<StateSync['before']>> | undefined;
    void sync.before({ spans: turn.spans }).then((h) => (held = h));
    await vi.advanceTimersByTimeAsync(STATE_STORE_BUDGET_MS - 10);
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(held).toMatchObject({ unavailable: false, waitedMs: STATE_STORE_BUDGET_MS - 10 });
    let settled: string | undefined;
    void sync.after(held!, { spans: turn.spans }, core.process({ spans: turn.spans })).then((r) => (settled = r));
    await vi.advanceTimersByTimeAsync(STATE_STORE_ACK_WAIT_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled, 'the write has its own wait, whatever the read used').toMatch(/^(covered|unstored)$/);
  });
});
