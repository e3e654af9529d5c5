// Splits one call's input into one part per trace, in the order the core should read them: log
// records whose trace has no span in the input first (they complete spans read earlier), then each
// trace by its earliest span start. The core reads a large batch (a service's 512 spans) part by
// part, so it never holds every request's parsed window at once (its peak heap; no CPU change was
// measured: issue 11, bench/RESULTS.md), in the order the in-process path reads spans in. A part
// is what a smaller batch of the same trace would have been. Must never drop, copy or reorder
// within a trace.

import type { LogData, SpanData } from '../model/telemetry.js';
import type { ProcessInput } from './options.js';

export function traceChunks(input: ProcessInput): ProcessInput[] {
  const byTrace = new Map<string, { spans: SpanData[]; logs: LogData[]; start: bigint }>();
  for (const s of input.spans) {
    const c = byTrace.get(s.traceId);
    if (!c) byTrace.set(s.traceId, { spans: [s], logs: [], start: s.startTimeUnixNano });
    else {
      c.spans.push(s);
      if (s.startTimeUnixNano < c.start) c.start = s.startTimeUnixNano;
    }
  }
  const logsOnly = new Map<string, LogData[]>();
  const unplaced: LogData[] = [];
  for (const l of input.logs ?? []) {
    const c = l.traceId === undefined ? undefined : byTrace.get(l.traceId);
    if (c) c.logs.push(l);
    else if (l.traceId !== undefined) (logsOnly.get(l.traceId) ?? logsOnly.set(l.traceId, []).get(l.traceId)!).push(l);
    else unplaced.push(l);
  }
  const out: ProcessInput[] = [];
  for (const logs of logsOnly.values()) out.push({ spans: [], logs });
  const traces = [...byTrace.values()].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  for (const t of traces) out.push(t.logs.length > 0 ? { spans: t.spans, logs: t.logs } : { spans: t.spans });
  // Records with no trace id join no span: the first part reports them.
  if (unplaced.length > 0) {
    if (out.length === 0) out.push({ spans: [], logs: unplaced });
    else out[0] = { spans: out[0]!.spans, logs: [...unplaced, ...(out[0]!.logs ?? [])] };
  }
  return out;
}
