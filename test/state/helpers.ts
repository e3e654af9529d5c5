// Test helpers for the shared state store: a real redis-server on 127.0.0.1 (a free port, no
// persistence) that can be killed and restarted on the same port, recorded multi-turn
// conversations split into one batch per turn (re-traced and re-keyed so copies are distinct), and
// pipelines with their own core and store client, exporting to an in-memory downstream.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { FootprintCore } from '../../src/runs/footprint.js';
import { Pipeline, type Batch } from '../../src/service/pipeline.js';
import { ServiceMetrics } from '../../src/service/metrics.js';
import { FindingsStore } from '../../src/service/findings-store.js';
import type { Downstream } from '../../src/service/downstream.js';
import type { AttrValue, LogData, SpanData } from '../../src/model/telemetry.js';
import { StateSync } from '../../src/state/sync.js';
import { StateMetrics } from '../../src/state/metrics.js';
import { ValkeyStateStore } from '../../src/state/valkey-store.js';
import { Redis as ValkeyRedis } from 'iovalkey';
import type { ConversationStateStore } from '../../src/state/store.js';
import type { StateHook } from '../../src/state/hook.js';
import { loadFixture, type Library } from '../helpers/fixtures.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { DECLARATIONS, testConfig } from '../service/helpers.js';
import { ATTR_FINDING_ID, EVENT_DISPOSITION, EVENT_FINDING } from '../../src/findings/names.js';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const HAVE_REDIS = existsSync(REDIS_SERVER);
if (!HAVE_REDIS) console.warn(`test/state: ${REDIS_SERVER} is absent (apt-get install redis-server): the shared-store tests are skipped`);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface RedisProc {
  url: string;
  port: number;
  kill(): Promise<void>;
  start(): Promise<void>;
}

export async function startRedis(): Promise<RedisProc> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const c = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      c.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((r) => {
      c.once('exit', () => r());
      c.kill('SIGKILL');
    });
    child = null;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start };
}

/** A recorded conversation copy: one batch per turn (its trace's spans, then its log records). */
export interface TurnBatches {
  conversationId: string;
  turns: { traceId: string; spans: SpanData[]; logs: LogData[] }[];
}

function replaceDeep(v: AttrValue, from: string, to: string): AttrValue {
  if (typeof v === 'string') return v === from ? to : v;
  if (Array.isArray(v)) return v.map((x) => replaceDeep(x, from, to));
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceDeep(x, from, to)]));
  return v;
}
const rekey = (a: Record<string, AttrValue>, from: string, to: string) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, replaceDeep(v, from, to)]));

/** The library's backup-triage conversation, its trace ids and conversation id made fresh (copy `n`). */
export function conversationCopy(lib: Library, n: number): TurnBatches {
  const { doc, expected } = loadFixture(lib, 'backup-triage');
  const conv = `${expected.conversationId}-copy-${n}-${randomBytes(4).toString('hex')}`;
  const traceMap = new Map<string, string>();
  const newTrace = (t: string) => {
    if (!traceMap.has(t)) traceMap.set(t, randomBytes(16).toString('hex'));
    return traceMap.get(t)!;
  };
  // Turns in the order they ran: by their earliest span start.
  const start = new Map<string, bigint>();
  for (const d of doc.spans) {
    const s = start.get(d.span.traceId);
    if (s === undefined || d.span.startTimeUnixNano < s) start.set(d.span.traceId, d.span.startTimeUnixNano);
  }
  const order = [...start.keys()].sort((a, b) => (start.get(a)! < start.get(b)! ? -1 : 1));
  return {
    conversationId: conv,
    turns: order.map((t) => ({
      traceId: newTrace(t),
      spans: doc.spans.filter((d) => d.span.traceId === t).map((d) => ({ ...d.span, traceId: newTrace(t), attributes: rekey(d.span.attributes, expected.conversationId, conv) })),
      logs: doc.logs.filter((l) => l.traceId === t).map((l) => ({ ...l, traceId: newTrace(t), attributes: rekey(l.attributes, expected.conversationId, conv) })),
    })),
  };
}

let bodySeq = 0;
export function batchesOf(turn: TurnBatches['turns'][number]): Batch[] {
  const out: Batch[] = [{ signal: 'traces', transport: 'http', spans: turn.spans.map((span) => ({ span, extras: {} })), rejected: 0, diagnostics: [], body: Buffer.from(`traces ${turn.traceId} ${bodySeq++}`) }];
  if (turn.logs.length) out.push({ signal: 'logs', transport: 'http', logs: turn.logs, rejected: 0, diagnostics: [], body: Buffer.from(`logs ${turn.traceId} ${bodySeq++}`), contentType: 'application/x-protobuf' });
  return out;
}

export interface Instance {
  pipeline: Pipeline;
  exported: SpanData[];
  metrics: ServiceMetrics;
  store: ConversationStateStore | null;
  /** Milliseconds each batch's analysis waited on the store's read (its answer may wait longer for the write, up to STATE_STORE_ACK_WAIT_MS). */
  waits: number[];
  /** The sync (with a store). */
  sync: StateSync | undefined;
  /** Waits for store writes still under way (a write past the budget finishes in the background). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const declarations = (() => {
  const r = loadDeclarationsFile(DECLARATIONS);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.declarations;
})();

/** One service pipeline with its own core; with `store`, a StateSync over it (its own client). */
export function instance(opts: { redisUrl?: string; store?: ConversationStateStore; budgetMs?: number; now?: () => number } = {}): Instance {
  const config = testConfig();
  const core = new FootprintCore({ declarations, tenantAttribute: config.tenantAttribute });
  const exported: SpanData[] = [];
  const downstream: Downstream = {
    hasLogs: false,
    exportSpans: async (items) => {
      exported.push(...items.map((x) => x.span));
      return { ok: true };
    },
    forwardLogs: async () => ({ ok: true }),
    shutdown: async () => {},
  };
  const metrics = new ServiceMetrics(() => core.stats());
  const store = opts.store ?? (opts.redisUrl ? new ValkeyStateStore({ url: opts.redisUrl, ttlMs: 60_000 }) : null);
  const waits: number[] = [];
  let state: StateHook | undefined;
  let sync: StateSync | undefined;
  if (store) {
    sync = new StateSync({ store, access: core.stateAccess(), metrics: new StateMetrics(metrics.registry, () => store.ready().ok), maxSnapshotBytes: config.limits.bytesPerConversation, maxConversations: 1000, idleMs: 60_000, ...(process.env.FP_DBG ? { log: (l: string, m: string) => console.log(l, m) } : {}), ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}), ...(opts.now ? { now: opts.now } : {}) });
    state = {
      before: async (input) => {
        const t0 = performance.now();
        const h = await sync!.before(input);
        waits.push(performance.now() - t0);
        return h;
      },
      after: (h, input, result) => sync!.after(h, input, result),
      retry: (h) => sync!.retry(h),
    };
  }
  const pipeline = new Pipeline({ config, core, downstream, store: new FindingsStore(10, 'quote', 64), metrics, log: () => {}, stdout: () => {}, ...(state ? { state } : {}) });
  return { pipeline, exported, metrics, store, waits, sync, flush: async () => void (await sync?.flush(5000)), close: async () => void (await store?.close()) };
}

/** What footprint wrote, per turn: findings and dispositions (span and finding ids, times left out). */
export function written(spans: readonly SpanData[], traceId: string): string[] {
  const out: string[] = [];
  for (const s of spans) {
    if (s.traceId !== traceId) continue;
    for (const e of s.events) {
      if (e.name !== EVENT_FINDING && e.name !== EVENT_DISPOSITION) continue;
      // The finding id hashes the trace id, which differs between copies: left out.
      const { [ATTR_FINDING_ID]: _id, ...attrs } = e.attributes;
      out.push(`${s.name} ${e.name} ${JSON.stringify(attrs, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
    }
  }
  return out.sort();
}

export async function send(inst: Instance, turn: TurnBatches['turns'][number]): Promise<void> {
  for (const b of batchesOf(turn)) {
    const o = await inst.pipeline.submit(b);
    if (o.status !== 'ok') throw new Error(`batch not accepted: ${JSON.stringify(o)}`);
  }
  // A write past the budget finishes in the background; the next turn (a later request in real
  // life, seconds on) must find it, so the tests wait for it rather than race it.
  await inst.flush();
}

/**
 * Submits a turn's batches as a collector does: a retryable answer (429/503) is retried after a
 * short pause (the same batch, so the service recognises the re-send), until accepted or `ms` is up.
 */
export async function sendRetrying(inst: Instance, turn: TurnBatches['turns'][number], ms = 15_000): Promise<{ retries: number }> {
  const until = Date.now() + ms;
  let retries = 0;
  for (const b of batchesOf(turn)) {
    for (;;) {
      const o = await inst.pipeline.submit(b);
      if (o.status === 'ok') break;
      if (o.status === 'refused' || Date.now() > until) throw new Error(`batch not accepted: ${JSON.stringify(o)}`);
      retries++;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { retries };
}

/** A plain client for test-side commands (CLIENT PAUSE, SET, HGET); closed by the caller. */
export function adminClient(url: string): import('iovalkey').Redis {
  return new ValkeyRedis(url, { maxRetriesPerRequest: 1, lazyConnect: false });
}

/** The lines `written` gives, with the conversation id made neutral. */
export function writtenAs(spans: readonly SpanData[], traceId: string, conversationId: string): string[] {
  return written(spans, traceId).map((l) => l.replaceAll(conversationId, 'CONV'));
}

/** Turn `turn` of a conversation again as a later turn: fresh trace id, every time moved `laterMs` on. */
export function laterTurn(turn: TurnBatches['turns'][number], laterMs: number): TurnBatches['turns'][number] {
  const traceId = randomBytes(16).toString('hex');
  const d = BigInt(laterMs) * 1_000_000n;
  return {
    traceId,
    spans: turn.spans.map((s) => ({ ...s, traceId, startTimeUnixNano: s.startTimeUnixNano + d, endTimeUnixNano: s.endTimeUnixNano + d })),
    logs: turn.logs.map((l) => ({ ...l, traceId, timeUnixNano: l.timeUnixNano + d })),
  };
}
