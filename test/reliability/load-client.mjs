// The load generator of the reliability suite, run as its own process: autocannon's API posting
// a recorded protobuf batch to the service on 127.0.0.1, every request made distinct (a fresh
// trace id and conversation id written over the template's sentinel bytes, same lengths, so the
// protobuf stays valid and each request is analysed rather than answered as a duplicate).
// Usage: node load-client.mjs SPEC.json — prints one JSON line with the figures. Bounded by the
// spec's duration; it exits on its own when autocannon finishes.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const template = Buffer.from(spec.bodyBase64, 'base64');
const statuses = {};
const retryAfter = {};

const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.durationSeconds,
  timeout: 10,
  requests: [
    {
      method: 'POST',
      path: '/v1/traces',
      headers: { 'content-type': 'application/x-protobuf', ...(spec.headers ?? {}) },
      setupRequest(req) {
        const b = Buffer.from(template);
        const trace = randomBytes(16);
        for (const o of spec.traceOffsets) trace.copy(b, o);
        const conv = Buffer.from(randomBytes(spec.convLength).toString('hex').slice(0, spec.convLength));
        for (const o of spec.convOffsets) conv.copy(b, o);
        return { ...req, body: b };
      },
      onResponse(status, _body, _ctx, headers) {
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== 200) {
          const r = (retryAfter[status] ??= { with: 0, without: 0 });
          // Raw header names keep the server's casing.
          const has = Object.entries(headers ?? {}).some(([k, v]) => k.toLowerCase() === 'retry-after' && /^\d+$/.test(String(v)));
          if (has) r.with++;
          else r.without++;
        }
      },
    },
  ],
});

process.stdout.write(
  `${JSON.stringify({
    requestsPerSec: result.requests.average,
    requestsTotal: result.requests.total,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    retryAfter,
    durationSeconds: result.duration,
  })}\n`,
);
