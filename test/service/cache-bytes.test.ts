// Issue 31 item 6, every cached span counted at its real size: a chat span that arrives without its
// content waits in the core for its log records; with a large attribute (here an array of 400,000
// numbers: at least 3.2 MB in V8) it was counted as if it stopped at 100,000 values, so 15 such
// spans could pin gigabytes while footprint_state_bytes said megabytes, and nothing evicted them.
// Now each is counted whole, the waiting spans and records share the caches' byte bound (the
// oldest go, said in a diagnostic and counted), and the explain store counts its spans with the same
// estimate. Also the in-process buffer of log records waiting for their span holds a byte bound.
// The core's and the buffer's cases fail on the code before issue 31.
import { describe, expect, it } from 'vitest';
import { FootprintCore } from '../../src/runs/footprint.js';
import { ExplainStore } from '../../src/service/explain-routes.js';
import { PendingLogs } from '../../src/processor/log-buffer.js';
import type { LogData, SpanData } from '../../src/model/telemetry.js';
import { retraced } from './helpers.js';

const ELEMENTS = 400_000;
/** V8 holds a packed array of doubles at 8 bytes an element at least. */
const FLOOR = ELEMENTS * 8;

/** The recorded official-OpenAI-instrumentation chat spans (content only in log records), each with a large attribute. */
function waitingChatSpans(n: number, elements = ELEMENTS): SpanData[] {
  const out: SpanData[] = [];
  for (let i = 0; i < n; i++) {
    const { spans } = retraced('otel-instrumentation-openai');
    const chat = spans.find((s) => s.name.startsWith('chat'))!;
    out.push({ ...chat, attributes: { ...chat.attributes, 'app.blob': Array.from({ length: elements }, (_, j) => j + 0.5) } });
  }
  return out;
}

describe('cached spans are counted at their real size', () => {
  it('one chat span waiting for its records counts at least what its attribute holds', () => {
    const core = new FootprintCore({});
    const before = core.stats().stateBytes;
    const r = core.process({ spans: waitingChatSpans(1) });
    expect(r.diagnostics.filter((d) => d.code === 'core.failed')).toEqual([]);
    expect(core.stats().stateBytes - before).toBeGreaterThanOrEqual(FLOOR);
  });

  it('waiting spans share the caches\' byte bound: past it the oldest go, counted and said', () => {
    // A state bound of 16 MiB: the caches' share is 4 MiB, room for one such span.
    const core = new FootprintCore({ limits: { maxStateBytes: 16 * 1024 * 1024 } });
    const diagnostics: string[] = [];
    for (const s of waitingChatSpans(8)) diagnostics.push(...core.process({ spans: [s] }).diagnostics.map((d) => d.code));
    const stats = core.stats();
    expect(stats.stateBytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(stats.waitingEvicted).toBeGreaterThanOrEqual(6);
    expect(diagnostics).toContain('state.waiting-evicted');
  });

  it('the explain store counts a kept span whole, so its byte bound holds', () => {
    const store = new ExplainStore({ limits: { maxBytes: 24 * 1024 * 1024 } });
    for (const s of waitingChatSpans(3, 2_000_000)) store.add([s], []);
    // Each trace holds 16 MB (two million doubles): one fits in 24 MiB. (Its estimate used to walk at
    // most 200,000 values; for arrays it erred high, so this case holds on either estimate.)
    expect(store.size).toBe(1);
  });

  it('the in-process buffer of records waiting for their span holds its byte bound', () => {
    const { logs } = retraced('otel-instrumentation-openai');
    const big = (l: LogData, i: number): LogData => ({ ...l, spanId: i.toString(16).padStart(16, '0'), attributes: { ...l.attributes, blob: 'x'.repeat(1024 * 1024) } });
    const buf = new PendingLogs({ limits: { maxLogsPerSpan: 100, maxPendingLogSpans: 1000 }, maxBytes: 8 * 1024 * 1024 });
    for (let i = 1; i <= 40; i++) buf.add(big(logs[0]!, i));
    const st = buf.stats();
    expect(st.bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(st.evictedRecords).toBeGreaterThanOrEqual(32);
    // The newest records are the ones kept.
    expect(buf.take(logs[0]!.traceId!, (40).toString(16).padStart(16, '0')).logs.length).toBe(1);
    expect(buf.stats().bytes).toBeLessThan(st.bytes);
  });
});
