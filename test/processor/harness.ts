// Test harness for the processor: a real NodeTracerProvider whose first processor taps the
// original spans, then FootprintSpanProcessor with a recording SimpleSpanProcessor(InMemory) as
// `next`; and the check that `next` got every span exactly once, in order, unchanged but for
// footprint's additions.
import { expect } from 'vitest';
import { context, trace, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { footprint, type FootprintSetupOptions } from '../../src/processor/index.js';
import type { FootprintSpanProcessor } from '../../src/processor/footprint-span-processor.js';

/** A deep snapshot of what a span looked like when it ended (the tap sees the SDK's own object). */
export interface Snapshot {
  traceId: string;
  spanId: string;
  name: string;
  kind: number;
  parentSpanId: string | undefined;
  startTime: [number, number];
  endTime: [number, number];
  status: unknown;
  attributes: Record<string, unknown>;
  events: { name: string; time: [number, number]; attributes: Record<string, unknown> }[];
  links: unknown[];
  scope: string;
  resource: object;
}

export function snapshot(s: ReadableSpan): Snapshot {
  const ctx = s.spanContext();
  return {
    traceId: ctx.traceId,
    spanId: ctx.spanId,
    name: s.name,
    kind: s.kind,
    parentSpanId: s.parentSpanContext?.spanId,
    startTime: [...s.startTime] as [number, number],
    endTime: [...s.endTime] as [number, number],
    status: structuredClone(s.status),
    attributes: structuredClone({ ...s.attributes }),
    events: s.events.map((e) => ({ name: e.name, time: [...e.time] as [number, number], attributes: structuredClone({ ...(e.attributes ?? {}) }) })),
    links: s.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId, attributes: structuredClone({ ...(l.attributes ?? {}) }) })),
    scope: `${s.instrumentationScope.name}@${s.instrumentationScope.version ?? ''}`,
    resource: s.resource,
  };
}

/** Records each ended span as the SDK hands it over, before footprint sees it. */
export class TapProcessor implements SpanProcessor {
  readonly originals: Snapshot[] = [];
  /** The SDK's own objects, in end order. */
  readonly objects: ReadableSpan[] = [];
  onStart(_span: Span, _ctx: Context): void {}
  onEnd(span: ReadableSpan): void {
    this.originals.push(snapshot(span));
    this.objects.push(span);
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

/** `next`: counts calls and keeps the exact objects it received, then exports them in memory. */
export class RecordingProcessor implements SpanProcessor {
  readonly received: ReadableSpan[] = [];
  readonly started: string[] = [];
  flushes = 0;
  shutdowns = 0;
  readonly exporter = new InMemorySpanExporter();
  private readonly inner = new SimpleSpanProcessor(this.exporter);
  onStart(span: Span, ctx: Context): void {
    this.started.push(span.spanContext().spanId);
    this.inner.onStart(span, ctx);
  }
  onEnd(span: ReadableSpan): void {
    this.received.push(span);
    this.inner.onEnd(span);
  }
  async forceFlush(): Promise<void> {
    this.flushes++;
    await this.inner.forceFlush();
  }
  async shutdown(): Promise<void> {
    this.shutdowns++;
    await this.inner.shutdown();
  }
}

export interface Pipeline {
  provider: NodeTracerProvider;
  loggerProvider: LoggerProvider;
  logExporter: InMemoryLogRecordExporter;
  tap: TapProcessor;
  next: RecordingProcessor;
  fp: FootprintSpanProcessor;
  shutdown(): Promise<void>;
}

let contextManagerSet = false;

/** One provider per call; the global context manager is set once (parenting across awaits). */
export function makePipeline(options: Omit<FootprintSetupOptions, 'next' | 'logsNext'> = {}, serviceName = 'backup-triage-agent'): Pipeline {
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
  }
  const tap = new TapProcessor();
  const next = new RecordingProcessor();
  const logExporter = new InMemoryLogRecordExporter();
  const setup = footprint({ ...options, next, logsNext: new SimpleLogRecordProcessor({ exporter: logExporter }) });
  const resource = resourceFromAttributes({ 'service.name': serviceName });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [tap, setup.spanProcessor] });
  const loggerProvider = new LoggerProvider({ resource, processors: [setup.logRecordProcessor] });
  trace.disable();
  trace.setGlobalTracerProvider(provider); // footprint's helpers use the global tracer by default
  return {
    provider,
    loggerProvider,
    logExporter,
    tap,
    next,
    fp: setup.spanProcessor,
    async shutdown() {
      await provider.shutdown();
      await loggerProvider.shutdown();
      trace.disable();
    },
  };
}

const FOOTPRINT_PREFIX = 'footprint.';
/** The standard evaluation event footprint writes beside its own (src/findings/evaluation.ts). */
const EVALUATION_EVENT = 'gen_ai.evaluation.result';

/**
 * Every span the tap saw reached `next` exactly once and in the same order; each is unchanged but
 * for added `footprint.*` events and attributes and `gen_ai.evaluation.result` events; anything
 * else `next` got is a carrier span.
 */
export function assertPassedThrough(p: Pick<Pipeline, 'tap' | 'next'>): { carriers: ReadableSpan[] } {
  const originals = p.tap.originals;
  const received = p.next.received;
  const ids = received.map((s) => s.spanContext().spanId);
  expect(new Set(ids).size).toBe(ids.length); // no duplicates
  const carriers: ReadableSpan[] = [];
  let i = 0;
  for (const r of received) {
    const o = originals[i];
    if (o && r.spanContext().spanId === o.spanId) {
      const got = snapshot(r);
      const extraAttrs = Object.keys(got.attributes).filter((k) => !(k in o.attributes));
      for (const k of extraAttrs) expect(k.startsWith(FOOTPRINT_PREFIX), `unexpected attribute ${k} on ${o.name}`).toBe(true);
      for (const k of Object.keys(o.attributes)) expect(got.attributes[k]).toEqual(o.attributes[k]);
      expect(got.events.slice(0, o.events.length)).toEqual(o.events);
      for (const e of got.events.slice(o.events.length)) expect(e.name.startsWith(FOOTPRINT_PREFIX) || e.name === EVALUATION_EVENT, `unexpected event ${e.name} on ${o.name}`).toBe(true);
      const strip = (s: Snapshot) => ({ ...s, attributes: undefined, events: undefined });
      expect(strip(got)).toEqual(strip(o));
      i++;
    } else {
      // Not the next original: must be a carrier footprint wrote, in a trace already seen.
      expect(r.name.startsWith(FOOTPRINT_PREFIX), `span "${r.name}" reached next out of order or uninvited`).toBe(true);
      carriers.push(r);
    }
  }
  expect(i, 'every original span reached next').toBe(originals.length);
  return { carriers };
}
