// Conversation state across real `serve` processes (node dist/cli/main.js serve --state redis://…)
// over a real redis-server on loopback: a conversation whose turn 1 goes to one process and turn 2
// to another gets the findings and dispositions one memory-only process gives for both; a process
// SIGKILLed after turn 1 and restarted on the same port keeps the cross-turn finding. Downstream is
// a loopback sink decoding what each process exports. Skipped, with a message, without redis-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'iovalkey';
import { HAVE_REDIS, conversationCopy, startRedis, written, type RedisProc } from './helpers.js';
import { ensureDist, killAllChildren, protoBody, sleep, startChildService, startFaultSink, writeConfig, type FaultSink } from '../reliability/helpers.js';
import { DECLARATIONS } from '../service/helpers.js';
import type { TurnBatches } from './helpers.js';

// A spans-only layout (its content is in span attributes, no log records to join).
const LIB = 'traceloop-openai' as const;

let redis: RedisProc;
let sink: FaultSink;
beforeAll(async () => {
  if (!HAVE_REDIS) return;
  ensureDist();
  redis = await startRedis();
  sink = await startFaultSink();
}, 180_000);
afterAll(async () => {
  await killAllChildren();
  await sink?.close();
  await redis?.kill();
});

const configOf = (state: string) => writeConfig({ downstream: { tracesEndpoint: `${sink.url}/v1/traces`, logsEndpoint: `${sink.url}/v1/logs`, timeoutMs: 5000 }, declarations: DECLARATIONS, state });

async function post(address: string, turn: TurnBatches['turns'][number]): Promise<void> {
  const r = await fetch(`${address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: protoBody(turn.spans), signal: AbortSignal.timeout(20_000) });
  expect(r.status, await r.text()).toBe(200);
}

/** What footprint wrote on a turn, as the sink received it (conversation id normalised). */
const turnWritten = (conv: TurnBatches, i: number) => written(sink.spans, conv.turns[i]!.traceId).map((l) => l.replaceAll(conv.conversationId, 'CONV'));

/** Waits (bounded) until the store holds at least `n` conversation keys: a write may finish after the 200. */
async function storeHolds(n: number): Promise<void> {
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const until = Date.now() + 10_000;
    while ((await client.keys('fp:*')).length < n && Date.now() < until) await sleep(50);
    expect((await client.keys('fp:*')).length).toBeGreaterThanOrEqual(n);
  } finally {
    client.disconnect();
  }
}

describe.skipIf(!HAVE_REDIS)('conversation state across serve processes (real redis-server)', () => {
  let baseline: string[][];
  let keys = 0;

  it('one memory-only process, both turns: the cross-turn finding on turn 2 (the baseline)', async () => {
    const one = await startChildService(configOf('memory'));
    try {
      const conv = conversationCopy(LIB, 10);
      for (const t of conv.turns) await post(one.address, t);
      baseline = conv.turns.map((_, i) => turnWritten(conv, i));
      expect(baseline[1]!.some((l) => l.includes('unsupported-argument'))).toBe(true);
    } finally {
      await one.stop();
    }
  }, 90_000);

  it('turn 1 to process A, turn 2 to process B: the same findings and dispositions', async () => {
    const a = await startChildService(configOf(redis.url));
    const b = await startChildService(configOf(redis.url));
    try {
      const conv = conversationCopy(LIB, 11);
      await post(a.address, conv.turns[0]!);
      await storeHolds(++keys);
      await post(b.address, conv.turns[1]!);
      const got = conv.turns.map((_, i) => turnWritten(conv, i));
      expect(got).toEqual(baseline);
      expect(got.flat().some((l) => l.includes('conversation state unavailable'))).toBe(false);
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 90_000);

  it('process A SIGKILLed after turn 1 and restarted on the same port: turn 2 keeps the cross-turn finding', async () => {
    const a = await startChildService(configOf(redis.url));
    const conv = conversationCopy(LIB, 12);
    await post(a.address, conv.turns[0]!);
    await storeHolds(++keys);
    await a.stop('SIGKILL');
    const again = await startChildService(configOf(redis.url), a.port);
    try {
      await post(again.address, conv.turns[1]!);
      expect(turnWritten(conv, 1)).toEqual(baseline[1]);
    } finally {
      await again.stop();
    }
  }, 90_000);

  it('control: two memory-only processes judge turn 2 without turn 1 (the comparisons above can fail)', async () => {
    const a = await startChildService(configOf('memory'));
    const b = await startChildService(configOf('memory'));
    try {
      const conv = conversationCopy(LIB, 13);
      await post(a.address, conv.turns[0]!);
      await post(b.address, conv.turns[1]!);
      expect(turnWritten(conv, 1)).not.toEqual(baseline[1]);
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 90_000);
});
