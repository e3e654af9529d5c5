// End to end: the real @opentelemetry/exporter-trace-otlp-http and -proto exporters post the
// shared fixtures' spans to the running service, which analyses them and forwards to an OTLP sink
// on loopback. Every span arrives once, with the expected finding events; a downstream outage
// (sink answers 503, then recovers) loses nothing and keeps the findings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FootprintCore } from '../../src/runs/footprint.js';
import type { Attributes, LogData, SpanData } from '../../src/model/telemetry.js';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { encodeLogsRequestProto } from '../../src/otlp/proto.js';
import { EVENT_FINDING, ATTR_FINDING_KIND, ATTR_TOOL_CALL_ID, ATTR_FINDINGS_COUNT } from '../../src/findings/names.js';
import { checkOfKind } from '../../src/checks/catalog.js';
import { LIBRARIES } from '../helpers/fixtures.js';
import { DECLARATIONS, downstreamTo, exporterFor, exportVia, metricSum, parseMetrics, readable, retraced, startSink, testConfig, waitFor, silentLog, type Sink } from './helpers.js';

let sink: Sink;
let svc: RunningService;
/** Traces sent through per-test services, not the shared one. */
const perTestTraces: string[] = [];

async function freshService(): Promise<RunningService> {
  return startService(testConfig({ downstream: downstreamTo(sink, { timeoutMs: 1500 }), declarationsPath: DECLARATIONS }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
}

beforeAll(async () => {
  sink = await startSink();
  svc = await freshService();
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});

/**
 * What a fresh core, fed the same batches in the same order in-process, says to add: finding
 * events' attributes by span id (carrier spans by their subject). The service must deliver exactly this.
 */
function coreExpectation(batches: { spans?: SpanData[]; logs?: LogData[] }[]): Attributes[] {
  const decl = loadDeclarationsFile(DECLARATIONS);
  if (!decl.ok) throw new Error(decl.errors.join());
  const core = new FootprintCore({ declarations: decl.declarations });
  const out: Attributes[] = [];
  for (const b of batches) {
    const r = core.process({ spans: b.spans ?? [], logs: b.logs ?? [] });
    for (const a of r.annotations.values()) for (const e of a.events) if (e.name === EVENT_FINDING) out.push(e.attributes);
    for (const c of r.carriers) for (const e of c.events) if (e.name === EVENT_FINDING) out.push(e.attributes);
  }
  return out;
}

const sortAttrs = (xs: Attributes[]) => xs.map((x) => JSON.stringify(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))).sort();

async function metrics(): Promise<Map<string, number>> {
  return parseMetrics(await (await fetch(`${svc.address}/metrics`)).text());
}

function findingEvents(traceId: string) {
  return sink.spans.filter((s) => s.traceId === traceId).flatMap((s) => s.events.filter((e) => e.name === EVENT_FINDING).map((e) => ({ span: s, e })));
}

async function postLogs(logs: ReturnType<typeof retraced>['logs'], to: RunningService = svc): Promise<Response> {
  return fetch(`${to.address}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: encodeLogsRequestProto(logs) });
}

describe('e2e: SDK exporters -> service -> sink', () => {
  for (const kind of ['proto', 'json'] as const)
    for (const lib of LIBRARIES)
      it(`${kind} exporter, ${lib}: every span arrives once, with the core's finding events`, async () => {
        const { spans, logs, traceId } = retraced(lib);
        const own = await freshService();
        perTestTraces.push(traceId);
        try {
          if (logs.length) expect((await postLogs(logs, own)).status).toBe(200);
          const r = await exportVia(exporterFor(kind, own.address), readable(spans));
          expect(r.code, r.error?.message).toBe(0);
        } finally {
          await own.shutdown();
        }
        const got = sink.spans.filter((s) => s.traceId === traceId);
        const ids = got.map((s) => s.spanId);
        for (const s of spans) expect(ids.filter((id) => id === s.spanId).length).toBe(1);
        const f = findingEvents(traceId);
        expect(sortAttrs(f.map(({ e }) => e.attributes))).toEqual(sortAttrs(coreExpectation(logs.length ? [{ logs }, { spans }] : [{ spans }])));
        // The recorded scenario's own expected finding is among them.
        expect(f.map(({ e }) => [e.attributes[ATTR_FINDING_KIND], e.attributes[ATTR_TOOL_CALL_ID]])).toContainEqual(['unsupported-argument', 'call_bt_003']);
        for (const { span } of f) if (span.name !== 'footprint.findings') expect(span.attributes[ATTR_FINDINGS_COUNT]).toBe(span.events.filter((e) => e.name === EVENT_FINDING).length);
        // Original attributes survive the trip (structured values included).
        for (const s of spans) {
          const back = got.find((g) => g.spanId === s.spanId)!;
          for (const [k, v] of Object.entries(s.attributes)) expect(back.attributes[k]).toEqual(v);
          expect(back.name).toBe(s.name);
          expect(back.startTimeUnixNano).toBe(s.startTimeUnixNano);
        }
      });

  it('log records are forwarded unchanged, plus one gen_ai.evaluation.result per finding', async () => {
    const { spans, logs, traceId } = retraced('otel-instrumentation-openai');
    expect(logs.length).toBeGreaterThan(0);
    const before = sink.logs.length;
    expect((await postLogs(logs)).status).toBe(200);
    expect(sink.logs.length - before).toBe(logs.length);
    const r = await exportVia(exporterFor('proto', svc.address), readable(spans));
    expect(r.code).toBe(0);
    const evals = sink.logs.filter((l) => l.traceId === traceId && l.eventName === 'gen_ai.evaluation.result');
    const f = findingEvents(traceId);
    expect(f.length).toBeGreaterThan(0);
    expect(evals.length).toBe(f.length);
    for (const { span, e } of f) {
      const ev = evals.find((x) => x.attributes['footprint.finding.id'] === e.attributes['footprint.finding.id'])!;
      // Named after the check (footprint.<check>); an advisory finding is labelled advisory, not fail.
      const label = e.attributes['footprint.finding.advisory'] === true ? 'advisory' : 'fail';
      expect(ev.attributes).toMatchObject({ 'gen_ai.evaluation.name': `footprint.${checkOfKind(String(e.attributes[ATTR_FINDING_KIND]))}`, 'gen_ai.evaluation.score.label': label, 'gen_ai.evaluation.explanation': e.attributes['footprint.finding.message'] });
      expect(ev.spanId).toBe(span.spanId);
      // The same evaluation rides the span itself as a span event, attribute for attribute.
      const onSpan = span.events.find((x) => x.name === 'gen_ai.evaluation.result' && x.attributes['footprint.finding.id'] === e.attributes['footprint.finding.id']);
      expect(onSpan?.attributes).toEqual(Object.fromEntries(Object.entries(ev.attributes).filter(([k]) => k !== 'event.name')));
    }
    expect(typeof JsonLogsSerializer.serializeRequest).toBe('function');
  });

  it('a span whose log records come after it gets its finding on a carrier span in the same trace', async () => {
    const { spans, logs, traceId } = retraced('otel-instrumentation-openai');
    expect((await exportVia(exporterFor('proto', svc.address), readable(spans))).code).toBe(0);
    expect((await postLogs(logs)).status).toBe(200);
    const f = findingEvents(traceId);
    expect(f.length).toBeGreaterThan(0);
    const carriers = sink.spans.filter((s) => s.traceId === traceId && s.name === 'footprint.findings');
    expect(carriers.length).toBeGreaterThan(0);
    expect(f.filter(({ e }) => e.attributes[ATTR_TOOL_CALL_ID] === 'call_bt_003' && e.attributes[ATTR_FINDING_KIND] === 'unsupported-argument').map(({ span }) => span.name)).toEqual(['footprint.findings']);
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length + carriers.length);
  });

  it('downstream outage: the service answers 503, the exporter retries, nothing is lost or doubled', async () => {
    const { spans, logs, traceId } = retraced('openinference-openai');
    expect(logs.length).toBe(0);
    const m0 = await metrics();
    sink.down = true;
    const pending = exportVia(exporterFor('proto', svc.address, { timeoutMillis: 20_000 }), readable(spans));
    await waitFor(async () => metricSum(await metrics(), 'footprint_retry_responses_total', 'status="503"') > metricSum(m0, 'footprint_retry_responses_total', 'status="503"'), 15_000, 100);
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(0);
    sink.down = false;
    const r = await pending;
    expect(r.code, r.error?.message).toBe(0);
    const got = sink.spans.filter((s) => s.traceId === traceId);
    expect(got.length).toBe(spans.length);
    expect(new Set(got.map((s) => s.spanId)).size).toBe(spans.length);
    // The retry was answered from the replay cache: the findings are still there.
    expect(findingEvents(traceId).map(({ e }) => e.attributes[ATTR_FINDING_KIND])).toContain('unsupported-argument');
    const m1 = await metrics();
    expect(metricSum(m1, 'footprint_export_retries_total') - metricSum(m0, 'footprint_export_retries_total')).toBeGreaterThanOrEqual(1);
    expect(metricSum(m1, 'footprint_export_failures_total') - metricSum(m0, 'footprint_export_failures_total')).toBeGreaterThanOrEqual(1);
  });

  it('metrics count spans in and out, findings by kind and seam', async () => {
    const m = await metrics();
    expect(metricSum(m, 'footprint_spans_received_total')).toBeGreaterThan(0);
    const ownTraces = new Set(perTestTraces);
    expect(metricSum(m, 'footprint_spans_forwarded_total')).toBe(sink.spans.filter((s) => !ownTraces.has(s.traceId)).length);
    expect(m.get('footprint_findings_total{kind="unsupported-argument",seam="choice"}')).toBeGreaterThanOrEqual(1);
    expect(metricSum(m, 'footprint_conversations')).toBeGreaterThan(0);
    expect(metricSum(m, 'footprint_state_bytes')).toBeGreaterThan(0);
    expect(metricSum(m, 'footprint_request_duration_seconds_count', 'route="/v1/traces"')).toBeGreaterThan(0);
    // Every sample line is valid exposition text.
    const text = await (await fetch(`${svc.address}/metrics`)).text();
    for (const line of text.split('\n')) if (line && !line.startsWith('#')) expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? -?[0-9.e+-]+|NaN|\+Inf$/);
  });
});

describe('e2e: downstream protocol and compression, shutdown', () => {
  it('downstream http/json with gzip: the sink receives gzip JSON, logs included', async () => {
    const own = await startService(testConfig({ downstream: downstreamTo(sink, { protocol: 'http/json', compression: 'gzip' }), declarationsPath: DECLARATIONS }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
    try {
      const { spans, logs, traceId } = retraced('otel-instrumentation-openai');
      const before = sink.requests.length;
      expect((await postLogs(logs, own)).status).toBe(200);
      expect((await exportVia(exporterFor('json', own.address), readable(spans))).code).toBe(0);
      expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
      const reqs = sink.requests.slice(before);
      expect(reqs.filter((r) => r.path === '/v1/traces').every((r) => r.contentType === 'application/json')).toBe(true);
    } finally {
      await own.shutdown();
    }
  });

  it('downstream http/protobuf with gzip: the original bytes with findings appended arrive compressed and whole', async () => {
    const own = await startService(testConfig({ downstream: downstreamTo(sink, { protocol: 'http/protobuf', compression: 'gzip' }), declarationsPath: DECLARATIONS }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
    try {
      const { spans, logs, traceId } = retraced('otel-instrumentation-openai');
      expect((await postLogs(logs, own)).status).toBe(200);
      const before = sink.requests.length;
      expect((await exportVia(exporterFor('proto', own.address), readable(spans))).code).toBe(0);
      const reqs = sink.requests.slice(before).filter((r) => r.path === '/v1/traces');
      expect(reqs.length).toBeGreaterThan(0);
      expect(reqs.every((r) => r.contentType === 'application/x-protobuf' && r.gzip)).toBe(true);
      expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
      // The findings were appended to the forwarded spans' own bytes (sent as pieces, compressed as one).
      expect(findingEvents(traceId).map(({ e }) => e.attributes[ATTR_FINDING_KIND])).toContain('unsupported-argument');
    } finally {
      await own.shutdown();
    }
  });

  it('shutdown answers the batch in flight before it closes', async () => {
    const slow = await startSink();
    slow.delayMs = 300;
    const own = await startService(testConfig({ downstream: downstreamTo(slow) }), { log: silentLog });
    try {
      const { spans, traceId } = retraced('vercel-ai');
      const pending = exportVia(exporterFor('proto', own.address), readable(spans));
      // Let the batch reach the (slow) sink, then shut down while it is still being answered.
      await new Promise((r) => setTimeout(r, 100));
      expect(slow.spans.length).toBe(0);
      const closing = own.shutdown();
      const r = await pending;
      await closing;
      expect(r.code, r.error?.message).toBe(0);
      expect(slow.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length);
    } finally {
      await slow.close();
    }
  });
});
