// Reliability, load: the service as a child process (node dist/cli/main.js serve, declarations
// armed, forwarding to a loopback sink), loaded from a second process (autocannon's API in
// test/reliability/load-client.mjs) posting a recorded protobuf batch (traceloop backup-triage,
// every request a distinct trace and conversation). Below the configured limits: only 200s, no
// socket errors or timeouts. Above them (inFlightBatches 1, queuedBatches 1, many connections):
// 429 (or 503), each with Retry-After, and nothing else. Prints req/s, p50/p99 latency and the
// service's peak RSS. npm test runs 5 s; the long config (FOOTPRINT_RELIABILITY_LONG=1) 60 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DECLARATIONS, metricSum, parseMetrics, retraced } from '../service/helpers.js';
import { LONG, ROOT, ensureDist, killAllChildren, protoBody, rssKiB, sleep, startChildService, startFaultSink, writeConfig, type FaultSink } from './helpers.js';

const BELOW_S = LONG ? 60 : 5;
const ABOVE_S = LONG ? 20 : 3;
const SENTINEL_TRACE = 'f00dfacef00dfacef00dfacef00dface';
const CONV = 'conv-backup-triage-0001';

interface LoadResult {
  requestsPerSec: number;
  requestsTotal: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  retryAfter: Record<string, { with: number; without: number }>;
}

let sink: FaultSink;
beforeAll(async () => {
  console.log(`[load] dist/: ${ensureDist()}`);
  sink = await startFaultSink();
  sink.keep = false;
}, 180_000);
afterAll(async () => {
  await killAllChildren();
  await sink?.close();
});

function offsetsOf(hay: Buffer, needle: Buffer): number[] {
  const out: number[] = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

function spec(url: string, connections: number, durationSeconds: number): string {
  const { spans } = retraced('traceloop-openai', SENTINEL_TRACE);
  const body = Buffer.from(protoBody(spans));
  const traceOffsets = offsetsOf(body, Buffer.from(SENTINEL_TRACE, 'hex'));
  const convOffsets = offsetsOf(body, Buffer.from(CONV));
  expect(traceOffsets.length).toBe(spans.length);
  expect(convOffsets.length).toBeGreaterThan(0);
  const p = join(writeConfig({}), '..', `load-${connections}.json`);
  writeFileSync(p, JSON.stringify({ url, connections, durationSeconds, bodyBase64: body.toString('base64'), traceOffsets, convOffsets, convLength: CONV.length }));
  return p;
}

/** Runs the load client in its own process, killed past duration + 30 s; samples the service's RSS meanwhile. */
async function runLoad(url: string, servicePid: number, connections: number, seconds: number): Promise<LoadResult & { rssPeakMiB: number; rssEndMiB: number; bodyBytes: number }> {
  const specPath = spec(url, connections, seconds);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(servicePid) || 0)), 200);
  try {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [join(ROOT, 'test', 'reliability', 'load-client.mjs'), specPath], { cwd: ROOT, timeout: (seconds + 30) * 1000, killSignal: 'SIGKILL', maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`load client failed: ${err.message}\n${stderr}`)) : resolve(stdout)));
    });
    const r = JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
    return { ...r, rssPeakMiB: Math.round(peak / 1024), rssEndMiB: Math.round(rssKiB(servicePid) / 1024), bodyBytes: Buffer.from(JSON.parse((await import('node:fs')).readFileSync(specPath, 'utf8')).bodyBase64, 'base64').length };
  } finally {
    clearInterval(sampler);
  }
}

const fmt = (r: Awaited<ReturnType<typeof runLoad>>) => `${r.requestsTotal} requests, ${Math.round(r.requestsPerSec)} req/s, latency p50 ${r.p50} ms / p99 ${r.p99} ms / max ${r.max} ms, statuses ${JSON.stringify(r.statuses)}, errors ${r.errors}, timeouts ${r.timeouts}, service RSS peak ${r.rssPeakMiB} MiB (end ${r.rssEndMiB} MiB), body ${r.bodyBytes} bytes`;

describe('load from a second process (autocannon)', () => {
  it(`below the limits (${BELOW_S} s, 4 connections, inFlightBatches 4, queuedBatches 64): only 200s`, async () => {
    const svc = await startChildService(writeConfig({ downstream: { tracesEndpoint: `${sink.url}/v1/traces`, timeoutMs: 5000 }, declarations: DECLARATIONS, limits: { inFlightBatches: 4, queuedBatches: 64 } }));
    try {
      const spans0 = sink.spanCount;
      const r = await runLoad(svc.address, svc.child.pid!, 4, BELOW_S);
      console.log(`[load] below limits, ${BELOW_S} s: ${fmt(r)}`);
      expect(r.requestsTotal).toBeGreaterThan(0);
      expect(r.statuses).toEqual({ 200: r.requestsTotal });
      expect(r.non2xx).toBe(0);
      expect(r.errors).toBe(0);
      expect(r.timeouts).toBe(0);
      const m = parseMetrics(await (await fetch(`${svc.address}/metrics`)).text());
      // Every request was analysed and forwarded (none answered as a duplicate).
      // (autocannon counts requests answered within its duration; the last few in flight are answered after it.)
      const ok = metricSum(m, 'footprint_batches_total', 'outcome="ok"');
      expect(ok).toBeGreaterThanOrEqual(r.requestsTotal);
      expect(ok).toBeLessThanOrEqual(r.requestsTotal + 4);
      expect(metricSum(m, 'footprint_batches_total', 'outcome="duplicate"')).toBe(0);
      expect(metricSum(m, 'footprint_findings_total')).toBeGreaterThanOrEqual(r.requestsTotal);
      expect(sink.spanCount - spans0).toBe(metricSum(m, 'footprint_spans_forwarded_total'));
    } finally {
      await svc.stop();
    }
  }, (BELOW_S + 60) * 1000);

  it(`above the limits (${ABOVE_S} s, 32 connections, inFlightBatches 1, queuedBatches 1): 429/503 with Retry-After, nothing else`, async () => {
    sink.delayMs = 20;
    const svc = await startChildService(writeConfig({ downstream: { tracesEndpoint: `${sink.url}/v1/traces`, timeoutMs: 5000 }, declarations: DECLARATIONS, limits: { inFlightBatches: 1, queuedBatches: 1 } }));
    try {
      const r = await runLoad(svc.address, svc.child.pid!, 32, ABOVE_S);
      console.log(`[load] above limits, ${ABOVE_S} s: ${fmt(r)}`);
      expect(r.statuses[200] ?? 0).toBeGreaterThan(0);
      expect(r.statuses[429] ?? 0).toBeGreaterThan(0);
      expect(Object.keys(r.statuses).filter((s) => !['200', '429', '503'].includes(s))).toEqual([]);
      for (const [status, n] of Object.entries(r.retryAfter)) expect(n.without, `${status} answers without Retry-After`).toBe(0);
      expect(r.errors).toBe(0);
      expect(r.timeouts).toBe(0);
      await sleep(100);
      const m = parseMetrics(await (await fetch(`${svc.address}/metrics`)).text());
      const busy = metricSum(m, 'footprint_retry_responses_total', 'status="429"');
      expect(busy).toBeGreaterThanOrEqual(r.statuses[429] ?? 0);
      expect(busy).toBeLessThanOrEqual((r.statuses[429] ?? 0) + 32);
    } finally {
      sink.delayMs = 0;
      await svc.stop();
    }
  }, (ABOVE_S + 60) * 1000);
});
