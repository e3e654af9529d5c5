// The service's byte-preserving onward export (issue 11): a protobuf request is laid out
// (src/otlp/trace-layout.ts), read piece by piece to the same spans the whole-request decoder
// gives, and forwarded as its original bytes with only the annotated spans rewritten, their
// findings appended to their own encoding (src/otlp/forward-bytes.ts, src/service/onward.ts).
// Checked here on a request with every OTLP trace field set, on a real recorded fixture, on
// rejected spans, an attribute clash, carriers, and random mutations of real requests.
import { describe, expect, it } from 'vitest';
import { OtlpTypes } from '../../src/otlp/otlp-schema.js';
import { decodeTraceRequestProto, tracesOfMessage, type DecodedTraceSpan } from '../../src/otlp/proto.js';
import { readTraceLayout } from '../../src/otlp/trace-layout.js';
import { rebuildTraceRequest } from '../../src/otlp/forward-bytes.js';
import { encodeTraceRequest } from '../../src/otlp/encode-traces.js';
import { onwardTracePayload } from '../../src/service/onward.js';
import { TimeSlice } from '../../src/service/time-slice.js';
import { decodeTraceBody } from '../../src/service/decode.js';
import { spanKey, type SpanData } from '../../src/model/telemetry.js';
import { LIBRARIES, loadFixture } from '../helpers/fixtures.js';

const T = OtlpTypes.ExportTraceServiceRequest;
const hex = (h: string) => Buffer.from(h, 'hex');
const canon = (bytes: Uint8Array) => T.toObject(T.decode(bytes), { longs: String, bytes: String, defaults: false });

const attrs = (prefix: string) => [
  { key: `${prefix}.str`, value: { stringValue: 'value é 😀' } },
  { key: `${prefix}.bool`, value: { boolValue: true } },
  { key: `${prefix}.int`, value: { intValue: 42 } },
  { key: `${prefix}.double`, value: { doubleValue: 2.5 } },
  { key: `${prefix}.bytes`, value: { bytesValue: Buffer.from([1, 2, 255]) } },
  { key: `${prefix}.array`, value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 7 }] } } },
  { key: `${prefix}.kvlist`, value: { kvlistValue: { values: [{ key: 'inner', value: { doubleValue: 0.125 } }] } } },
];

const span = (spanId: string, name: string, extra: Record<string, unknown> = {}) => ({
  traceId: hex('5b8efff798038103d269b633813fc60c'),
  spanId: hex(spanId),
  traceState: 'vendor=a',
  parentSpanId: hex('eee19b7ec3c1b173'),
  flags: 0x301,
  name,
  kind: 3,
  startTimeUnixNano: '1730000000123456789',
  endTimeUnixNano: '1730000000223456789',
  attributes: attrs('span'),
  droppedAttributesCount: 3,
  events: [{ timeUnixNano: '1730000000133456789', name: 'ev.one', attributes: attrs('ev'), droppedAttributesCount: 4 }],
  droppedEventsCount: 5,
  links: [{ traceId: hex('1af7651916cd43dd8448eb211c80319c'), spanId: hex('c7ad6b7169203331'), traceState: 'l=1', attributes: attrs('link'), droppedAttributesCount: 6, flags: 0x301 }],
  droppedLinksCount: 7,
  status: { message: 'it failed', code: 2 },
  ...extra,
});

/** Two resources, the first with two scopes; every field of the trace schema set somewhere. */
function request(spans: Record<string, unknown>[][]): Uint8Array {
  return T.encode(
    T.fromObject({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'a' } }, ...attrs('res')], droppedAttributesCount: 1 },
          schemaUrl: 'https://opentelemetry.io/schemas/1.30.0',
          scopeSpans: [
            { scope: { name: 's1', version: '1.2.3', attributes: attrs('scope'), droppedAttributesCount: 2 }, schemaUrl: 'https://opentelemetry.io/schemas/1.31.0', spans: spans[0] },
            { scope: { name: 's2' }, spans: spans[1] },
          ],
        },
        { resource: { attributes: [{ key: 'service.name', value: { stringValue: 'b' } }] }, scopeSpans: [{ scope: { name: 's3' }, spans: spans[2] }] },
      ],
    }),
  ).finish();
}

const BODY = request([
  [span('eee19b7ec3c1b174', 'one'), span('eee19b7ec3c1b175', 'two')],
  [span('eee19b7ec3c1b176', 'three')],
  [span('eee19b7ec3c1b177', 'four')],
]);

function laidOut(body: Uint8Array): DecodedTraceSpan[] {
  const laid = readTraceLayout(body);
  expect(laid).toBeDefined();
  const r = tracesOfMessage(laid!.message, 'request', (s) => laid!.spanIndex.get(s));
  expect(r.ok).toBe(true);
  return r.ok ? r.value.spans : [];
}

const withoutRef = (xs: DecodedTraceSpan[]) => xs.map(({ span, extras }) => ({ span, extras }));

describe('trace layout: the same spans as the whole-request decoder', () => {
  it('every field of the trace schema, two resources and three scopes', () => {
    const whole = decodeTraceRequestProto(BODY);
    expect(whole.ok).toBe(true);
    const spans = laidOut(BODY);
    expect(spans.map((s) => s.ref)).toEqual([0, 1, 2, 3]);
    expect(withoutRef(spans)).toEqual(whole.ok ? whole.value.spans : []);
  });

  it('a recorded fixture of every library', () => {
    for (const lib of LIBRARIES) {
      const body = encodeTraceRequest(loadFixture(lib, 'backup-triage').doc.spans.map((s) => ({ span: s.span, extras: s.extras })));
      const whole = decodeTraceRequestProto(body);
      expect(whole.ok, lib).toBe(true);
      expect(whole.ok && whole.value.spans.length, lib).toBeGreaterThan(2);
      expect(withoutRef(laidOut(body)), lib).toEqual(whole.ok ? whole.value.spans : []);
    }
  });

  it('bytes it cannot lay out exactly (a resource sent twice, a truncated length) give undefined; the service still decodes them', () => {
    // A second `resource` field inside the first ResourceSpans: protobuf merges the two; the layout refuses.
    const rs = T.decode(BODY) as unknown as { resourceSpans: unknown[] };
    const res = OtlpTypes.Resource.encode({ attributes: [{ key: 'k', value: { stringValue: 'v' } }] }).finish();
    const rsBytes = T.encode({ resourceSpans: [rs.resourceSpans[0]] }).finish();
    const inner = Buffer.concat([Buffer.from(rsBytes.subarray(headerLen(rsBytes))), Buffer.from([0x0a, res.length]), Buffer.from(res)]);
    const merged = Buffer.concat([Buffer.from([0x0a]), varint(inner.length), inner]);
    expect(readTraceLayout(merged)).toBeUndefined();
    const viaService = decodeTraceBody(merged, 'protobuf', 'http');
    expect(viaService.ok).toBe(true);
    if (viaService.ok) {
      expect(viaService.value.layout).toBeUndefined();
      expect(viaService.value.spans).toHaveLength(3);
      expect(viaService.value.spans[0]!.span.resource.k).toBe('v');
    }
    expect(readTraceLayout(BODY.subarray(0, BODY.length - 3))).toBeUndefined();
  });

  it('random mutations of real requests: laid out exactly as the whole decoder reads them, or refused', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    let laidCount = 0;
    for (let i = 0; i < 400; i++) {
      const b = Buffer.from(BODY);
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      const laid = readTraceLayout(b);
      if (!laid) continue;
      const whole = decodeTraceRequestProto(b);
      const part = tracesOfMessage(laid.message, 'request', (s) => laid.spanIndex.get(s));
      if (!whole.ok) console.log('DBG', whole.error, part.ok);
      expect(whole.ok).toBe(true);
      if (whole.ok && part.ok) {
        expect(withoutRef(part.value.spans)).toEqual(whole.value.spans);
        expect(part.value.rejected).toBe(whole.value.rejected);
      }
      laidCount++;
    }
    expect(laidCount).toBeGreaterThan(50);
  });
});

function headerLen(b: Uint8Array): number {
  let i = 1;
  while (b[i]! >= 0x80) i++;
  return i + 1;
}
function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}

const FINDING = { name: 'footprint.finding', timeUnixNano: 1730000000223456789n, attributes: { 'footprint.finding.kind': 'unsupported-argument', 'footprint.finding.message': 'x é' } };

async function payload(body: Uint8Array, annotations: Map<string, { attributes: Record<string, number | string>; events: SpanData['events'] }>, carriers: SpanData[] = []) {
  const decoded = decodeTraceBody(body, 'protobuf', 'http');
  expect(decoded.ok).toBe(true);
  if (!decoded.ok) throw new Error(decoded.error);
  const spans = decoded.value.spans;
  const spansOut = spans.map((item) => {
    const ann = annotations.get(spanKey(item.span));
    return ann ? { span: { ...item.span, attributes: { ...item.span.attributes, ...ann.attributes }, events: [...item.span.events, ...ann.events] }, extras: item.extras } : item;
  });
  for (const c of carriers) spansOut.push({ span: c, extras: {} });
  const pieces = await onwardTracePayload({ layout: decoded.value.layout, spans, annotations, carriers, spansOut, json: false });
  expect(pieces).toBeDefined();
  return { out: Buffer.concat(pieces!), pieces: pieces!, spans, spansOut };
}

describe('onward bytes: the original request, findings appended to the spans they concern', () => {
  it('with its time slice spent, it gives the event loop a turn between annotated spans and makes the same bytes', async () => {
    const spans = laidOut(BODY);
    const ann = new Map(spans.map((s) => [spanKey(s.span), { attributes: { 'footprint.findings.count': 1 }, events: [FINDING] }]));
    const { out } = await payload(BODY, ann);
    const decoded = decodeTraceBody(BODY, 'protobuf', 'http');
    if (!decoded.ok) throw new Error(decoded.error);
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    const before = turns;
    const sliced = await onwardTracePayload(
      { layout: decoded.value.layout, spans: decoded.value.spans, annotations: ann, carriers: [], spansOut: decoded.value.spans, json: false },
      new TimeSlice(0),
    );
    expect(turns - before).toBeGreaterThanOrEqual(spans.length - 1);
    expect(Buffer.compare(Buffer.concat(sliced!), Buffer.from(out))).toBe(0);
  });

  it('nothing to add: the very bytes that came in', async () => {
    const { out } = await payload(BODY, new Map());
    expect(Buffer.compare(Buffer.from(out), Buffer.from(BODY))).toBe(0);
  });

  it('a finding on one span: it decodes to the same spans plus the finding; every other span is its original bytes', async () => {
    const spans = laidOut(BODY);
    const target = spans[1]!.span;
    const ann = new Map([[spanKey(target), { attributes: { 'footprint.findings.count': 1 }, events: [FINDING] }]]);
    const { out, spansOut } = await payload(BODY, ann);
    const back = decodeTraceRequestProto(out);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.value.spans.map((s) => s.span)).toEqual(spansOut.map((s) => s.span));
    // Extras too (the decoder lists the appended event's dropped count, none, as {}).
    expect(back.value.spans.map((s) => ({ ...s.extras, events: s.extras.events?.slice(0, 1) }))).toEqual(spansOut.map((s) => ({ ...s.extras, events: s.extras?.events })));
    expect(back.value.spans[1]!.span.events.map((e) => e.name)).toEqual(['ev.one', 'footprint.finding']);
    expect(back.value.spans[1]!.span.attributes['footprint.findings.count']).toBe(1);
    // Every field of the request outside the annotated span is unchanged (protobuf-level compare).
    const got = canon(out) as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
    const sent = canon(BODY) as typeof got;
    const rewritten = got.resourceSpans[0]!.scopeSpans[0]!.spans[1]!;
    got.resourceSpans[0]!.scopeSpans[0]!.spans[1] = sent.resourceSpans[0]!.scopeSpans[0]!.spans[1]!;
    expect(got).toEqual(sent);
    expect((rewritten.events as unknown[]).length).toBe(2);
    // The untouched spans' bytes are in the output as they were sent.
    const layout = readTraceLayout(BODY)!.layout;
    for (const i of [0, 2, 3]) {
      const f = layout.spans[i]!;
      expect(Buffer.from(out).indexOf(Buffer.from(BODY.subarray(f.start, f.end)))).toBeGreaterThan(0);
    }
  });

  it('a span with an unusable id is left out (it was rejected), the rest go on', async () => {
    const body = request([[span('eee19b7ec3c1b174', 'one'), span('0000000000000000', 'bad')], [span('eee19b7ec3c1b176', 'three')], [span('eee19b7ec3c1b177', 'four')]]);
    const { out, spans } = await payload(body, new Map());
    expect(spans).toHaveLength(3);
    const back = decodeTraceRequestProto(out);
    expect(back.ok && back.value.spans.map((s) => s.span.name)).toEqual(['one', 'three', 'four']);
    expect(back.ok && back.value.rejected).toBe(0);
  });

  it('an attribute the span already has is replaced, not written twice', async () => {
    const body = request([[span('eee19b7ec3c1b174', 'one', { attributes: [{ key: 'footprint.findings.count', value: { intValue: 9 } }] })], [], []]);
    const target = laidOut(body)[0]!.span;
    const { out } = await payload(body, new Map([[spanKey(target), { attributes: { 'footprint.findings.count': 1 }, events: [FINDING] }]]));
    const raw = canon(out) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string }[] }[] }[] }[] };
    const keys = raw.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.map((a) => a.key);
    expect(keys.filter((k) => k === 'footprint.findings.count')).toHaveLength(1);
    const back = decodeTraceRequestProto(out);
    expect(back.ok && back.value.spans[0]!.span.attributes['footprint.findings.count']).toBe(1);
  });

  it('carrier spans are appended as ResourceSpans of their own', async () => {
    const carrier: SpanData = { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'aaaaaaaaaaaaaaaa', parentSpanId: 'eee19b7ec3c1b174', name: 'footprint.findings', kind: 1, startTimeUnixNano: 1n, endTimeUnixNano: 2n, attributes: {}, events: [FINDING], status: { code: 0 }, resource: { 'service.name': 'a' }, scope: { name: 'footprint-otel' } };
    const { out } = await payload(BODY, new Map(), [carrier]);
    const back = decodeTraceRequestProto(out);
    expect(back.ok && back.value.spans.map((s) => s.span.name)).toEqual(['one', 'two', 'three', 'four', 'footprint.findings']);
    expect(Buffer.from(out).subarray(0, BODY.length).equals(Buffer.from(BODY))).toBe(true);
  });

  it('rebuilding with nothing to change returns the input itself', () => {
    const layout = readTraceLayout(BODY)!.layout;
    const pieces = rebuildTraceRequest(layout, new Map());
    expect(pieces).toHaveLength(1);
    expect(pieces[0]).toBe(BODY);
  });

  it('the original bytes are not copied: runs of untouched fields are views of the request, one piece a run', async () => {
    const many = Array.from({ length: 200 }, (_, i) => span(`eee19b7ec3c1${(0xb200 + i).toString(16)}`, `s${i}`));
    const body = request([many, [span('eee19b7ec3c1b176', 'three')], [span('eee19b7ec3c1b177', 'four')]]);
    const spans = laidOut(body);
    const ann = new Map([[spanKey(spans[100]!.span), { attributes: { 'footprint.findings.count': 1 }, events: [FINDING] }]]);
    const { pieces, out } = await payload(body, ann);
    const views = pieces.filter((p) => p.buffer === body.buffer);
    // Every original byte but the rewritten span's tag and length and its resource's and scope's
    // headers arrives as a view of the request.
    const viewed = views.reduce((n, p) => n + p.byteLength, 0);
    expect(viewed).toBeGreaterThan(body.byteLength - 16);
    expect(viewed).toBeLessThanOrEqual(body.byteLength);
    // 202 spans, one rewritten: a handful of pieces (the runs before and after it, headers, the
    // addition), not one a span.
    expect(pieces.length).toBeLessThan(12);
    const back = decodeTraceRequestProto(out);
    expect(back.ok && back.value.spans.map((s) => s.span.name)).toEqual([...many.map((_, i) => `s${i}`), 'three', 'four']);
    expect(back.ok && back.value.spans[100]!.span.events.map((e) => e.name)).toEqual(['ev.one', 'footprint.finding']);
  });
});
