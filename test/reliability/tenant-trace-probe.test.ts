// Tenancy probe, through the running service: tenant B learns tenant A's trace ids and sends spans
// of its own into them (new span ids, its own resource `service.name`, a token bound to tenant-b
// would allow them: they are B's), before, between and after A's turns. Tenant A's result must be
// exactly what a service that never saw B gives: the footprint.* events and attributes on A's
// spans (findings, dispositions with their tallies, answer standings), A's runs in /api/findings
// and A's page in /api/explain. B's own dispositions are likewise B's alone. The core keys its
// trace records, span caches and tallies by tenant and trace id (src/runs/trace-key.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { loadFixture } from '../helpers/fixtures.js';
import { DECLARATIONS, downstreamTo, retraced, startSink, testConfig, silentLog, type Sink } from '../service/helpers.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { declarations } from '../processor/scenario.js';
import { protoBody } from './helpers.js';

const opened: { close(): Promise<void> | void }[] = [];
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
});

async function service(): Promise<{ svc: RunningService; sink: Sink }> {
  const sink = await startSink();
  opened.push(sink);
  const svc = await startService(testConfig({ downstream: downstreamTo(sink), declarationsPath: DECLARATIONS }), { loadDeclarations: loadDeclarationsFile, log: silentLog });
  opened.push({ close: () => svc.shutdown() });
  return { svc, sink };
}

const post = async (svc: RunningService, spans: SpanData[]) => expect((await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: protoBody(spans) })).status).toBe(200);

/**
 * The backup-triage recording's two turns (one trace each) under the given trace ids and tenant;
 * every span id fresh (parents follow), so two tenants' copies are different spans of one trace.
 */
function turnsOf(traceIds: readonly [string, string], tenant: string): [SpanData[], SpanData[]] {
  const spans = loadFixture('traceloop-openai', 'backup-triage').doc.spans.map((d) => d.span);
  const traces = [...new Set(spans.map((s) => s.traceId))];
  expect(traces).toHaveLength(2);
  const ids = new Map(spans.map((s) => [s.spanId, randomBytes(8).toString('hex')]));
  const copy = (s: SpanData): SpanData => ({
    ...s,
    traceId: traceIds[traces.indexOf(s.traceId)]!,
    spanId: ids.get(s.spanId)!,
    ...(s.parentSpanId !== undefined ? { parentSpanId: ids.get(s.parentSpanId) ?? s.parentSpanId } : {}),
    resource: { ...s.resource, 'service.name': tenant },
  });
  return [spans.filter((s) => s.traceId === traces[0]).map(copy), spans.filter((s) => s.traceId === traces[1]).map(copy)];
}

/** What footprint added to one tenant's spans and carriers in the sink: span name, events (name, attributes) and footprint.* attributes, in a stable order. */
function addedFor(sink: Sink, tenant: string, traceIds: readonly string[]) {
  const own = sink.spans.filter((s) => s.resource['service.name'] === tenant && traceIds.includes(s.traceId));
  return own
    .map((s) => ({
      trace: traceIds.indexOf(s.traceId),
      name: s.name,
      start: String(s.startTimeUnixNano),
      events: s.events.filter((e) => e.name.startsWith('footprint.') || e.name === 'gen_ai.evaluation.result').map((e) => ({ name: e.name, attributes: e.attributes })),
      attributes: Object.fromEntries(Object.entries(s.attributes).filter(([k]) => k.startsWith('footprint.'))),
    }))
    .sort((x, y) => x.trace - y.trace || x.start.localeCompare(y.start) || x.name.localeCompare(y.name));
}

async function findingsOf(svc: RunningService, traceId: string, tenant: string) {
  const body = (await (await fetch(`${svc.address}/api/findings?traceId=${traceId}`)).json()) as { runs: { findings: { tenant: string; seenAt?: string }[] }[] };
  return body.runs.flatMap((r) => r.findings.filter((f) => f.tenant === tenant).map(({ seenAt: _seen, ...f }) => f));
}

async function pageOf(svc: RunningService, traceId: string, tenant: string): Promise<unknown> {
  const r = await fetch(`${svc.address}/api/explain/${traceId}?tenant=${tenant}`);
  expect(r.status).toBe(200);
  return r.json();
}

describe('tenancy probe: tenant B sends spans into tenant A\'s trace ids', () => {
  it("A's findings, dispositions (tallies), /api/findings and page are what a service that never saw B gives; B's dispositions are B's alone", async () => {
    const traceIds = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')] as const;
    const [a1, a2] = turnsOf(traceIds, 'tenant-a');

    // Control: A alone.
    const alone = await service();
    await post(alone.svc, a1);
    await post(alone.svc, a2);

    // B alone (the same copies B sends in the probe), for B's side.
    const [b1, b2] = turnsOf(traceIds, 'tenant-b');
    const bAlone = await service();
    await post(bAlone.svc, b1);
    await post(bAlone.svc, b2);

    // Probe: B before, between and after A's turns, in A's trace ids.
    const probe = await service();
    await post(probe.svc, b1);
    await post(probe.svc, a1);
    await post(probe.svc, b2);
    await post(probe.svc, a2);
    const [b1Late, b2Late] = turnsOf(traceIds, 'tenant-b');
    await post(probe.svc, b1Late);
    await post(probe.svc, b2Late);

    const expected = addedFor(alone.sink, 'tenant-a', traceIds);
    // The control is not empty: turn 2 has its finding and each turn its disposition.
    expect(expected.flatMap((s) => s.events.map((e) => e.name))).toEqual(expect.arrayContaining(['footprint.finding', 'footprint.disposition']));
    expect(addedFor(probe.sink, 'tenant-a', traceIds)).toEqual(expected);
    for (const t of traceIds) {
      expect(await findingsOf(probe.svc, t, 'tenant-a')).toEqual(await findingsOf(alone.svc, t, 'tenant-a'));
      expect(await pageOf(probe.svc, t, 'tenant-a')).toEqual(await pageOf(alone.svc, t, 'tenant-a'));
    }
    expect((await findingsOf(alone.svc, traceIds[1], 'tenant-a')).map((f) => (f as unknown as { kind: string }).kind)).toContain('unsupported-argument');

    // B's first copies got what B alone gets: nothing of A's tallies in B's dispositions.
    const dispositionsOfB = (sink: Sink, spans: readonly SpanData[]) => {
      const ids = new Set(spans.map((s) => s.spanId));
      return sink.spans.filter((s) => ids.has(s.spanId)).flatMap((s) => s.events.filter((e) => e.name === 'footprint.disposition').map((e) => e.attributes));
    };
    expect(dispositionsOfB(probe.sink, [...b1, ...b2])).toEqual(dispositionsOfB(bAlone.sink, [...b1, ...b2]));
    expect(dispositionsOfB(probe.sink, [...b1, ...b2])).toHaveLength(2);
  });
});

describe('tenancy probe, span caches: a content-less span of tenant B under the ids of tenant A\'s waiting span', () => {
  it("waits beside A's, not in its place: A's own log records still join A's span, and A's findings are A's alone", async () => {
    // The official OpenAI instrumentation's recording: its content comes only as log records.
    const a = retraced('otel-instrumentation-openai');
    const under = <T extends { resource: Record<string, unknown> }>(xs: T[], tenant: string): T[] => xs.map((x) => ({ ...x, resource: { ...x.resource, 'service.name': tenant } }));
    const aSpans = under(a.spans, 'tenant-a');
    const aLogs = under(a.logs, 'tenant-a');
    const view = (r: { findings: { kind: string; predicate: string; tenant?: string; span: { spanId: string } }[] }) => r.findings.map((f) => `${f.tenant} ${f.kind} ${f.predicate} ${f.span.spanId}`).sort();

    const alone = new FootprintCore({ declarations: declarations(), logJoin: 'own-tenant' });
    alone.process({ spans: aSpans });
    const expected = alone.process({ spans: [], logs: aLogs });
    expect(view(expected).some((f) => f.startsWith('tenant-a unsupported-argument'))).toBe(true);

    const probe = new FootprintCore({ declarations: declarations(), logJoin: 'own-tenant' });
    probe.process({ spans: aSpans });
    // B: the very same ids (trace and span), its own resource, no content.
    probe.process({ spans: under(a.spans, 'tenant-b') });
    const got = probe.process({ spans: [], logs: aLogs });
    expect(got.foreignLogs ?? []).toEqual([]);
    expect(view(got)).toEqual(view(expected));
  });
});
