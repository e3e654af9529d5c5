// FootprintSpanProcessor inside a real NodeTracerProvider: pass-through, order, annotation as a
// view, carriers, logs joined, faults contained, lifecycle propagated.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpanKind, context, diag, trace } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { FootprintSpanProcessor, type CoreLike } from '../../src/processor/footprint-span-processor.js';
import { PendingLogs } from '../../src/processor/log-buffer.js';
import type { ProcessInput, ProcessResult } from '../../src/runs/footprint.js';
import { spanKey } from '../../src/model/telemetry.js';
import { ATTR_EXPLAIN_LINK, ATTR_EXPLAIN_URL, ATTR_FINDING_ID, ATTR_FINDINGS_COUNT, ATTR_FINDING_KIND, CARRIER_SPAN_NAME, EVENT_FINDING } from '../../src/findings/names.js';
import { verifyLink } from '../../src/explain/link.js';
import { assertPassedThrough, makePipeline, type Pipeline } from './harness.js';

const empty = (): ProcessResult => ({ annotations: new Map(), carriers: [], findings: [], diagnostics: [] });

/** A core that records its inputs and annotates every chat span with one finding. */
class FakeCore implements CoreLike {
  readonly inputs: ProcessInput[] = [];
  carrierNext = false;
  throwNext = false;
  process(input: ProcessInput): ProcessResult {
    this.inputs.push(input);
    if (this.throwNext) {
      this.throwNext = false;
      throw new Error('core exploded');
    }
    const r = empty();
    for (const s of input.spans) {
      if (s.name.startsWith('chat')) {
        r.annotations.set(spanKey(s), {
          events: [{ name: EVENT_FINDING, timeUnixNano: s.endTimeUnixNano, attributes: { [ATTR_FINDING_KIND]: 'unsupported-argument', [ATTR_FINDING_ID]: 'f'.repeat(32) } }],
          attributes: { [ATTR_FINDINGS_COUNT]: 1 },
        });
      }
      if (this.carrierNext) {
        this.carrierNext = false;
        r.carriers.push({ ...s, spanId: 'cccccccccccccccc', parentSpanId: s.spanId, name: CARRIER_SPAN_NAME, attributes: {}, events: [{ name: EVENT_FINDING, timeUnixNano: s.endTimeUnixNano, attributes: {} }], scope: { name: 'footprint-otel' } });
      }
    }
    return r;
  }
}

let pipe: Pipeline | undefined;
afterEach(async () => {
  await pipe?.shutdown();
  pipe = undefined;
});

function agentTurn(p: Pipeline): void {
  const tracer = p.provider.getTracer('app', '1.0.0');
  const turn = tracer.startSpan('invoke_agent backup-triage', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'conv-1' } });
  const ctx = trace.setSpan(context.active(), turn);
  const http = tracer.startSpan('GET /status', { kind: SpanKind.SERVER }, ctx);
  http.end();
  const chat = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' } }, ctx);
  chat.end();
  const tool = tracer.startSpan('execute_tool backup_status', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'backup_status' } }, ctx);
  tool.end();
  turn.end();
}

describe('FootprintSpanProcessor: explain links', () => {
  it('with explain.publicUrl, each finding event links its page; with a link secret, a signed link for the span\'s tenant', () => {
    const secret = 'processor-link-secret-0123';
    pipe = makePipeline({ core: new FakeCore(), explain: { publicUrl: 'https://fp.example.com/', linkSecret: secret, linkTtlMinutes: 30 } });
    agentTurn(pipe);
    const chat = pipe.next.received.find((x) => x.name.startsWith('chat'))!;
    const event = chat.events.find((e) => e.name === EVENT_FINDING)!;
    const token = String(event.attributes![ATTR_EXPLAIN_LINK]);
    expect(event.attributes![ATTR_EXPLAIN_URL]).toBe(`https://fp.example.com/explain/link/${token}#finding-${'f'.repeat(32)}`);
    const v = verifyLink(secret, token, Math.floor(Date.now() / 1000));
    expect(v).toMatchObject({ ok: true, traceId: chat.spanContext().traceId, tenant: 'backup-triage-agent' });
    expect((v as { expiresAt: number }).expiresAt - Date.now() / 1000).toBeLessThanOrEqual(30 * 60);
  });
  it('without a secret the plain page URL; without explain nothing; a bad URL is refused with a warning', async () => {
    pipe = makePipeline({ core: new FakeCore(), explain: { publicUrl: 'http://fp:4318' } });
    agentTurn(pipe);
    const attrs = pipe.next.received.find((x) => x.name.startsWith('chat'))!.events[0]!.attributes!;
    expect(String(attrs[ATTR_EXPLAIN_URL])).toMatch(/^http:\/\/fp:4318\/explain\/[0-9a-f]{32}\?tenant=backup-triage-agent#finding-f{32}$/);
    expect(attrs[ATTR_EXPLAIN_LINK]).toBeUndefined();
    await pipe.shutdown();
    const warn = vi.spyOn(diag, 'warn').mockImplementation(() => undefined);
    pipe = makePipeline({ core: new FakeCore(), explain: { publicUrl: 'javascript:alert(1)' } });
    agentTurn(pipe);
    expect(pipe.next.received.find((x) => x.name.startsWith('chat'))!.events[0]!.attributes![ATTR_EXPLAIN_URL]).toBeUndefined();
    expect(warn.mock.calls.some((c) => String(c[0]).includes('explain.publicUrl'))).toBe(true);
    warn.mockRestore();
  });
});

describe('FootprintSpanProcessor', () => {
  it('passes every span to next once, in order; annotates the one the core names, as a view', () => {
    const core = new FakeCore();
    pipe = makePipeline({ core });
    agentTurn(pipe);
    const { carriers } = assertPassedThrough(pipe);
    expect(carriers).toEqual([]);
    const names = pipe.next.received.map((s) => s.name);
    expect(names).toEqual(['GET /status', 'chat gpt-4o-mini', 'execute_tool backup_status', 'invoke_agent backup-triage']);
    const chat = pipe.next.received[1]!;
    expect(chat.events.map((e) => e.name)).toEqual([EVENT_FINDING]);
    expect(chat.attributes[ATTR_FINDINGS_COUNT]).toBe(1);
    // the exported object is what next got; the SDK's own span object kept no event
    expect(pipe.next.exporter.getFinishedSpans()[1]).toBe(chat);
    expect(pipe.tap.originals[1]!.events).toEqual([]);
    // the ordinary span never reached the core; agent spans did, one per call
    expect(core.inputs.map((i) => i.spans.map((s) => s.name))).toEqual([['chat gpt-4o-mini'], ['execute_tool backup_status'], ['invoke_agent backup-triage']]);
    // un-annotated agent spans pass as the very same object
    expect(pipe.next.received[2]!.events).toEqual([]);
    expect(pipe.next.started.length).toBe(4);
  });

  it('10,000 non-agent spans pass unchanged, as the same objects, with no core call', () => {
    const core = new FakeCore();
    pipe = makePipeline({ core });
    const tracer = pipe.provider.getTracer('http');
    for (let i = 0; i < 10_000; i++) {
      const s = tracer.startSpan(`GET /item/${i}`, { kind: SpanKind.SERVER, attributes: { 'http.route': '/item/:id', i } });
      if (i % 3 === 0) s.addEvent('cache-miss');
      s.end();
    }
    assertPassedThrough(pipe);
    expect(pipe.next.received.length).toBe(10_000);
    expect(core.inputs.length).toBe(0);
    const objects = pipe.tap.objects;
    expect(objects.length).toBe(10_000);
    for (let i = 0; i < objects.length; i++) if (pipe.next.received[i] !== objects[i]) expect.fail(`span ${i} reached next as another object`);
    expect(pipe.fp.stats()).toMatchObject({ ended: 10_000, agentSpans: 0, annotated: 0, errors: 0 });
  });

  it('forwards carrier spans right after the span whose call produced them', () => {
    const core = new FakeCore();
    core.carrierNext = true;
    pipe = makePipeline({ core });
    const tracer = pipe.provider.getTracer('app');
    tracer.startSpan('execute_tool x', { attributes: { 'gen_ai.operation.name': 'execute_tool' } }).end();
    tracer.startSpan('plain').end();
    const { carriers } = assertPassedThrough(pipe);
    expect(pipe.next.received.map((s) => s.name)).toEqual(['execute_tool x', CARRIER_SPAN_NAME, 'plain']);
    expect(carriers[0]!.parentSpanContext?.spanId).toBe(pipe.next.received[0]!.spanContext().spanId);
    expect(carriers[0]!.resource).toBe(pipe.next.received[0]!.resource);
    expect(pipe.next.exporter.getFinishedSpans().length).toBe(3);
  });

  it('a core that throws loses nothing: the span passes on unannotated and onEnd does not throw', () => {
    const core = new FakeCore();
    core.throwNext = true;
    const warn = vi.spyOn(diag, 'warn');
    pipe = makePipeline({ core });
    agentTurn(pipe);
    assertPassedThrough(pipe);
    expect(pipe.next.received.length).toBe(4);
    expect(pipe.fp.stats().errors).toBe(1);
    expect(warn.mock.calls.some((c) => String(c[0]).includes('core exploded'))).toBe(true);
    warn.mockRestore();
  });

  it('a next that throws does not break the provider, and the span is not retried', () => {
    const calls: string[] = [];
    const bad: SpanProcessor = {
      onStart: () => {
        throw new Error('start');
      },
      onEnd: (s) => {
        calls.push(s.name);
        throw new Error('end');
      },
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    const fp = new FootprintSpanProcessor({ next: bad, core: new FakeCore() });
    const fakeSpan = { name: 'chat x', attributes: { 'gen_ai.operation.name': 'chat' }, instrumentationScope: { name: 'i' }, spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }), parentSpanContext: undefined, kind: 2, startTime: [1, 0], endTime: [2, 0], status: { code: 0 }, links: [], events: [], duration: [1, 0], ended: true, resource: { attributes: {} }, droppedAttributesCount: 0, droppedEventsCount: 0, droppedLinksCount: 0 } as unknown as ReadableSpan;
    expect(() => fp.onStart(fakeSpan as unknown as Span, context.active())).not.toThrow();
    expect(() => fp.onEnd(fakeSpan)).not.toThrow();
    expect(calls).toEqual(['chat x']);
  });

  it('has an onEnding only when next has one, and forwards it (a throw stays inside)', () => {
    const plain: SpanProcessor = { onStart: () => {}, onEnd: () => {}, forceFlush: async () => {}, shutdown: async () => {} };
    expect(new FootprintSpanProcessor({ next: plain, core: new FakeCore() }).onEnding).toBeUndefined();
    const ending: string[] = [];
    const withEnding = { ...plain, onEnding: (s: Span) => { ending.push((s as unknown as ReadableSpan).name); if (ending.length > 1) throw new Error('ending'); } };
    const fp = new FootprintSpanProcessor({ next: withEnding, core: new FakeCore() });
    expect(typeof fp.onEnding).toBe('function');
    const span = { name: 'GET /x' } as unknown as Span;
    fp.onEnding!(span);
    expect(() => fp.onEnding!(span)).not.toThrow();
    expect(ending).toEqual(['GET /x', 'GET /x']);
  });

  it('joins the log records of a span and hands them to the core with it', () => {
    const core = new FakeCore();
    pipe = makePipeline({ core });
    const tracer = pipe.provider.getTracer('@opentelemetry/instrumentation-openai', '0.21.0');
    const logger = pipe.loggerProvider.getLogger('@opentelemetry/instrumentation-openai', '0.21.0');
    const chat = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat' } });
    const ctx = trace.setSpan(context.active(), chat);
    logger.emit({ context: ctx, attributes: { 'event.name': 'gen_ai.user.message', 'gen_ai.system': 'openai' }, body: { content: 'hello' } });
    logger.emit({ context: ctx, attributes: { 'app.thing': 1 }, body: 'not genai' });
    logger.emit({ context: ctx, eventName: 'gen_ai.client.inference.operation.details', attributes: { 'gen_ai.input.messages': [{ role: 'user' }] } });
    chat.end();
    expect(core.inputs.length).toBe(1);
    const logs = core.inputs[0]!.logs!;
    expect(logs.map((l) => l.eventName ?? l.attributes['event.name'])).toEqual(['gen_ai.user.message', 'gen_ai.client.inference.operation.details']);
    expect(logs[0]!.body).toEqual({ content: 'hello' });
    expect(logs[0]!.spanId).toBe(chat.spanContext().spanId);
    // logs themselves passed on, all three, unchanged
    const exported = pipe.logExporter.getFinishedLogRecords();
    expect(exported.map((r) => r.body)).toEqual([{ content: 'hello' }, 'not genai', undefined]);
    expect(pipe.fp.stats().pendingLogs).toMatchObject({ spans: 0, records: 0 });
  });

  it('a record arriving after its span left reaches the core at the next agent span, and its carriers follow', () => {
    const core = new FakeCore();
    pipe = makePipeline({ core });
    const tracer = pipe.provider.getTracer('i');
    const logger = pipe.loggerProvider.getLogger('i');
    const chat = tracer.startSpan('chat a', { attributes: { 'gen_ai.operation.name': 'chat' } });
    chat.end();
    logger.emit({ context: trace.setSpan(context.active(), chat), attributes: { 'event.name': 'gen_ai.choice' }, body: { index: 0 } });
    expect(pipe.fp.stats().pendingLogs.late).toBe(1);
    tracer.startSpan('execute_tool t', { attributes: { 'gen_ai.operation.name': 'execute_tool' } }).end();
    expect(core.inputs[1]!.logs!.map((l) => l.attributes['event.name'])).toEqual(['gen_ai.choice']);
    expect(pipe.fp.stats().pendingLogs.late).toBe(0);
  });

  it('forceFlush and shutdown propagate to next; shutdown drops what waits', async () => {
    pipe = makePipeline({ core: new FakeCore() });
    const logger = pipe.loggerProvider.getLogger('i');
    const tracer = pipe.provider.getTracer('i');
    const chat = tracer.startSpan('chat a', { attributes: { 'gen_ai.operation.name': 'chat' } });
    logger.emit({ context: trace.setSpan(context.active(), chat), attributes: { 'event.name': 'gen_ai.user.message' }, body: { content: 'x' } });
    expect(pipe.fp.stats().pendingLogs.records).toBe(1);
    await pipe.provider.forceFlush();
    expect(pipe.next.flushes).toBe(1);
    expect(pipe.fp.stats().pendingLogs.records).toBe(1);
    await pipe.provider.shutdown();
    expect(pipe.next.shutdowns).toBe(1);
    expect(pipe.fp.stats().pendingLogs.records).toBe(0);
  });

  it('the root span of a trace that held agent spans reaches the core even when it is ordinary', () => {
    const core = new FakeCore();
    pipe = makePipeline({ core });
    const tracer = pipe.provider.getTracer('http');
    const root = tracer.startSpan('POST /ask', { kind: SpanKind.SERVER });
    const ctx = trace.setSpan(context.active(), root);
    tracer.startSpan('child plain', {}, ctx).end();
    tracer.startSpan('chat m', { attributes: { 'gen_ai.operation.name': 'chat' } }, ctx).end();
    root.end();
    tracer.startSpan('POST /other', { kind: SpanKind.SERVER }).end();
    expect(core.inputs.map((i) => i.spans[0]!.name)).toEqual(['chat m', 'POST /ask']);
    assertPassedThrough(pipe);
  });

  it('with no invoke_agent span (OpenLLMetry or OpenInference alone), the real core puts the disposition on the root when it ends alone, later', () => {
    pipe = makePipeline({ declarations: { tools: { list_machines: { readOnly: true } } } });
    const tracer = pipe.provider.getTracer('http');
    const chatAttrs = (output: string) => ({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Which machines does acme have?' }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: output }], finish_reason: 'stop' }]),
    });
    const turn = (name: string, parent?: ReturnType<typeof trace.setSpanContext>) => {
      const root = tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
      const ctx = trace.setSpan(parent ?? context.active(), root);
      tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, attributes: chatAttrs('I will look that up.') }, ctx).end();
      tracer.startSpan('render', {}, ctx).end();
      root.end();
      return root;
    };
    turn('POST /ask');
    // An incoming traceparent: the local root has a remote parent.
    const remote = trace.setSpanContext(context.active(), { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: 1, isRemote: true });
    turn('POST /ask-remote', remote);
    assertPassedThrough(pipe);
    for (const name of ['POST /ask', 'POST /ask-remote']) {
      const root = pipe.next.received.find((x) => x.name === name)!;
      const d = root.events.filter((e) => e.name === 'footprint.disposition');
      expect(d, `${name} carries the turn's disposition`).toHaveLength(1);
      expect(String(d[0]!.attributes?.['footprint.disposition.summary'])).toMatch(/ran on 1 LLM request/);
      expect(pipe.next.received.filter((x) => x.spanContext().traceId === root.spanContext().traceId && x !== root).flatMap((x) => x.events.filter((e) => e.name === 'footprint.disposition'))).toEqual([]);
    }
  });

  it('refuses a declarations file that does not validate, at construction', () => {
    expect(() => new FootprintSpanProcessor({ next: pipe?.next ?? ({} as SpanProcessor), declarations: '/nonexistent/declarations.yaml' })).toThrow(/declarations not loaded/);
  });
});

describe('PendingLogs bounds', () => {
  const log = (span: number, t = 0) => ({ traceId: 'a'.repeat(32), spanId: span.toString(16).padStart(16, '0'), timeUnixNano: BigInt(t), body: null, attributes: {}, resource: {}, scope: { name: 'x' } });

  it('caps records per span and spans waiting (oldest evicted), and says so once', () => {
    const warn = vi.spyOn(diag, 'warn');
    const b = new PendingLogs({ limits: { maxLogsPerSpan: 2, maxPendingLogSpans: 3 } });
    for (let i = 0; i < 5; i++) b.add(log(1, i));
    expect(b.stats()).toMatchObject({ spans: 1, records: 2, droppedPastPerSpan: 3 });
    for (let s = 2; s <= 5; s++) b.add(log(s));
    expect(b.stats()).toMatchObject({ spans: 3, evictedSpans: 2, evictedRecords: 3 });
    expect(b.take('a'.repeat(32), log(1).spanId).logs).toEqual([]); // evicted: the oldest
    expect(b.take('a'.repeat(32), log(5).spanId).logs.length).toBe(1);
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('maxLogsPerSpan')).length).toBe(1);
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('maxPendingLogSpans')).length).toBe(1);
    warn.mockRestore();
  });

  it('drops records whose span never ended past the age limit', () => {
    let now = 0;
    const b = new PendingLogs({ limits: { maxLogsPerSpan: 10, maxPendingLogSpans: 10 }, maxAgeMs: 1000, now: () => now });
    b.add(log(1));
    now = 5000;
    b.add(log(2));
    expect(b.stats()).toMatchObject({ spans: 1, evictedSpans: 1 });
  });
});
