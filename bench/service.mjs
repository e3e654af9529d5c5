// Service throughput: OTLP/protobuf batches of 512 spans of the agent workload (invoke_agent +
// chat with a 50-message ~41 KB window + 3 execute_tool, 5 spans a turn), encoded once with the
// SDK's ProtobufTraceSerializer, posted to the service on 127.0.0.1 (its own process), which
// forwards to a sink on loopback answering 200 at once. Three variants, measured in this run:
//   full: checks on (declarations armed), pass-through: the same service with checks: false,
//   decode+encode: the service's decoder and the SDK encoder alone, no HTTP, no core.
// Each batch sent is distinct (trace and conversation ids patched into the encoded bytes), so
// neither the service's duplicate-batch cache nor the core's seen-span cache short-cuts it.
// Bounded: BATCHES batches or TIME_CAP_MS per variant, whichever comes first.

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
import { emit, isMain, round } from './lib.mjs';

const SPANS_PER_BATCH = 512;
const BATCHES = Number(process.env.BENCH_SERVICE_BATCHES ?? 200);
const TIME_CAP_MS = Number(process.env.BENCH_SERVICE_CAP_MS ?? 25_000);
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

function startChild(config) {
  const child = fork(new URL('./service-child.mjs', import.meta.url), [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function runVariant(name, tpl, sink, extra, { batches = BATCHES, capMs = TIME_CAP_MS, base = 0 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fp-bench-'));
  const declarationsPath = join(dir, 'declarations.json');
  writeFileSync(declarationsPath, JSON.stringify(BENCH_DECLARATIONS));
  const svc = await startChild({
    listen: { host: '127.0.0.1', port: 0 },
    declarationsPath,
    downstream: { tracesUrl: `${sink.url}/v1/traces`, logsUrl: `${sink.url}/v1/logs`, headers: {}, protocol: 'http/protobuf', compression: 'none', timeoutMs: 30_000 },
    ...extra,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });
  const url = `${svc.address}/v1/traces`;
  // Warm up (JIT), untimed: a few batches.
  const warm = Buffer.from(tpl.body);
  for (let i = 0; i < 3; i++) await post(agent, url, patch(warm, tpl, base + 900_000 + i));
  const cpu0 = (await svc.stats()).cpu;
  const statuses = {};
  let sent = 0;
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      const buf = Buffer.from(tpl.body);
      while (next < batches && Date.now() - t0 < capMs) {
        const n = next++;
        patch(buf, tpl, base + n);
        let status;
        do {
          status = await post(agent, url, buf);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status === 429 || status === 503) await new Promise((r) => setTimeout(r, 50));
        } while ((status === 429 || status === 503) && Date.now() - t0 < capMs);
        if (status === 200) sent++;
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

export async function serviceThroughput() {
  const tpl = templateBatch();
  const sink = await startSink();
  try {
    const raw = decodeEncode(tpl);
    const pass = await runVariant('pass-through', tpl, sink, { checks: false }, { base: 0 });
    const full = await runVariant('full', tpl, sink, {}, { base: 100_000 });
    const ratioPass = full.spansPerSecond / pass.spansPerSecond;
    return {
      spansPerBatch: tpl.spans,
      turnsPerBatch: tpl.turns,
      batchBytes: tpl.body.length,
      senders: SENDERS,
      batchCap: BATCHES,
      timeCapSeconds: TIME_CAP_MS / 1000,
      full,
      passThrough: pass,
      decodeEncode: raw,
      ratio: round(ratioPass, 2),
      ratioFullToDecodeEncode: round(full.spansPerSecond / raw.spansPerSecond, 2),
      ratioPassThroughToDecodeEncode: round(pass.spansPerSecond / raw.spansPerSecond, 2),
      target: 'full ≥ 0.8 × pass-through, and > 12,000 spans/s per core (full, per service CPU-second)',
      met: ratioPass >= 0.8 && full.spansPerServiceCpuSecond > 12_000,
      sinkRequests: sink.stats.requests,
    };
  } finally {
    await sink.close();
  }
}

if (isMain(import.meta.url)) {
  const r = await serviceThroughput();
  for (const v of [r.full, r.passThrough]) console.log(`service ${v.variant}: ${v.batchesAcknowledged} batches (${v.spans} spans) in ${v.seconds} s: ${v.spansPerSecond} spans/s, ${v.spansPerServiceCpuSecond} spans per service CPU-second, rss ${v.serviceRssMB} MB, statuses ${JSON.stringify(v.statuses)}`);
  console.log(`decode+encode alone: ${r.decodeEncode.spansPerSecond} spans/s (${r.decodeEncode.msPerBatch} ms per ${r.spansPerBatch}-span batch of ${r.batchBytes} B)`);
  console.log(`service-throughput: full / pass-through ${r.ratio}, full / decode+encode ${r.ratioFullToDecodeEncode} (${r.target})`);
  emit('service-throughput', r);
}
