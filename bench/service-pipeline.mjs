// The service's whole path but the sockets, in one process: each 512-span agent batch (as
// bench/service.mjs's: 5-turn conversations, one turn in five with an ungrounded argument) decoded
// as the HTTP receiver does (decodeTraceBodyAsync), submitted to the service's Pipeline with its
// explaining core (FootprintCore + the explain store), findings store and metrics, and a downstream
// that takes the onward trace bytes (counted, as a socket write would take them) and the evaluation
// records without sending them. CPU ms a batch after 3 warm-up batches. For A/B of builds: run it
// once per DIST, alternating, in the same minutes. Never writes bench/results.json.
// Usage: node bench/service-pipeline.mjs [DIST] [BATCHES]   (default ../dist, 40)
//        BENCH_PROFILE=FILE.cpuprofile: a CPU profile of the measured batches only (node:inspector)
import { pathToFileURL, fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { agentBatchBodies, BENCH_DECLARATIONS } from './workload.mjs';

const dist = pathToFileURL(resolve(process.argv[2] ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist'))).href;
const B = Number(process.argv[3] ?? 40);
const { toReadableSpans } = await import(`${dist}/otlp/readable.js`);
const { decodeTraceBodyAsync } = await import(`${dist}/service/decode.js`);
const { FootprintCore } = await import(`${dist}/runs/footprint.js`);
const { Pipeline } = await import(`${dist}/service/pipeline.js`);
const { ExplainStore, explainingCore } = await import(`${dist}/service/explain-routes.js`);
const { FindingsStore } = await import(`${dist}/service/findings-store.js`);
const { ServiceMetrics } = await import(`${dist}/service/metrics.js`);
const { defaultServiceConfig } = await import(`${dist}/service/config.js`);

const bodies = agentBatchBodies(B + 3, toReadableSpans, (r) => ProtobufTraceSerializer.serializeRequest(r));
const config = { ...defaultServiceConfig(), grpcListen: null, downstream: { tracesUrl: 'http://127.0.0.1:9/v1/traces', logsUrl: 'http://127.0.0.1:9/v1/logs', headers: {}, protocol: 'http/protobuf', compression: 'none', timeoutMs: 30_000 } };
const coreOptions = { declarations: BENCH_DECLARATIONS, limits: { maxConversations: config.limits.conversations, maxCallsPerConversation: config.limits.callsPerConversation, maxBytesPerConversation: config.limits.bytesPerConversation }, redaction: config.redaction, tenantAttribute: config.tenantAttribute, checks: config.checks, evaluationEvents: config.evaluationEvents, logJoin: 'own-tenant' };
const explained = new ExplainStore();
const core = explainingCore(new FootprintCore(coreOptions), explained, { declarations: BENCH_DECLARATIONS, redaction: config.redaction, tenantAttribute: config.tenantAttribute, publicUrl: config.publicUrl, auth: config.auth, links: null });
const metrics = new ServiceMetrics(() => core.stats());
let forwarded = 0;
const downstream = {
  hasLogs: true,
  exportSpans: async () => ({ ok: true }),
  exportTraceBytes: async (pieces) => { for (const p of pieces) forwarded += p.byteLength; return { ok: true }; },
  forwardLogs: async (body) => ((forwarded += body.length), { ok: true }),
  shutdown: async () => {},
};
const pipeline = new Pipeline({ config, core, downstream, store: new FindingsStore(config.embedded.runs, config.redaction, 2048), metrics, log: (l, m) => process.env.BENCH_LOG && console.error(l, m), stdout: () => {} });
const one = async (body) => {
  const r = await decodeTraceBodyAsync(body, 'protobuf', 'http');
  if (!r.ok) throw new Error(r.error);
  const o = await pipeline.submit(r.value);
  if (o.status !== 'ok') throw new Error(JSON.stringify(o));
};
for (let i = 0; i < 3; i++) await one(bodies[i]);
let session;
if (process.env.BENCH_PROFILE) {
  const { Session } = await import('node:inspector/promises');
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
if (process.env.BENCH_MARK) console.log("-- measured --");
const c0 = process.cpuUsage();
for (let i = 3; i < bodies.length; i++) await one(bodies[i]);
const c = process.cpuUsage(c0);
if (session) {
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile));
}
console.log(JSON.stringify({ dist: process.argv[2] ?? 'dist', batches: B, cpuMsPerBatch: Math.round((c.user + c.system) / 100 / B) / 10, forwardedMB: Math.round(forwarded / 1e5) / 10, explained: explained.size }));
