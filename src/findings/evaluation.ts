// The GenAI semantic conventions' `gen_ai.evaluation.result` for footprint's checks: one per
// finding (label `fail`, or `advisory`), and per turn one per check that ran clean (`pass`) or could
// not run (`not_run`, with `error.type`). Span events here; `toEvaluationLogRecord` gives the same
// as a log record with explicit trace and span ids. Pure: built from what the footprint.* events
// already hold, so the explanation is redacted and bounded exactly as the finding's message is.
// Must never put a raw, unredacted or unbounded value from telemetry into an attribute.

import type { Attributes, AttrValue, LogData, SpanEventData, SpanRef } from '../model/telemetry.js';
import type { CheckTally, Finding } from '../model/finding.js';
import { fitBytes } from './events.js';
import * as N from './names.js';

/**
 * Which `gen_ai.evaluation.result` events are written: `off` none; `findings` (default) one per
 * finding; `all` also one `pass` or `not_run` per check per turn.
 */
export type EvaluationEvents = 'off' | 'findings' | 'all';
export const EVALUATION_EVENTS_VALUES: readonly EvaluationEvents[] = ['off', 'findings', 'all'];
export const DEFAULT_EVALUATION_EVENTS: EvaluationEvents = 'findings';

/** `footprint.<check>`: the same name for a check's findings and its per-turn pass / not_run. */
export function evaluationName(check: string): string {
  return `${N.EVALUATION_NAME_PREFIX}${check}`;
}

/**
 * The evaluation event of one finding, from its `footprint.finding` event (same time, same
 * redacted and bounded message). `check` is the registered check that filed it; `responseId` the
 * evaluated span's `gen_ai.response.id`, when it has one.
 */
export function findingEvaluation(f: Pick<Finding, 'advisory'>, findingEvent: SpanEventData, check: string, responseId?: string): SpanEventData {
  const a = findingEvent.attributes;
  const attributes: Attributes = {
    [N.ATTR_EVALUATION_NAME]: evaluationName(check),
    [N.ATTR_EVALUATION_SCORE_LABEL]: f.advisory ? N.EVALUATION_LABEL_ADVISORY : N.EVALUATION_LABEL_FAIL,
    [N.ATTR_EVALUATION_EXPLANATION]: String(a[N.ATTR_FINDING_MESSAGE] ?? ''),
    [N.ATTR_FINDING_KIND]: a[N.ATTR_FINDING_KIND] ?? '',
    [N.ATTR_FINDING_ID]: a[N.ATTR_FINDING_ID] ?? '',
  };
  if (responseId) attributes[N.ATTR_GEN_AI_RESPONSE_ID] = responseId;
  return { name: N.EVENT_EVALUATION_RESULT, timeUnixNano: findingEvent.timeUnixNano, attributes };
}

/**
 * One turn's `pass` / `not_run` events from its disposition rows (rows whose `findings` is the
 * count written): `pass` when the check ran and found nothing and nothing stopped it; `not_run`
 * when it could not run on some of what it met and found nothing (error.type from the first
 * reason, every reason in the explanation); nothing for a check that met nothing it applies to,
 * or that wrote findings (those have their own events).
 */
export function turnEvaluations(rows: readonly CheckTally[], time: bigint, errorTypeOf: (reason: string) => string, maxBytes: number): SpanEventData[] {
  const out: SpanEventData[] = [];
  for (const r of rows) {
    if (r.findings > 0 || (r.checked === 0 && r.unreachable === 0)) continue;
    const reasons = Object.keys(r.unreachableReasons);
    const attributes: Attributes = { [N.ATTR_EVALUATION_NAME]: evaluationName(r.check) };
    if (r.unreachable === 0) {
      attributes[N.ATTR_EVALUATION_SCORE_LABEL] = N.EVALUATION_LABEL_PASS;
      attributes[N.ATTR_EVALUATION_EXPLANATION] = `${r.check} checked ${times(r.checked)} on this turn and found nothing.`;
    } else {
      attributes[N.ATTR_EVALUATION_SCORE_LABEL] = N.EVALUATION_LABEL_NOT_RUN;
      attributes[N.ATTR_ERROR_TYPE] = reasons.length > 0 ? errorTypeOf(reasons[0]!) : N.EVALUATION_ERROR_OTHER;
      const ran = r.checked > 0 ? `${r.check} checked ${times(r.checked)} and found nothing, but could not run ${times(r.unreachable)}` : `${r.check} could not run`;
      attributes[N.ATTR_EVALUATION_EXPLANATION] = fitBytes(`${ran} on this turn: ${reasons.join('; ') || 'no reason recorded'}.`, maxBytes);
    }
    out.push({ name: N.EVENT_EVALUATION_RESULT, timeUnixNano: time, attributes });
  }
  return out;
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

/**
 * The same evaluation as a log record (the convention's event form), with explicit trace and span
 * ids: for pipelines that route evaluations as logs. `resource` is the evaluated span's.
 */
export function toEvaluationLogRecord(ev: SpanEventData, span: SpanRef, resource: Attributes, scopeName: string, timeUnixNano: bigint): LogData {
  const attributes: Record<string, AttrValue> = { ...ev.attributes, [N.ATTR_EVENT_NAME]: N.EVENT_EVALUATION_RESULT };
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    eventName: N.EVENT_EVALUATION_RESULT,
    timeUnixNano,
    severityNumber: 9,
    body: undefined,
    attributes,
    resource,
    scope: { name: scopeName },
  };
}
