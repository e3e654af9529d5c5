// Pins how the core splits one call's input (issue 11): one part per trace, log records whose
// trace has no span in the input first, then traces by their earliest span start; nothing lost,
// nothing reordered within a trace. And that a batch read part by part gives what the same traces
// give when they arrive one call each, in that order (the in-process path's view of them).
import { describe, it, expect } from 'vitest';
import { traceChunks } from '../../src/runs/trace-chunks.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import type { LogData, SpanData } from '../../src/model/telemetry.js';
// @ts-expect-error plain .mjs module without types
import { agentTurnSpans, BENCH_DECLARATIONS } from '../../bench/workload.mjs';

const span = (traceId: string, spanId: string, start: bigint): SpanData => ({ traceId, spanId, name: spanId, kind: 1, startTimeUnixNano: start, endTimeUnixNano: start + 1n, attributes: {}, events: [], status: { code: 0 }, resource: {}, scope: { name: 's' } });
const log = (traceId: string | undefined, spanId: string | undefined, body: string): LogData => ({ ...(traceId ? { traceId } : {}), ...(spanId ? { spanId } : {}), timeUnixNano: 1n, body, attributes: {}, resource: {}, scope: { name: 's' } });

describe('traceChunks', () => {
  it('one part a trace, by earliest start; late records first; records with no trace in the first part', () => {
    const a1 = span('a'.repeat(32), 'a1', 30n);
    const a2 = span('a'.repeat(32), 'a2', 10n);
    const b1 = span('b'.repeat(32), 'b1', 20n);
    const parts = traceChunks({
      spans: [a1, b1, a2],
      logs: [log('a'.repeat(32), 'a1', 'for a'), log('c'.repeat(32), 'c1', 'late'), log(undefined, undefined, 'no trace')],
    });
    expect(parts.map((p) => p.spans.map((s) => s.spanId))).toEqual([[], ['a1', 'a2'], ['b1']]);
    expect(parts.map((p) => (p.logs ?? []).map((l) => l.body))).toEqual([['no trace', 'late'], ['for a'], []]);
  });

  it('an input of one trace is one part, as it came', () => {
    const s = [span('a'.repeat(32), 'a1', 3n), span('a'.repeat(32), 'a2', 1n)];
    expect(traceChunks({ spans: s })).toEqual([{ spans: s }]);
  });
});

describe('the core reads a batch trace by trace', () => {
  const text = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
  it('one call with ten turns of two conversations gives what the ten turns give one call each', () => {
    const turns: SpanData[][] = [];
    for (let t = 0; t < 10; t++) {
      const spans = agentTurnSpans({ traceId: `${t.toString(16).padStart(8, '0')}${'e'.repeat(24)}`, conversationId: `conv-${t % 2}`, ungrounded: t % 3 === 0 ? 1 : 0, salt: ` #${t}`, windowBytes: 4_000 }) as SpanData[];
      // Turn t starts at t ms (the workload's spans all start at 0).
      for (const s of spans) {
        s.startTimeUnixNano += BigInt(t) * 1_000_000n;
        s.endTimeUnixNano += BigInt(t) * 1_000_000n;
      }
      turns.push(spans);
    }
    const batch = new FootprintCore({ declarations: BENCH_DECLARATIONS }).process({ spans: [...turns].reverse().flat() });
    const single = new FootprintCore({ declarations: BENCH_DECLARATIONS });
    const each = turns.map((spans) => single.process({ spans }));
    expect(batch.findings.length).toBeGreaterThan(0);
    expect(text(batch.findings)).toBe(text(each.flatMap((r) => r.findings)));
    expect(text([...batch.annotations].sort())).toBe(text(each.flatMap((r) => [...r.annotations]).sort()));
  });
});
