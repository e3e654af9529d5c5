// The service's decode + core alone, in one process, no HTTP (issue 11): BATCHES distinct 512-span
// agent batches like bench/service.mjs's (5-turn conversations, one turn in five with an ungrounded
// argument), each decoded as the receiver does (decodeTraceBody) and read by one FootprintCore,
// after 3 warm-up batches. Prints CPU ms a batch and the findings. For A/B of builds: run it once
// per DIST, alternating, in the same minutes. Never writes bench/results.json.
// Usage: node --expose-gc bench/service-core.mjs [DIST] [BATCHES]   (default ../dist, 30)
import { pathToFileURL, fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { agentBatchBodies, BENCH_DECLARATIONS } from './workload.mjs';

const dist = pathToFileURL(resolve(process.argv[2] ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist'))).href;
const B = Number(process.argv[3] ?? 30);
const { toReadableSpans } = await import(`${dist}/otlp/readable.js`);
const { decodeTraceBody } = await import(`${dist}/service/decode.js`);
const { FootprintCore } = await import(`${dist}/runs/footprint.js`);

const bodies = agentBatchBodies(B + 3, toReadableSpans, (r) => ProtobufTraceSerializer.serializeRequest(r));
const core = new FootprintCore({ declarations: BENCH_DECLARATIONS });
let findings = 0;
const one = (body) => {
  const r = decodeTraceBody(body, 'protobuf', 'http');
  if (!r.ok) throw new Error(r.error);
  findings += core.process({ spans: r.value.spans.filter((s) => !s.whole).map((s) => s.span) }).findings.length;
};
for (let i = 0; i < 3; i++) one(bodies[i]);
globalThis.gc?.();
const c0 = process.cpuUsage();
for (let i = 3; i < bodies.length; i++) one(bodies[i]);
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ dist: process.argv[2] ?? 'dist', batches: B, cpuMsPerBatch: Math.round((c.user + c.system) / 100 / B) / 10, findings }));
