// End to end: the real @opentelemetry/exporter-trace-otlp-http and -proto exporters post the
// shared fixtures' spans to the running service, which analyses them and forwards to an OTLP sink
// on loopback. Every span arrives once, with the expected finding events; a downstream outage
// (sink answers 503, then recovers) loses nothing and keeps the findings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { encodeLogsRequestProto } from '../../src/otlp/proto.js';
import { EVENT_FINDING, ATTR_FINDING_KIND, ATTR_TOOL_CALL_ID, ATTR_FINDINGS_COUNT } from '../../src/findings/names.js';
import { LIBRARIES } from '../helpers/fixtures.js';
import { DECLARATIONS, downstreamTo, exporterFor, exportVia, metricSum, parseMetrics, readable, retraced, startSink, testConfig, waitFor, silentLog, type Sink } from './helpers.js';

let sink: Sink;
let svc: RunningService;
const lines: string[] = [];

beforeAll(async () => {
  sink = await startSink();
  svc = await startService(testConfig({ downstream: downstreamTo(sink, { timeoutMs: 1500 }), declarationsPath: DECLARATIONS }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});

async function metrics(): Promise<Map<string, number>> {
  return parseMetrics(await (await fetch(`${svc.address}/metrics`)).text());
}

function findingEvents(traceId: string) {
  return sink.spans.filter((s) => s.traceId === traceId).flatMap((s) => s.events.filter((e) => e.name === EVENT_FINDING).map((e) => ({ span: s, e })));
}

async function postLogs(logs: ReturnType<typeof retraced>['logs']): Promise<Response> {
  return fetch(`${svc.address}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: encodeLogsRequestProto(logs) });
}

describe('e2e: SDK exporters -> service -> sink', () => {
  for (const kind of ['proto', 'json'] as const)
    for (const lib of LIBRARIES)
      it(`${kind} exporter, ${lib}: every span arrives once, with the expected finding`, async () => {
        const { spans, logs, traceId } = retraced(lib);
        if (logs.length) expect((await postLogs(logs)).status).toBe(200);
        const r = await exportVia(exporterFor(kind, svc.address), readable(spans));
        expect(r.code, r.error?.message).toBe(0);
        const got = sink.spans.filter((s) => s.traceId === traceId);
        const ids = got.map((s) => s.spanId);
        for (const s of spans) expect(ids.filter((id) => id === s.spanId).length).toBe(1);
        const f = findingEvents(traceId);
        expect(f.map(({ e }) => [e.attributes[ATTR_FINDING_KIND], e.attributes[ATTR_TOOL_CALL_ID]])).toEqual([['unsupported-argument', 'call_bt_003']]);
        expect(f[0]!.span.attributes[ATTR_FINDINGS_COUNT]).toBe(1);
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
    expect(evals.length).toBe(1);
    expect(evals[0]!.attributes).toMatchObject({ 'gen_ai.evaluation.name': 'unsupported-argument', 'gen_ai.evaluation.score.label': 'fail' });
    const subject = findingEvents(traceId)[0]!.span;
    expect(evals[0]!.spanId).toBe(subject.spanId);
    expect(typeof JsonLogsSerializer.serializeRequest).toBe('function');
  });

  it('a span whose log records come after it gets its finding on a carrier span in the same trace', async () => {
    const { spans, logs, traceId } = retraced('otel-instrumentation-openai');
    expect((await exportVia(exporterFor('proto', svc.address), readable(spans))).code).toBe(0);
    expect((await postLogs(logs)).status).toBe(200);
    const f = findingEvents(traceId);
    expect(f.length).toBe(1);
    expect(f[0]!.span.name).toBe('footprint.findings');
    expect(sink.spans.filter((s) => s.traceId === traceId).length).toBe(spans.length + 1);
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
    // The retry was answered from the replay cache: the finding is still there.
    expect(findingEvents(traceId).length).toBe(1);
    const m1 = await metrics();
    expect(metricSum(m1, 'footprint_export_retries_total') - metricSum(m0, 'footprint_export_retries_total')).toBeGreaterThanOrEqual(1);
    expect(metricSum(m1, 'footprint_export_failures_total') - metricSum(m0, 'footprint_export_failures_total')).toBeGreaterThanOrEqual(1);
  });

  it('metrics count spans in and out, findings by kind and seam', async () => {
    const m = await metrics();
    expect(metricSum(m, 'footprint_spans_received_total')).toBeGreaterThan(0);
    expect(metricSum(m, 'footprint_spans_forwarded_total')).toBe(sink.spans.length);
    expect(m.get('footprint_findings_total{kind="unsupported-argument",seam="choice"}')).toBeGreaterThanOrEqual(12);
    expect(metricSum(m, 'footprint_conversations')).toBeGreaterThan(0);
    expect(metricSum(m, 'footprint_state_bytes')).toBeGreaterThan(0);
    expect(metricSum(m, 'footprint_request_duration_seconds_count', 'route="/v1/traces"')).toBeGreaterThan(0);
    void lines;
  });
});
