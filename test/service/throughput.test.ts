// A bounded load run (fixed count, fixed deadline) through the whole path: proto exporter ->
// service (real core, declarations armed) -> sink. Asserts every span arrived once and prints
// the measured rate, so a regression in the hot path shows up here first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { LIBRARIES } from '../helpers/fixtures.js';
import { DECLARATIONS, downstreamTo, exporterFor, exportVia, readable, retraced, startSink, testConfig, silentLog, type Sink } from './helpers.js';

const BATCHES = 120;
const TRACES_PER_BATCH = 5;
const CONCURRENCY = 4;
// A safety bound, not a speed target (benchmarks measure speed): generous so a loaded machine still finishes.
const DEADLINE_MS = 80_000;

let sink: Sink;
let svc: RunningService;
beforeAll(async () => {
  sink = await startSink();
  svc = await startService(testConfig({ downstream: downstreamTo(sink), declarationsPath: DECLARATIONS }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});

describe('load: bounded run', () => {
  it(`${BATCHES} batches of ${TRACES_PER_BATCH} fixture traces, ${CONCURRENCY} senders: every span arrives once`, async () => {
    const batches = Array.from({ length: BATCHES }, (_, i) => Array.from({ length: TRACES_PER_BATCH }, (_, j) => retraced(LIBRARIES[(i + j) % LIBRARIES.length]!)));
    const expected = new Map<string, number>();
    for (const b of batches) for (const t of b) expected.set(t.traceId, t.spans.length);
    const exporters = Array.from({ length: CONCURRENCY }, () => exporterFor('proto', svc.address));
    const started = Date.now();
    let next = 0;
    await Promise.all(
      exporters.map(async (ex) => {
        while (next < batches.length && Date.now() - started < DEADLINE_MS) {
          const b = batches[next++]!;
          const r = await exportVia(ex, readable(b.flatMap((t) => t.spans)));
          expect(r.code, r.error?.message).toBe(0);
        }
      }),
    );
    const ms = Date.now() - started;
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    expect(next).toBe(BATCHES);
    const got = new Map<string, Set<string>>();
    let arrived = 0;
    for (const s of sink.spans) {
      if (!expected.has(s.traceId)) continue;
      arrived++;
      let ids = got.get(s.traceId);
      if (!ids) got.set(s.traceId, (ids = new Set()));
      ids.add(s.spanId);
    }
    for (const [t, n] of expected) expect(got.get(t)?.size ?? 0).toBe(n);
    expect(arrived).toBe(total + sink.spans.filter((s) => expected.has(s.traceId) && s.name === 'footprint.findings').length);
    console.log(`[throughput] ${total} spans in ${BATCHES} batches in ${ms} ms: ${Math.round((total * 1000) / ms)} spans/s, ${Math.round((BATCHES * 1000) / ms)} batches/s (loopback, real core)`);
  }, 120_000);
});
