// The service's `gen_ai.evaluation.result` log records: one per evaluation span event the core
// wrote on a batch (findings, and with evaluationEvents `all` the per-turn pass / not_run), with
// explicit trace and span ids of the evaluated span and its resource. The records mirror the span
// events attribute for attribute (src/findings/evaluation.ts builds both), so the two signals never
// disagree. Must never read a span's content: only what the core already wrote.

import type { Attributes, LogData, SpanData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import type { ProcessResult } from '../runs/footprint.js';
import { toEvaluationLogRecord } from '../findings/evaluation.js';
import { ATTR_CARRIER_SUBJECT_SPAN_ID, EVENT_EVALUATION_RESULT, SCOPE_NAME } from '../findings/names.js';

const NO_RESOURCE: Attributes = { 'service.name': SCOPE_NAME };

export function evaluationRecords(result: Pick<ProcessResult, 'annotations' | 'carriers'>, spans: readonly { span: SpanData }[], timeUnixNano: bigint): LogData[] {
  const out: LogData[] = [];
  const resources = new Map<string, Attributes>();
  for (const { span } of spans) resources.set(spanKey(span), span.resource);
  for (const [key, ann] of result.annotations) {
    const [traceId, spanId] = key.split('/') as [string, string];
    for (const ev of ann.events) {
      if (ev.name === EVENT_EVALUATION_RESULT) out.push(toEvaluationLogRecord(ev, { traceId, spanId }, resources.get(key) ?? NO_RESOURCE, SCOPE_NAME, timeUnixNano));
    }
  }
  // A carrier stands in for a subject span that already went on: the record names the subject.
  for (const c of result.carriers) {
    const subject = c.attributes[ATTR_CARRIER_SUBJECT_SPAN_ID];
    const spanId = typeof subject === 'string' ? subject : c.spanId;
    for (const ev of c.events) {
      if (ev.name === EVENT_EVALUATION_RESULT) out.push(toEvaluationLogRecord(ev, { traceId: c.traceId, spanId }, Object.keys(c.resource).length ? c.resource : NO_RESOURCE, SCOPE_NAME, timeUnixNano));
    }
  }
  return out;
}
