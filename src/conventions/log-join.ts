// Joins log records to the span they belong to, by trace id + span id. The official OpenAI
// instrumentation writes message content only as log records; without this join it has none.
// Bounded: a cap on spans waiting and on records per span; past it, records are counted, not kept.

import { spanKey, type LogData } from '../model/telemetry.js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import type { Limits } from '../limits.js';

/** Groups records by `traceId/spanId`, in time order. Records with no span context are reported. */
export function groupLogsBySpan(logs: readonly LogData[], limits: Limits, diagnostics: DiagnosticSink): Map<string, LogData[]> {
  const out = new Map<string, LogData[]>();
  let orphans = 0;
  let overflow = 0;
  for (const log of logs) {
    if (!log.traceId || !log.spanId) {
      orphans++;
      continue;
    }
    const key = spanKey({ traceId: log.traceId, spanId: log.spanId });
    let list = out.get(key);
    if (!list) {
      if (out.size >= limits.maxPendingLogSpans) {
        overflow++;
        continue;
      }
      list = [];
      out.set(key, list);
    }
    if (list.length >= limits.maxLogsPerSpan) {
      overflow++;
      continue;
    }
    list.push(log);
  }
  for (const list of out.values()) list.sort((a, b) => (a.timeUnixNano < b.timeUnixNano ? -1 : a.timeUnixNano > b.timeUnixNano ? 1 : 0));
  if (orphans > 0) diagnostics.report({ level: 'info', code: 'logs.no-span-context', message: `${orphans} log record(s) carry no trace and span id and cannot be joined to a span` });
  if (overflow > 0) diagnostics.report({ level: 'warn', code: 'logs.over-bound', message: `${overflow} log record(s) were past the bound on records per span or spans waiting, and were not joined` });
  return out;
}
