// Config: one YAML file validated with zod (unknown keys refused naming the nearest valid key),
// the standard OTEL_EXPORTER_OTLP_* variables and FOOTPRINT_* overrides, CLI flags last; and
// runServe's exit codes for bad usage and bad config.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServiceConfig, parseOtelHeaders, defaultServiceConfig } from '../../src/service/config.js';
import { pipelinesFor } from '../../src/service/factory.js';
import { runServe } from '../../src/service/serve.js';
import { silentLog } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'footprint-service-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('config file validation', () => {
  it('defaults: embedded, 127.0.0.1:4318, no gRPC unless asked for, quote redaction', () => {
    const r = loadServiceConfig({});
    expect(r.ok && r.config).toEqual(defaultServiceConfig());
    expect(r.ok && r.config.listen).toEqual({ host: '127.0.0.1', port: 4318 });
    expect(r.ok && r.config.grpcListen).toBeNull();
    const asked = loadServiceConfig({ overrides: { grpcListen: '127.0.0.1:4317' } });
    expect(asked.ok && asked.config.grpcListen).toEqual({ host: '127.0.0.1', port: 4317 });
    expect(r.ok && pipelinesFor(r.config).map((p) => p.exporters)).toEqual([['embedded'], ['embedded']]);
  });

  it('an unknown key is refused, naming the nearest valid key', () => {
    const r = loadServiceConfig({ file: file('typo.yaml', 'listen: 127.0.0.1:4318\ndownstream:\n  endpoit: http://collector:4319\n') });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatch(/unknown key "downstream\.endpoit" \(did you mean "downstream\.endpoint"\?\)/);
    const top = loadServiceConfig({ document: { redactoin: 'hash' } });
    expect(!top.ok && top.errors[0]).toMatch(/unknown key "redactoin" \(did you mean "redaction"\?\)/);
    const lim = loadServiceConfig({ document: { limits: { bodyByte: 10 } } });
    expect(!lim.ok && lim.errors[0]).toMatch(/did you mean "limits\.bodyBytes"/);
  });

  it('bad values name their key', () => {
    const r = loadServiceConfig({ document: { redaction: 'blur', limits: { bodyBytes: -1 }, listen: 'nope' } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.join('\n')).toMatch(/"redaction"/);
      expect(r.errors.join('\n')).toMatch(/"limits\.bodyBytes"/);
      expect(r.errors.join('\n')).toMatch(/"listen": expected HOST:PORT/);
    }
    const y = loadServiceConfig({ file: file('bad.yaml', 'listen: [\n') });
    expect(!y.ok && y.errors[0]).toMatch(/not valid YAML/);
    const missing = loadServiceConfig({ file: join(dir, 'none.yaml') });
    expect(!missing.ok && missing.errors[0]).toMatch(/cannot read \(ENOENT\)/);
  });

  it('evaluationEvents: findings by default; the key or FOOTPRINT_EVALUATION_EVENTS (which wins) set it; a bad value is refused by name', () => {
    const d = loadServiceConfig({});
    expect(d.ok && d.config.evaluationEvents).toBe('findings');
    const f = loadServiceConfig({ document: { evaluationEvents: 'all' } });
    expect(f.ok && f.config.evaluationEvents).toBe('all');
    const e = loadServiceConfig({ document: { evaluationEvents: 'all' }, env: { FOOTPRINT_EVALUATION_EVENTS: 'off' } });
    expect(e.ok && e.config.evaluationEvents).toBe('off');
    const bad = loadServiceConfig({ env: { FOOTPRINT_EVALUATION_EVENTS: 'some' } });
    expect(!bad.ok && bad.errors.join('\n')).toContain('FOOTPRINT_EVALUATION_EVENTS: "some" must be off, findings or all');
    const badKey = loadServiceConfig({ document: { evaluationEvents: 'every' } });
    expect(!badKey.ok && badKey.errors.join('\n')).toMatch(/"evaluationEvents"/);
  });

  it('a full file resolves every key', () => {
    const tokenFile = file('token', 'tok-from-file\n');
    const r = loadServiceConfig({
      file: file(
        'full.yaml',
        `listen: 0.0.0.0:5318
grpcListen: "off"
downstream:
  endpoint: http://collector:4319/
  headers: { x-tenant: a }
  protocol: http/json
  compression: gzip
  timeoutMs: 3000
auth: { tokenFile: ${tokenFile} }
declarations: decl.yaml
redaction: hash
tenantAttribute: tenant.id
checks: false
limits: { bodyBytes: 1000, spansPerBatch: 5, conversations: 7, callsPerConversation: 8, bytesPerConversation: 9, queuedBatches: 0 }
embedded: { runs: 3, print: false }
`,
      ),
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const c = r.config;
    expect(c.listen).toEqual({ host: '0.0.0.0', port: 5318 });
    expect(c.grpcListen).toBeNull();
    expect(c.downstream).toEqual({ tracesUrl: 'http://collector:4319/v1/traces', logsUrl: 'http://collector:4319/v1/logs', headers: { 'x-tenant': 'a' }, protocol: 'http/json', compression: 'gzip', timeoutMs: 3000 });
    expect(c.auth.token).toBe('tok-from-file');
    expect(c.declarationsPath).toBe('decl.yaml');
    expect([c.redaction, c.tenantAttribute, c.checks]).toEqual(['hash', 'tenant.id', false]);
    expect(c.limits).toMatchObject({ bodyBytes: 1000, spansPerBatch: 5, conversations: 7, callsPerConversation: 8, bytesPerConversation: 9, queuedBatches: 0 });
    expect(c.embedded).toEqual({ runs: 3, print: false });
    expect(pipelinesFor(c).map((p) => [p.signal, p.receivers, p.exporters])).toEqual([
      ['traces', ['otlp/http'], ['otlphttp/traces']],
      ['logs', ['otlp/http'], ['otlphttp/logs', 'evaluations/logs']],
    ]);
  });
});

describe('environment overrides', () => {
  it('OTEL_EXPORTER_OTLP_* set the downstream; signal endpoints win over the base', () => {
    const r = loadServiceConfig({
      document: { downstream: { endpoint: 'http://file:1' } },
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4319',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9/custom',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-a=1',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        FOOTPRINT_AUTH_TOKEN: 'envtok',
        FOOTPRINT_LISTEN: '127.0.0.1:9999',
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.downstream).toMatchObject({ tracesUrl: 'http://traces:9/custom', logsUrl: 'http://env:4319/v1/logs', headers: { authorization: 'Bearer abc', 'x-a': '1' }, protocol: 'http/json' });
    expect(r.config.auth.token).toBe('envtok');
    expect(r.config.listen.port).toBe(9999);
  });

  it('grpc downstream protocol and bad URLs are refused by name', () => {
    const r = loadServiceConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.join('\n')).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4317" is not an http/);
    }
    const g = loadServiceConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' } });
    expect(!g.ok && g.errors[0]).toMatch(/OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported downstream/);
  });

  it('a downstream pointing at the service itself is refused (a loop)', () => {
    const r = loadServiceConfig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318' } });
    expect(!r.ok && r.errors[0]).toMatch(/a loop/);
  });

  it('traces-only downstream warns that logs go nowhere', () => {
    const r = loadServiceConfig({ env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4319/v1/traces' } });
    expect(r.ok && r.config.downstream?.logsUrl).toBeNull();
    expect(r.ok && r.warnings[0]).toMatch(/no logs endpoint/);
  });

  it('headers parsing reports malformed pairs', () => {
    const errors: string[] = [];
    expect(parseOtelHeaders('a=1,broken,b=x%3Dy', 'H', errors)).toEqual({ a: '1', b: 'x=y' });
    expect(errors[0]).toMatch(/"broken" is not key=value/);
  });
});

describe('runServe (CLI body)', () => {
  it('exit 2 for unknown flags and bad config, with the key named', async () => {
    const err: string[] = [];
    expect(await runServe(['--bogus'], { err: (l) => err.push(l), env: {} })).toBe(2);
    expect(err[0]).toMatch(/unknown argument "--bogus"/);
    const cfg = file('cli-typo.yaml', 'limts: {}\n');
    expect(await runServe(['--config', cfg], { err: (l) => err.push(l), env: {} })).toBe(2);
    expect(err.join('\n')).toMatch(/unknown key "limits?"|did you mean "limits"/);
    expect(await runServe(['--listen'], { err: (l) => err.push(l), env: {} })).toBe(2);
  });

  it('exit 2 when the declarations file cannot be loaded (the injected loader decides)', async () => {
    const err: string[] = [];
    const code = await runServe(['--declarations', '/nope.yaml', '--listen', '127.0.0.1:0', '--grpc-listen', 'off'], {
      err: (l) => err.push(l),
      env: {},
      loadDeclarations: (p) => ({ ok: false, errors: [`${p}: cannot read (ENOENT)`] }),
    });
    expect(code).toBe(2);
    expect(err[0]).toMatch(/\/nope\.yaml: cannot read/);
  });

  it('starts, serves /healthz, stops on the stop signal with exit 0', async () => {
    let stop!: () => void;
    const stopSignal = new Promise<void>((r) => (stop = r));
    let address = '';
    const done = runServe(['--listen=127.0.0.1:0', '--grpc-listen', '127.0.0.1:0'], {
      env: {},
      err: () => {},
      stopSignal,
      settings: { log: silentLog },
      onStarted: (s) => {
        address = s.address;
        expect(s.grpcAddress).toMatch(/^127\.0\.0\.1:\d+$/);
      },
    });
    const until = Date.now() + 5000;
    while (!address && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    stop();
    expect(await done).toBe(0);
  });

  it('exit 1 when the address is in use', async () => {
    let stop!: () => void;
    const stopSignal = new Promise<void>((r) => (stop = r));
    let address = '';
    const first = runServe(['--listen', '127.0.0.1:0', '--grpc-listen', 'off'], { env: {}, err: () => {}, stopSignal, settings: { log: silentLog }, onStarted: (s) => (address = s.address) });
    const until = Date.now() + 5000;
    while (!address && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const err: string[] = [];
    const port = new URL(address).port;
    expect(await runServe(['--listen', `127.0.0.1:${port}`, '--grpc-listen', 'off'], { env: {}, err: (l) => err.push(l), settings: { log: silentLog } })).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(new RegExp(`^serve: 127\\.0\\.0\\.1:${port} is already in use .*--listen HOST:PORT`));
    stop();
    expect(await first).toBe(0);
  });
});
