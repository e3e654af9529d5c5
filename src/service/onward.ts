// The onward trace export of one batch, encoded ONCE (a retry re-sends these bytes), as pieces in
// order: for a protobuf request read with its layout, the original bytes (views, never copied),
// each annotated span's findings appended to its own encoding (src/otlp/forward-bytes.ts), spans
// the decoder rejected left out,
// carrier spans appended as ResourceSpans of their own; otherwise (OTLP/JSON in, or a JSON
// downstream) our encoder over the spans to send, for protobuf in pieces of SPANS_PER_PIECE spans
// with the event loop turning between them. Must never throw (undefined: the caller falls
// back to exporting the decoded spans, which reports the error) and never change a span it was
// not told to annotate.

import type { Attributes, SpanData, SpanEventData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import type { DecodedTraceSpan } from '../otlp/proto.js';
import type { TraceLayout } from '../otlp/trace-layout.js';
import { appendToSpan, rebuildTraceRequest, type Pieces } from '../otlp/forward-bytes.js';
import type { TimeSlice } from './time-slice.js';
import { encodeSpanAdditions, encodeSpanMessage, encodeTraceRequest, encodeTraceRequestJson, type ExportItem } from '../otlp/encode-traces.js';

export interface OnwardInput {
  /** The request's layout, when it came as protobuf and could be laid out exactly. */
  layout?: TraceLayout;
  /** The batch's decoded spans (each with its layout `ref` when there is a layout). */
  spans: readonly DecodedTraceSpan[];
  annotations: ReadonlyMap<string, { attributes: Attributes; events: SpanEventData[] }>;
  carriers: readonly SpanData[];
  /** Everything to send, as decoded spans (the encoder's input when there is no layout). */
  spansOut: readonly ExportItem[];
  json: boolean;
}

/**
 * The onward pieces; with a `slice`, an annotated span's re-encoding gives the event loop a turn
 * whenever the slice is spent (a batch of thousands of annotated spans is ~100 ms of encoding).
 */
export async function onwardTracePayload(x: OnwardInput, slice?: TimeSlice): Promise<Pieces | undefined> {
  try {
    if (x.json) return [encodeTraceRequestJson(x.spansOut)];
    if (!x.layout) return await encodedInPieces(x.spansOut, slice);
    return await fromLayout(x.layout, x, slice);
  } catch {
    return undefined;
  }
}

/** Spans encoded per piece when there is no layout to reuse (an OTLP/JSON request, issue 37). */
const SPANS_PER_PIECE = 256;

/**
 * The spans as ExportTraceServiceRequest pieces of SPANS_PER_PIECE spans each, the event loop given
 * a turn between pieces when the slice is spent: concatenated, the pieces are one request (its
 * repeated resourceSpans appended), as a protobuf decoder reads them.
 */
async function encodedInPieces(items: readonly ExportItem[], slice: TimeSlice | undefined): Promise<Pieces> {
  if (items.length <= SPANS_PER_PIECE || !slice) return [encodeTraceRequest(items)];
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < items.length; i += SPANS_PER_PIECE) {
    if (slice.due()) await slice.pause();
    pieces.push(encodeTraceRequest(items.slice(i, i + SPANS_PER_PIECE)));
  }
  return pieces;
}

async function fromLayout(layout: TraceLayout, x: OnwardInput, slice: TimeSlice | undefined): Promise<Pieces | undefined> {
  const replace = new Map<number, Uint8Array | readonly Uint8Array[] | null>();
  const present = new Uint8Array(layout.spans.length);
  for (const item of x.spans) {
    if (item.ref === undefined) return undefined; // not read with this layout: encode the spans instead
    if (slice?.due()) await slice.pause();
    present[item.ref] = 1;
    const ann = x.annotations.get(spanKey(item.span));
    if (!ann) continue;
    const own = item.span.attributes;
    const clash = Object.keys(ann.attributes).some((k) => Object.prototype.hasOwnProperty.call(own, k));
    replace.set(
      item.ref,
      clash
        ? // An attribute the span already has is replaced, never written twice: this span is re-encoded.
          encodeSpanMessage({ span: { ...item.span, attributes: { ...own, ...ann.attributes }, events: [...item.span.events, ...ann.events] }, extras: item.extras })
        : appendToSpan(layout, item.ref, encodeSpanAdditions(ann.attributes, ann.events)),
    );
  }
  // Spans the decoder rejected (unusable ids) are not forwarded, as before.
  for (let i = 0; i < present.length; i++) if (!present[i]) replace.set(i, null);
  const tail = x.carriers.length ? encodeTraceRequest(x.carriers.map((span) => ({ span }))) : undefined;
  return rebuildTraceRequest(layout, replace, tail);
}
