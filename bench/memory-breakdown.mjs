// Memory breakdown (issue 11): what a held conversation costs, by part. Runs the memory bench's
// workload (bench/memory.mjs, default limits) for BENCH_MEMORY_CONVERSATIONS conversations (12,000
// unless set), then attributes the state two ways: stateBytes' own estimate per part, and the real
// memory each part frees when it is dropped (heapUsed + arrayBuffers after gc() before and after,
// parts dropped one after another, so a string shared by two parts is counted for the last holder).
// A measuring tool: reaches into the core's private fields, never used by the library. Run with
// --expose-gc.

import { ROOT_CONTEXT } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { FootprintSpanProcessor, FootprintCore } from '../dist/index.js';
import { BENCH_DECLARATIONS } from './workload.mjs';
import { isMain, noopExporter, round, yieldToLoop } from './lib.mjs';
import { runTurn, TURNS, WAVE } from './memory.mjs';
import { ledgerRowBytes, CHOSEN_BYTES, CONVERSATION_BYTES } from '../dist/runs/conversations.js';
import { ServedHistory } from '../dist/runs/served-history.js';
import { traceRecordPartsBytes, TRACE_RECORD_BYTES } from '../dist/runs/trace-record.js';

void ROOT_CONTEXT;
const MB = 2 ** 20;
const gc = () => {
  if (!globalThis.gc) throw new Error('run with --expose-gc');
  globalThis.gc();
  globalThis.gc();
};
const heap = () => {
  gc();
  // The JS heap and the array buffers (the served history keeps its stores off the heap).
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** stateBytes' own estimate, by part (the same functions the store counts with). */
function estimates(core) {
  const convs = [...core.conversations.map.values()];
  const e = { served: 0, chosen: 0, ledger: 0, pendingChoice: 0, shells: convs.length * CONVERSATION_BYTES, conversationsTotal: core.conversations.bytes };
  for (const s of convs) {
    e.served += s.served.bytes;
    e.chosen += s.chosen.size * CHOSEN_BYTES;
    for (const r of s.ledger) e.ledger += ledgerRowBytes(r);
    e.pendingChoice += s.pendingChoice?.bytes ?? 0;
  }
  e.windowMemo = core.windows.bytes;
  // The trace records: counted by number (TRACE_RECORD_BYTES each) plus their parts.
  e.traceRecords = core.traces.size * TRACE_RECORD_BYTES + [...core.traces.values()].reduce((n, r) => n + traceRecordPartsBytes(r), 0);
  e.otherCaches = core.cachesBytes() - core.windows.bytes - e.traceRecords;
  return { held: convs.length, ...e };
}

export async function breakdown({ conversations = Number(process.env.BENCH_MEMORY_CONVERSATIONS ?? 12_000) } = {}) {
  const base = heap();
  const exporter = noopExporter();
  const core = new FootprintCore({ declarations: BENCH_DECLARATIONS, rememberSpans: false /* as FootprintSpanProcessor builds it */ });
  const fp = new FootprintSpanProcessor({ next: new BatchSpanProcessor(exporter), core });
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'bench-agent' }), spanProcessors: [fp] });
  const tracer = provider.getTracer('bench-agent-app');
  for (let w = 0; w < conversations; w += WAVE) {
    for (let turn = 0; turn < TURNS; turn++) {
      for (let c = w; c < Math.min(w + WAVE, conversations); c++) {
        runTurn(tracer, c, turn);
        if ((c & 63) === 63) await yieldToLoop();
      }
    }
    await yieldToLoop();
  }
  await provider.forceFlush();
  const est = estimates(core);
  const stateBytes = core.stats().stateBytes;
  const held = est.held;
  const total = heap();
  const parts = [];
  const drop = (name, fn) => {
    const before = heap();
    fn();
    const after = heap();
    parts.push({ part: name, heapMB: round((before - after) / MB, 2), perConversationKB: round((before - after) / held / 1024, 2) });
  };
  const states = () => [...core.conversations.map.values()];
  drop('window memo (last raw window + its messages)', () => core.windows.clear());
  drop('remembered spans (retry cache)', () => core.processedSpans.clear());
  drop('trace records (tallies, info, findings, written, conversation id)', () => core.traces.clear());
  drop('pending logs / awaiting content / provisional tallies', () => {
    for (const m of [core.pendingLogs, core.awaitingContent, core.provisionalTallies]) m.clear();
  });
  drop('pendingChoice (frame, calls)', () => {
    for (const s of states()) delete s.pendingChoice;
  });
  drop('chosen map', () => {
    for (const s of states()) s.chosen = new Map();
  });
  drop('ledger rows', () => {
    for (const s of states()) s.ledger = [];
  });
  drop('served history (numbers and UTF-8 texts, in array buffers)', () => {
    for (const s of states()) s.served = new ServedHistory();
  });
  drop('conversation shells (map entry, key, resultTools, counters)', () => core.conversations.clear());
  await provider.shutdown();
  return {
    conversations,
    held,
    heapGrowthMB: round((total - base) / MB, 1),
    stateBytesMB: round(stateBytes / MB, 2),
    estimatesMB: Object.fromEntries(Object.entries(est).filter(([k]) => k !== 'held').map(([k, v]) => [k, round(v / MB, 2)])),
    estimatesPerConversationKB: Object.fromEntries(Object.entries(est).filter(([k]) => k !== 'held').map(([k, v]) => [k, round(v / held / 1024, 2)])),
    heapByPart: parts,
    unattributedMB: round((total - base - parts.reduce((n, p) => n + p.heapMB * MB, 0)) / MB, 2),
  };
}

if (isMain(import.meta.url)) {
  const r = await breakdown();
  console.log(JSON.stringify(r, null, 1));
}
