// sdk-agent, each variant in a process of its own: the sdk-agent workload (agent turns of
// invoke_agent + chat + 3 execute_tool, 41 KB windows, 5 turns a conversation, one window in five
// with an ungrounded argument) through a real BasicTracerProvider, BSP alone or footprint + BSP
// from a given build. CPU time (process.cpuUsage) per turn, ROUNDS timed rounds after one warm-up
// round, gc() between rounds, the same turns in every run (no time cap), export counts checked.
// For before/after figures of a change: never rewrites bench/results.json, never measures more
// than it prints.
// Usage: node bench/sdk-agent-ab.mjs DIST_A [DIST_B]   (runs bsp, A, B alternately in their own
//          processes, BENCH_AB_RUNS (3) each; prints µs per turn and ratios to BSP alone)
//        node bench/sdk-agent-ab.mjs child bsp|footprint [DIST]   (one run; prints JSON)

import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AGENT_WINDOW_BYTES, BENCH_DECLARATIONS, chatContent } from './workload.mjs';
import { agentTurn } from './agent-turn.mjs';
import { isMain, median, round, yieldToLoop, noopExporter } from './lib.mjs';

const TURNS = Number(process.env.BENCH_AB_TURNS ?? 1500);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_AB_RUNS ?? 3);
const TURNS_PER_CONVERSATION = 5;
const AGENT_USAGE = { 'gen_ai.usage.input_tokens': 10_412, 'gen_ai.usage.output_tokens': 96 };
const HERE = fileURLToPath(new URL('.', import.meta.url));

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function childRun(variant, dist) {
  const { FootprintSpanProcessor } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
  // The same ten windows as bench/sdk.mjs's sdk-agent.
  const cs = Array.from({ length: 10 }, (_, i) => chatContent({ windowBytes: AGENT_WINDOW_BYTES, ungrounded: i % 5 === 4 ? 1 : 0, salt: ` #${i}` }));
  const perRound = [];
  let findings = 0;
  for (let r = -1; r < ROUNDS; r++) {
    const exporter = noopExporter();
    const bsp = new BatchSpanProcessor(exporter);
    const fp = variant === 'footprint' ? new FootprintSpanProcessor({ next: bsp, declarations: BENCH_DECLARATIONS }) : null;
    const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'bench-agent' }), spanProcessors: [fp ?? bsp] });
    const tracer = provider.getTracer('bench-agent-app', '1.0.0');
    const n = r < 0 ? Math.min(300, TURNS) : TURNS;
    const t0 = cpuMicros();
    for (let t = 0; t < n; t++) {
      agentTurn(tracer, `conv-${r}-${Math.floor(t / TURNS_PER_CONVERSATION)}`, cs[t % cs.length], AGENT_USAGE);
      if ((t & 31) === 31) await yieldToLoop(); // the BSP exports as an app's event loop would let it
    }
    await yieldToLoop();
    const cpu = cpuMicros() - t0;
    await provider.forceFlush();
    const spans = n * (2 + cs[0].toolCalls.length);
    if (exporter.exported !== spans) throw new Error(`sdk-agent-ab: exported ${exporter.exported} of ${spans}`);
    if (fp && r >= 0) findings = Object.values(fp.stats().core?.findingsByKind ?? {}).reduce((a, b) => a + b, 0);
    await provider.shutdown();
    if (r >= 0) perRound.push(cpu / n);
    globalThis.gc?.();
  }
  return { variant, dist, usPerTurn: median(perRound), rounds: perRound, findings };
}

function spawnChild(variant, dist) {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), 'child', variant, dist], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) rej(new Error(`sdk-agent-ab child ${variant} exited ${code}`));
      else res(JSON.parse(line));
    });
  });
}

async function ab(dists) {
  const variants = [{ name: 'bsp', variant: 'bsp', dist: dists[0] }, ...dists.map((d, i) => ({ name: String.fromCharCode(65 + i), variant: 'footprint', dist: d }))];
  const runs = new Map(variants.map((v) => [v.name, []]));
  for (let k = 0; k < RUNS; k++) {
    // Alternate the order each run (bsp A B, B A bsp, ...), so drift in the machine's load spreads evenly.
    const order = k % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const r = await spawnChild(v.variant, v.dist);
      runs.get(v.name).push(r);
      console.log(`run ${k + 1} ${v.name}: ${round(r.usPerTurn, 1)} µs/turn${v.variant === 'footprint' ? `, ${r.findings} findings` : ''}`);
    }
  }
  const bspMed = median(runs.get('bsp').map((r) => r.usPerTurn));
  for (const v of variants) {
    const xs = runs.get(v.name).map((r) => r.usPerTurn);
    const label = v.variant === 'bsp' ? 'bsp alone' : `${v.name} ${v.dist}`;
    console.log(`${label}: µs/turn runs ${xs.map((x) => round(x, 1)).join(' / ')}, min ${round(Math.min(...xs), 1)}, median ${round(median(xs), 1)}; ratio to bsp median: min ${round(Math.min(...xs) / bspMed, 2)}, median ${round(median(xs) / bspMed, 2)}`);
  }
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === 'child') {
    const r = await childRun(process.argv[3], process.argv[4] ?? resolve(HERE, '../dist'));
    console.log(JSON.stringify(r));
  } else {
    const dists = process.argv.slice(2);
    await ab(dists.length > 0 ? dists : [resolve(HERE, '../dist')]);
  }
}
