// sdk-agent, each variant in a process of its own: the sdk-agent workload (agent turns of
// invoke_agent + chat + 3 execute_tool, 41 KB windows, 5 turns a conversation, one window in five
// with an ungrounded argument) through a real BasicTracerProvider: BSP alone, footprint + BSP
// in-thread, or footprint + BSP with `analysis: 'worker'`. ROUNDS timed rounds after one warm-up
// round through one pipeline (one processor, one worker) for the whole run, no collection forced
// between rounds, the same turns in every run (no time cap), export counts checked.
// Each round is timed from its first turn until `provider.forceFlush()` resolves (so worker mode's
// replies, annotation and forwarding are inside it), in three CPU figures per turn:
//   appThread — the main thread alone: /proc/self/task/<pid>/schedstat (ns on CPU; Linux),
//   workerThread — the analysis worker's thread: /proc/self/task/<its tid>/schedstat,
//   process — process.cpuUsage() (every thread: main, worker, GC helpers, libuv).
// Never rewrites bench/results.json itself (bench/sdk.mjs agent emits its result for run.mjs).
// Usage: node bench/sdk-agent-ab.mjs DIST_A [DIST_B]   (bsp, then in-thread footprint of each build)
//        node bench/sdk-agent-ab.mjs --worker [DIST]   (bsp, in-thread and worker mode of one build)
//        node bench/sdk-agent-ab.mjs child bsp|footprint|worker [DIST]   (one run; prints JSON)
//        BENCH_AB_RUNS (3), BENCH_AB_TURNS (1500), BENCH_AB_ROUNDS (3), BENCH_AB_WARMUP (2000); BENCH_AB_PACE=1: worker mode
//          waits (off CPU) every 32 turns until the worker caught up (the steady state of an app
//          whose turns wait on a model), instead of holding a whole round at once

import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AGENT_WINDOW_BYTES, BENCH_DECLARATIONS, agentConversationTurns, chatContent } from './workload.mjs';
import { agentTurn } from './agent-turn.mjs';
import { exporterNamed, isMain, median, processCpuNs, round, runBenchChild, threadCpuNs, yieldToLoop } from './lib.mjs';

const TURNS = Number(process.env.BENCH_AB_TURNS ?? 1500);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_AB_RUNS ?? 3);
const TURNS_PER_CONVERSATION = 5;
/** The windows: 'windows' (default: ten 50-message windows, unrelated but for their tool results) or 'conversation' (conversationContents). */
const WORKLOAD = process.env.BENCH_AB_WORKLOAD ?? 'windows';
/** Turns of the untimed warm-up round (BENCH_AB_WARMUP): the JIT settles in a few thousand. */
const WARMUP_TURNS = Number(process.env.BENCH_AB_WARMUP ?? 2000);
const PACE = process.env.BENCH_AB_PACE === '1';
/** The app's exporter in every variant: 'noop' (default: drops batches unread) or 'otlp-proto' (serializes them as the OTLP/protobuf exporter does; bench/lib.mjs). */
export const EXPORTER = process.env.BENCH_AB_EXPORTER ?? 'noop';
const AGENT_USAGE = { 'gen_ai.usage.input_tokens': 10_412, 'gen_ai.usage.output_tokens': 96 };
const HERE = fileURLToPath(new URL('.', import.meta.url));
/**
 * Worker mode's queue bounds for the bench: this loop makes turns as fast as one core can, faster
 * than the worker reads them, so a whole round is held at once (7,500 spans, ~65 MB). With the
 * defaults (4,096 spans, 64 MiB) part of each round would go on unanalysed; the bench raises them
 * so every turn is analysed and the findings equal in-thread mode's (checked).
 */
const WORKER_LIMITS = { maxAnalysisQueueSpans: 65_536, maxAnalysisQueueBytes: 1024 * 1024 * 1024 };

async function childRun(variant, dist) {
  const { FootprintSpanProcessor } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
  // The same ten windows as bench/sdk.mjs's sdk-agent.
  const cs = WORKLOAD === 'conversation' ? conversationContents() : Array.from({ length: 10 }, (_, i) => chatContent({ windowBytes: AGENT_WINDOW_BYTES, ungrounded: i % 5 === 4 ? 1 : 0, salt: ` #${i}` }));
  const rounds = { appThread: [], workerThread: [], process: [] };
  // One pipeline for the whole run, as in an app that runs for longer than a round: the warm-up
  // round and the timed rounds go through the same processor (and, in worker mode, the same
  // worker). A pipeline made per round charged each round its worker's JIT warm-up, most of its
  // V8 helper threads' CPU (issue 36: 1,685 µs a turn for a 1,500-turn round, 1,082 for 6,000).
  const exporter = await exporterNamed(EXPORTER);
  const bsp = new BatchSpanProcessor(exporter);
  const fp =
    variant === 'footprint'
      ? new FootprintSpanProcessor({ next: bsp, declarations: BENCH_DECLARATIONS })
      : variant === 'worker'
        ? new FootprintSpanProcessor({ next: bsp, declarations: BENCH_DECLARATIONS, analysis: 'worker', limits: WORKER_LIMITS })
        : null;
  let tid;
  if (variant === 'worker') {
    if (fp.stats().analysis !== 'worker') throw new Error('sdk-agent-ab: worker mode did not start (is DIST a build?)');
    // The worker says its thread id once it has loaded: its start-up is not part of a round.
    for (let i = 0; i < 500 && tid === undefined; i++) {
      await new Promise((res) => setTimeout(res, 10));
      tid = fp.stats().worker?.workerThreadId;
    }
    if (tid === undefined) throw new Error('sdk-agent-ab: the worker gave no thread id (Linux /proc needed)');
  }
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'bench-agent' }), spanProcessors: [fp ?? bsp] });
  const tracer = provider.getTracer('bench-agent-app', '1.0.0');
  const findingsSoFar = () => Object.values(fp?.stats().core?.findingsByKind ?? {}).reduce((x, y) => x + y, 0);
  const unanalysedSoFar = () => {
    const w = fp?.stats().worker;
    return (w?.unanalysedQueueFull ?? 0) + (w?.unanalysedWorkerFailed ?? 0) + (w?.unanalysedTimedOut ?? 0);
  };
  let findings = 0;
  let exported = 0;
  for (let r = -1; r < ROUNDS; r++) {
    const n = r < 0 ? Math.min(WARMUP_TURNS, TURNS) : TURNS;
    const f0 = findingsSoFar();
    const a0 = threadCpuNs(process.pid);
    const w0 = tid === undefined ? 0 : threadCpuNs(tid);
    const p0 = processCpuNs();
    for (let t = 0; t < n; t++) {
      agentTurn(tracer, `conv-${r}-${Math.floor(t / TURNS_PER_CONVERSATION)}`, cs[t % cs.length], AGENT_USAGE);
      if ((t & 31) === 31) {
        await yieldToLoop(); // the BSP exports as an app's event loop would let it
        // BENCH_AB_PACE=1: worker mode waits (off CPU) until the worker has caught up, as an app
        // waiting on its model would let it; the app thread then never holds a round at once.
        if (PACE && variant === 'worker') while (fp.stats().worker.held > 0) await new Promise((res) => setTimeout(res, 2));
      }
    }
    await provider.forceFlush();
    const app = threadCpuNs(process.pid) - a0;
    const worker = tid === undefined ? 0 : threadCpuNs(tid) - w0;
    const proc = processCpuNs() - p0;
    exported += n * (2 + cs[0].toolCalls.length);
    if (exporter.exported !== exported) throw new Error(`sdk-agent-ab: exported ${exporter.exported} of ${exported}`);
    if (r >= 0) {
      findings = findingsSoFar() - f0;
      rounds.appThread.push(app / n / 1e3);
      rounds.workerThread.push(worker / n / 1e3);
      rounds.process.push(proc / n / 1e3);
    }
    // No gc() between rounds: a forced full collection throws away optimized code, and the next
    // round paid for compiling it again (issue 36: BSP alone 420-440 µs a turn with it, 350 without).
  }
  const unanalysed = unanalysedSoFar();
  await provider.shutdown();
  const med = (xs) => median(xs);
  return { variant, dist, usPerTurn: { appThread: med(rounds.appThread), workerThread: med(rounds.workerThread), process: med(rounds.process) }, rounds, findings, unanalysed };
}

/**
 * BENCH_AB_WORKLOAD=conversation: the turns of 200 five-turn conversations (workload.mjs
 * agentConversationTurns: 50-message windows that repeat the turn before's, less its oldest five
 * messages, plus the new ones; one argument in the fifth turn ungrounded), reused in turn: turn t
 * of the bench is turn t % 5 of conversation (t / 5) % 200, so a bench conversation's turns are one
 * workload conversation's.
 */
function conversationContents() {
  const out = [];
  for (let k = 0; k < 200; k++) {
    const turn = agentConversationTurns(`c${k}`, { ungrounded: (t) => (t === 4 ? 1 : 0) });
    for (let t = 0; t < TURNS_PER_CONVERSATION; t++) out.push(turn(t));
  }
  return out;
}

const spawnChild = (variant, dist, env) => runBenchChild(fileURLToPath(import.meta.url), variant, dist, { env });

/** Runs each variant RUNS times, each in its own process, alternating the order; returns the runs by name. */
async function runVariants(variants, log = console.log, env = {}, runCount = RUNS) {
  const runs = new Map(variants.map((v) => [v.name, []]));
  for (let k = 0; k < runCount; k++) {
    // Alternate the order each run (bsp A B, B A bsp, ...), so drift in the machine's load spreads evenly.
    const order = k % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const r = await spawnChild(v.variant, v.dist, env);
      runs.get(v.name).push(r);
      const w = v.variant === 'worker' ? `, worker thread ${round(r.usPerTurn.workerThread, 1)}` : '';
      log(`run ${k + 1} ${v.name}: app thread ${round(r.usPerTurn.appThread, 1)} µs/turn${w}, process ${round(r.usPerTurn.process, 1)}${v.variant !== 'bsp' ? `; ${r.findings} findings, ${r.unanalysed} unanalysed` : ''}`);
    }
  }
  return runs;
}

/** min / median of one figure over a variant's runs. */
function summary(runs, key) {
  const xs = runs.map((r) => r.usPerTurn[key]);
  return { runs: xs.map((x) => round(x, 1)), min: round(Math.min(...xs), 1), median: round(median(xs), 1) };
}

/**
 * The sdk-agent benchmark as bench/run.mjs records it: BSP alone, in-thread and worker mode, each
 * run in its own process. `ratio` is worker mode's app-thread CPU over BSP alone's (the target's
 * measure); the worker thread's own CPU and the in-thread ratio are reported beside it.
 */
export async function sdkAgentSuite(dist = resolve(HERE, '../dist'), log = console.log, { exporter = EXPORTER, pace = PACE, runs: runCount = RUNS } = {}) {
  const variants = [
    { name: 'bsp', variant: 'bsp', dist },
    { name: 'in-thread', variant: 'footprint', dist },
    { name: 'worker', variant: 'worker', dist },
  ];
  log(`sdk-agent suite: exporter ${exporter}, worker mode ${pace ? 'paced (waits off CPU every 32 turns until the worker caught up)' : 'unpaced (a whole round held at once)'}`);
  const runs = await runVariants(variants, log, { BENCH_AB_EXPORTER: exporter, BENCH_AB_PACE: pace ? '1' : '0' }, runCount);
  const bsp = runs.get('bsp');
  const inThread = runs.get('in-thread');
  const worker = runs.get('worker');
  const findingsIn = new Set(inThread.map((r) => r.findings));
  const findingsW = new Set(worker.map((r) => r.findings));
  if (findingsIn.size !== 1 || findingsW.size !== 1 || [...findingsIn][0] !== [...findingsW][0]) throw new Error(`sdk-agent: findings differ between modes: in-thread ${[...findingsIn]}, worker ${[...findingsW]}`);
  const unanalysed = worker.reduce((a, r) => a + r.unanalysed, 0);
  if (unanalysed > 0) throw new Error(`sdk-agent: worker mode left ${unanalysed} spans unanalysed`);
  const bspApp = summary(bsp, 'appThread');
  const bspProc = summary(bsp, 'process');
  const inApp = summary(inThread, 'appThread');
  const inProc = summary(inThread, 'process');
  const wApp = summary(worker, 'appThread');
  const wWorker = summary(worker, 'workerThread');
  const wProc = summary(worker, 'process');
  const c = chatContent({ windowBytes: AGENT_WINDOW_BYTES });
  // The headline (issue 36): total CPU, every thread of the process (the app's, the worker's, V8's
  // collector helpers), worker mode over BSP alone: what a user whose app runs on one vCPU pays.
  const ratio = wProc.median / bspProc.median;
  const ratioAppThread = wApp.median / bspApp.median;
  // The app thread and the worker thread alone (the collector's helper threads left out).
  const ratioAppPlusWorker = (wApp.median + wWorker.median) / bspApp.median;
  return {
    method: 'each variant in its own process; CPU per turn from its first turn until forceFlush resolves; app thread and worker thread from /proc/self/task/<tid>/schedstat, process from process.cpuUsage()',
    exporter: exporter === 'otlp-proto' ? 'otlp-proto: every variant serializes its batches with the real OTLP/protobuf serializer (bytes dropped)' : 'noop: batches dropped unread',
    workerPaced: pace,
    turnsPerRound: TURNS,
    roundsPerRun: ROUNDS,
    runsPerVariant: runCount,
    spansPerTurn: 2 + c.toolCalls.length,
    windowMessages: c.input.length,
    windowJsonBytes: JSON.stringify(c.input).length,
    findingsPerRound: [...findingsW][0],
    usPerChatSpanBsp: bspApp.median,
    usPerChatSpanFootprint: wApp.median,
    overheadUsPerChatSpan: round(wApp.median - bspApp.median, 1),
    usPerChatSpanWorkerThread: wWorker.median,
    usPerTurn: {
      bsp: { appThread: bspApp, process: bspProc },
      inThread: { appThread: inApp, process: inProc },
      worker: { appThread: wApp, workerThread: wWorker, process: wProc },
    },
    ratioInThread: round(inApp.median / bspApp.median, 2),
    ratioInThreadTotal: round(inProc.median / bspProc.median, 2),
    ratioWorkerTotal: round(wProc.median / bspProc.median, 2),
    ratioAppThread: round(ratioAppThread, 2),
    ratioAppPlusWorker: round(ratioAppPlusWorker, 2),
    ratio: round(ratio, 2),
    target: 'ratio ≤ 1.5: total CPU (every thread of the process), worker mode over BSP alone; app thread ≤ 1.1 × BSP alone',
    met: ratio <= 1.5 && ratioAppThread <= 1.1,
  };
}

/**
 * What bench/run.mjs records as sdk-agent: the suite with the app's exporter serializing its
 * batches as an OTLP/protobuf exporter does (the user's case: the app's own exporter reads and
 * flattens every window; footprint, reading first, would otherwise be charged the app's flatten),
 * worker mode paced as an app waiting on its model is; then the same with a no-op exporter,
 * reported beside it (`noopExporter`), so the baseline with nothing to export stays visible.
 */
export async function sdkAgentRecord(dist = resolve(HERE, '../dist'), log = console.log) {
  // 5 runs a variant (BENCH_AB_RUNS overrides): on this shared machine a burst of a neighbour's
  // load can cover two of three runs and move a median of three by a third.
  const runs = Number(process.env.BENCH_AB_RUNS ?? 5);
  const main = await sdkAgentSuite(dist, log, { exporter: 'otlp-proto', pace: true, runs });
  const noop = await sdkAgentSuite(dist, log, { exporter: 'noop', pace: true, runs });
  return {
    ...main,
    noopExporter: { exporter: noop.exporter, usPerTurn: noop.usPerTurn, ratio: noop.ratio, ratioAppThread: noop.ratioAppThread, ratioInThread: noop.ratioInThread, ratioWorkerTotal: noop.ratioWorkerTotal, overheadUsPerChatSpan: noop.overheadUsPerChatSpan, met: noop.met },
  };
}

async function ab(dists) {
  const variants = [{ name: 'bsp', variant: 'bsp', dist: dists[0] }, ...dists.map((d, i) => ({ name: String.fromCharCode(65 + i), variant: 'footprint', dist: d }))];
  const runs = await runVariants(variants);
  const bspMed = median(runs.get('bsp').map((r) => r.usPerTurn.appThread));
  for (const v of variants) {
    const s = summary(runs.get(v.name), 'appThread');
    const label = v.variant === 'bsp' ? 'bsp alone' : `${v.name} ${v.dist}`;
    console.log(`${label}: app-thread µs/turn runs ${s.runs.join(' / ')}, min ${s.min}, median ${s.median}; ratio to bsp median: min ${round(s.min / bspMed, 2)}, median ${round(s.median / bspMed, 2)}`);
  }
}

function printSuite(r) {
  const u = r.usPerTurn;
  const row = (name, s) => `| ${name} | ${s.runs.join(' / ')} | ${s.min} | ${s.median} |`;
  console.log('\n| variant, figure (µs per turn) | runs | min | median |\n|---|---|---|---|');
  console.log(row('BSP alone, app thread', u.bsp.appThread));
  console.log(row('BSP alone, process', u.bsp.process));
  console.log(row('in-thread footprint, app thread', u.inThread.appThread));
  console.log(row('in-thread footprint, process', u.inThread.process));
  console.log(row('worker footprint, app thread', u.worker.appThread));
  console.log(row('worker footprint, worker thread', u.worker.workerThread));
  console.log(row('worker footprint, process (total)', u.worker.process));
  console.log(`\nratios to BSP alone (medians): worker mode total CPU ${r.ratio}, app thread ${r.ratioAppThread}, app + worker threads ${r.ratioAppPlusWorker} (${r.target}: ${r.met ? 'met' : 'MISSED'}); in-thread app thread ${r.ratioInThread}, in-thread total ${r.ratioInThreadTotal}; ${r.findingsPerRound} findings per round in both modes`);
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === 'child') {
    const r = await childRun(process.argv[3], process.argv[4] ?? resolve(HERE, '../dist'));
    console.log(JSON.stringify(r));
  } else if (process.argv[2] === '--worker') {
    // BENCH_AB_EXPORTER and BENCH_AB_PACE choose the suite's exporter and pacing.
    printSuite(await sdkAgentSuite(resolve(process.argv[3] ?? resolve(HERE, '../dist'))));
  } else {
    const dists = process.argv.slice(2);
    await ab(dists.length > 0 ? dists : [resolve(HERE, '../dist')]);
  }
}
