// SDK span <-> SpanData bridging, against real SDK span objects (getters and methods, not fields).
import { describe, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { AnnotatedSpan, annotate, fromSpanData, hrTimeToNanos, nanosToHrTime, toLogData, toSpanData } from '../../src/processor/sdk-span.js';

function endedSpans(run: (tracer: ReturnType<BasicTracerProvider['getTracer']>) => void): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'svc-a', 'service.version': '1.2.3' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  run(provider.getTracer('scope-x', '0.0.1'));
  return exporter.getFinishedSpans();
}

describe('toSpanData', () => {
  it('copies every field of a real SDK span, ids, times as ns, kind as OTLP', () => {
    const spans = endedSpans((tracer) => {
      const parent = tracer.startSpan('parent', { startTime: [1_700_000_000, 5] });
      const ctx = trace.setSpan(context.active(), parent);
      const child = tracer.startSpan(
        'chat gpt-4o-mini',
        { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat', n: 3, ok: true, list: ['a', 'b'] }, startTime: [1_700_000_001, 0], links: [{ context: parent.spanContext(), attributes: { l: 1 } }] },
        ctx,
      );
      child.addEvent('ev', { k: 'v' }, [1_700_000_001, 500]);
      child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
      child.end([1_700_000_002, 250]);
      parent.end([1_700_000_003, 0]);
    });
    const [child, parent] = spans;
    const d = toSpanData(child!);
    expect(d.traceId).toBe(child!.spanContext().traceId);
    expect(d.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(d.parentSpanId).toBe(parent!.spanContext().spanId);
    expect(d.name).toBe('chat gpt-4o-mini');
    expect(d.kind).toBe(3);
    expect(d.startTimeUnixNano).toBe(1_700_000_001_000_000_000n);
    expect(d.endTimeUnixNano).toBe(1_700_000_002_000_000_250n);
    expect(d.attributes).toEqual({ 'gen_ai.operation.name': 'chat', n: 3, ok: true, list: ['a', 'b'] });
    expect(d.events).toEqual([{ name: 'ev', timeUnixNano: 1_700_000_001_000_000_500n, attributes: { k: 'v' } }]);
    expect(d.links).toEqual([{ traceId: d.traceId, spanId: d.parentSpanId, attributes: { l: 1 } }]);
    expect(d.status).toEqual({ code: 2, message: 'boom' });
    expect(d.resource['service.name']).toBe('svc-a');
    expect(d.scope).toEqual({ name: 'scope-x', version: '0.0.1' });
    expect(toSpanData(parent!).parentSpanId).toBeUndefined();
    // a copy: later writes to the SDK arrays do not reach it
    (child!.attributes as Record<string, unknown>)['late'] = 1;
    expect(d.attributes['late']).toBeUndefined();
  });

  it('HrTime <-> bigint nanoseconds round-trips', () => {
    for (const t of [[0, 0], [1, 999_999_999], [1_760_000_000, 123_456_789]] as [number, number][]) {
      expect(nanosToHrTime(hrTimeToNanos(t))).toEqual(t);
    }
  });
});

describe('AnnotatedSpan', () => {
  it('delegates every field (getters and spanContext) and adds events/attributes without touching the original', () => {
    const [span] = endedSpans((tracer) => {
      const s = tracer.startSpan('s', { attributes: { a: 1 } });
      s.addEvent('first');
      s.end();
    });
    const origEvents = span!.events;
    const origAttrs = span!.attributes;
    const view = annotate(span!, [{ name: 'footprint.finding', timeUnixNano: 5n, attributes: { 'footprint.finding.kind': 'unsupported-argument', nested: { x: 1 } } }], { 'footprint.findings.count': 1 });
    expect(view).toBeInstanceOf(AnnotatedSpan);
    expect(view.spanContext()).toEqual(span!.spanContext());
    for (const k of ['name', 'kind', 'startTime', 'endTime', 'duration', 'ended', 'status', 'links', 'resource', 'instrumentationScope', 'droppedAttributesCount', 'droppedEventsCount', 'droppedLinksCount', 'parentSpanContext'] as const) {
      expect(view[k]).toBe(span![k]);
    }
    expect(view.ended).toBe(true);
    expect(view.events.map((e) => e.name)).toEqual(['first', 'footprint.finding']);
    expect(view.events[1]!.attributes).toEqual({ 'footprint.finding.kind': 'unsupported-argument', nested: '{"x":1}' });
    expect(view.attributes).toEqual({ a: 1, 'footprint.findings.count': 1 });
    expect(span!.events).toBe(origEvents);
    expect(span!.events.length).toBe(1);
    expect(span!.attributes).toBe(origAttrs);
    expect(span!.attributes).toEqual({ a: 1 });
  });

  it('returns the original when there is nothing to add', () => {
    const [span] = endedSpans((tracer) => tracer.startSpan('s').end());
    expect(annotate(span!, [], {})).toBe(span);
  });
});

describe('OTLP serialisation of the views', () => {
  it('the exporters\' serializer writes an annotated view and a carrier like any span', () => {
    const [span] = endedSpans((tracer) => tracer.startSpan('chat m', { attributes: { a: 1 } }).end());
    const view = annotate(span!, [{ name: 'footprint.finding', timeUnixNano: 7n, attributes: { 'footprint.finding.kind': 'k' } }], { 'footprint.findings.count': 1 });
    const carrier = fromSpanData({ ...toSpanData(span!), spanId: 'dddddddddddddddd', parentSpanId: span!.spanContext().spanId, name: 'footprint.findings' }, span!.resource);
    const bytes = JsonTraceSerializer.serializeRequest([view, carrier])!;
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as { resourceSpans: { scopeSpans: { spans: { name: string; events: { name: string }[]; attributes: { key: string }[] }[] }[] }[] };
    const spans = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(doc.resourceSpans.length).toBe(1);
    expect(spans.map((s) => s.name)).toEqual(['chat m', 'footprint.findings']);
    expect(spans[0]!.events.map((e) => e.name)).toEqual(['footprint.finding']);
    expect(spans[0]!.attributes.map((a) => a.key)).toEqual(['a', 'footprint.findings.count']);
  });
});

describe('fromSpanData', () => {
  it('builds a ReadableSpan a real exporter path accepts', () => {
    const [span] = endedSpans((tracer) => tracer.startSpan('subject', { kind: SpanKind.CLIENT }).end());
    const d = toSpanData(span!);
    const carrier = fromSpanData({ ...d, spanId: 'aaaaaaaaaaaaaaaa', parentSpanId: d.spanId, name: 'footprint.findings', scope: { name: 'footprint-otel' } }, span!.resource);
    expect(carrier.spanContext()).toMatchObject({ traceId: d.traceId, spanId: 'aaaaaaaaaaaaaaaa', traceFlags: 1 });
    expect(carrier.parentSpanContext?.spanId).toBe(d.spanId);
    expect(carrier.kind).toBe(SpanKind.CLIENT);
    expect(carrier.resource).toBe(span!.resource);
    expect(toSpanData(carrier)).toMatchObject({ traceId: d.traceId, name: 'footprint.findings', startTimeUnixNano: d.startTimeUnixNano, endTimeUnixNano: d.endTimeUnixNano });
  });
});

describe('toLogData', () => {
  it('copies an SDK log record, body maps included', () => {
    const d = toLogData({
      hrTime: [10, 20],
      hrTimeObserved: [10, 30],
      spanContext: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 },
      severityNumber: 9,
      body: { content: 'hi', tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{}' } }], nothing: undefined, n: null },
      eventName: '',
      resource: resourceFromAttributes({ 'service.name': 'svc' }),
      instrumentationScope: { name: '@opentelemetry/instrumentation-openai', version: '0.21.0' },
      attributes: { 'event.name': 'gen_ai.assistant.message', 'gen_ai.system': 'openai' },
      droppedAttributesCount: 0,
    });
    expect(d).toEqual({
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      timeUnixNano: 10_000_000_020n,
      severityNumber: 9,
      body: { content: 'hi', tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{}' } }], n: null },
      attributes: { 'event.name': 'gen_ai.assistant.message', 'gen_ai.system': 'openai' },
      resource: { 'service.name': 'svc' },
      scope: { name: '@opentelemetry/instrumentation-openai', version: '0.21.0' },
    });
  });
});
