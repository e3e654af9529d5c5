// sdk-conversation: what footprint costs per request as a conversation grows. 1 -> 80 turns, each
// turn an agent turn (invoke_agent + chat + 3 execute_tool) through a real BasicTracerProvider;
// the chat window repeats the whole history (~2 KB new a turn, ~160 KB at turn 80) and its calls'
// arguments are grounded in the newest and the oldest messages (bench/workload.mjs).
// Honest to the user's case: the BSP-alone baseline and footprint each run in a process of their
// own (footprint's state would inflate a shared heap), alternating B F B F ..., CONVERSATIONS
// conversations stepped turn by turn, the same turns in both (no time cap), gc() between rounds.
// Both variants export through an exporter that reads every string attribute once, as any
// exporter must (bench/lib.mjs readingExporter), and each turn step exports its own spans (BSP
// forceFlush inside the step): the app's exporter reads the window anyway, and its first read
// pays V8's flatten of the JSON.stringify rope (~0.5 ms at 170 KB); with a no-op exporter that
// flatten, the app's own cost, lands on footprint, which reads first (BENCH_CONV_EXPORTER=noop
// shows it: the ratio then carries the flatten's growth; =otlp-proto serializes in full).
// Measures the CPU time (process.cpuUsage) of each turn step. Footprint's cost at turn t is the
// median footprint run minus the median baseline run; `ratio` = cost at turn 80 / at turn 5, each
// the mean of the 5 turns around it (76-80, 3-7). Target ≤ 1.5 (issue 36; ≤ 2 before).
// Usage: node bench/sdk-conversation.mjs            (parent: spawns the runs, prints, emits)
//        node bench/sdk-conversation.mjs child bsp|footprint [DIST]   (one run; prints JSON)
//        node bench/sdk-conversation.mjs ab DIST_A DIST_B   (two builds of footprint: runs B, A, B' …
//          alternately, each in its own process, and prints each one's cost at the checkpoints)
// BENCH_CONV_RUNS (3), BENCH_CONV_CONVERSATIONS (20), BENCH_CONV_ROUNDS (3) override the sizes.

import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BENCH_DECLARATIONS, conversationTurns } from './workload.mjs';
import { agentTurn } from './agent-turn.mjs';
import { emit, exporterNamed, isMain, median, round, runBenchChild } from './lib.mjs';

export const TURNS = 80;
const CONVERSATIONS = Number(process.env.BENCH_CONV_CONVERSATIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_CONV_ROUNDS ?? 3);
const RUNS = Number(process.env.BENCH_CONV_RUNS ?? 3);
// The app's exporter: 'read' (default) reads every string attribute once, as any exporter must
// (bench/lib.mjs readingExporter); 'otlp-proto' serializes each batch as the OTLP/protobuf
// exporter does (its own noise, ~4 ms a request at turn 80, swamps footprint's ~0.5 ms); 'noop'
// drops it unread (footprint is then charged the app's flatten of each window).
const EXPORTER = process.env.BENCH_CONV_EXPORTER ?? 'read';
const EXPORTERS = {
  read: 'reads every string attribute once (UTF-8 length), then drops the batch; one export per turn step',
  'otlp-proto': 'otlp-proto serializer (bytes dropped), one export per turn step',
  noop: 'noop (drops batches unread), one export per turn step',
};
const SPANS_PER_TURN = 5;
const HERE = fileURLToPath(new URL('.', import.meta.url));


const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * One run of one variant: ROUNDS rounds (plus one untimed warm-up of a few conversations), each
 * CONVERSATIONS conversations stepped turn by turn; returns per round the CPU µs of each turn step
 * (all conversations' turn t), and the processor's stats of the last round.
 */
async function childRun(variant, dist, { conversations = CONVERSATIONS, rounds = ROUNDS } = {}) {
  const { FootprintSpanProcessor } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
  // Contents built before timing: the app's own message objects (stringified at span end, timed).
  const contents = Array.from({ length: conversations }, (_, c) => {
    const next = conversationTurns(c);
    return Array.from({ length: TURNS }, (_, t) => next(t + 1));
  });
  const perRound = [];
  let stats = null;
  for (let r = -1; r < rounds; r++) {
    const exporter = await exporterNamed(EXPORTER);
    const bsp = new BatchSpanProcessor(exporter);
    const fp = variant === 'footprint' ? new FootprintSpanProcessor({ next: bsp, declarations: BENCH_DECLARATIONS }) : null;
    const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'bench-agent' }), spanProcessors: [fp ?? bsp] });
    const tracer = provider.getTracer('bench-agent-app', '1.0.0');
    const n = r < 0 ? Math.min(4, conversations) : conversations;
    const steps = new Array(TURNS).fill(0);
    const exportedAfter = new Array(TURNS).fill(0);
    for (let t = 0; t < TURNS; t++) {
      const t0 = cpuMicros();
      for (let c = 0; c < n; c++) agentTurn(tracer, `conv-${r}-${c}`, contents[c][t]);
      // Each step exports its own spans (timed, the same in both variants), so no step carries
      // another's batch: with the BSP's 512-span batches the serialization spikes, large and
      // falling on a few turns, would swamp the per-turn difference.
      await bsp.forceFlush();
      steps[t] = cpuMicros() - t0;
      exportedAfter[t] = exporter.exported;
    }
    await provider.forceFlush();
    // footprint (in-thread) forwards each span as it ends: every step's spans are exported in that step.
    for (let t = 0; t < TURNS; t++) if (exportedAfter[t] !== n * (t + 1) * SPANS_PER_TURN) throw new Error(`sdk-conversation: ${variant} step ${t + 1} exported ${exportedAfter[t]}, not ${n * (t + 1) * SPANS_PER_TURN}`);
    if (exporter.exported !== n * TURNS * SPANS_PER_TURN) throw new Error(`sdk-conversation: exported ${exporter.exported} of ${n * TURNS * SPANS_PER_TURN}`);
    if (fp) stats = fp.stats();
    await provider.shutdown();
    if (r >= 0) perRound.push(steps);
    globalThis.gc?.();
  }
  // A round's turn step, per conversation; the run's figure for turn t is the median over rounds.
  const perTurn = Array.from({ length: TURNS }, (_, t) => median(perRound.map((s) => s[t])) / conversations);
  return { variant, conversations, rounds, perTurn, stats: stats && { agentSpans: stats.agentSpans, annotated: stats.annotated, errors: stats.errors, core: stats.core } };
}

const spawnChild = (variant, dist) => runBenchChild(fileURLToPath(import.meta.url), variant, dist, { prefix: 'CONV-RUN ' });

/** Mean of perTurn over turns [from, to] (1-based, inclusive). */
const around = (perTurn, from, to) => {
  let s = 0;
  for (let t = from; t <= to; t++) s += perTurn[t - 1];
  return s / (to - from + 1);
};

export const CHECKPOINTS = [1, 5, 10, 20, 40, 60, 80];
const windowOf = (t) => (t <= 2 ? [t, t] : t >= TURNS - 2 ? [TURNS - 4, TURNS] : [t - 2, t + 2]);

/**
 * Runs `runs` baseline and `runs` footprint processes alternately (B F B F ...), each variant's
 * footprint from `dist` (default ../dist). Returns the curve and the ratio.
 */
export async function sdkConversation({ runs = RUNS, dist = resolve(HERE, '../dist') } = {}) {
  const bsp = [];
  const fp = [];
  for (let i = 0; i < runs; i++) {
    bsp.push(await spawnChild('bsp', dist));
    fp.push(await spawnChild('footprint', dist));
  }
  const med = (rs) => Array.from({ length: TURNS }, (_, t) => median(rs.map((r) => r.perTurn[t])));
  const base = med(bsp);
  const withFp = med(fp);
  const cost = withFp.map((x, t) => x - base[t]);
  const at = (t) => around(cost, ...windowOf(t));
  const sample = contentsSizes();
  const ratio = at(80) / at(5);
  const totalFp = cost.reduce((a, b) => a + b, 0);
  const totalBase = base.reduce((a, b) => a + b, 0);
  return {
    turns: TURNS,
    exporter: `${EXPORTER}: ${EXPORTERS[EXPORTER]}`,
    conversationsPerRound: fp[0].conversations,
    roundsPerRun: fp[0].rounds,
    runsPerVariant: runs,
    windowJsonBytes: { turn1: sample[0], turn5: sample[4], turn80: sample[TURNS - 1] },
    newBytesPerTurn: round((sample[TURNS - 1] - sample[4]) / (TURNS - 5), 0),
    // µs per request (one conversation's turn), around each checkpoint turn.
    checkpoints: CHECKPOINTS.map((t) => ({ turn: t, turns: windowOf(t), usBsp: round(around(base, ...windowOf(t)), 1), usFootprint: round(around(withFp, ...windowOf(t)), 1), usCost: round(at(t), 1) })),
    // A whole 80-turn conversation: footprint's CPU ms against the app + SDK's own.
    conversationMs: { bsp: round(totalBase / 1e3, 2), footprint: round(totalFp / 1e3, 2) },
    runsCostAt80: fp.map((r, i) => round(around(r.perTurn, 76, 80) - around(bsp[i].perTurn, 76, 80), 1)),
    runsCostAt5: fp.map((r, i) => round(around(r.perTurn, 3, 7) - around(bsp[i].perTurn, 3, 7), 1)),
    processorStats: fp[fp.length - 1].stats,
    ratio: round(ratio, 2),
    target: 'per-request cost at turn 80 / at turn 5 ≤ 1.5 (equal new content per turn)',
    met: ratio <= 1.5,
  };
}

function contentsSizes() {
  const next = conversationTurns(0);
  return Array.from({ length: TURNS }, (_, t) => JSON.stringify(next(t + 1).input).length);
}

/** Two builds side by side: baseline, A and B each in its own process, alternating, `runs` times. */
export async function abConversation(distA, distB, { runs = RUNS } = {}) {
  const bsp = [];
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    bsp.push(await spawnChild('bsp', distA));
    if (i % 2 === 0) {
      a.push(await spawnChild('footprint', distA));
      b.push(await spawnChild('footprint', distB));
    } else {
      b.push(await spawnChild('footprint', distB));
      a.push(await spawnChild('footprint', distA));
    }
  }
  const med = (rs) => Array.from({ length: TURNS }, (_, t) => median(rs.map((r) => r.perTurn[t])));
  const base = med(bsp);
  const costs = (rs) => {
    const m = med(rs);
    const perRun = (t) => rs.map((r, i) => round(around(r.perTurn, ...windowOf(t)) - around(bsp[i].perTurn, ...windowOf(t)), 1));
    return CHECKPOINTS.map((t) => ({ turn: t, median: round(around(m, ...windowOf(t)) - around(base, ...windowOf(t)), 1), runs: perRun(t) }));
  };
  return { runs, a: costs(a), b: costs(b), bsp: CHECKPOINTS.map((t) => round(around(base, ...windowOf(t)), 1)) };
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === 'ab') {
    const r = await abConversation(resolve(process.argv[3]), resolve(process.argv[4]));
    console.log(`A = ${process.argv[3]}, B = ${process.argv[4]}; footprint's cost per request (µs; median of ${r.runs} runs, then each run = its own process minus the baseline run beside it)`);
    for (let i = 0; i < CHECKPOINTS.length; i++) {
      const [x, y] = [r.a[i], r.b[i]];
      console.log(`  turn ${String(x.turn).padStart(2)}: BSP ${r.bsp[i]}  A ${x.median} [${x.runs.join(', ')}]  B ${y.median} [${y.runs.join(', ')}]`);
    }
    console.log(`  cost at 80 / at 5: A ${round(r.a[6].median / r.a[1].median, 2)}, B ${round(r.b[6].median / r.b[1].median, 2)}`);
  } else if (process.argv[2] === 'child') {
    const r = await childRun(process.argv[3], process.argv[4] ?? resolve(HERE, '../dist'));
    console.log(`CONV-RUN ${JSON.stringify(r)}`);
  } else {
    const r = await sdkConversation();
    console.log(`sdk-conversation: ${r.turns} turns, ${r.conversationsPerRound} conversations x ${r.roundsPerRun} rounds per run, ${r.runsPerVariant} runs per variant (each in its own process); window ${r.windowJsonBytes.turn5} B at turn 5, ${r.windowJsonBytes.turn80} B at turn 80 (+${r.newBytesPerTurn} B a turn)`);
    for (const c of r.checkpoints) console.log(`  turn ${String(c.turn).padStart(2)} (${c.turns.join('-')}): BSP ${c.usBsp} µs, +footprint ${c.usFootprint} µs, footprint's cost ${c.usCost} µs per request`);
    console.log(`  whole conversation: app+SDK ${r.conversationMs.bsp} ms, footprint ${r.conversationMs.footprint} ms; cost at 80 / at 5 = ${r.ratio} (${r.target}); per run at 5: ${r.runsCostAt5.join(', ')} µs, at 80: ${r.runsCostAt80.join(', ')} µs`);
    emit('sdk-conversation', r);
  }
}
