// The store killed and restarted under a bounded load (real redis-server): every span is still
// forwarded, the turns read while it was down say "conversation state unavailable" in their
// disposition (and only those), each of their reads ended without the store's answer (refused at
// once by the disconnected client, or cut at the budget), the writes owed while it was down land
// once it is back, and conversations split across two instances are judged as on one again (the
// turns judged in the first seconds after it is back say the store was unreachable moments ago,
// and nothing else differs). Nothing here is timed: that a wait never passes the budget is
// test/state/budget.test.ts, in fake time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_REDIS, conversationCopy, instance, send, startRedis, written, type RedisProc } from './helpers.js';
import { STATE_STORE_BUDGET_MS } from '../../src/limits.js';
import { ATTR_DISPOSITION_STATE, ATTR_STATE_INCOMPLETE, EVENT_DISPOSITION, STATE_INCOMPLETE_RECOVERING, STATE_UNAVAILABLE } from '../../src/findings/names.js';
import { decodeConversation } from '../../src/state/conversation-codec.js';
import { storeKey } from '../../src/state/store.js';
import { conversationKey } from '../../src/runs/conversations.js';
import { adminClient, laterTurn } from './helpers.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { parseMetrics, metricSum } from '../service/helpers.js';
import * as N from '../../src/service/names.js';

const LIB = 'openinference-openai';
const CONVERSATIONS = 8;

let redis: RedisProc;
beforeAll(async () => {
  if (HAVE_REDIS) redis = await startRedis();
});
afterAll(async () => {
  await redis?.kill();
});

const marked = (spans: readonly SpanData[], traceId: string) =>
  spans.some((s) => s.traceId === traceId && s.events.some((e) => e.name === EVENT_DISPOSITION && e.attributes[ATTR_DISPOSITION_STATE] === STATE_UNAVAILABLE));

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

describe.skipIf(!HAVE_REDIS)('state store outage (real redis-server killed and restarted)', () => {
  it('nothing forwarded is lost, the turns read while it was down say so, their reads ended without the store', async () => {
    const a = instance({ redisUrl: redis.url });
    const b = instance({ redisUrl: redis.url });
    await a.store!.connect(2000);
    await b.store!.connect(2000);
    try {
      const one = instance();
      const base = conversationCopy(LIB, 100);
      for (const t of base.turns) await send(one, t);
      const expected = base.turns.map((t) => written(one.exported, t.traceId).map((l) => l.replaceAll(base.conversationId, 'CONV')));

      const convs = Array.from({ length: CONVERSATIONS * 2 }, (_, i) => conversationCopy(LIB, 200 + i));
      const before = convs.slice(0, CONVERSATIONS);
      const afterRestart = convs.slice(CONVERSATIONS);
      let sent = 0;
      const sendCounted = async (inst: typeof a, t: (typeof convs)[number]['turns'][number]) => {
        sent += t.spans.length;
        await send(inst, t);
      };
      // Phase 1, store up: every first turn on A.
      await Promise.all(before.map((c) => sendCounted(a, c.turns[0]!)));
      // Phase 2, store killed: every second turn on B, concurrently.
      await redis.kill();
      await Promise.all(before.map((c) => sendCounted(b, c.turns[1]!)));
      for (const c of before) {
        expect(marked(a.exported, c.turns[0]!.traceId)).toBe(false);
        expect(marked(b.exported, c.turns[1]!.traceId)).toBe(true);
      }
      // Phase 3, store back (empty: no persistence): conversations split across A and B are judged as on one.
      await redis.start();
      await until(() => a.store!.ready().ok && b.store!.ready().ok, 10_000);
      expect(a.store!.ready().ok && b.store!.ready().ok).toBe(true);
      await Promise.all(afterRestart.map((c) => sendCounted(a, c.turns[0]!)));
      await Promise.all(afterRestart.map((c) => sendCounted(b, c.turns[1]!)));
      const recovering = `,"${ATTR_STATE_INCOMPLETE}":"${STATE_INCOMPLETE_RECOVERING}"`;
      let exact = 0;
      for (const c of afterRestart) {
        const got = c.turns.map((t, i) => written(i === 0 ? a.exported : b.exported, t.traceId).map((l) => l.replaceAll(c.conversationId, 'CONV')));
        // Within seconds of the store's return, a turn says another instance's write may be owed;
        // nothing else differs. On a starved machine A's write may land after B's read (CI saw it
        // at load 7), or a turn may miss its read budget (or an acknowledgement its wait): then
        // the turn judged without it says so, "recovering" or another reason, never silently (the
        // issue 31 guarantee).
        const stripped = got.map((lines) => lines.map((l) => l.replace(recovering, '')));
        if (JSON.stringify(stripped) === JSON.stringify(expected)) exact++;
        else expect(got[1]!.some((l) => l.includes(`"${ATTR_STATE_INCOMPLETE}"`)), JSON.stringify(got[1])).toBe(true);
      }
      console.log(`[state-outage] after the restart: ${exact} of ${afterRestart.length} conversations judged exactly as on one instance, the rest said they lacked state`);
      expect(exact).toBeGreaterThan(0);
      // The writes B owed while the store was down landed once it was back (turn 1, written by A before
      // the kill, went with the store's memory: it restarted empty; A writes it back with its next turn).
      await b.flush();
      const admin = adminClient(redis.url);
      try {
        for (const c of before) {
          const text = await admin.hget(storeKey(conversationKey(String(c.turns[0]!.spans[0]!.resource['service.name']), c.conversationId, '')), 's');
          expect(decodeConversation(text!)!.requests).toBe(2);
        }
        // A's next turn of such a conversation finds a new lineage at the key and writes turn 1 back.
        const c = before[0]!;
        await sendCounted(a, laterTurn(c.turns[1]!, 60_000));
        const text = await admin.hget(storeKey(conversationKey(String(c.turns[0]!.spans[0]!.resource['service.name']), c.conversationId, '')), 's');
        expect(decodeConversation(text!)!.requests).toBe(3 + 2 + 2);
      } finally {
        admin.disconnect();
      }

      // Every span sent was forwarded (carrier spans come on top).
      const forwarded = [...a.exported, ...b.exported].filter((s) => s.name !== 'footprint.findings').length;
      expect(forwarded).toBe(sent);
      // Every batch went through the state hook; B's reads while the store was down each ended
      // without it (the client never queues while disconnected; a read that hangs is cut at the
      // budget), and those turns are counted in /metrics.
      const waits = [...a.waits, ...b.waits];
      expect(waits.length).toBeGreaterThanOrEqual(CONVERSATIONS * 4);
      const m = parseMetrics((await b.metrics.text()).body);
      // Every turn read while the store was down; on a starved machine a later read may miss its budget too (and say so).
      const loadsWithout = metricSum(m, N.M_STATE_STORE_OPS, 'op="load",outcome="unavailable"') + metricSum(m, N.M_STATE_STORE_OPS, 'op="load",outcome="over-budget"');
      expect(loadsWithout).toBeGreaterThanOrEqual(CONVERSATIONS);
      expect(loadsWithout).toBeLessThanOrEqual(CONVERSATIONS * 2);
      expect(metricSum(m, N.M_STATE_UNAVAILABLE)).toBeGreaterThanOrEqual(CONVERSATIONS);
      expect(metricSum(m, N.M_STATE_UNAVAILABLE)).toBeLessThanOrEqual(CONVERSATIONS * 2);
      expect(metricSum(m, N.M_STATE_STORE_OPS, 'outcome="ok"')).toBeGreaterThan(0);
      // Figures for the log, not asserted (a loaded machine stretches any wall-clock wait).
      console.log(`[state-outage] ${sent} spans forwarded of ${sent}; store wait max ${Math.max(...waits).toFixed(1)} ms (budget ${STATE_STORE_BUDGET_MS} ms); ${CONVERSATIONS} turns marked unavailable`);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
