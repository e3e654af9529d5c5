// The flood of issue 31 item 2, measured: `senders` clients each sending large OTLP/protobuf trace
// batches (recorded agent conversations, fresh trace ids every send) to a service in its own
// process, over OTLP/HTTP or OTLP/gRPC, for `seconds`; with `--encoding json` (HTTP only, issue 37)
// the same batches as OTLP/JSON bodies; a retryable refusal is retried after its
// Retry-After (as a collector does). Meanwhile /healthz is asked every 50 ms and the service's RSS
// read every 100 ms. Prints one JSON line: peak RSS (and over the configured byte budget), /healthz
// latency (max, p99, answers over 100 ms), refusals and how soon they came, batches accepted.
//   node bench/admission-flood.mjs [--transport http|grpc] [--encoding protobuf|json] [--senders 32]
//                                  [--mb 18] [--seconds 30] [--dist dist] [--queued-mb 64]
// Bounded: every sender stops at the deadline; the child is killed at the end.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';

const here = dirname(fileURLToPath(import.meta.url));

// The prober child: GET /healthz every 50 ms until told to stop; sends back each answer's latency.
if (process.argv[2] === '--probe') {
  const address = process.argv[3];
  const health = [];
  let probing = true;
  process.on('message', () => (probing = false));
  while (probing) {
    const t0 = performance.now();
    try {
      const r = await fetch(`${address}/healthz`, { signal: AbortSignal.timeout(20_000) });
      await r.arrayBuffer();
      health.push(performance.now() - t0);
    } catch {
      health.push(20_000);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  process.send(health, () => process.exit(0));
  await new Promise(() => {});
}
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const transport = args.transport ?? 'http';
const encoding = args.encoding ?? 'protobuf';
if (encoding !== 'protobuf' && encoding !== 'json') throw new Error('--encoding is protobuf or json');
if (encoding === 'json' && transport !== 'http') throw new Error('--encoding json is OTLP/HTTP only');
const senders = Number(args.senders ?? 32);
const mb = Number(args.mb ?? 18);
const seconds = Number(args.seconds ?? 30);
const queuedMb = Number(args['queued-mb'] ?? 64);
const distDir = resolve(args.dist ?? join(here, '..', 'dist'));
const dist = pathToFileURL(distDir).href;

const { decodeOtlpJsonText } = await import(`${dist}/otlp/json.js`);
const { encodeTraceRequest } = await import(`${dist}/otlp/encode-traces.js`);

// One batch of about `mb` MB: the recorded conversation (content in span attributes), re-traced.
const fixture = join(here, '..', 'test', 'fixtures', 'openinference-openai', 'backup-triage.otlp.json');
const doc = decodeOtlpJsonText(readFileSync(fixture, 'utf8'), 'fixture');
const items = [];
const traceIds = [];
let size = 0;
// The spans of one copy as OTLP/JSON (the recording's own spans array), for the JSON batch's size.
const jsonCopyBytes = JSON.stringify(JSON.parse(readFileSync(fixture, 'utf8')).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans))).length;
while (size < mb * 1024 * 1024) {
  const map = new Map();
  for (const d of doc.spans) {
    if (!map.has(d.span.traceId)) {
      const id = randomBytes(16).toString('hex');
      map.set(d.span.traceId, id);
      traceIds.push(id);
    }
    items.push({ span: { ...d.span, traceId: map.get(d.span.traceId) }, extras: d.extras });
  }
  if (encoding === 'json') size += jsonCopyBytes;
  else if (items.length % (doc.spans.length * 50) === 0) size = encodeTraceRequest(items).byteLength;
}
// OTLP/JSON: the same spans, as the recording's own JSON document (one resource, one scope per
// recorded scope) holding every copy, each copy's trace id rewritten.
function jsonBody() {
  const raw = JSON.parse(readFileSync(fixture, 'utf8'));
  const copies = items.length / doc.spans.length;
  const ids = [...new Set(doc.spans.map((d) => d.span.traceId))];
  for (const rs of raw.resourceSpans)
    for (const ss of rs.scopeSpans) {
      const one = ss.spans;
      ss.spans = [];
      for (let c = 0; c < copies; c++) for (const sp of one) ss.spans.push({ ...sp, traceId: traceIds[c * ids.length + ids.indexOf(sp.traceId)] });
    }
  return Buffer.from(JSON.stringify(raw));
}
const base = encoding === 'json' ? jsonBody() : Buffer.from(encodeTraceRequest(items));
const contentType = encoding === 'json' ? 'application/json' : 'application/x-protobuf';
// Where each trace id sits in the bytes: every send gets fresh ids (the service analyses it all again).
const slots = traceIds.map((id) => {
  const needle = encoding === 'json' ? Buffer.from(id, 'latin1') : Buffer.from(id, 'hex');
  const at = [];
  for (let i = base.indexOf(needle); i >= 0; i = base.indexOf(needle, i + needle.length)) at.push(i);
  return at;
});
function freshBatch() {
  const b = Buffer.from(base);
  for (const at of slots) {
    const id = encoding === 'json' ? Buffer.from(randomBytes(16).toString('hex'), 'latin1') : randomBytes(16);
    for (const i of at) id.copy(b, i);
  }
  return b;
}

// The downstream: answers 200 at once, decodes nothing.
const sink = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end());
});
await new Promise((r) => sink.listen(0, '127.0.0.1', r));
const sinkUrl = `http://127.0.0.1:${sink.address().port}`;

const config = { listen: { host: '127.0.0.1', port: 0 }, grpcListen: transport === 'grpc' ? { host: '127.0.0.1', port: 0 } : null, downstream: { tracesUrl: `${sinkUrl}/v1/traces`, logsUrl: `${sinkUrl}/v1/logs`, headers: {}, protocol: 'http/protobuf', compression: 'none', timeoutMs: 10_000 }, limits: { queuedBytes: queuedMb * 1024 * 1024 } };
const child = fork(join(here, 'service-child.mjs'), [JSON.stringify(config)], { env: { ...process.env, BENCH_SERVICE_DIST: distDir }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const { address, grpcAddress } = await new Promise((r) => child.once('message', r));

const rssMb = () => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
};
const idleRss = rssMb();
let peakRss = idleRss;
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 100);

// /healthz is asked from a process of its own, so the senders' load on this one does not count.
const prober = fork(join(here, 'admission-flood.mjs'), ['--probe', address], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const deadline = Date.now() + seconds * 1000;
const stats = { sent: 0, accepted: 0, refused: 0, refusedMs: [], errors: 0, acceptedMs: [] };
const grpcClients = [];
async function sendOnce(i, body) {
  const t0 = performance.now();
  if (transport === 'http') {
    try {
      const r = await fetch(`${address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': contentType }, body, signal: AbortSignal.timeout(120_000) });
      await r.arrayBuffer();
      return { status: r.status, ms: performance.now() - t0, retryAfter: Number(r.headers.get('retry-after') ?? 1) };
    } catch (e) {
      return { status: 'error', ms: performance.now() - t0, error: String(e?.cause?.code ?? e?.message ?? e) };
    }
  }
  const client = (grpcClients[i] ??= new grpc.Client(grpcAddress, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': 64 * 1024 * 1024, 'grpc.use_local_subchannel_pool': 1 }));
  return new Promise((resolveCall) =>
    client.makeUnaryRequest('/opentelemetry.proto.collector.trace.v1.TraceService/Export', (b) => b, (b) => b, body, new grpc.Metadata(), { deadline: Date.now() + 120_000 }, (err) =>
      resolveCall(err ? { status: err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.RESOURCE_EXHAUSTED ? 503 : 'error', ms: performance.now() - t0, retryAfter: 1, error: err.details } : { status: 200, ms: performance.now() - t0 }),
    ),
  );
}
await Promise.all(
  Array.from({ length: senders }, async (_, i) => {
    while (Date.now() < deadline) {
      const body = freshBatch();
      for (;;) {
        stats.sent++;
        const r = await sendOnce(i, body);
        if (r.status === 200) {
          stats.accepted++;
          stats.acceptedMs.push(r.ms);
          break;
        }
        if (r.status === 429 || r.status === 503) {
          stats.refused++;
          stats.refusedMs.push(r.ms);
          if (Date.now() > deadline) break;
          await new Promise((res) => setTimeout(res, Math.min(5, r.retryAfter || 1) * 1000));
          continue;
        }
        stats.errors++;
        if (stats.errors <= 3) console.error(`sender ${i}: ${r.status} ${r.error ?? ''}`);
        break;
      }
    }
  }),
);
prober.send('stop');
const health = await new Promise((r) => prober.once('message', r));
clearInterval(rssTimer);
for (const c of grpcClients) c?.close();
const metricsText = await (await fetch(`${address}/metrics`)).text();
const metric = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metricsText)?.[1] ?? NaN);
child.send('stats');
const childStats = await new Promise((r) => child.once('message', r));
child.send('stop');
await new Promise((r) => setTimeout(r, 500));
child.kill('SIGKILL');
sink.close();

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]) : null;
};
console.log(
  JSON.stringify({
    bench: 'admission-flood',
    transport,
    encoding,
    senders,
    batchMB: +(base.byteLength / 1048576).toFixed(1),
    spansPerBatch: items.length,
    seconds,
    queuedMB: queuedMb,
    rssMB: { idle: Math.round(idleRss), peak: Math.round(peakRss), overBudget: Math.round(peakRss - idleRss - queuedMb) },
    serviceLoopDelayMs: childStats.loopDelayMs,
    serviceMemoryMB: Object.fromEntries(Object.entries(childStats.memory).map(([k, v]) => [k, Math.round(v / 1048576)])),
    stateBytesMB: Math.round(metric('footprint_state_bytes') / 1048576),
    serviceCpuS: +((childStats.cpu.user + childStats.cpu.system) / 1e6).toFixed(1),
    healthz: { answers: health.length, maxMs: Math.round(Math.max(...health)), p99Ms: q(health, 0.99), over100ms: health.filter((x) => x > 100).length },
    batches: { sent: stats.sent, accepted: stats.accepted, refused: stats.refused, errors: stats.errors, refusalMs: { p50: q(stats.refusedMs, 0.5), max: q(stats.refusedMs, 1) }, acceptedMs: { p50: q(stats.acceptedMs, 0.5), max: q(stats.acceptedMs, 1) } },
  }),
);
process.exit(0);
