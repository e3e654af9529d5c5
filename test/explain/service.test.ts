// The service's explain routes over the collector path: the demo's spans and then its log records
// posted as OTLP/JSON (content arrives late, findings go on carriers), the finding events exported
// with footprint.explain.url (auth is on: a signed, short-lived link that opens the page with no
// header), and GET /api/explain/{traceId} and /explain/{traceId} behind the same bearer token as
// /api/findings, tenant-scoped, bounded; a browser without a token gets the sign-in form, and a
// session cookie after it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceFactory, type ServiceComponent } from '../../src/service/factory.js';
import { ExplainStore, explainUrl } from '../../src/service/explain-routes.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { loadServiceConfig } from '../../src/service/config.js';
import { ATTR_EXPLAIN_LINK, ATTR_EXPLAIN_URL, EVENT_FINDING } from '../../src/findings/names.js';
import { explainLinkSecret } from '../../src/service/explain-routes.js';
import { signLink, signSession, verifyLink } from '../../src/explain/link.js';
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
  it('every exported finding event links its page with a signed link, and carries the token alone for Jaeger', async () => {
    await waitFor(() => findingEvents(sink.spans).length >= 2);
    const found = findingEvents(sink.spans);
    for (const { span, e } of found) {
      const token = String(e.attributes[ATTR_EXPLAIN_LINK]);
      expect(token).toMatch(new RegExp(`^l1\\.${span.traceId}\\.[A-Za-z0-9_-]+\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
      expect(encodeURIComponent(token)).toBe(token);
      expect(e.attributes[ATTR_EXPLAIN_URL]).toBe(`https://footprint.example.com/explain/link/${token}#finding-${e.attributes['footprint.finding.id']}`);
      const v = verifyLink(explainLinkSecret(null, { token: TOKEN })!, token, Math.floor(Date.now() / 1000));
      expect(v).toMatchObject({ ok: true, traceId: span.traceId, tenant: 'backup-triage-agent' });
      // Short-lived: one hour by default.
      expect((v as { expiresAt: number }).expiresAt - Date.now() / 1000).toBeLessThanOrEqual(3600);
    }
  });
  it("the page opens from a finding's footprint.explain.url with no header at all, with the finding on it", async () => {
    const { e } = findingEvents(sink.spans).find((x) => x.span.traceId === DEMO_TURN_2)!;
    const link = new URL(String(e.attributes[ATTR_EXPLAIN_URL]));
    const r = await fetch(`${base}${link.pathname}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; .*frame-ancestors 'none'$/);
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await r.text();
    expect(html).toContain(`id="${link.hash.slice(1)}"`);
    expect(html.replace(/<[^>]+>/g, '')).toContain('Besides, it cannot be confirmed: a lookup came back empty without saying what it searched.');
    expect(html).toContain('href="#span-aa0b0c50ac8db839"');
  });
  it('a link altered, expired or for another trace opens nothing: the sign-in form instead', async () => {
    const { e } = findingEvents(sink.spans).find((x) => x.span.traceId === DEMO_TURN_2)!;
    const token = String(e.attributes[ATTR_EXPLAIN_LINK]);
    const secret = explainLinkSecret(null, { token: TOKEN })!;
    const tries = [
      token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'),
      token.replace(DEMO_TURN_2, DEMO_TURN_1),
      signLink(secret, DEMO_TURN_2, 'backup-triage-agent', Math.floor(Date.now() / 1000) - 1),
      signLink('another-secret-of-16+chars', DEMO_TURN_2, 'backup-triage-agent', Math.floor(Date.now() / 1000) + 60),
      'l1.nope',
    ];
    for (const t of tries) {
      const r = await fetch(`${base}/explain/link/${t}`);
      expect(r.status, t).toBe(403);
      const html = await r.text();
      expect(html).toContain('<form class="sign-in" method="post" action="/explain/login">');
      expect(html).not.toContain('backup record');
    }
    // A link for one tenant shows that tenant only, even when signed right.
    const other = await fetch(`${base}/explain/link/${signLink(secret, DEMO_TURN_2, 'someone-else', Math.floor(Date.now() / 1000) + 60)}`);
    expect(other.status).toBe(404);
  });
  it('a browser without a token gets the sign-in form; the token signs it in for a session (cookie), the page opens', async () => {
    const page = await fetch(`${base}/explain/${DEMO_TURN_2}`);
    expect(page.status).toBe(401);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(await page.text()).toContain(`name="next" value="/explain/${DEMO_TURN_2}"`);
    const post = (token: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/explain/login`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ token, next: `/explain/${DEMO_TURN_2}` }).toString() });
    expect((await post('wrong')).status).toBe(401);
    expect((await post(TOKEN, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(TOKEN, { Origin: 'null' })).status).toBe(403);
    // Behind a proxy the browser names the public URL's origin.
    expect((await post(TOKEN, { Origin: 'https://footprint.example.com' })).status).toBe(303);
    const ok = await post(TOKEN);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/explain/${DEMO_TURN_2}`);
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^footprint_explain=s1\.[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]+; Path=\/explain; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
    const session = cookie.split(';')[0]!;
    const opened = await fetch(`${base}/explain/${DEMO_TURN_2}`, { headers: { Cookie: session } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Probably wrong');
    // The cookie is for the page only: the JSON still takes the bearer token.
    expect((await fetch(`${base}/api/explain/${DEMO_TURN_2}`, { headers: { Cookie: session } })).status).toBe(401);
    // A forged or expired session is the sign-in form again.
    expect((await fetch(`${base}/explain/${DEMO_TURN_2}`, { headers: { Cookie: `footprint_explain=${signSession('another-secret-of-16+chars', ['*'], 9e9)}` } })).status).toBe(401);
    expect((await fetch(`${base}/explain/${DEMO_TURN_2}`, { headers: { Cookie: `footprint_explain=${signSession(explainLinkSecret(null, { token: TOKEN })!, ['*'], 1)}` } })).status).toBe(401);
  });
  it('GET /api/explain/{traceId}: the turns\' accounts and the shown map, as the CLI computes them', async () => {
    const r = await fetch(`${base}/api/explain/${DEMO_TURN_2}`, { headers: auth });
    expect(r.status).toBe(200);
    type Body = { traceId: string; turns: { rows: { row: string; sentences: { text: string }[] }[]; verdict: { tone: string } }[]; shown: Record<string, unknown> };
    const body = (await r.json()) as Body;
    expect(body.traceId).toBe(DEMO_TURN_2);
    expect(body.turns).toHaveLength(1);
    expect(body.turns[0]!.rows.find((x) => x.row === 'you-asked')!.sentences[0]!.text).toBe('"What\'s the backup status of that machine?"');
    expect(body.turns[0]!.rows.find((x) => x.row === 'it-found')!.sentences[0]!.text).toBe('backup_status returned an empty result without saying what it searched.');
    expect(body.turns[0]!.verdict.tone).toBe('bad');
    expect(body.shown[`${DEMO_TURN_2}/c0392af615cb619b#rows`]).toEqual({ rows: 0, at: '/attributes/gen_ai.tool.call.result' });
    const t1 = await fetch(`${base}/api/explain/${DEMO_TURN_1}`, { headers: auth });
    expect(((await t1.json()) as Body).turns[0]!.verdict.tone).toBe('ok');
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
    expect(explainUrl('https://x', 'a'.repeat(32), 't', 'f')).toEqual({ url: `https://x/explain/${'a'.repeat(32)}?tenant=t#finding-f` });
    expect(explainUrl('https://x', 'a'.repeat(32), 't'.repeat(3000), 'f')).toEqual({ url: `https://x/explain/${'a'.repeat(32)}#finding-f` });
    // Signed, unless the signed link would pass the bound.
    expect(explainUrl('https://x', 'a'.repeat(32), 't', 'f', { secret: 's'.repeat(16), expiresAt: 100 }).url).toMatch(/^https:\/\/x\/explain\/link\/l1\.a{32}\.dA\.100\.[A-Za-z0-9_-]{43}#finding-f$/);
    expect(explainUrl('https://x', 'a'.repeat(32), 't'.repeat(3000), 'f', { secret: 's'.repeat(16), expiresAt: 100 })).toEqual({ url: `https://x/explain/${'a'.repeat(32)}#finding-f` });
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
