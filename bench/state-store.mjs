// Shared conversation-state store: its cost per turn on loopback and the service pipeline's
// throughput with it, against `memory`. A real redis-server (Debian's /usr/bin/redis-server) is
// started on 127.0.0.1, a free port, no persistence; skipped, saying so, when it is absent.
// Workload: the recorded backup-triage conversation (openinference-openai), CONVERSATIONS copies
// with fresh trace and conversation ids, turn 1 on instance A and turn 2 on instance B (two
// Pipelines in this process, each with its own FootprintCore and its own store client), CONCURRENCY
// batches in flight per instance. Figures:
//   store cost per turn: time a turn's batch waited on the store (read before + write after), p50/p99;
//   throughput: turns per second, with the store (turns split over A and B) and with `memory`
//   (both turns on one instance: the same findings); alternating rounds, median; target ratio >= 0.8.
// The wait includes the event loop running the other in-flight batches' analysis; with
// BENCH_STATE_CONCURRENCY=1 it is the store's own cost (round trips, encode, decode).
// Usage: npm run build && node bench/state-store.mjs   (BENCH_STATE_CONVERSATIONS, BENCH_STATE_ROUNDS, BENCH_STATE_CONCURRENCY)

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { FootprintCore } from '../dist/runs/footprint.js';
import { Pipeline } from '../dist/service/pipeline.js';
import { ServiceMetrics } from '../dist/service/metrics.js';
import { FindingsStore } from '../dist/service/findings-store.js';
import { defaultServiceConfig } from '../dist/service/config.js';
import { decodeOtlpJsonText } from '../dist/otlp/json.js';
import { loadDeclarationsFile } from '../dist/declarations/load.js';
import { StateSync } from '../dist/state/sync.js';
import { StateMetrics } from '../dist/state/metrics.js';
import { ValkeyStateStore } from '../dist/state/valkey-store.js';
import { emit, median, round } from './lib.mjs';

const REDIS = '/usr/bin/redis-server';
const CONVERSATIONS = Number(process.env.BENCH_STATE_CONVERSATIONS ?? 200);
const ROUNDS = Number(process.env.BENCH_STATE_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_STATE_CONCURRENCY ?? 4);
const FIX = new URL('../test/fixtures/', import.meta.url).pathname;

if (!existsSync(REDIS)) {
  console.log(`state-store: skipped (${REDIS} is absent; apt-get install redis-server)`);
  emit('state-store', { skipped: `${REDIS} absent` });
  process.exit(0);
}

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const p = s.address().port;
  await new Promise((r) => s.close(r));
  return p;
}

async function startRedis() {
  const port = await freePort();
  const child = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  return { url: `redis://127.0.0.1:${port}`, kill: () => child.kill('SIGKILL') };
}

const doc = decodeOtlpJsonText(readFileSync(`${FIX}openinference-openai/backup-triage.otlp.json`, 'utf8'), 'fixture');
const CONV = JSON.parse(readFileSync(`${FIX}openinference-openai/backup-triage.expected.json`, 'utf8')).conversationId;
const decl = loadDeclarationsFile(`${FIX}declarations.yaml`);
if (!decl.ok) throw new Error(decl.errors.join('\n'));
const traceOrder = [...new Set(doc.spans.map((d) => d.span.traceId))].sort((a, b) => {
  const start = (t) => doc.spans.filter((d) => d.span.traceId === t).reduce((m, d) => (d.span.startTimeUnixNano < m ? d.span.startTimeUnixNano : m), 1n << 80n);
  return start(a) < start(b) ? -1 : 1;
});

const swap = (v, to) => (typeof v === 'string' ? (v === CONV ? to : v) : v);
/** Copy n: one traces batch per turn, fresh ids. */
function copy(n) {
  const conv = `${CONV}-${n}-${randomBytes(4).toString('hex')}`;
  return traceOrder.map((t) => {
    const traceId = randomBytes(16).toString('hex');
    const spans = doc.spans.filter((d) => d.span.traceId === t).map((d) => ({ span: { ...d.span, traceId, attributes: Object.fromEntries(Object.entries(d.span.attributes).map(([k, v]) => [k, swap(v, conv)])) }, extras: {} }));
    return { signal: 'traces', transport: 'http', spans, rejected: 0, diagnostics: [], body: Buffer.from(`${traceId}`) };
  });
}

function instance(url, costs) {
  const config = { ...defaultServiceConfig(), embedded: { runs: 10, print: false } };
  const core = new FootprintCore({ declarations: decl.declarations, tenantAttribute: config.tenantAttribute });
  const metrics = new ServiceMetrics(() => core.stats());
  const downstream = { hasLogs: false, exportSpans: async () => ({ ok: true }), forwardLogs: async () => ({ ok: true }), shutdown: async () => {} };
  let store = null;
  let state;
  if (url) {
    store = new ValkeyStateStore({ url, ttlMs: 60_000 });
    const sync = new StateSync({ store, access: core.stateAccess(), metrics: new StateMetrics(metrics.registry, () => store.ready().ok), maxSnapshotBytes: config.limits.bytesPerConversation, maxConversations: 10_000, idleMs: 60_000 });
    const started = new WeakMap();
    state = {
      before: async (input) => {
        const t0 = performance.now();
        const h = await sync.before(input);
        started.set(h, performance.now() - t0);
        return h;
      },
      after: async (h, input, result) => {
        const t0 = performance.now();
        const settled = await sync.after(h, input, result);
        costs.push(started.get(h) + performance.now() - t0);
        return settled;
      },
      retry: (h) => sync.retry(h),
    };
  }
  const pipeline = new Pipeline({ config, core, downstream, store: new FindingsStore(10, 'quote', 64), metrics, log: () => {}, stdout: () => {}, ...(state ? { state } : {}) });
  return { pipeline, store };
}

async function drive(inst, batches) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batches.length) {
        const o = await inst.pipeline.submit(batches[next++]);
        if (o.status !== 'ok') throw new Error(`not accepted: ${JSON.stringify(o)}`);
      }
    }),
  );
}

/** Turns per second: every first turn through A, then every second turn through B. */
async function runOnce(url, costs) {
  // With `memory` both turns go to one instance (the only way memory judges turn 2 with its
  // history, and the same findings as the store gives); with the store, to two.
  const a = instance(url, costs);
  const b = url ? instance(url, costs) : a;
  await a.store?.connect(2000);
  if (b !== a) await b.store?.connect(2000);
  const convs = Array.from({ length: CONVERSATIONS }, (_, i) => copy(i));
  const t0 = performance.now();
  await drive(a, convs.map((c) => c[0]));
  await drive(b, convs.map((c) => c[1]));
  const ms = performance.now() - t0;
  await a.store?.close();
  if (b !== a) await b.store?.close();
  return (CONVERSATIONS * 2 * 1000) / ms;
}

const pct = (xs, p) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const redis = await startRedis();
try {
  await runOnce(null, []); // warm-up
  await runOnce(redis.url, []);
  const mem = [];
  const withStore = [];
  const costs = [];
  for (let r = 0; r < ROUNDS; r++) {
    mem.push(await runOnce(null, []));
    withStore.push(await runOnce(redis.url, costs));
  }
  const ratio = median(withStore) / median(mem);
  const result = {
    conversations: CONVERSATIONS,
    rounds: ROUNDS,
    storeCostPerTurnMs: { p50: round(pct(costs, 50), 3), p99: round(pct(costs, 99), 3), turns: costs.length },
    turnsPerSecond: { memory: round(median(mem), 1), store: round(median(withStore), 1) },
    ratio: round(ratio, 3),
    target: 0.8,
    met: ratio >= 0.8,
  };
  console.log(`state-store: store cost per turn p50 ${result.storeCostPerTurnMs.p50} ms, p99 ${result.storeCostPerTurnMs.p99} ms (${costs.length} turns, loopback redis-server)`);
  console.log(`state-store: ${result.turnsPerSecond.store} turns/s with the store vs ${result.turnsPerSecond.memory} with memory: ${result.ratio}x (target >= 0.8)`);
  emit('state-store', result);
} finally {
  redis.kill();
}
