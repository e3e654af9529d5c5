// FootprintSpanProcessor's worker mode (`analysis: 'worker'`) in a real BasicTracerProvider with a
// real BatchSpanProcessor and InMemorySpanExporter: the same spans, events and order as in-thread
// mode on the sdk-agent bench workload with ordinary spans interleaved; forceFlush delivers all;
// a full queue and a worker terminated under it forward marked spans without throwing; shutdown
// lets the process exit. The worker entry is a built file, so these tests run against dist/
// (built here when missing or older than src/); from src/ the processor refuses worker mode.
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, diag, trace, DiagLogLevel, type Context } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
// @ts-expect-error plain .mjs module without types
import { AGENT_WINDOW_BYTES, BENCH_DECLARATIONS, chatContent } from '../../bench/workload.mjs';
// @ts-expect-error plain .mjs module without types
import { agentTurn } from '../../bench/agent-turn.mjs';
import { FootprintSpanProcessor as SrcProcessor } from '../../src/processor/footprint-span-processor.js';
import { ensureDist } from '../reliability/helpers.js';
import { readFileSync } from 'node:fs';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { fromSpanData } from '../../src/processor/sdk-span.js';
import { validateDeclarations } from '../../src/declarations/schema.js';
import { ANALYSIS_SKIPPED_QUEUE_FULL, ANALYSIS_SKIPPED_WORKER_FAILED, ATTR_ANALYSIS_SKIPPED, EVENT_DISPOSITION, EVENT_FINDING } from '../../src/findings/names.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
type Processor = typeof SrcProcessor;
let DistProcessor: Processor;

beforeAll(async () => {
  ensureDist();
  DistProcessor = ((await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)) as { FootprintSpanProcessor: Processor }).FootprintSpanProcessor;
}, 180_000);

const WINDOWS = Array.from({ length: 10 }, (_, i) => chatContent({ windowBytes: AGENT_WINDOW_BYTES, ungrounded: i % 5 === 4 ? 1 : 0, salt: ` #${i}` }));

/** Hands every start and end to each of its processors, so two pipelines see the very same spans. */
class Tee implements SpanProcessor {
  readonly ended: string[] = [];
  constructor(private readonly ps: SpanProcessor[]) {}
  onStart(span: Span, ctx: Context): void {
    for (const p of this.ps) p.onStart(span, ctx);
  }
  onEnd(span: ReadableSpan): void {
    this.ended.push(span.spanContext().spanId);
    for (const p of this.ps) p.onEnd(span);
  }
  async forceFlush(): Promise<void> {
    await Promise.all(this.ps.map((p) => p.forceFlush()));
  }
  async shutdown(): Promise<void> {
    await Promise.all(this.ps.map((p) => p.shutdown()));
  }
}

interface Lane {
  exporter: InMemorySpanExporter;
  fp: InstanceType<Processor>;
}

function lane(analysis: 'in-thread' | 'worker', limits: Record<string, number> = {}): Lane {
  const exporter = new InMemorySpanExporter();
  const fp = new DistProcessor({ next: new BatchSpanProcessor(exporter, { maxQueueSize: 100_000, maxExportBatchSize: 512 }), declarations: BENCH_DECLARATIONS, analysis, limits });
  return { exporter, fp };
}

/** The app: agent turns (5 turns a conversation) with ordinary HTTP and DB spans between and inside them. */
async function runApp(provider: BasicTracerProvider, turns: number, yieldEvery = 4): Promise<void> {
  const tracer = provider.getTracer('backup-triage-app', '1.0.0');
  for (let t = 0; t < turns; t++) {
    const http = tracer.startSpan('GET /health', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET' } });
    http.end();
    const parent = tracer.startSpan('POST /triage', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'POST' } });
    const ctx = trace.setSpan(ROOT_CONTEXT, parent);
    const db = tracer.startSpan('SELECT machines', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql' } }, ctx);
    db.end();
    parent.end();
    agentTurn(tracer, `conv-${Math.floor(t / 5)}`, WINDOWS[t % WINDOWS.length], { 'gen_ai.usage.input_tokens': 10_412, 'gen_ai.usage.output_tokens': 96 });
    if (t % yieldEvery === yieldEvery - 1) await new Promise((r) => setImmediate(r));
  }
}

/** What `next` exported, in order: ids, name, footprint's added events (all attributes) and attributes. */
function exported(l: Lane) {
  return l.exporter.getFinishedSpans().map((s) => ({
    spanId: s.spanContext().spanId,
    name: s.name,
    events: s.events.filter((e) => e.name.startsWith('footprint.')).map((e) => ({ name: e.name, attributes: e.attributes })),
    footprint: Object.fromEntries(Object.entries(s.attributes).filter(([k]) => k.startsWith('footprint.'))),
  }));
}

const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
});

function provider(p: SpanProcessor): BasicTracerProvider {
  const pr = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'backup-triage-agent' }), spanProcessors: [p] });
  providers.push(pr);
  return pr;
}

describe('worker mode gives what in-thread mode gives', () => {
  it('the same spans, finding and disposition events, in the order they ended (bench workload, ordinary spans interleaved)', async () => {
    const a = lane('in-thread');
    const b = lane('worker');
    const tee = new Tee([a.fp, b.fp]);
    const p = provider(tee);
    await runApp(p, 40);
    await p.forceFlush();
    const ea = exported(a);
    const eb = exported(b);
    expect(b.fp.stats().analysis).toBe('worker');
    // 40 turns x (3 ordinary + invoke_agent + chat + 3 execute_tool)
    expect(ea).toHaveLength(40 * 8);
    expect(eb).toEqual(ea);
    // Spans reach next in the order they ended.
    expect(eb.map((s) => s.spanId)).toEqual(tee.ended);
    // The comparison is not vacuous: findings (one window in five is ungrounded) and dispositions.
    const findings = eb.flatMap((s) => s.events).filter((e) => e.name === EVENT_FINDING);
    expect(findings.length).toBe(8);
    expect(eb.flatMap((s) => s.events).filter((e) => e.name === EVENT_DISPOSITION).length).toBe(40);
    expect(b.fp.stats().core?.findingsByKind).toEqual(a.fp.stats().core?.findingsByKind);
    const w = b.fp.stats().worker!;
    expect(w.submitted).toBe(40 * 5);
    expect(w.unanalysedQueueFull + w.unanalysedWorkerFailed + w.unanalysedTimedOut).toBe(0);
    expect(eb.some((s) => ATTR_ANALYSIS_SKIPPED in s.footprint)).toBe(false);
  });

  it('forceFlush right after a burst with no yield delivers every span, analysed', async () => {
    const b = lane('worker');
    const p = provider(b.fp);
    await runApp(p, 25, 1_000);
    // Nothing could be answered yet: the app never yielded, so every span from the first agent
    // span on is held (the first turn's three ordinary spans ended before it and went straight on).
    expect(b.fp.stats().worker!.held).toBe(25 * 8 - 3);
    expect(b.fp.stats().worker!.inAnalysis).toBe(25 * 5);
    await p.forceFlush();
    const eb = exported(b);
    expect(eb).toHaveLength(25 * 8);
    expect(b.fp.stats().worker!.held).toBe(0);
    expect(eb.flatMap((s) => s.events).filter((e) => e.name === EVENT_FINDING).length).toBe(5);
  });
});

describe('worker mode on a recorded fixture with content in log records', () => {
  it('otel-instrumentation-openai backup-triage: the same findings and events as in-thread, logs joined on the app thread', async () => {
    const dir = join(ROOT, 'test', 'fixtures', 'otel-instrumentation-openai');
    const doc = decodeOtlpJsonText(readFileSync(join(dir, 'backup-triage.otlp.json'), 'utf8'), 'trace');
    decodeOtlpJsonText(readFileSync(join(dir, 'backup-triage.logs.otlp.json'), 'utf8'), 'logs', doc);
    const decl = validateDeclarations(JSON.parse(readFileSync(join(dir, 'backup-triage.expected.json'), 'utf8')).declarations);
    if (!decl.ok) throw new Error('declarations');
    const { footprint } = (await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)) as typeof import('../../src/index.js');
    const lanes = (['in-thread', 'worker'] as const).map((analysis) => {
      const exporter = new InMemorySpanExporter();
      const setup = footprint({ next: new BatchSpanProcessor(exporter), declarations: decl.declarations, analysis });
      return { exporter, setup };
    });
    const loggers = new LoggerProvider({ processors: lanes.map((l) => l.setup.logRecordProcessor) });
    const logger = loggers.getLogger('@opentelemetry/instrumentation-openai');
    // Replays the recording as the app made it: each span's log records, then the span's end.
    const spans = doc.spans.map((d) => d.span).sort((a, b) => (a.endTimeUnixNano < b.endTimeUnixNano ? -1 : a.endTimeUnixNano > b.endTimeUnixNano ? 1 : 0));
    expect(doc.logs.length).toBe(25);
    for (const s of spans) {
      for (const l of doc.logs.filter((x) => x.spanId === s.spanId)) {
        const ctx = trace.setSpanContext(ROOT_CONTEXT, { traceId: l.traceId!, spanId: l.spanId!, traceFlags: 1 });
        logger.emit({ context: ctx, attributes: l.attributes as Record<string, string>, body: l.body as never });
      }
      const rs = fromSpanData(s, resourceFromAttributes(s.resource as Record<string, string>));
      for (const l of lanes) l.setup.spanProcessor.onEnd(rs);
    }
    for (const l of lanes) await l.setup.spanProcessor.forceFlush();
    const [a, b] = lanes.map((l) => ({ exporter: l.exporter, fp: l.setup.spanProcessor }) as unknown as Lane).map(exported);
    expect(lanes[1]!.setup.spanProcessor.stats().analysis).toBe('worker');
    expect(b).toEqual(a);
    // Every recorded span, plus the carrier spans both modes add for findings about spans already gone.
    expect(b!.length).toBe(spans.length + lanes[1]!.setup.spanProcessor.stats().carriers);
    expect(lanes[1]!.setup.spanProcessor.stats().carriers).toBe(lanes[0]!.setup.spanProcessor.stats().carriers);
    // The recording's defect is found: an unsupported-argument finding on a chat span, from content only the logs carry.
    const kinds = b!.flatMap((s) => s.events).filter((e) => e.name === EVENT_FINDING).map((e) => e.attributes?.['footprint.finding.kind']);
    expect(kinds).toContain('unsupported-argument');
    for (const l of lanes) await l.setup.spanProcessor.shutdown();
    await loggers.shutdown();
  });
});

describe('worker mode when analysis cannot keep up or fails', () => {
  it('a full queue forwards agent spans unanalysed, marked, counted, in order', async () => {
    const b = lane('worker', { maxAnalysisQueueSpans: 6 });
    const tee = new Tee([b.fp]);
    const p = provider(tee);
    await runApp(p, 10, 1_000);
    await p.forceFlush();
    const eb = exported(b);
    expect(eb).toHaveLength(10 * 8);
    expect(eb.map((s) => s.spanId)).toEqual(tee.ended);
    const skipped = eb.filter((s) => s.footprint[ATTR_ANALYSIS_SKIPPED] === ANALYSIS_SKIPPED_QUEUE_FULL);
    const st = b.fp.stats().worker!;
    expect(skipped.length).toBeGreaterThan(0);
    expect(st.unanalysedQueueFull).toBe(skipped.length);
    // A skipped span carries nothing else of footprint's.
    for (const s of skipped) expect(s.events).toEqual([]);
    // Ordinary spans are never marked.
    expect(eb.filter((s) => /^(GET|POST|SELECT) /.test(s.name)).every((s) => !(ATTR_ANALYSIS_SKIPPED in s.footprint))).toBe(true);
  });

  it('a worker terminated under it: held spans go on marked, one warning, no throw, analysis in-thread after', async () => {
    const warnings: string[] = [];
    diag.setLogger({ error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
    try {
      const b = lane('worker');
      const tee = new Tee([b.fp]);
      const p = provider(tee);
      await runApp(p, 5, 1_000);
      const held = b.fp.stats().worker!.inAnalysis;
      expect(held).toBe(25);
      // The worker dies under the processor (as an out-of-memory or a crash would end it).
      await (b.fp as unknown as { worker: { worker: { terminate(): Promise<number> } } }).worker.worker.terminate();
      await new Promise((r) => setTimeout(r, 50));
      expect(b.fp.stats().analysis).toBe('in-thread');
      await runApp(p, 5, 1_000);
      await p.forceFlush();
      const eb = exported(b);
      expect(eb).toHaveLength(10 * 8);
      expect(eb.map((s) => s.spanId)).toEqual(tee.ended);
      const failed = eb.filter((s) => s.footprint[ATTR_ANALYSIS_SKIPPED] === ANALYSIS_SKIPPED_WORKER_FAILED);
      // Some in analysis may have been answered before the exit was seen; the rest are marked.
      expect(failed.length).toBe(b.fp.stats().worker!.unanalysedWorkerFailed);
      expect(failed.length).toBeGreaterThan(0);
      // The turns after it were read in-thread: their ungrounded window gave its finding.
      expect(eb.slice(5 * 8).flatMap((s) => s.events).filter((e) => e.name === EVENT_FINDING).length).toBe(1);
      expect(warnings.filter((w) => w.includes('analysis worker exited'))).toHaveLength(1);
    } finally {
      diag.disable();
    }
  });

  it('from src/ (no built worker entry beside it) worker mode is refused with a warning and runs in-thread', async () => {
    const warnings: string[] = [];
    diag.setLogger({ error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
    try {
      const exporter = new InMemorySpanExporter();
      const fp = new SrcProcessor({ next: new BatchSpanProcessor(exporter), declarations: BENCH_DECLARATIONS, analysis: 'worker' });
      expect(fp.stats().analysis).toBe('in-thread');
      expect(warnings.some((w) => w.includes('analysis "worker" is not available'))).toBe(true);
      const p = provider(fp);
      await runApp(p, 5);
      await p.forceFlush();
      expect(exporter.getFinishedSpans().flatMap((s) => s.events).filter((e) => e.name === EVENT_FINDING)).toHaveLength(1);
    } finally {
      diag.disable();
    }
  });

  it('an injected core cannot cross a thread: worker mode is refused with a warning', () => {
    const warnings: string[] = [];
    diag.setLogger({ error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
    try {
      const fp = new DistProcessor({ next: new BatchSpanProcessor(new InMemorySpanExporter()), analysis: 'worker', core: { process: () => ({ annotations: new Map(), carriers: [], findings: [], diagnostics: [] }) } });
      expect(fp.stats().analysis).toBe('in-thread');
      expect(warnings.some((w) => w.includes('injected core'))).toBe(true);
    } finally {
      diag.disable();
    }
  });
});

describe('worker mode and the process lifetime', () => {
  const script = (body: string) => `
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { FootprintSpanProcessor } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)};
const exporter = { n: 0, export(spans, done) { this.n += spans.length; done({ code: 0 }); }, async shutdown() {}, async forceFlush() {} };
const fp = new FootprintSpanProcessor({ next: new BatchSpanProcessor(exporter), analysis: 'worker' });
const provider = new BasicTracerProvider({ spanProcessors: [fp] });
const tracer = provider.getTracer('app');
for (let i = 0; i < 20; i++) tracer.startSpan('chat gpt-4o-mini', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"hi"}]}]' } }).end();
if (fp.stats().analysis !== 'worker') throw new Error('not in worker mode');
${body}
`;
  function runChild(body: string): Promise<{ code: number | null; out: string }> {
    const dir = mkdtempSync(join(ROOT, 'test', 'processor', '.tmp-worker-'));
    const file = join(dir, 'child.mjs');
    writeFileSync(file, script(body));
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('exit', (code) => {
        rmSync(dir, { recursive: true, force: true });
        resolve({ code, out });
      });
    });
  }

  it('shutdown() delivers everything, terminates the worker, and the process exits', async () => {
    const r = await runChild(`await provider.shutdown(); console.log('exported', exporter.n, fp.stats().analysis);`);
    expect(r.out).toContain('exported 20 in-thread');
    // A child that hung would be killed at the spawn timeout (code null), not exit 0.
    expect(r.code).toBe(0);
  });

  it('the worker does not keep the process alive when the app neither flushes nor shuts down', async () => {
    const r = await runChild(`console.log('done');`);
    expect(r.out).toContain('done');
    expect(r.code).toBe(0);
  });
});
