// Issue 10 item 6, tenancy: findings carry their tenant (the tenant attribute of their span's
// resource) in /api/findings; a token bound to tenants in config (auth.tokens) sees only those
// tenants' runs and findings there and on the explain routes; the single-token form
// (auth.token / FOOTPRINT_AUTH_TOKEN) still sees every tenant; auth.tokens is validated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadServiceConfig } from '../../src/service/config.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { authorize } from '../../src/service/auth.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { LIBRARIES } from '../helpers/fixtures.js';
import { DECLARATIONS, downstreamTo, retraced, startSink, testConfig, type Sink } from './helpers.js';
import { protoBody } from '../reliability/helpers.js';

const ALL = 'token-sees-all';
const A = 'token-tenant-a';
const B = 'token-tenant-b';
const STAR = 'token-star';

let sink: Sink;
let svc: RunningService;
const traces: Record<'a' | 'b', string> = { a: '', b: '' };

const under = (spans: SpanData[], tenant: string) => spans.map((s) => ({ ...s, resource: { ...s.resource, 'service.name': tenant } }));
const get = (path: string, token?: string) => fetch(`${svc.address}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

interface FindingsJson {
  runs: { traceId: string; tenants: string[]; findings: { tenant: string; traceId: string }[] }[];
}

beforeAll(async () => {
  sink = await startSink();
  const cfg = testConfig({
    downstream: downstreamTo(sink),
    declarationsPath: DECLARATIONS,
    auth: { token: ALL, tokens: [{ token: A, tenants: ['tenant-a'] }, { token: B, tenants: ['tenant-b', 'tenant-c'] }, { token: STAR, tenants: ['*'] }] },
  });
  svc = await startService(cfg, { loadDeclarations: loadDeclarationsFile, log: () => {} });
  for (const t of ['a', 'b'] as const) {
    const tr = retraced(LIBRARIES[0]!);
    traces[t] = tr.traceId;
    const r = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { Authorization: `Bearer ${ALL}`, 'Content-Type': 'application/x-protobuf' }, body: protoBody(under(tr.spans, `tenant-${t}`)) });
    expect(r.status).toBe(200);
  }
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});

describe('/api/findings is held to the token\'s tenants', () => {
  it('every finding carries its tenant; the single token sees both tenants', async () => {
    const j = (await (await get('/api/findings', ALL)).json()) as FindingsJson;
    const findings = j.runs.flatMap((r) => r.findings);
    expect(findings.length).toBeGreaterThanOrEqual(2);
    expect(new Set(findings.map((f) => f.tenant))).toEqual(new Set(['tenant-a', 'tenant-b']));
    for (const f of findings) expect(f.tenant).toBe(f.traceId === traces.a ? 'tenant-a' : 'tenant-b');
    const star = (await (await get('/api/findings', STAR)).json()) as FindingsJson;
    expect(star.runs.flatMap((r) => r.findings).length).toBe(findings.length);
  });

  it('a token bound to tenant-a sees only tenant-a, and one bound to tenant-b only tenant-b', async () => {
    for (const [token, tenant, trace] of [[A, 'tenant-a', traces.a], [B, 'tenant-b', traces.b]] as const) {
      const r = await get('/api/findings', token);
      expect(r.status).toBe(200);
      const j = (await r.json()) as FindingsJson;
      expect(j.runs.map((x) => x.traceId)).toEqual([trace]);
      expect(j.runs[0]!.tenants).toEqual([tenant]);
      const f = j.runs.flatMap((x) => x.findings);
      expect(f.length).toBeGreaterThan(0);
      expect(f.every((x) => x.tenant === tenant)).toBe(true);
      // Asking by trace id for the other tenant's trace gives nothing.
      const other = trace === traces.a ? traces.b : traces.a;
      const o = (await (await get(`/api/findings?traceId=${other}`, token)).json()) as FindingsJson;
      expect(o.runs).toEqual([]);
    }
  });

  it('a wrong token is refused (401)', async () => {
    expect((await get('/api/findings', 'nope')).status).toBe(401);
    expect((await get('/api/findings')).status).toBe(401);
  });

  it('the explain route answers a token only for its tenants\' traces', async () => {
    expect((await get(`/api/explain/${traces.a}`, A)).status).toBe(200);
    expect((await get(`/api/explain/${traces.b}`, A)).status).toBe(404);
    expect((await get(`/api/explain/${traces.b}?tenant=tenant-b`, A)).status).toBe(404);
    expect((await get(`/api/explain/${traces.b}`, ALL)).status).toBe(200);
  });

  it("a browser signed in with a tenant's token sees that tenant's pages only", async () => {
    const signIn = await fetch(`${svc.address}/explain/login`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `token=${A}&next=/explain/${traces.a}` });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const page = (id: string) => fetch(`${svc.address}/explain/${id}`, { headers: { Cookie: cookie } });
    expect((await page(traces.a)).status).toBe(200);
    expect((await page(traces.b)).status).toBe(404);
  });
});

describe('auth.tokens in the config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'footprint-tenancy-'));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('is read with tokens given inline or from a file, next to the single token', () => {
    const tf = file('b.token', 'from-file\n');
    const r = loadServiceConfig({ file: file('ok.yaml', `auth:\n  token: one\n  tokens:\n    - { token: t-a, tenants: [tenant-a] }\n    - { tokenFile: ${tf}, tenants: [tenant-b, tenant-b] }\n`), env: {} });
    expect(r.ok, r.ok ? '' : r.errors.join('\n')).toBe(true);
    if (!r.ok) return;
    expect(r.config.auth).toEqual({ token: 'one', tokens: [{ token: 't-a', tenants: ['tenant-a'] }, { token: 'from-file', tenants: ['tenant-b'] }] });
    expect(authorize(r.config.auth, 'Bearer from-file')).toEqual({ ok: true, tenants: ['tenant-b'] });
    expect(authorize(r.config.auth, 'Bearer one')).toEqual({ ok: true });
    expect(authorize(r.config.auth, 'Bearer other')).toEqual({ ok: false });
  });

  it('the single-token form alone is unchanged', () => {
    const r = loadServiceConfig({ env: { FOOTPRINT_AUTH_TOKEN: 'env-token' } });
    expect(r.ok && r.config.auth).toEqual({ token: 'env-token', tokens: [] });
  });

  it('refuses an entry without tenants, with both token and tokenFile, or with an unknown key, naming it', () => {
    const bad = loadServiceConfig({ file: file('bad.yaml', 'auth:\n  tokens:\n    - { token: x }\n    - { token: y, tokenFile: /z, tenants: [a] }\n    - { token: w, tenant: [a] }\n'), env: {} });
    expect(bad.ok).toBe(false);
    const text = !bad.ok ? bad.errors.join('\n') : '';
    expect(text).toMatch(/auth\.tokens\.0\.tenants/);
    expect(text).toMatch(/auth\.tokens\.1.*exactly one of token and tokenFile/);
    expect(text).toMatch(/unknown key "auth\.tokens\.2\.tenant" \(did you mean "auth\.tokens\.2\.tenants"\?\)/);
  });

  it('a YAML error is given whole: line, column, the parser\'s sentence and its excerpt', () => {
    const r = loadServiceConfig({ file: file('broken.yaml', 'listen: 127.0.0.1:4318\nauth:\n  token: a\n  token: b\n'), env: {} });
    expect(r.ok).toBe(false);
    const e = !r.ok ? r.errors[0]! : '';
    expect(e).toMatch(/broken\.yaml: not valid YAML or JSON at line 4, column 3: Map keys must be unique/);
    expect(e.split('\n').length).toBeGreaterThan(1);
    expect(e).toContain('token: b');
  });
});
