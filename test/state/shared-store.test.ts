// Conversation state in a real redis-server (started here on loopback, no persistence): the turns
// of recorded two-turn conversations (backup-triage: turn 2's argument was served only in turn 1)
// alternating between two pipelines with their own cores give the findings and dispositions one
// pipeline gives; a pipeline dropped mid-conversation and replaced by a fresh one keeps the
// cross-turn finding; without the store the second instance judges differently (so the
// comparison can fail). Skipped, with a message, when /usr/bin/redis-server is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_REDIS, conversationCopy, instance, send, startRedis, written, type RedisProc } from './helpers.js';
import type { Library } from '../helpers/fixtures.js';
import { ATTR_STATE_INCOMPLETE } from '../../src/findings/names.js';

const LIBS: Library[] = ['openinference-openai', 'otel-instrumentation-openai', 'traceloop-openai', 'vercel-ai'];

let redis: RedisProc;
beforeAll(async () => {
  if (HAVE_REDIS) redis = await startRedis();
});
afterAll(async () => {
  await redis?.kill();
});

/** Findings and dispositions of each turn of `lib`'s conversation when run on one memory-only pipeline. */
async function baseline(lib: Library): Promise<string[][]> {
  const one = instance();
  const conv = conversationCopy(lib, 0);
  for (const t of conv.turns) await send(one, t);
  return conv.turns.map((t) => written(one.exported, t.traceId).map((line) => line.replaceAll(conv.conversationId, 'CONV')));
}

describe.skipIf(!HAVE_REDIS)('shared conversation state (real redis-server)', () => {
  for (const lib of LIBS) {
    it(`${lib}: turns alternating between two instances give one instance's findings and dispositions`, async () => {
      const expected = await baseline(lib);
      expect(expected[1]!.some((l) => l.includes('unsupported-argument'))).toBe(true);
      const a = instance({ redisUrl: redis.url });
      const b = instance({ redisUrl: redis.url });
      await a.store!.connect(2000);
      await b.store!.connect(2000);
      try {
        // On a starved machine (load 8, CI once) B's read may miss its budget: then its turn says
        // it lacked state (never silently) and the conversation is tried again with a fresh copy;
        // a turn that differs without saying so fails at once, and one of three must be exact.
        let exact = false;
        for (let attempt = 1; attempt <= 3 && !exact; attempt++) {
          const conv = conversationCopy(lib, attempt);
          await send(a, conv.turns[0]!);
          await send(b, conv.turns[1]!);
          const got = conv.turns.map((t, i) => written(i === 0 ? a.exported : b.exported, t.traceId).map((line) => line.replaceAll(conv.conversationId, 'CONV')));
          if (JSON.stringify(got) === JSON.stringify(expected)) exact = true;
          else expect(got[1]!.some((l) => l.includes(`"${ATTR_STATE_INCOMPLETE}"`)), JSON.stringify(got[1])).toBe(true);
        }
        expect(exact).toBe(true);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }

  it('without the store, the second instance judges turn 2 differently (the comparison above can fail)', async () => {
    const expected = await baseline('openinference-openai');
    const a = instance();
    const b = instance();
    const conv = conversationCopy('openinference-openai', 2);
    await send(a, conv.turns[0]!);
    await send(b, conv.turns[1]!);
    const turn2 = written(b.exported, conv.turns[1]!.traceId).map((line) => line.replaceAll(conv.conversationId, 'CONV'));
    expect(turn2).not.toEqual(expected[1]);
  });

  it('an instance dropped mid-conversation (no shutdown, memory gone) and replaced keeps the cross-turn finding', async () => {
    const expected = await baseline('otel-instrumentation-openai');
    const first = instance({ redisUrl: redis.url });
    await first.store!.connect(2000);
    const conv = conversationCopy('otel-instrumentation-openai', 3);
    await send(first, conv.turns[0]!);
    // No flush, no quit: the process's memory is simply gone.
    (first.store as unknown as { client: { disconnect(): void } }).client.disconnect();
    const again = instance({ redisUrl: redis.url });
    await again.store!.connect(2000);
    try {
      await send(again, conv.turns[1]!);
      expect(written(again.exported, conv.turns[1]!.traceId).map((line) => line.replaceAll(conv.conversationId, 'CONV'))).toEqual(expected[1]);
    } finally {
      await again.close();
    }
  });
});
