// The spans as they left the core: each with the events and attributes the core added, plus the
// carrier spans it made. The account reads findings, dispositions and standings from these (what
// was written), never from a second run of the checks. Pure; copies, never mutates its input.

import { spanKey, type SpanData } from '../model/telemetry.js';
import type { ProcessResult } from '../runs/options.js';

export function annotatedSpans(spans: readonly SpanData[], result: Pick<ProcessResult, 'annotations' | 'carriers'>): SpanData[] {
  const out = spans.map((s) => {
    const ann = result.annotations.get(spanKey(s));
    return ann ? { ...s, attributes: { ...s.attributes, ...ann.attributes }, events: [...s.events, ...ann.events] } : s;
  });
  return [...out, ...result.carriers];
}
