// Scaling: check time vs window size (10 KB → 1 MB of served text) and vs argument count
// (1 → 1,000), through the real core. Prints each curve and the ratio of time-per-unit between the
// largest and smallest point (≈1 means linear; quadratic growth shows as a ratio far above 1).

import { FootprintCore } from '../dist/runs/footprint.js';
import { chatSpan, BENCH_DECLARATIONS } from './workload.mjs';

function timeIt(make, reps) {
  const core = new FootprintCore({ declarations: BENCH_DECLARATIONS });
  // Warm up, then measure the median of `reps` runs, each on a fresh span (no dedup shortcut).
  for (let i = 0; i < 10; i++) core.process({ spans: [make(i)] });
  const times = [];
  for (let i = 0; i < reps; i++) {
    const span = make(1000 + i);
    const t0 = process.hrtime.bigint();
    core.process({ spans: [span] });
    times.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const trace = (i) => i.toString(16).padStart(32, '0');

export function scalingWindow() {
  const points = [];
  for (const kb of [10, 30, 100, 300, 1000]) {
    const us = timeIt((i) => chatSpan({ messages: Math.max(10, Math.round(kb / 2)), windowBytes: kb * 1024, calls: 3, argsPerCall: 5, traceId: trace(i) }), kb >= 300 ? 7 : 15);
    points.push({ windowKB: kb, microseconds: Math.round(us), usPerKB: +(us / kb).toFixed(2) });
  }
  const ratio = +(points.at(-1).usPerKB / points[0].usPerKB).toFixed(2);
  // Fixed costs dominate 10 KB; the per-KB cost from 100 KB to 1 MB shows the slope alone.
  const ratioFrom100KB = +(points.at(-1).usPerKB / points[2].usPerKB).toFixed(2);
  return { points, ratio, ratioFrom100KB, target: 'per-KB cost at 1 MB / at 10 KB ≤ 2 (linear)' };
}

export function scalingArgs() {
  const points = [];
  for (const n of [1, 10, 100, 1000]) {
    const calls = n >= 10 ? 10 : 1;
    const us = timeIt((i) => chatSpan({ messages: 30, windowBytes: 40 * 1024, calls, argsPerCall: n / calls, traceId: trace(i) }), 15);
    points.push({ arguments: n, microseconds: Math.round(us), usPerArgument: +(us / n).toFixed(2) });
  }
  // Fixed costs (parsing the window) dominate small counts, so compare the marginal cost per
  // argument between 100 and 1,000 arguments, where the argument work dominates.
  const marginal = (points[3].microseconds - points[2].microseconds) / 900;
  const perArgAt100 = points[2].usPerArgument;
  return { points, marginalUsPerArgument: +marginal.toFixed(2), ratio: +(points[3].usPerArgument / perArgAt100).toFixed(2), target: 'per-argument cost at 1,000 / at 100 ≤ 2 (linear)' };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const w = scalingWindow();
  console.log('scaling-window', JSON.stringify(w, null, 2));
  const a = scalingArgs();
  console.log('scaling-args', JSON.stringify(a, null, 2));
}
