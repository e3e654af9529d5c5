// Service throughput: OTLP/protobuf batches of 512 spans posted to a server on 127.0.0.1 (its own
// process), which forwards to a sink on loopback answering 200 at once. Variants, each run in a
// process of its own, RUNS times, alternating (A B C A B C ...), the same number of batches each
// and no time cap (a run that passes SAFETY_MS fails the bench instead of being cut short):
//   pass-through: bench/passthrough-child.mjs, a TRUE pass-through: each body's bytes forwarded
//     unread (no decode, no window read), the floor any forwarder pays;
//   full: the service, checks on (declarations armed), on the agent workload (invoke_agent + chat
//     with a 50-message ~41 KB window + 3 execute_tool, 5 spans a turn);
//   ordinary: the service, checks on, on ordinary (non-GenAI) HTTP-server spans;
//   read (only with BENCH_SERVICE_READ=1): the service with checks: false (reads agent spans, runs no check);
//   decode+encode: the service's decoder and downstream encoder alone, in this process, no HTTP.
// The figure is spans per service CPU-second (the child's own user + system time); min and median
// of the runs. Each batch sent is distinct (trace and conversation ids patched into the encoded
// bytes), so neither the service's duplicate-batch cache nor the core's seen-span cache short-cuts it.
// Usage: node bench/service.mjs   (BENCH_SERVICE_BATCHES, BENCH_SERVICE_RUNS)
//        BENCH_SERVICE_AB=DIST_A,DIST_B[,...] node bench/service.mjs   (full mode of two to four builds, alternating;
//        an entry "DIST --flag ..." also gives that service child those node flags, and NAME=VALUE
//        words its environment: "MALLOC_MMAP_THRESHOLD_=67108864 DIST")

import { fork } from 'node:child_process';
import { createServer, request, Agent } from 'node:http';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { encodeTraceRequest } from '../dist/otlp/encode-traces.js';
import { toReadableSpans } from '../dist/otlp/readable.js';
import { decodeTraceRequestProto } from '../dist/otlp/proto.js';
import { agentTurnSpans, AGENT_WINDOW_BYTES, BENCH_DECLARATIONS } from './workload.mjs';
import { emit, isMain, median, round } from './lib.mjs';

const SPANS_PER_BATCH = 512;
const BATCHES = Number(process.env.BENCH_SERVICE_BATCHES ?? 60);
const RUNS = Math.max(1, Number(process.env.BENCH_SERVICE_RUNS ?? 3));
/** A run taking longer than this fails the bench (it is never cut short and counted). */
const SAFETY_MS = Number(process.env.BENCH_SERVICE_SAFETY_MS ?? 180_000);
const SENDERS = 4;
const TURNS_PER_CONVERSATION = 5;

const hex = (n, w) => n.toString(16).padStart(w, '0');
const CONV = (batch, c) => `conv-B${String(batch).padStart(6, '0')}-${String(c).padStart(4, '0')}`;

/** One encoded batch of 512 spans and where its trace ids and conversation ids sit in the bytes. */
function templateBatch() {
  const spans = [];
  let turn = 0;
  while (spans.length < SPANS_PER_BATCH) {
    const traceId = `b0b0b0b0${hex(turn, 8)}c0c0c0c000000000`;
    const conversationId = CONV(0, Math.floor(turn / TURNS_PER_CONVERSATION));
    spans.push(...agentTurnSpans({ traceId, conversationId, ungrounded: turn % 5 === 4 ? 1 : 0, salt: ` #${turn % 10}`, windowBytes: AGENT_WINDOW_BYTES }));
    turn++;
  }
  spans.length = SPANS_PER_BATCH;
  const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(toReadableSpans(spans.map((span) => ({ span })))));
  const traceOffsets = [];
  for (let t = 0; t < turn; t++) {
    const needle = Buffer.from(`b0b0b0b0${hex(t, 8)}c0c0c0c000000000`, 'hex');
    for (let i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + 16)) traceOffsets.push(i + 12);
  }
  const convOffsets = [];
  const marker = Buffer.from('conv-B000000-');
  for (let i = body.indexOf(marker); i >= 0; i = body.indexOf(marker, i + 1)) convOffsets.push(i + 6);
  return { body, traceOffsets, convOffsets, turns: turn, spans: SPANS_PER_BATCH };
}

const HTTP_ATTRS = { 'http.request.method': 'GET', 'http.route': '/api/orders/:id', 'url.path': '/api/orders/1234', 'url.scheme': 'http', 'server.address': 'orders.internal', 'server.port': 8080, 'network.protocol.version': '1.1', 'user_agent.original': 'Mozilla/5.0 (X11; Linux x86_64) bench', 'client.address': '10.0.0.12', 'http.response.status_code': 200 };

/** One encoded batch of 512 ordinary HTTP-server spans (8 per trace), patched like the agent batch. */
function ordinaryTemplateBatch() {
  const spans = [];
  const traces = SPANS_PER_BATCH / 8;
  for (let t = 0; t < traces; t++) {
    const traceId = `b0b0b0b0${hex(t, 8)}c0c0c0c000000000`;
    for (let i = 0; i < 8; i++) {
      spans.push({
        traceId,
        spanId: hex(t * 8 + i + 1, 16),
        ...(i > 0 ? { parentSpanId: hex(t * 8 + 1, 16) } : {}),
        name: i === 0 ? 'GET /api/orders/:id' : `SELECT orders ${i}`,
        kind: i === 0 ? 2 : 3,
        startTimeUnixNano: 1_700_000_000_000_000_000n + BigInt(t * 1000 + i),
        endTimeUnixNano: 1_700_000_000_000_500_000n + BigInt(t * 1000 + i),
        attributes: i === 0 ? HTTP_ATTRS : { 'db.system.name': 'postgresql', 'db.query.text': 'SELECT * FROM orders WHERE id = $1', 'db.namespace': 'shop' },
        events: [],
        status: { code: 0 },
        resource: { 'service.name': 'bench-shop', 'service.version': '1.4.2', 'host.name': 'shop-1' },
        scope: { name: i === 0 ? '@opentelemetry/instrumentation-http' : '@opentelemetry/instrumentation-pg', version: '0.200.0' },
      });
    }
  }
  const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(toReadableSpans(spans.map((span) => ({ span })))));
  const traceOffsets = [];
  for (let t = 0; t < traces; t++) {
    const needle = Buffer.from(`b0b0b0b0${hex(t, 8)}c0c0c0c000000000`, 'hex');
    for (let i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + 16)) traceOffsets.push(i + 12);
  }
  return { body, traceOffsets, convOffsets: [], turns: 0, spans: SPANS_PER_BATCH };
}

/** Makes `buf` (a copy of the template) batch number `n`: distinct trace and conversation ids. */
function patch(buf, tpl, n) {
  for (const o of tpl.traceOffsets) buf.writeUInt32BE(n + 1, o);
  const digits = Buffer.from(String(n + 1).padStart(6, '0'));
  for (const o of tpl.convOffsets) digits.copy(buf, o);
  return buf;
}

function startSink() {
  const stats = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (c) => (stats.bytes += c.length));
    req.on('end', () => {
      stats.requests++;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf', 'Content-Length': '0' }).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, stats, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) })));
}

function startChild(config, file = './service-child.mjs', dist = undefined, nodeFlags = [], childEnv = {}) {
  const env = { ...process.env, ...(dist ? { BENCH_SERVICE_DIST: dist } : {}), ...childEnv };
  const child = fork(new URL(file, import.meta.url), [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env, execArgv: [...process.execArgv, ...nodeFlags] });
  const next = () => new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`service child exited ${c}`)));
  });
  return next().then(({ address }) => ({
    address,
    stats: () => (child.send('stats'), next()),
    stop: () => (child.send('stop'), next()),
  }));
}

/** One POST; a keep-alive socket the server closed just as it was reused (ECONNRESET before any answer) is retried once. */
function post(agent, url, body, retried = false) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', (e) => (!retried && req.reusedSocket && e.code === 'ECONNRESET' ? post(agent, url, body, true).then(resolve, reject) : reject(e)));
    req.end(body);
  });
}

async function runVariant(name, tpl, sink, extra, { batches = BATCHES, base = 0, file, dist, nodeFlags, childEnv } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fp-bench-'));
  const declarationsPath = join(dir, 'declarations.json');
  writeFileSync(declarationsPath, JSON.stringify(BENCH_DECLARATIONS));
  const svc = await startChild({
    listen: { host: '127.0.0.1', port: 0 },
    declarationsPath,
    downstream: { tracesUrl: `${sink.url}/v1/traces`, logsUrl: `${sink.url}/v1/logs`, headers: {}, protocol: 'http/protobuf', compression: 'none', timeoutMs: 30_000 },
    ...extra,
  }, file, dist, nodeFlags, childEnv);
  const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });
  const url = `${svc.address}/v1/traces`;
  // Warm up (JIT), untimed: a few batches.
  const warm = Buffer.from(tpl.body);
  for (let i = 0; i < 3; i++) await post(agent, url, patch(warm, tpl, base + 9_000 + i));
  const cpu0 = (await svc.stats()).cpu;
  const statuses = {};
  let sent = 0;
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      const buf = Buffer.from(tpl.body);
      while (next < batches) {
        if (Date.now() - t0 > SAFETY_MS) throw new Error(`${name}: ${next} of ${batches} batches after ${SAFETY_MS} ms; the run is not counted`);
        const n = next++;
        patch(buf, tpl, base + n);
        let status;
        do {
          status = await post(agent, url, buf);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status === 429 || status === 503) await new Promise((r) => setTimeout(r, 50));
        } while ((status === 429 || status === 503) && Date.now() - t0 < SAFETY_MS);
        if (status !== 200) throw new Error(`${name}: batch ${n} answered ${status}`);
        sent++;
      }
    }),
  );
  const ms = Date.now() - t0;
  const after = await svc.stats();
  const cpuS = (after.cpu.user + after.cpu.system - cpu0.user - cpu0.system) / 1e6;
  await svc.stop();
  agent.destroy();
  const spans = sent * tpl.spans;
  return {
    variant: name,
    batchesAcknowledged: sent,
    spans,
    seconds: round(ms / 1000, 2),
    spansPerSecond: Math.round((spans * 1000) / ms),
    serviceCpuSeconds: round(cpuS, 2),
    spansPerServiceCpuSecond: Math.round(spans / cpuS),
    serviceRssMB: round(after.memory.rss / 2 ** 20, 0),
    statuses,
    ...(after.logs.length ? { serviceLog: after.logs.slice(0, 5) } : {}),
  };
}

function decodeEncode(tpl, { batches = 20 } = {}) {
  const buf = Buffer.from(tpl.body);
  const one = (n) => {
    const r = decodeTraceRequestProto(patch(buf, tpl, n));
    if (!r.ok) throw new Error(r.error);
    // The service's own path: our decoder, then the encoder the downstream exporter uses.
    return encodeTraceRequest(r.value.spans).length;
  };
  for (let i = 0; i < 3; i++) one(800_000 + i);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < batches; i++) one(810_000 + i);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(cpu0);
  return { variant: 'decode+encode', batches, spans: batches * tpl.spans, seconds: round(s, 2), spansPerSecond: Math.round((batches * tpl.spans) / s), cpuSeconds: round((c.user + c.system) / 1e6, 2), msPerBatch: round((s * 1000) / batches, 1) };
}

const stat = (runs, key) => {
  const xs = runs.map((r) => r[key]).sort((a, b) => a - b);
  return { min: xs[0], median: median(xs), max: xs[xs.length - 1] };
};

export async function serviceThroughput() {
  const agentTpl = templateBatch();
  const ordinaryTpl = ordinaryTemplateBatch();
  const sink = await startSink();
  const variants = [
    { key: 'passThrough', name: 'pass-through', tpl: agentTpl, extra: {}, file: './passthrough-child.mjs' },
    { key: 'full', name: 'full', tpl: agentTpl, extra: {} },
    { key: 'ordinary', name: 'ordinary', tpl: ordinaryTpl, extra: {} },
    ...(process.env.BENCH_SERVICE_READ === '1' ? [{ key: 'read', name: 'read (checks: false)', tpl: agentTpl, extra: { checks: false } }] : []),
  ];
  // BENCH_SERVICE_ONLY=full,ordinary runs only those (profiling); the summary needs all three.
  let only = process.env.BENCH_SERVICE_ONLY?.split(',');
  if (only) variants.splice(0, variants.length, ...variants.filter((v) => only.includes(v.key)));
  // BENCH_SERVICE_AB=A,B: full mode of two builds, nothing else (an A/B of a change).
  const ab = process.env.BENCH_SERVICE_AB?.split(',');
  if (ab) {
    variants.splice(0, variants.length, ...ab.map((spec, i) => {
      // NAME=VALUE words are the service child's environment; the first other word is the build.
      const words = spec.trim().split(/\s+/);
      const isEnv = (w) => /^[A-Z_][A-Z0-9_]*=/.test(w);
      const childEnv = Object.fromEntries(words.filter(isEnv).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
      const [dist, ...nodeFlags] = words.filter((w) => !isEnv(w));
      return { key: `full${'ABCDEFGH'[i]}`, name: `full ${'ABCDEFGH'[i]} (${spec.trim()})`, tpl: agentTpl, extra: {}, dist, nodeFlags, childEnv };
    }));
    only = variants.map((v) => v.key);
  }
  const runs = Object.fromEntries(variants.map((v) => [v.key, []]));
  try {
    const raw = decodeEncode(agentTpl);
    for (let r = 0; r < RUNS; r++) {
      for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
        const one = await runVariant(v.name, v.tpl, sink, v.extra, { base: (r * variants.length + variants.indexOf(v)) * 10_000, file: v.file, dist: v.dist, nodeFlags: v.nodeFlags, childEnv: v.childEnv });
        runs[v.key].push(one);
        console.error(`  run ${r + 1}/${RUNS} ${v.name}: ${one.spansPerServiceCpuSecond} spans per CPU-second (${one.serviceCpuSeconds} CPU-s, ${one.seconds} s)`);
      }
    }
    const summary = Object.fromEntries(variants.map((v) => [v.key, { variant: v.name, runs: runs[v.key], spansPerServiceCpuSecond: stat(runs[v.key], 'spansPerServiceCpuSecond'), spansPerSecond: stat(runs[v.key], 'spansPerSecond'), serviceRssMB: stat(runs[v.key], 'serviceRssMB') }]));
    if (only) return { ...summary, partial: true };
    const full = summary.full.spansPerServiceCpuSecond.median;
    const pass = summary.passThrough.spansPerServiceCpuSecond.median;
    const ordinary = summary.ordinary.spansPerServiceCpuSecond.median;
    const ratio = full / pass;
    return {
      spansPerBatch: SPANS_PER_BATCH,
      turnsPerBatch: agentTpl.turns,
      batchBytes: agentTpl.body.length,
      ordinaryBatchBytes: ordinaryTpl.body.length,
      senders: SENDERS,
      batchesPerRun: BATCHES,
      runsPerVariant: RUNS,
      ...summary,
      decodeEncode: raw,
      ratio: round(ratio, 3),
      agentSpansPerCpuSecond: full,
      ordinarySpansPerCpuSecond: ordinary,
      target: 'full ≥ 0.15 × a true pass-through in the same run (spans per service CPU-second, medians), full ≥ 12,000 agent spans per service CPU-second, ordinary ≥ 40,000 spans per service CPU-second',
      met: ratio >= 0.15 && full >= 12_000 && ordinary >= 40_000,
      sinkRequests: sink.stats.requests,
    };
  } finally {
    await sink.close();
  }
}

if (isMain(import.meta.url)) {
  const r = await serviceThroughput();
  for (const k of ['passThrough', 'full', 'ordinary', 'read', 'fullA', 'fullB', 'fullC', 'fullD']) {
    if (r.partial && r[k]) console.log(`service ${k}: median ${r[k].spansPerServiceCpuSecond.median} spans per CPU-second`);
    if (r.partial) continue;
    const v = r[k];
    if (!v) continue;
    const c = v.spansPerServiceCpuSecond;
    console.log(`service ${v.variant}: ${r.runsPerVariant} runs of ${r.batchesPerRun} batches (${r.batchesPerRun * r.spansPerBatch} spans): spans per service CPU-second min ${c.min}, median ${c.median}, max ${c.max}; spans/s median ${v.spansPerSecond.median}; rss median ${v.serviceRssMB.median} MB`);
  }
  if (r.partial) process.exit(0);
  console.log(`decode+encode alone: ${r.decodeEncode.spansPerSecond} spans/s (${r.decodeEncode.msPerBatch} ms per ${r.spansPerBatch}-span batch of ${r.batchBytes} B)`);
  console.log(`service-throughput: full / pass-through ${r.ratio}, agent spans per CPU-second ${r.agentSpansPerCpuSecond}, ordinary ${r.ordinarySpansPerCpuSecond} (${r.target})`);
  emit('service-throughput', r);
}
