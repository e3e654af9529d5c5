// Issue 31 item 5, shared state that is never silently missing (real redis-server on loopback):
// with writes paused, a turn is acknowledged only once its state is stored (or its absence is
// visible to every reader), so the next turn, on another instance, has it or says it lacks it;
// an instance gone right after an acknowledgement loses nothing; a stored value of the wrong type,
// an undecodable or foreign snapshot, or one with malformed ledger rows is isolated to its own
// conversation, said on that turn, counted and replaced; concurrent writers keep exact request
// counts. Every case reproduces on the code before issue 31.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_REDIS, adminClient, conversationCopy, instance, laterTurn, sendRetrying, startRedis, writtenAs, type RedisProc, type TurnBatches } from './helpers.js';
import { STATE_STORE_LEASE_MS } from '../../src/limits.js';
import { storeKey } from '../../src/state/store.js';
import { decodeConversation } from '../../src/state/conversation-codec.js';
import { conversationKey } from '../../src/runs/conversations.js';
import { ATTR_DISPOSITION_STATE, ATTR_STATE_INCOMPLETE, EVENT_ANSWER_STANDING, EVENT_DISPOSITION, STATE_INCOMPLETE_CONCURRENT, STATE_INCOMPLETE_EARLIER, STATE_INCOMPLETE_LOST } from '../../src/findings/names.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { metricSum, parseMetrics } from '../service/helpers.js';
import * as N from '../../src/service/names.js';
import type { Library } from '../helpers/fixtures.js';

const LIB: Library = 'openinference-openai';
let redis: RedisProc;
let admin: ReturnType<typeof adminClient>;
beforeAll(async () => {
  if (!HAVE_REDIS) return;
  redis = await startRedis();
  admin = adminClient(redis.url);
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.kill();
});

/** Whether the turn's disposition says its conversation state was missing (either attribute). */
const marked = (spans: readonly SpanData[], traceId: string): string | undefined => {
  for (const s of spans) {
    if (s.traceId !== traceId) continue;
    for (const e of s.events) {
      if (e.name !== EVENT_DISPOSITION) continue;
      const why = e.attributes[ATTR_STATE_INCOMPLETE] ?? e.attributes[ATTR_DISPOSITION_STATE];
      if (typeof why === 'string') return why;
    }
  }
  return undefined;
};

/** What one memory-only instance writes for each turn of a copy of the conversation. */
async function baseline(): Promise<string[][]> {
  const one = instance();
  const conv = conversationCopy(LIB, 0);
  for (const t of conv.turns) await sendRetrying(one, t);
  return conv.turns.map((t) => writtenAs(one.exported, t.traceId, conv.conversationId));
}

const keyOf = (c: TurnBatches) => storeKey(conversationKey(String(c.turns[0]!.spans[0]!.resource['service.name']), c.conversationId, ''));

/** Turn 2 either was judged with turn 1's state (as one instance judges it) or says it lacked state. */
function hasOrSays(got: string[], expected: string[], mark: string | undefined): void {
  if (mark !== undefined) return;
  expect(got).toEqual(expected);
}

describe.skipIf(!HAVE_REDIS)('conversation state is never silently missing (real redis-server)', () => {
  it('writes paused: turn 1 is acknowledged only once its state is stored or said missing; turn 2 on another instance has it or says so', async () => {
    const expected = await baseline();
    const a = instance({ redisUrl: redis.url });
    const b = instance({ redisUrl: redis.url });
    await a.store!.connect(2000);
    await b.store!.connect(2000);
    try {
      const conv = conversationCopy(LIB, 1);
      await admin.call('CLIENT', 'PAUSE', '1500', 'WRITE');
      const first = await sendRetrying(a, conv.turns[0]!);
      // Its read and lease wait on the pause like its write: it is not acknowledged until the write lands.
      expect(first.retries).toBeGreaterThan(0);
      await sendRetrying(b, conv.turns[1]!);
      hasOrSays(writtenAs(b.exported, conv.turns[1]!.traceId, conv.conversationId), expected[1]!, marked(b.exported, conv.turns[1]!.traceId));
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      await a.close();
      await b.close();
    }
  });

  it('an instance gone right after acknowledging turn 1 (its client dropped, writes paused) loses nothing unsaid', async () => {
    const expected = await baseline();
    const a = instance({ redisUrl: redis.url });
    const b = instance({ redisUrl: redis.url });
    await a.store!.connect(2000);
    await b.store!.connect(2000);
    try {
      const conv = conversationCopy(LIB, 2);
      await admin.call('CLIENT', 'PAUSE', '1500', 'WRITE');
      await sendRetrying(a, conv.turns[0]!);
      // As SIGKILL would: the process's memory and its connection are gone, pending writes with them.
      (a.store as unknown as { client: { disconnect(): void } }).client.disconnect();
      await new Promise((r) => setTimeout(r, 1600));
      await sendRetrying(b, conv.turns[1]!);
      hasOrSays(writtenAs(b.exported, conv.turns[1]!.traceId, conv.conversationId), expected[1]!, marked(b.exported, conv.turns[1]!.traceId));
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      await b.close();
    }
  });

  it('a key of the wrong type is isolated to its conversation: its neighbour in the same batch keeps its state; it is said, counted and replaced', async () => {
    const expected = await baseline();
    const a = instance({ redisUrl: redis.url });
    const b = instance({ redisUrl: redis.url });
    await a.store!.connect(2000);
    await b.store!.connect(2000);
    try {
      const broken = conversationCopy(LIB, 3);
      const healthy = conversationCopy(LIB, 4);
      await sendRetrying(a, broken.turns[0]!);
      await sendRetrying(a, healthy.turns[0]!);
      await admin.del(keyOf(broken));
      await admin.set(keyOf(broken), 'not a hash');
      // Turn 2 of both conversations in one batch.
      const both = { traceId: broken.turns[1]!.traceId, spans: [...broken.turns[1]!.spans, ...healthy.turns[1]!.spans], logs: [...broken.turns[1]!.logs, ...healthy.turns[1]!.logs] };
      await sendRetrying(b, both);
      expect(marked(b.exported, healthy.turns[1]!.traceId)).toBeUndefined();
      expect(writtenAs(b.exported, healthy.turns[1]!.traceId, healthy.conversationId)).toEqual(expected[1]);
      expect(marked(b.exported, broken.turns[1]!.traceId)).toBeDefined();
      // Replaced by a readable snapshot of its own conversation.
      expect(await admin.type(keyOf(broken))).toBe('hash');
      const s = decodeConversation((await admin.hget(keyOf(broken), 's'))!);
      expect(s?.key).toBe(conversationKey(String(broken.turns[0]!.spans[0]!.resource['service.name']), broken.conversationId, ''));
      const m = parseMetrics((await b.metrics.text()).body);
      expect(metricSum(m, N.M_STATE_STORE_OPS, 'outcome="corrupt"')).toBeGreaterThanOrEqual(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('an undecodable, a foreign and a malformed snapshot: each turn says so, each is counted and replaced', async () => {
    const a = instance({ redisUrl: redis.url });
    const b = instance({ redisUrl: redis.url });
    await a.store!.connect(2000);
    await b.store!.connect(2000);
    try {
      const convs = [5, 6, 7, 8].map((n) => conversationCopy(LIB, n));
      for (const c of convs) await sendRetrying(a, c.turns[0]!);
      const [garbled, foreign, malformed, donor] = convs as [TurnBatches, TurnBatches, TurnBatches, TurnBatches];
      await admin.hset(keyOf(garbled), 's', '{"v":3,"k":');
      await admin.hset(keyOf(foreign), 's', (await admin.hget(keyOf(donor), 's'))!);
      const snap = JSON.parse((await admin.hget(keyOf(malformed), 's'))!) as { l: Record<string, unknown>[] };
      expect(snap.l.length).toBeGreaterThan(0);
      for (const row of snap.l) delete row.reading;
      await admin.hset(keyOf(malformed), 's', JSON.stringify(snap));
      for (const c of [garbled, foreign, malformed]) {
        await sendRetrying(b, c.turns[1]!);
        expect(marked(b.exported, c.turns[1]!.traceId), c.conversationId).toBeDefined();
        const s = decodeConversation((await admin.hget(keyOf(c), 's'))!);
        expect(s?.key).toBe(conversationKey(String(c.turns[0]!.spans[0]!.resource['service.name']), c.conversationId, ''));
        expect(s!.ledger.every((r) => r.reading !== undefined)).toBe(true);
      }
      const m = parseMetrics((await b.metrics.text()).body);
      expect(metricSum(m, N.M_STATE_STORE_OPS, 'op="load",outcome="undecodable"')).toBe(3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('an instance gone between reading turn 1 and writing it: turn 2 says an earlier turn was being analysed elsewhere, or, once its lease lapsed, that its state was lost; later turns say the history has a gap', async () => {
    const gone = instance({ redisUrl: redis.url });
    const b = instance({ redisUrl: redis.url });
    // A reader an hour on: the lease of the gone instance has lapsed.
    const late = instance({ redisUrl: redis.url, now: () => Date.now() + STATE_STORE_LEASE_MS + 60_000 });
    const c = instance({ redisUrl: redis.url });
    for (const i of [gone, b, late, c]) await i.store!.connect(2000);
    try {
      const inFlight = conversationCopy(LIB, 10);
      const lapsed = conversationCopy(LIB, 11);
      // The gone instance read both turn 1s (its leases are set), analysed them, and never wrote.
      for (const conv of [inFlight, lapsed]) await gone.sync!.before({ spans: conv.turns[0]!.spans, logs: conv.turns[0]!.logs });
      await sendRetrying(b, inFlight.turns[1]!);
      expect(marked(b.exported, inFlight.turns[1]!.traceId)).toBe(STATE_INCOMPLETE_CONCURRENT);
      await sendRetrying(late, lapsed.turns[1]!);
      expect(marked(late.exported, lapsed.turns[1]!.traceId)).toBe(STATE_INCOMPLETE_LOST);
      // The answer standing says so too.
      const standing = late.exported.filter((s) => s.traceId === lapsed.turns[1]!.traceId).flatMap((s) => s.events).filter((e) => e.name === EVENT_ANSWER_STANDING);
      expect(standing.length).toBeGreaterThan(0);
      for (const e of standing) expect(e.attributes[ATTR_STATE_INCOMPLETE]).toBe(STATE_INCOMPLETE_LOST);
      // The lapsed lease is gone with that write; a later turn, on a third instance, says the history has a gap.
      const stored = await admin.hgetall(keyOf(lapsed));
      expect(Object.keys(stored).filter((f) => f.startsWith('p:'))).toEqual([]);
      const turn3 = laterTurn(lapsed.turns[1]!, 60_000);
      await sendRetrying(c, turn3);
      expect(marked(c.exported, turn3.traceId)).toBe(STATE_INCOMPLETE_EARLIER);
      // A turn whose batch finished writing leaves no lease behind.
      expect(Object.keys(await admin.hgetall(keyOf(inFlight))).filter((f) => f.startsWith('p:')).length).toBe(1); // the gone instance's
    } finally {
      for (const i of [gone, b, late, c]) await i.close();
    }
  });

  it('concurrent writers on one conversation: the stored request count is exact', async () => {
    const insts = [0, 1, 2].map(() => instance({ redisUrl: redis.url }));
    for (const i of insts) await i.store!.connect(2000);
    try {
      // Eight copies of each turn of one conversation (fresh trace ids, one conversation id).
      const base = conversationCopy(LIB, 9);
      const copies: TurnBatches['turns'] = [];
      for (let n = 0; n < 8; n++) for (const t of base.turns) {
        const traceId = `${n.toString(16).padStart(2, '0')}${t.traceId.slice(2)}`;
        copies.push({ traceId, spans: t.spans.map((s) => ({ ...s, traceId })), logs: t.logs.map((l) => ({ ...l, traceId })) });
      }
      const requests = copies.reduce((n, t) => n + t.spans.filter((s) => /chat|completion|llm/i.test(s.name) || s.attributes['openinference.span.kind'] === 'LLM').length, 0);
      expect(requests).toBe(8 * 5);
      await Promise.all(copies.map((t, i) => sendRetrying(insts[i % 3]!, t)));
      for (const i of insts) await i.flush();
      const stored = decodeConversation((await admin.hget(keyOf(base), 's'))!);
      expect(stored!.requests).toBe(requests);
    } finally {
      for (const i of insts) await i.close();
    }
  });
});
