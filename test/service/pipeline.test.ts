// The pipeline engine in isolation (fake core and downstream): the in-flight bound holds under a
// burst, every admitted batch is answered, a failing part is retried alone, and a core that
// throws never loses a batch (503, the sender keeps it).
import { describe, expect, it } from 'vitest';
import { Pipeline, type Batch, type CoreLike } from '../../src/service/pipeline.js';
import { ServiceMetrics } from '../../src/service/metrics.js';
import { FindingsStore } from '../../src/service/findings-store.js';
import type { Downstream, ExportOutcome } from '../../src/service/downstream.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { testConfig } from './helpers.js';

const emptyStats = { conversations: 0, stateBytes: 0, evictedConversations: 0, findingsByKind: {} };
const passCore: CoreLike = { process: () => ({ annotations: new Map(), carriers: [], findings: [], diagnostics: [] }), stats: () => emptyStats };

function span(i: number): SpanData {
  return { traceId: i.toString(16).padStart(32, '0'), spanId: (i + 1).toString(16).padStart(16, '0'), name: `s${i}`, kind: 1, startTimeUnixNano: 1n, endTimeUnixNano: 2n, attributes: {}, events: [], status: { code: 0 }, resource: {}, scope: { name: 't' } };
}
function batch(i: number): Batch {
  return { signal: 'traces', transport: 'http', spans: [{ span: span(i), extras: {} }], rejected: 0, diagnostics: [], body: Buffer.from(`batch ${i}`) };
}

function setup(over: { inFlight: number; queued: number; core?: CoreLike; exportSpans?: () => Promise<ExportOutcome>; forwardLogs?: () => Promise<ExportOutcome> }) {
  const config = testConfig();
  config.limits = { ...config.limits, inFlightBatches: over.inFlight, queuedBatches: over.queued };
  let active = 0;
  let maxActive = 0;
  const exported: string[] = [];
  const downstream: Downstream = {
    hasLogs: true,
    exportSpans: async (items) => {
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        const o = over.exportSpans ? await over.exportSpans() : (await new Promise((r) => setTimeout(r, 5)), { ok: true as const });
        if (o.ok) exported.push(...items.map((x) => x.span.name));
        return o;
      } finally {
        active--;
      }
    },
    forwardLogs: over.forwardLogs ?? (async () => ({ ok: true })),
    shutdown: async () => {},
  };
  const core = over.core ?? passCore;
  const metrics = new ServiceMetrics(() => core.stats());
  const pipeline = new Pipeline({ config, core, downstream, store: new FindingsStore(10, 'quote', 64), metrics, log: () => {}, stdout: () => {} });
  return { pipeline, exported, maxActive: () => maxActive, metrics };
}

describe('pipeline engine', () => {
  it('a burst never runs more than inFlightBatches at once; admitted batches are all exported', async () => {
    const { pipeline, exported, maxActive } = setup({ inFlight: 3, queued: 20 });
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => pipeline.submit(batch(i))));
    expect(maxActive()).toBeLessThanOrEqual(3);
    const ok = outcomes.filter((o) => o.status === 'ok').length;
    expect(ok + outcomes.filter((o) => o.status === 'busy').length).toBe(40);
    expect(ok).toBeGreaterThanOrEqual(23);
    expect(exported.length).toBe(ok);
    expect(pipeline.inFlight).toBe(0);
  });

  it('a core that throws answers 503 and the batch is not lost', async () => {
    const core: CoreLike = { process: () => { throw new Error('boom'); }, stats: () => emptyStats };
    const { pipeline, exported } = setup({ inFlight: 1, queued: 1, core });
    const o = await pipeline.submit(batch(1));
    expect(o.status).toBe('unavailable');
    expect(exported).toEqual([]);
  });

  it('a logs batch whose forward failed re-sends only the logs on retry', async () => {
    let fail = true;
    let logPosts = 0;
    const { pipeline } = setup({ inFlight: 1, queued: 1, forwardLogs: async () => (logPosts++, fail ? { ok: false as const, retryable: true, reason: 'down' } : { ok: true as const }) });
    const logs: Batch = { signal: 'logs', transport: 'http', logs: [], rejected: 0, diagnostics: [], body: Buffer.from('logs'), contentType: 'application/x-protobuf' };
    expect((await pipeline.submit(logs)).status).toBe('unavailable');
    fail = false;
    expect((await pipeline.submit(logs)).status).toBe('ok');
    expect(logPosts).toBe(2);
    expect((await pipeline.submit(logs)).status).toBe('ok'); // acknowledged: not posted again
    expect(logPosts).toBe(2);
  });
});
