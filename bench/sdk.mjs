// SDK overhead: the same spans through a real BasicTracerProvider with BatchSpanProcessor alone
// vs FootprintSpanProcessor in front of the same kind of BatchSpanProcessor (a no-op exporter),
// measured side by side in alternating rounds in this one process.
//   sdk-ordinary: 100,000 ordinary (non-GenAI) HTTP-server spans per round; ns/span, ratio ≤ 1.05.
//     Recorded from bench/sdk-ordinary-ab.mjs (each variant in its own process, CPU time); the
//     in-process alternating-blocks figure below goes beside it as `interleaved`.
//   sdk-agent: agent turns (invoke_agent + chat + 3 execute_tool); the chat window holds 50
//     messages (~41 KB of JSON, stringified at span end like an instrumentation does) and chooses
//     3 calls with 5 string arguments each; µs per chat span (its whole turn): total CPU (every
//     thread of the process) ≤ 1.5 × BSP alone's, and ≤ 1.1 × on the app thread (issue 36). `agent` runs bench/sdk-agent-ab.mjs's suite (BSP alone, in-thread, worker mode,
//     each in its own process), with the app's exporter serializing as OTLP/protobuf does and then
//     with a no-op one (sdkAgentRecord); sdkAgent() below is the older one-process interleaved measure.
// Usage: node bench/sdk.mjs [ordinary|agent]   (both when no argument)

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { chatContent, AGENT_WINDOW_BYTES, BENCH_DECLARATIONS } from './workload.mjs';
import { agentTurn, ordinarySpans } from './agent-turn.mjs';
import { sdkAgentRecord } from './sdk-agent-ab.mjs';
import { sdkOrdinaryProcesses } from './sdk-ordinary-ab.mjs';
import { emit, interleaveBlocks, isMain, noopExporter, round, yieldToLoop } from './lib.mjs';

// BENCH_DIST: another build's dist/ (A/B of two builds: run this once with each).
const { FootprintSpanProcessor } = await import(process.env.BENCH_DIST ? pathToFileURL(resolve(process.env.BENCH_DIST, 'index.js')).href : '../dist/index.js');

const ORDINARY_SPANS = 100_000;
const AGENT_TURNS = 600;
const TURNS_PER_CONVERSATION = 5;
const ROUNDS = 5;

/** A provider whose one processor is the BSP alone, or footprint in front of it. */
function pipeline(withFootprint) {
  const exporter = noopExporter();
  const bsp = new BatchSpanProcessor(exporter);
  const fp = withFootprint ? new FootprintSpanProcessor({ next: bsp, declarations: BENCH_DECLARATIONS }) : null;
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'bench-agent' }), spanProcessors: [fp ?? bsp] });
  return { provider, exporter, fp };
}

const ORDINARY_BLOCKS = 50;

/** One round: both pipelines, each running ORDINARY_SPANS spans in ORDINARY_BLOCKS blocks. */
function ordinaryRound() {
  const per = ORDINARY_SPANS / ORDINARY_BLOCKS;
  const make = (withFootprint) => {
    const p = pipeline(withFootprint);
    p.tracer = p.provider.getTracer('@opentelemetry/instrumentation-http', '0.200.0');
    return p;
  };
  const bsp = make(false);
  const fp = make(true);
  const block = async (p) => {
    await ordinarySpans(p.tracer, per);
    await yieldToLoop();
  };
  return {
    bsp: () => block(bsp),
    footprint: () => block(fp),
    async teardown() {
      for (const p of [bsp, fp]) {
        await p.provider.forceFlush();
        const expected = p.exporter.exported; // warm-up rounds run fewer blocks
        if (expected % per !== 0) throw new Error(`sdk-ordinary: exported ${expected}, not whole blocks`);
        await p.provider.shutdown();
      }
      if (bsp.exporter.exported !== fp.exporter.exported) throw new Error(`sdk-ordinary: exported ${bsp.exporter.exported} vs ${fp.exporter.exported}`);
    },
  };
}

export async function sdkOrdinary({ rounds = ROUNDS } = {}) {
  const r = await interleaveBlocks(ordinaryRound, { rounds, blocks: ORDINARY_BLOCKS });
  const per = (x) => x / ORDINARY_SPANS;
  const base = per(r.bsp.median);
  const fp = per(r.footprint.median);
  return {
    spansPerRound: ORDINARY_SPANS,
    rounds,
    blocksPerRound: ORDINARY_BLOCKS,
    nsPerSpanBsp: round(base, 0),
    nsPerSpanFootprint: round(fp, 0),
    overheadNsPerSpan: round(fp - base, 0),
    roundsNsPerSpan: { bsp: r.bsp.rounds.map((x) => round(per(x), 0)), footprint: r.footprint.rounds.map((x) => round(per(x), 0)) },
    ratio: round(r.ratio, 3),
    target: 'ratio ≤ 1.05',
    met: r.ratio <= 1.05,
  };
}

// Distinct windows (a few, so strings are not all the same object), one in five with an argument
// nothing served (so the annotation path runs too).
let contents;
function agentContents() {
  contents ??= Array.from({ length: 10 }, (_, i) => chatContent({ windowBytes: AGENT_WINDOW_BYTES, ungrounded: i % 5 === 4 ? 1 : 0, salt: ` #${i}` }));
  return contents;
}

/** The usage the sdk-agent workload's chat spans carry. */
const AGENT_USAGE = { 'gen_ai.usage.input_tokens': 10_412, 'gen_ai.usage.output_tokens': 96 };

const AGENT_BLOCKS = 30;
let lastStats = null;

/** One round: both pipelines, each running `turns` agent turns in AGENT_BLOCKS blocks. */
function agentRound(turns = AGENT_TURNS) {
  const per = Math.ceil(turns / AGENT_BLOCKS);
  const cs = agentContents();
  const make = (withFootprint) => {
    const p = pipeline(withFootprint);
    p.tracer = p.provider.getTracer('bench-agent-app', '1.0.0');
    p.turn = 0;
    return p;
  };
  const bsp = make(false);
  const fp = make(true);
  const block = async (p) => {
    for (let i = 0; i < per; i++, p.turn++) {
      agentTurn(p.tracer, `conv-${Math.floor(p.turn / TURNS_PER_CONVERSATION)}`, cs[p.turn % cs.length], AGENT_USAGE);
      if ((i & 31) === 31) await yieldToLoop();
    }
    await yieldToLoop();
  };
  return {
    bsp: () => block(bsp),
    footprint: () => block(fp),
    async teardown() {
      const spansPerTurn = 2 + cs[0].toolCalls.length;
      for (const p of [bsp, fp]) {
        await p.provider.forceFlush();
        if (p.exporter.exported !== p.turn * spansPerTurn) throw new Error(`sdk-agent: exported ${p.exporter.exported} of ${p.turn * spansPerTurn}`);
      }
      lastStats = fp.fp.stats();
      await bsp.provider.shutdown();
      await fp.provider.shutdown();
    },
  };
}

export async function sdkAgent({ rounds = ROUNDS, turns = AGENT_TURNS } = {}) {
  const perBlock = Math.ceil(turns / AGENT_BLOCKS);
  turns = perBlock * AGENT_BLOCKS;
  const r = await interleaveBlocks(() => agentRound(turns), { rounds, blocks: AGENT_BLOCKS, warmupBlocks: 3 });
  const per = (x) => x / turns / 1e3;
  const base = per(r.bsp.median);
  const fp = per(r.footprint.median);
  const c = agentContents()[0];
  return {
    chatSpansPerRound: turns,
    spansPerTurn: 2 + c.toolCalls.length,
    windowMessages: c.input.length,
    windowJsonBytes: JSON.stringify(c.input).length,
    toolCallsPerChat: c.toolCalls.length,
    argumentsPerCall: Object.keys(c.toolCalls[0].arguments).length,
    rounds,
    usPerChatSpanBsp: round(base, 1),
    usPerChatSpanFootprint: round(fp, 1),
    overheadUsPerChatSpan: round(fp - base, 1),
    roundsUsPerChatSpan: { bsp: r.bsp.rounds.map((x) => round(per(x), 1)), footprint: r.footprint.rounds.map((x) => round(per(x), 1)) },
    processorStats: lastStats && { ended: lastStats.ended, agentSpans: lastStats.agentSpans, annotated: lastStats.annotated, carriers: lastStats.carriers, errors: lastStats.errors, findingsByKind: lastStats.core?.findingsByKind },
    ratio: round(r.ratio, 2),
    target: 'ratio ≤ 1.5',
    met: r.ratio <= 1.5,
  };
}

/** For --cpu-prof: footprint's agent path only, many turns. */
export async function agentProfile(turns = 3000) {
  const r = agentRound(turns);
  for (let b = 0; b < AGENT_BLOCKS; b++) await r.footprint(b);
  await r.teardown();
}

if (isMain(import.meta.url)) {
  const which = process.argv[2];
  if (which === 'profile') {
    await agentProfile();
  } else if (which === 'profile-ordinary') {
    const r = ordinaryRound();
    for (let b = 0; b < 5 * ORDINARY_BLOCKS; b++) await r.footprint(b);
    await r.teardown().catch(() => {});
  } else {
    if (!which || which === 'ordinary') {
      // The record: each variant in its own process, CPU time (bench/sdk-ordinary-ab.mjs); the
      // older in-process measure (alternating blocks, wall clock) beside it as `interleaved`.
      const p = await sdkOrdinaryProcesses();
      const o = await sdkOrdinary();
      console.log(`sdk-ordinary (in one process, alternating blocks, wall clock): BSP alone ${o.nsPerSpanBsp} ns/span, footprint+BSP ${o.nsPerSpanFootprint} ns/span (+${o.overheadNsPerSpan} ns), ratio ${o.ratio}`);
      console.log(`sdk-ordinary (each variant in its own process, CPU, ${p.runsPerVariant} runs): BSP alone ${p.nsPerSpanBsp} ns/span, footprint+BSP ${p.nsPerSpanFootprint} ns/span (+${p.overheadNsPerSpan} ns), ratio ${p.ratio} (of mins ${p.ratioOfMins}; ${p.target})`);
      emit('sdk-ordinary', { ...p, interleaved: { ratio: o.ratio, nsPerSpanBsp: o.nsPerSpanBsp, nsPerSpanFootprint: o.nsPerSpanFootprint, roundsNsPerSpan: o.roundsNsPerSpan } });
    }
    if (!which || which === 'agent') {
      // Each variant in its own process (bench/sdk-agent-ab.mjs): BSP alone, in-thread, worker mode.
      const a = await sdkAgentRecord();
      console.log(`sdk-agent (no-op exporter instead: worker mode total CPU ratio ${a.noopExporter.ratio}, app thread ${a.noopExporter.ratioAppThread}, +${a.noopExporter.overheadUsPerChatSpan} µs/turn on it; in-thread app thread ${a.noopExporter.ratioInThread})`);
      const u = a.usPerTurn;
      console.log(`sdk-agent (${a.exporter}): ${a.turnsPerRound} turns x ${a.roundsPerRun} rounds x ${a.runsPerVariant} runs per variant, each in its own process (window ${a.windowMessages} messages, ${a.windowJsonBytes} B JSON): total CPU (every thread), BSP alone ${u.bsp.process.median} µs/turn, worker-mode footprint+BSP ${u.worker.process.median} µs, ratio ${a.ratio}; app thread, BSP alone ${a.usPerChatSpanBsp} µs/turn, worker mode ${a.usPerChatSpanFootprint} µs (+${a.overheadUsPerChatSpan} µs), ratio ${a.ratioAppThread} (${a.target}); the worker thread ${a.usPerChatSpanWorkerThread} µs/turn; in-thread: app thread ratio ${a.ratioInThread}, total ${a.ratioInThreadTotal}`);
      emit('sdk-agent', a);
    }
  }
}
