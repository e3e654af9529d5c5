// Carrier spans: when a finding's subject span has already gone on (e.g. its log records came
// later), a small span in the same trace, parented to the subject, carries the finding instead.
// Its id is derived from the subject's, so the same input gives the same carrier.

import { createHash } from 'node:crypto';
import type { SpanData } from '../model/telemetry.js';
import type { SpanAnnotation } from './options.js';
import { ATTR_CARRIER_SUBJECT_SPAN_ID, CARRIER_SPAN_NAME, SCOPE_NAME } from '../findings/names.js';

/** A small span in the subject's trace, parented to it, carrying findings the subject could not. */
export function carrierSpan(traceId: string, subjectSpanId: string, ann: SpanAnnotation, subject: SpanData | undefined): SpanData {
  const spanId = createHash('sha256').update(`carrier ${traceId} ${subjectSpanId}`).digest('hex').slice(0, 16);
  const time = subject?.endTimeUnixNano ?? ann.events[0]?.timeUnixNano ?? 0n;
  return {
    traceId,
    spanId,
    parentSpanId: subjectSpanId,
    name: CARRIER_SPAN_NAME,
    kind: 1,
    startTimeUnixNano: time,
    endTimeUnixNano: time,
    attributes: { ...ann.attributes, [ATTR_CARRIER_SUBJECT_SPAN_ID]: subjectSpanId },
    events: ann.events,
    status: { code: 0 },
    resource: subject?.resource ?? {},
    scope: { name: SCOPE_NAME },
  };
}

