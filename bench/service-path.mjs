// The service's own per-batch cost around the core, old path against new, in one process over the
// same 512-span agent batch (4.5 MB), alternating in blocks, CPU time: the whole-request decode +
// re-encode of every span + SHA-256 of the body (before issue 11), against the layout read +
// original bytes with findings appended to the annotated spans + the sampled re-send key (after).
// One span in five gets a finding event and attribute (the chat spans, as in the bench workload).
// Usage: npm run build --silent && node bench/service-path.mjs [blocks]
import { createHash } from 'node:crypto';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { toReadableSpans } from '../dist/otlp/readable.js';
import { decodeTraceRequestProto } from '../dist/otlp/proto.js';
import { encodeTraceRequest } from '../dist/otlp/encode-traces.js';
import { decodeTraceBody } from '../dist/service/decode.js';
import { onwardTracePayload } from '../dist/service/onward.js';
import { piecesLength } from '../dist/otlp/forward-bytes.js';
import { batchKey } from '../dist/service/batch-key.js';
import { spanKey } from '../dist/model/telemetry.js';
import { agentTurnSpans, AGENT_WINDOW_BYTES } from './workload.mjs';
import { median, round } from './lib.mjs';

const BLOCKS = Number(process.argv[2] ?? 10);
let sink = 0;
const PER_BLOCK = 5;
const spans = [];
for (let t = 0; spans.length < 512; t++) spans.push(...agentTurnSpans({ traceId: `b0b0b0b0${t.toString(16).padStart(8, '0')}c0c0c0c000000001`, conversationId: `c-${t}`, salt: ` #${t % 10}`, windowBytes: AGENT_WINDOW_BYTES }));
spans.length = 512;
const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(toReadableSpans(spans.map((span) => ({ span })))));
const finding = { name: 'footprint.finding', timeUnixNano: 5n, attributes: { 'footprint.finding.kind': 'unsupported-argument', 'footprint.finding.message': 'the argument machine_id="srv-x" was not served' } };
const annotationsFor = (decoded) => new Map(decoded.filter((_, i) => i % 5 === 0).map((s) => [spanKey(s.span), { attributes: { 'footprint.findings.count': 1 }, events: [finding] }]));
const merged = (decoded, ann) => decoded.map((item) => {
  const a = ann.get(spanKey(item.span));
  return a ? { span: { ...item.span, attributes: { ...item.span.attributes, ...a.attributes }, events: [...item.span.events, ...a.events] }, extras: item.extras } : item;
});

const before = () => {
  const key = createHash('sha256').update(body).digest('hex');
  const r = decodeTraceRequestProto(body);
  const ann = annotationsFor(r.value.spans);
  return encodeTraceRequest(merged(r.value.spans, ann)).length + key.length;
};
const after = () => {
  const r = decodeTraceBody(body, 'protobuf', 'http');
  const key = batchKey(r.value);
  const ann = annotationsFor(r.value.spans);
  const spansOut = merged(r.value.spans, ann);
  // onwardTracePayload is async (it pauses when given a time slice); without one its work is all done
  // before it returns, and the pieces are counted once the promise settles.
  onwardTracePayload({ layout: r.value.layout, spans: r.value.spans, annotations: ann, carriers: [], spansOut, json: false }).then((p) => (sink += piecesLength(p)));
  return key.length;
};
const cpu = (fn) => {
  const c = process.cpuUsage();
  for (let i = 0; i < PER_BLOCK; i++) fn();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000 / PER_BLOCK;
};
for (let i = 0; i < 3; i++) before(), after();
const t = { before: [], after: [] };
for (let b = 0; b < BLOCKS; b++) {
  if (b % 2 === 0) t.before.push(cpu(before)), t.after.push(cpu(after));
  else t.after.push(cpu(after)), t.before.push(cpu(before));
}
const s = (xs) => ({ min: round(Math.min(...xs), 1), median: round(median(xs), 1) });
console.log(`batch ${body.length} B, 512 spans, ${BLOCKS} blocks of ${PER_BLOCK}; CPU ms per batch:`);
console.log(`  before (whole decode + re-encode + SHA-256): ${JSON.stringify(s(t.before))}`);
console.log(`  after  (layout read + original bytes + sampled key): ${JSON.stringify(s(t.after))}`);
console.log(`  per CPU-second at the median: before ${Math.round(512000 / median(t.before))} spans, after ${Math.round(512000 / median(t.after))} spans`);
