// sdk-ordinary, each variant in a process of its own and measured in CPU time, as the issue's
// method asks: ordinary (non-GenAI) HTTP-server spans through a real BasicTracerProvider, the
// BatchSpanProcessor alone or footprint in front of it (a no-op exporter in both: nothing reads an
// ordinary span's short strings that footprint would have flattened first). ROUNDS rounds of
// SPANS spans after one warm-up round, gc() between rounds, the same spans in every run, export
// counts checked; a round's figure is the main thread's CPU ns per span (/proc/self/task/<pid>/
// schedstat on Linux, else process.cpuUsage()). RUNS runs a variant, alternating B F F B ...;
// `ratio` = median footprint run / median BSP run, beside the min-based ratio and each run.
// Never rewrites bench/results.json itself (bench/sdk.mjs ordinary emits the result for run.mjs).
// Usage: node bench/sdk-ordinary-ab.mjs [DIST]          (parent: the runs, prints the figures)
//        node bench/sdk-ordinary-ab.mjs child bsp|footprint [DIST]   (one run; prints JSON)
//        BENCH_ORD_RUNS (5), BENCH_ORD_ROUNDS (5), BENCH_ORD_SPANS (100000)

import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BENCH_DECLARATIONS } from './workload.mjs';
import { ordinarySpans } from './agent-turn.mjs';
import { isMain, median, noopExporter, processCpuNs, round, runBenchChild, threadCpuNs } from './lib.mjs';

const RUNS = Number(process.env.BENCH_ORD_RUNS ?? 5);
const ROUNDS = Number(process.env.BENCH_ORD_ROUNDS ?? 5);
const SPANS = Number(process.env.BENCH_ORD_SPANS ?? 100_000);
const HERE = fileURLToPath(new URL('.', import.meta.url));

/** CPU ns of the main thread (Linux schedstat), else of the process. */
const mainThreadCpuNs = () => threadCpuNs(process.pid) ?? processCpuNs();

async function childRun(variant, dist) {
  const { FootprintSpanProcessor } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
  const perRound = [];
  for (let r = -1; r < ROUNDS; r++) {
    const exporter = noopExporter();
    const bsp = new BatchSpanProcessor(exporter);
    const fp = variant === 'footprint' ? new FootprintSpanProcessor({ next: bsp, declarations: BENCH_DECLARATIONS }) : null;
    const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'bench-agent' }), spanProcessors: [fp ?? bsp] });
    const tracer = provider.getTracer('@opentelemetry/instrumentation-http', '0.200.0');
    const n = r < 0 ? SPANS / 5 : SPANS;
    const t0 = mainThreadCpuNs();
    await ordinarySpans(tracer, n);
    await provider.forceFlush();
    const ns = mainThreadCpuNs() - t0;
    if (exporter.exported !== n) throw new Error(`sdk-ordinary-ab: exported ${exporter.exported} of ${n}`);
    await provider.shutdown();
    if (r >= 0) perRound.push(ns / n);
    globalThis.gc?.();
  }
  return { variant, nsPerSpan: median(perRound), rounds: perRound.map((x) => round(x, 0)) };
}

/** The sdk-ordinary record: RUNS runs a variant, each in its own process, alternating. */
export async function sdkOrdinaryProcesses(dist = resolve(HERE, '../dist'), log = console.log) {
  const bsp = [];
  const fp = [];
  for (let k = 0; k < RUNS; k++) {
    const order = k % 2 === 0 ? ['bsp', 'footprint'] : ['footprint', 'bsp'];
    for (const v of order) {
      const r = await runBenchChild(fileURLToPath(import.meta.url), v, dist);
      (v === 'bsp' ? bsp : fp).push(r.nsPerSpan);
      log(`run ${k + 1} ${v}: ${round(r.nsPerSpan, 0)} CPU ns/span (rounds ${r.rounds.join(' / ')})`);
    }
  }
  const mb = median(bsp);
  const mf = median(fp);
  const ratio = mf / mb;
  return {
    method: 'each variant in its own process, RUNS runs alternating; main-thread CPU ns per span (Linux schedstat) over ROUNDS rounds of SPANS spans after a warm-up round, gc between rounds; ratio = median footprint run / median BSP run',
    spansPerRound: SPANS,
    roundsPerRun: ROUNDS,
    runsPerVariant: RUNS,
    nsPerSpanBsp: round(mb, 0),
    nsPerSpanFootprint: round(mf, 0),
    overheadNsPerSpan: round(mf - mb, 0),
    runsNsPerSpan: { bsp: bsp.map((x) => round(x, 0)), footprint: fp.map((x) => round(x, 0)) },
    ratioOfMins: round(Math.min(...fp) / Math.min(...bsp), 3),
    ratio: round(ratio, 3),
    target: 'ratio ≤ 1.05',
    met: ratio <= 1.05,
  };
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === 'child') {
    console.log(JSON.stringify(await childRun(process.argv[3], process.argv[4] ?? resolve(HERE, '../dist'))));
  } else {
    const r = await sdkOrdinaryProcesses(resolve(process.argv[2] ?? resolve(HERE, '../dist')));
    console.log(`sdk-ordinary (own processes, CPU): BSP ${r.nsPerSpanBsp} ns/span, footprint ${r.nsPerSpanFootprint} (+${r.overheadNsPerSpan}), ratio ${r.ratio} (of mins ${r.ratioOfMins}); runs BSP ${r.runsNsPerSpan.bsp.join(' / ')}, footprint ${r.runsNsPerSpan.footprint.join(' / ')}`);
  }
}
