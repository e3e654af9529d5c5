// Issue 31 item 1, tenants that cannot forge: log records sent with tenant A's token, under A's own
// resource, but carrying tenant B's trace and span ids, are never joined to B's spans: not when B's
// spans came first (content-less chat spans waiting for their records), not when A's records came
// first (waiting for their span), not on B's explain page. Such a record is refused for the join,
// said in the partialSuccess of the request that carried it (when B's span is known by then) and
// counted in /metrics; B's own records still join and give B exactly its own findings.
// Real service on 127.0.0.1, real protobuf requests, the recorded official-OpenAI-instrumentation
// trace (its message content comes only as log records).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { decodeExportResponseProto, encodeLogsRequestProto } from '../../src/otlp/proto.js';
import type { AttrValue, LogData, SpanData } from '../../src/model/telemetry.js';
import { DECLARATIONS, downstreamTo, metricSum, parseMetrics, retraced, startSink, testConfig, type Sink } from './helpers.js';
import { protoBody } from '../reliability/helpers.js';

const ALL = 'forge-token-all';
const A = 'forge-token-a';
const B = 'forge-token-b';
const LIB = 'otel-instrumentation-openai';
const MARK = 'FORGED-BY-TENANT-A';

let sink: Sink;
let svc: RunningService;

const under = <T extends SpanData | LogData>(records: T[], tenant: string): T[] => records.map((r) => ({ ...r, resource: { ...r.resource, 'service.name': tenant } }));

const QUESTIONS = ['Is srv-db-04 protected? List its backup jobs.', "What's the backup status of that machine?"];
/** The user's questions marked (or, with `to`, replaced). */
function marked(v: AttrValue | undefined, to?: string): AttrValue | undefined {
  if (typeof v === 'string') return QUESTIONS.includes(v) || v.startsWith(MARK) ? (to ?? `${MARK} ${v}`) : v;
  if (Array.isArray(v)) return v.map((x) => marked(x, to)!);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, marked(x, to)!]));
  return v;
}
/** B's records as tenant A would forge them: A's resource, B's ids, the turn-2 question marked. */
const forged = (logs: LogData[]): LogData[] => under(logs, 'tenant-a').map((l) => ({ ...l, body: marked(l.body) }));

async function post(path: string, token: string, body: Uint8Array): Promise<{ status: number; rejected: number; message: string }> {
  const r = await fetch(`${svc.address}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-protobuf' }, body });
  const bytes = new Uint8Array(await r.arrayBuffer());
  if (r.status !== 200) return { status: r.status, rejected: 0, message: Buffer.from(bytes).toString('utf8') };
  const p = decodeExportResponseProto(bytes, path.endsWith('logs') ? 'logs' : 'traces');
  return { status: 200, rejected: p.ok ? p.value.rejected : -1, message: p.ok ? (p.value.errorMessage ?? '') : p.error };
}
const sendSpans = (token: string, spans: SpanData[]) => post('/v1/traces', token, protoBody(spans));
const sendLogs = (token: string, logs: LogData[]) => post('/v1/logs', token, encodeLogsRequestProto(logs));

interface Run {
  findings: { kind: string; seam: string; predicate: string; tenant: string }[];
}
async function findingsOf(traceId: string): Promise<string[]> {
  const j = (await (await fetch(`${svc.address}/api/findings?traceId=${traceId}`, { headers: { Authorization: `Bearer ${ALL}` } })).json()) as { runs: Run[] };
  return j.runs.flatMap((r) => r.findings.map((f) => `${f.tenant} ${f.kind} ${f.seam} ${f.predicate}`)).sort();
}
const explainOf = async (traceId: string) => (await fetch(`${svc.address}/api/explain/${traceId}?tenant=tenant-b`, { headers: { Authorization: `Bearer ${ALL}` } })).text();

/** What B gets on its own: its spans, then its records, with nobody forging. */
let genuine: string[] = [];

beforeAll(async () => {
  sink = await startSink();
  svc = await startService(
    testConfig({ downstream: downstreamTo(sink), declarationsPath: DECLARATIONS, auth: { token: ALL, tokens: [{ token: A, tenants: ['tenant-a'] }, { token: B, tenants: ['tenant-b'] }] } }),
    { loadDeclarations: loadDeclarationsFile, log: () => {} },
  );
  const b = retraced(LIB);
  expect((await sendSpans(B, under(b.spans, 'tenant-b'))).status).toBe(200);
  expect((await sendLogs(B, under(b.logs, 'tenant-b'))).status).toBe(200);
  genuine = await findingsOf(b.traceId);
  expect(genuine.length).toBeGreaterThan(0);
  expect(genuine.every((f) => f.startsWith('tenant-b '))).toBe(true);
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});

describe("a tenant's log records never join another tenant's spans", () => {
  it("spans first: A's records for B's waiting chat spans are refused (said in partialSuccess), add nothing to B's turn or page, and B's own records still join", async () => {
    const b = retraced(LIB);
    expect((await sendSpans(B, under(b.spans, 'tenant-b'))).status).toBe(200);
    // What the spans alone give (the tool spans carry their results; the chat spans no content).
    const spansOnly = await findingsOf(b.traceId);
    expect(spansOnly.length).toBeLessThan(genuine.length);
    const a = await sendLogs(A, forged(b.logs));
    expect(a.status).toBe(200);
    expect(a.message).toMatch(/25 log records name a span of another tenant/);
    expect(await findingsOf(b.traceId)).toEqual(spansOnly);
    expect((await sendLogs(B, under(b.logs, 'tenant-b'))).status).toBe(200);
    expect(await findingsOf(b.traceId)).toEqual(genuine.map((f) => f));
    const page = await explainOf(b.traceId);
    expect(page).toContain(QUESTIONS[0]);
    expect(page).not.toContain(MARK);
  });

  it("records first: A's records waiting for B's span are never joined to it; B's own are", async () => {
    const b = retraced(LIB);
    const a = await sendLogs(A, forged(b.logs));
    expect(a.status).toBe(200);
    expect(a.message).toBe(''); // nothing tells yet whose span they name
    expect((await sendSpans(B, under(b.spans, 'tenant-b'))).status).toBe(200);
    const spansOnly = await findingsOf(b.traceId);
    expect(spansOnly.length).toBeLessThan(genuine.length);
    expect(await explainOf(b.traceId)).not.toContain(MARK);
    expect((await sendLogs(B, under(b.logs, 'tenant-b'))).status).toBe(200);
    expect(await findingsOf(b.traceId)).toEqual(genuine);
    expect(await explainOf(b.traceId)).not.toContain(MARK);
  });

  it("one forged user message does not take B's genuine findings away", async () => {
    const b = retraced(LIB);
    expect((await sendSpans(B, under(b.spans, 'tenant-b'))).status).toBe(200);
    // The question of the request that chose backup_status, forged to serve the value it chose.
    const question = forged(b.logs.filter((l) => l.spanId === '72a396a7302dd225')).filter((l) => JSON.stringify(l.body).includes(`${MARK} ${QUESTIONS[1]}`));
    expect(question.length).toBe(1);
    question[0]!.body = marked(question[0]!.body, `${MARK} check db-primary-full`);
    const a = await sendLogs(A, question);
    expect(a.message).toMatch(/1 log record.*another tenant/);
    expect((await sendLogs(B, under(b.logs, 'tenant-b'))).status).toBe(200);
    expect(await findingsOf(b.traceId)).toEqual(genuine);
  });

  it("a span of another tenant sent first with the ids of B's chat span does not pass for B's own (as a retry of it would)", async () => {
    const b = retraced(LIB);
    // The span ids of a trace travel to every service it calls (traceparent).
    expect((await sendSpans(A, under(b.spans.filter((s) => s.spanId === '72a396a7302dd225'), 'tenant-a'))).status).toBe(200);
    expect((await sendSpans(B, under(b.spans, 'tenant-b'))).status).toBe(200);
    expect((await sendLogs(B, under(b.logs, 'tenant-b'))).status).toBe(200);
    expect((await findingsOf(b.traceId)).filter((f) => f.startsWith('tenant-b '))).toEqual(genuine);
  });

  it('counts every refused record in /metrics', async () => {
    const m = parseMetrics(await (await fetch(`${svc.address}/metrics`, { headers: { Authorization: `Bearer ${ALL}` } })).text());
    // Spans first (every record of the trace) and the one forged question were refused at once;
    // the records-first copy when B's spans arrived.
    const perTrace = retraced(LIB).logs.length;
    expect(perTrace).toBe(25);
    expect(metricSum(m, 'footprint_log_records_unjoined_total', 'reason="span-of-another-tenant"')).toBe(perTrace * 2 + 1);
  });
});

describe('the core\'s log join option', () => {
  it('own-tenant (the service) refuses another tenant\'s records; any-tenant (in process, files) joins them as before', async () => {
    const { FootprintCore } = await import('../../src/runs/footprint.js');
    const b = retraced(LIB);
    const spans = under(b.spans, 'tenant-b');
    const logs = under(b.logs, 'unknown_service:node');
    const own = new FootprintCore({ logJoin: 'own-tenant' });
    own.process({ spans });
    expect(own.process({ spans: [], logs }).foreignLogs?.length).toBe(logs.length);
    const any = new FootprintCore({});
    any.process({ spans });
    const r = any.process({ spans: [], logs });
    expect(r.foreignLogs).toBeUndefined();
    expect(r.carriers.length).toBeGreaterThan(0);
  });
});
