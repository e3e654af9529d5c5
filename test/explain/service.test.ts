// The service's explain routes over the collector path: the demo's spans and then its log records
// posted as OTLP/JSON (content arrives late, findings go on carriers), the finding events exported
// with footprint.explain.url, and GET /api/explain/{traceId} and /explain/{traceId} behind the same
// bearer token as /api/findings, tenant-scoped, bounded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceFactory, type ServiceComponent } from '../../src/service/factory.js';
import { ExplainStore, explainUrl } from '../../src/service/explain-routes.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { loadServiceConfig } from '../../src/service/config.js';
import { ATTR_EXPLAIN_URL, EVENT_FINDING } from '../../src/findings/names.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { startSink, testConfig, downstreamTo, silentLog, waitFor, type Sink } from '../service/helpers.js';
import { DEMO, DEMO_TURN_1, DEMO_TURN_2 } from './helpers.js';

const TOKEN = 'explain-test-token';
let svc: ServiceComponent;
let base = '';
let sink: Sink;
const auth = { Authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  sink = await startSink();
  const created = serviceFactory.create(testConfig({ declarationsPath: join(DEMO, 'declarations.yaml'), auth: { token: TOKEN }, downstream: downstreamTo(sink), publicUrl: 'https://footprint.example.com' }), {
    loadDeclarations: loadDeclarationsFile,
    log: silentLog,
  });
  if (!created.ok) throw new Error(created.errors.join());
  svc = created.service;
  base = (await svc.start()).address;
  for (const [path, file] of [['/v1/traces', 'trace.otlp.json'], ['/v1/logs', 'logs.otlp.json']] as const) {
    const r = await fetch(`${base}${path}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: readFileSync(join(DEMO, file)) });
    expect(r.status).toBe(200);
  }
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});

const findingEvents = (spans: SpanData[]) => spans.flatMap((s) => s.events.filter((e) => e.name === EVENT_FINDING).map((e) => ({ span: s, e })));

describe('explain routes', () => {
  it('every exported finding event links its page', async () => {
    await waitFor(() => findingEvents(sink.spans).length >= 2);
    const found = findingEvents(sink.spans);
    for (const { span, e } of found) {
      expect(e.attributes[ATTR_EXPLAIN_URL]).toBe(`https://footprint.example.com/explain/${span.traceId}?tenant=backup-triage-agent#finding-${e.attributes['footprint.finding.id']}`);
    }
  });
  it('the page opens from a finding\'s footprint.explain.url, with the finding on it', async () => {
    const { e } = findingEvents(sink.spans).find((x) => x.span.traceId === DEMO_TURN_2)!;
    const link = new URL(String(e.attributes[ATTR_EXPLAIN_URL]));
    const r = await fetch(`${base}${link.pathname}${link.search}`, { headers: auth });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; .*frame-ancestors 'none'$/);
    const html = await r.text();
    expect(html).toContain(`id="${link.hash.slice(1)}"`);
    expect(html.replace(/<[^>]+>/g, '')).toContain('Not sure: empty-undeclared.');
    expect(html).toContain('href="#span-aa0b0c50ac8db839"');
  });
  it('GET /api/explain/{traceId}: the account and the shown map, as the CLI computes them', async () => {
    const r = await fetch(`${base}/api/explain/${DEMO_TURN_2}`, { headers: auth });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { account: { rows: { row: string; sentences: { text: string }[] }[]; summary: { tone: string } }; shown: Record<string, unknown> };
    expect(body.account.rows.find((x) => x.row === 'you-asked')!.sentences[0]!.text).toBe('"What\'s the backup status of that machine?"');
    expect(body.account.rows.find((x) => x.row === 'it-found')!.sentences[0]!.text).toBe('backup_status returned an empty result without saying what it searched.');
    expect(body.account.summary.tone).toBe('bad');
    expect(body.shown[`${DEMO_TURN_2}/c0392af615cb619b#rows`]).toEqual({ rows: 0, at: '/attributes/gen_ai.tool.call.result' });
    const t1 = await fetch(`${base}/api/explain/${DEMO_TURN_1}`, { headers: auth });
    expect(((await t1.json()) as { account: { summary: { tone: string } } }).account.summary.tone).toBe('ok');
  });
  it('same auth as /api/findings', async () => {
    expect((await fetch(`${base}/api/explain/${DEMO_TURN_2}`)).status).toBe(401);
    expect((await fetch(`${base}/explain/${DEMO_TURN_2}`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
  });
  it('tenant-scoped, and refuses what it does not hold', async () => {
    expect((await fetch(`${base}/api/explain/${DEMO_TURN_2}?tenant=backup-triage-agent`, { headers: auth })).status).toBe(200);
    const other = await fetch(`${base}/api/explain/${DEMO_TURN_2}?tenant=someone-else`, { headers: auth });
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain('backup status');
    expect((await fetch(`${base}/api/explain/${'0'.repeat(32)}`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${base}/api/explain/not-a-trace`, { headers: auth })).status).toBe(400);
    const page = await fetch(`${base}/explain/%3Cscript%3E`, { headers: auth });
    expect(page.status).toBe(400);
    expect(await page.text()).not.toContain('<script');
    expect((await fetch(`${base}/api/explain/${DEMO_TURN_2}`, { method: 'POST', headers: auth })).status).toBe(405);
  });
});

describe('explain store bounds', () => {
  const span = (traceId: string, spanId: string, conv?: string): SpanData => ({
    traceId, spanId, name: 'x', kind: 1, startTimeUnixNano: 0n, endTimeUnixNano: 0n, attributes: conv ? { 'gen_ai.conversation.id': conv } : {}, events: [], status: { code: 0 }, resource: {}, scope: { name: 's' },
  });
  it('keeps at most maxTraces, the least recently written dropped first', () => {
    const s = new ExplainStore({ limits: { maxTraces: 3 } });
    for (let i = 0; i < 5; i++) s.add([span(String(i).padStart(32, '0'), '1'.repeat(16))], []);
    expect(s.size).toBe(3);
    expect(s.record('0'.repeat(32))).toBeUndefined();
    expect(s.record('4'.padStart(32, '0'))).toBeDefined();
  });
  it('spans per trace are capped and said so; a span seen again replaces its copy', () => {
    const s = new ExplainStore({ limits: { maxSpansPerTrace: 2 } });
    const t = 'a'.repeat(32);
    s.add([span(t, '1'.repeat(16)), span(t, '1'.repeat(16))], []);
    expect(s.record(t)).toMatchObject({ cut: false });
    expect(s.record(t)!.spans).toHaveLength(1);
    s.add([span(t, '2'.repeat(16)), span(t, '3'.repeat(16))], []);
    expect(s.record(t)).toMatchObject({ cut: true });
    expect(s.record(t)!.spans).toHaveLength(2);
  });
  it('expires after idleMs, and joins the traces of one conversation', () => {
    let now = 0;
    const s = new ExplainStore({ limits: { idleMs: 1000 }, now: () => now });
    s.add([span('b'.repeat(32), '1'.repeat(16), 'c1')], []);
    s.add([span('c'.repeat(32), '2'.repeat(16), 'c1')], []);
    expect(s.record('c'.repeat(32))!.spans.map((x) => x.traceId)).toEqual(['c'.repeat(32), 'b'.repeat(32)]);
    now = 5000;
    expect(s.record('c'.repeat(32))).toBeUndefined();
    expect(s.size).toBe(0);
  });
  it('the URL keeps under the attribute bound by dropping an overlong tenant', () => {
    expect(explainUrl('https://x', 'a'.repeat(32), 't', 'f')).toBe(`https://x/explain/${'a'.repeat(32)}?tenant=t#finding-f`);
    expect(explainUrl('https://x', 'a'.repeat(32), 't'.repeat(3000), 'f')).toBe(`https://x/explain/${'a'.repeat(32)}#finding-f`);
  });
  it('publicUrl is configured by file or FOOTPRINT_PUBLIC_URL, and refused when not a URL', () => {
    const ok = loadServiceConfig({ document: { publicUrl: 'https://fp.example.com/' }, env: {} });
    expect(ok.ok && ok.config.publicUrl).toBe('https://fp.example.com');
    const env = loadServiceConfig({ document: {}, env: { FOOTPRINT_PUBLIC_URL: 'http://h:4318' } });
    expect(env.ok && env.config.publicUrl).toBe('http://h:4318');
    const bad = loadServiceConfig({ document: {}, env: { FOOTPRINT_PUBLIC_URL: 'javascript:alert(1)' } });
    expect(bad.ok).toBe(false);
    const none = loadServiceConfig({ document: {}, env: {} });
    expect(none.ok && none.config.publicUrl).toBe(null);
  });
});
