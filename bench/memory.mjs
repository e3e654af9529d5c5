// Memory: 100,000 conversations of 3 turns each (invoke_agent + chat + 1 execute_tool a turn; the
// chat window grows by 3 messages a turn, ~2-4 KB) through a real BasicTracerProvider with
// FootprintSpanProcessor (default limits) in front of a BatchSpanProcessor with a no-op exporter.
// Conversations run 1,000 at a time, their turns interleaved. Reports rss and heapUsed after gc()
// (run with --expose-gc) at checkpoints, the configured bounds and core.stats().

import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { FootprintSpanProcessor, DEFAULT_LIMITS } from '../dist/index.js';
import { BENCH_DECLARATIONS } from './workload.mjs';
import { emit, isMain, noopExporter, round, yieldToLoop } from './lib.mjs';

const CONVERSATIONS = Number(process.env.BENCH_MEMORY_CONVERSATIONS ?? 100_000);
export const TURNS = 3;
export const WAVE = 1000;
const MB = 2 ** 20;
/** State per held conversation when issue 11 was filed (KiB, this workload). */
const ISSUE_STATE_PER_CONVERSATION_KIB = 15.6;
/** Issue 36: the process's rss at the end of the run (10,000 conversations held), MB. */
const RSS_TARGET_MB = 300;

const gc = () => {
  if (!globalThis.gc) throw new Error('run with --expose-gc');
  globalThis.gc();
  globalThis.gc();
};

function turnContent(conv, turn) {
  const id = `srv-${conv}-${turn}`;
  const input = [{ role: 'system', parts: [{ type: 'text', content: 'You are a backup triage assistant. Use only identifiers tools return.' }] }];
  for (let t = 0; t <= turn; t++) {
    input.push({ role: 'user', parts: [{ type: 'text', content: `Turn ${t} of conversation ${conv}: which machines of customer acme missed last night's backup? ${'Please be thorough. '.repeat(20)}` }] });
    input.push({ role: 'assistant', parts: [{ type: 'tool_call', id: `c${conv}-${t}`, name: 'list_machines', arguments: { customer: 'acme' } }] });
    input.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: `c${conv}-${t}`, response: JSON.stringify(Array.from({ length: 8 }, (_, k) => ({ machine_id: `srv-${conv}-${t}${k ? `-${k}` : ''}`, hostname: `host-${k}.acme.internal`, protected: k % 2 === 0 }))) }] });
  }
  const call = { type: 'tool_call', id: `out-${conv}-${turn}`, name: 'backup_status', arguments: { machine_id: id, customer: 'acme' } };
  return { input, output: [{ role: 'assistant', finish_reason: 'tool_call', parts: [call] }], call };
}

export function runTurn(tracer, conv, turn) {
  const c = turnContent(conv, turn);
  const root = tracer.startSpan('invoke_agent backup-triage', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'backup-triage', 'gen_ai.conversation.id': `conv-${conv}` } });
  const ctx = trace.setSpan(ROOT_CONTEXT, root);
  const chat = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' } }, ctx);
  chat.setAttributes({ 'gen_ai.input.messages': JSON.stringify(c.input), 'gen_ai.output.messages': JSON.stringify(c.output) });
  chat.end();
  const tool = tracer.startSpan('execute_tool backup_status', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'backup_status', 'gen_ai.tool.call.id': c.call.id, 'gen_ai.tool.call.arguments': JSON.stringify(c.call.arguments) } }, ctx);
  tool.setAttribute('gen_ai.tool.call.result', JSON.stringify({ status: 'missed', last_success: '2024-04-29T02:00:00Z' }));
  tool.end();
  root.end();
}

const snap = (done, fp, t0) => {
  gc();
  const m = process.memoryUsage();
  const s = fp.stats().core;
  return { conversations: done, seconds: round((Date.now() - t0) / 1000, 1), rssMB: round(m.rss / MB, 1), heapUsedMB: round(m.heapUsed / MB, 1), heapTotalMB: round(m.heapTotal / MB, 1), externalMB: round(m.external / MB, 1), held: s.conversations, evicted: s.evictedConversations, stateMB: round(s.stateBytes / MB, 2) };
}

export async function memory({ conversations = CONVERSATIONS } = {}) {
  gc();
  const base = process.memoryUsage();
  const exporter = noopExporter();
  const overrides = process.env.BENCH_MEMORY_LIMITS ? JSON.parse(process.env.BENCH_MEMORY_LIMITS) : undefined; // for attribution runs only
  const fp = new FootprintSpanProcessor({ next: new BatchSpanProcessor(exporter), declarations: BENCH_DECLARATIONS, ...(overrides ? { limits: overrides } : {}) });
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'bench-agent' }), spanProcessors: [fp] });
  const tracer = provider.getTracer('bench-agent-app');
  const checkpoints = [];
  const t0 = Date.now();
  let peakRss = base.rss;
  for (let w = 0; w < conversations; w += WAVE) {
    for (let turn = 0; turn < TURNS; turn++) {
      for (let c = w; c < Math.min(w + WAVE, conversations); c++) {
        runTurn(tracer, c, turn);
        if ((c & 63) === 63) await yieldToLoop();
      }
    }
    await yieldToLoop();
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const done = Math.min(w + WAVE, conversations);
    if (done % 10_000 === 0 || done === conversations) {
      checkpoints.push(snap(done, fp, t0));
      if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(checkpoints.at(-1)));
    }
  }
  await provider.forceFlush();
  const last = snap(conversations, fp, t0);
  const stats = fp.stats();
  const limits = DEFAULT_LIMITS;
  const spans = conversations * TURNS * 3;
  if (exporter.exported < spans) throw new Error(`memory: exported ${exporter.exported} of ${spans}`);
  await provider.shutdown();
  const heapGrowthMB = last.heapUsedMB - base.heapUsed / MB;
  const mid = checkpoints[Math.floor(checkpoints.length / 2) - 1] ?? last;
  const bound = limits.maxStateBytes + base.rss;
  // The issue's second target: state per held conversation ≤ ¼ of what it measured then
  // (ISSUE_STATE_PER_CONVERSATION_KIB, the same workload).
  const perConversationKiB = stats.core.stateBytes / Math.max(1, stats.core.conversations) / 1024;
  const stateRatio = perConversationKiB / ISSUE_STATE_PER_CONVERSATION_KIB;
  const bounded =
    stats.core.stateBytes <= limits.maxStateBytes &&
    stats.core.conversations <= limits.maxConversations &&
    stats.core.evictedConversations === conversations - stats.core.conversations &&
    last.rssMB * MB <= bound;
  // Issue 36's target: rss at the end (10,000 conversations held, 90,000 evicted) ≤ RSS_TARGET_MB.
  const met = bounded && last.rssMB <= RSS_TARGET_MB;
  return {
    conversations,
    turnsPerConversation: TURNS,
    spans,
    seconds: last.seconds,
    bounds: { maxConversations: limits.maxConversations, maxStateBytes: limits.maxStateBytes, maxStateMB: limits.maxStateBytes / MB, maxRememberedSpans: limits.maxRememberedSpans },
    baseline: { rssMB: round(base.rss / MB, 1), heapUsedMB: round(base.heapUsed / MB, 1) },
    final: { rssMB: last.rssMB, heapUsedMB: last.heapUsedMB, heapTotalMB: last.heapTotalMB, externalMB: last.externalMB, heapGrowthMB: round(heapGrowthMB, 1), peakRssMB: round(peakRss / MB, 1) },
    heapPlateau: { atMidpointMB: mid.heapUsedMB, atEndMB: last.heapUsedMB, midpointConversations: mid.conversations },
    coreStats: { conversations: stats.core.conversations, evictedConversations: stats.core.evictedConversations, stateBytes: stats.core.stateBytes, stateMB: round(stats.core.stateBytes / MB, 2), findingsByKind: stats.core.findingsByKind },
    processor: { ended: stats.ended, agentSpans: stats.agentSpans, annotated: stats.annotated, errors: stats.errors },
    checkpoints,
    // rss at the end over the target (RSS_TARGET_MB); ≤ 1 meets it.
    ratio: round(last.rssMB / RSS_TARGET_MB, 3),
    // rss at the end and at its peak over the bound the state limit implies (baseline rss + maxStateBytes).
    boundRatio: round((last.rssMB * MB) / bound, 3),
    peakRatio: round(peakRss / bound, 3),
    statePerHeldConversationKiB: round(perConversationKiB, 2),
    stateRatio: round(stateRatio, 3),
    bounded,
    target: `rss ≤ ${RSS_TARGET_MB} MB at the end, 10,000 conversations held (ratio ≤ 1); rss ≤ baseline rss + maxStateBytes; stateBytes ≤ maxStateBytes; conversations held ≤ maxConversations; evictedConversations = conversations − held; state per held conversation reported beside (stateRatio: over issue 11's ${ISSUE_STATE_PER_CONVERSATION_KIB} KiB)`,
    met,
  };
}

if (isMain(import.meta.url)) {
  const r = await memory();
  console.log(`memory: ${r.conversations} conversations x ${r.turnsPerConversation} turns (${r.spans} spans) in ${r.seconds} s`);
  console.log(`  bounds: maxConversations ${r.bounds.maxConversations}, maxStateBytes ${r.bounds.maxStateMB} MB`);
  console.log(`  rss ${r.final.rssMB} MB (baseline ${r.baseline.rssMB}, peak ${r.final.peakRssMB}), heapUsed after gc ${r.final.heapUsedMB} MB (+${r.final.heapGrowthMB}, heapTotal ${r.final.heapTotalMB}, external ${r.final.externalMB}); at ${r.heapPlateau.midpointConversations} conversations ${r.heapPlateau.atMidpointMB} MB`);
  console.log(`  rss / ${RSS_TARGET_MB} MB ${r.ratio} at the end; rss / (baseline + maxStateBytes) ${r.boundRatio} at the end, ${r.peakRatio} at the peak; state per held conversation ${r.statePerHeldConversationKiB} KiB (${r.stateRatio} of issue 11's ${ISSUE_STATE_PER_CONVERSATION_KIB} KiB)`);
  console.log(`  core: ${r.coreStats.conversations} held, ${r.coreStats.evictedConversations} evicted, stateBytes ${r.coreStats.stateMB} MB; findings ${JSON.stringify(r.coreStats.findingsByKind)}`);
  console.log(`  checkpoints: ${r.checkpoints.map((c) => `${c.conversations / 1000}k: heap ${c.heapUsedMB} MB rss ${c.rssMB} held ${c.held}`).join('; ')}`);
  emit('memory', r);
}
