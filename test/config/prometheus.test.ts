// The shipped alert rules and the service's /metrics, against the real thing: promtool checks
// and unit-tests docker/prometheus/alerts.yaml; a real Prometheus (Debian package `prometheus`)
// on 127.0.0.1 scrapes a footprint-otel service started in-process, which receives one recorded
// trace; the findings counter by kind appears in Prometheus's query API with the expected count,
// and the shipped FootprintFinding alert fires for that kind.
// Without prometheus/promtool: fails under CI (which installs them, see .ci/run), skips locally.
// Loopback only; every wait is bounded; Prometheus is killed in afterAll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, accessSync, constants } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService } from '../../src/service/serve.js';
import { defaultServiceConfig } from '../../src/service/config.js';
import { M_FINDINGS } from '../../src/service/names.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RULES = join(ROOT, 'docker', 'prometheus', 'alerts.yaml');
const RULE_TESTS = join(ROOT, 'docker', 'prometheus', 'alerts.test.yaml');
const TRACE = join(ROOT, 'test', 'fixtures', 'traceloop-openai', 'backup-triage.otlp.json');
const DECLARATIONS = join(ROOT, 'test', 'fixtures', 'declarations.yaml');
const EXPECTED = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'traceloop-openai', 'backup-triage.expected.json'), 'utf8')) as { expectedFindings: { kind: string }[] };
const WAIT_MS = 30_000;

function which(bin: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, bin);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

const PROMETHEUS = which('prometheus');
const PROMTOOL = which('promtool');
const MISSING = [!PROMETHEUS && 'prometheus', !PROMTOOL && 'promtool'].filter(Boolean).join(' and ');
const MESSAGE = `${MISSING} not found on PATH: install the Debian package (apt-get update && apt-get install -y prometheus), as .ci/run does`;

if (MISSING && !process.env.CI) console.warn(`test/config/prometheus.test.ts skipped: ${MESSAGE}`);

describe.runIf(MISSING && process.env.CI)('Prometheus tools under CI', () => {
  it('are installed', () => {
    throw new Error(MESSAGE);
  });
});

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms: number, detail: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not within ${ms} ms${last ? ` (last error: ${(last as Error).message})` : ''}${detail() ? `\n${detail()}` : ''}`);
}

describe.skipIf(!!MISSING)('docker/prometheus/alerts.yaml with promtool', () => {
  it('promtool check rules accepts it', () => {
    const r = spawnSync(PROMTOOL!, ['check', 'rules', RULES], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS: 2 rules found/);
  });

  it('promtool test rules: fires on a first finding, on an increase, and resolves when quiet', () => {
    const r = spawnSync(PROMTOOL!, ['test', 'rules', RULE_TESTS], { encoding: 'utf8', timeout: 20_000, cwd: dirname(RULE_TESTS) });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/SUCCESS/);
  });
});

describe.skipIf(!!MISSING)('a real Prometheus scraping footprint-otel', () => {
  let svc: RunningService | undefined;
  let prom: ChildProcess | undefined;
  let promExited: Promise<void> = Promise.resolve();
  let promUrl = '';
  let dir = '';
  let promLog = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'footprint-prom-'));
    const cfg = defaultServiceConfig();
    svc = await startService(
      { ...cfg, listen: { host: '127.0.0.1', port: 0 }, grpcListen: null, declarationsPath: DECLARATIONS, embedded: { runs: 10, print: false } },
      { log: () => {}, stdout: () => {} },
    );
    const target = new URL(svc.address).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files:',
        `  - ${JSON.stringify(RULES)}`,
        'scrape_configs:',
        '  - job_name: footprint-otel',
        '    metrics_path: /metrics',
        '    static_configs:',
        `      - targets: [${JSON.stringify(target)}]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prom = spawn(PROMETHEUS!, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (b: Buffer) => {
      promLog = (promLog + b.toString()).slice(-4000);
    };
    prom.stdout!.on('data', keep);
    prom.stderr!.on('data', keep);
    const p = prom;
    promExited = new Promise((r) => p.once('exit', () => r()));
    await until('Prometheus ready', async () => {
      if (p.exitCode !== null) throw new Error(`prometheus exited with ${p.exitCode}`);
      return (await fetch(`${promUrl}/-/ready`)).ok ? true : undefined;
    }, WAIT_MS, () => promLog);
  }, 45_000);

  afterAll(async () => {
    if (prom && prom.exitCode === null && prom.signalCode === null) {
      prom.kill('SIGTERM');
      const t = setTimeout(() => prom?.kill('SIGKILL'), 5_000);
      await promExited;
      clearTimeout(t);
    }
    await svc?.shutdown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 20_000);

  const query = async (q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
    const r = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`);
    const j = (await r.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] }; error?: string };
    if (j.status !== 'success') throw new Error(j.error ?? j.status);
    return j.data.result;
  };

  it('a recorded trace posted to the service shows up as findings by kind in Prometheus, and the alert fires', async () => {
    const res = await fetch(`${svc!.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: readFileSync(TRACE) });
    expect(res.status).toBe(200);

    // The recording's planted defect: one unsupported-argument (its other findings, e.g.
    // empty-lookup and dangling-reference, are compared below through the service's own text).
    expect(EXPECTED.expectedFindings.filter((f) => f.kind === 'unsupported-argument')).toHaveLength(1);

    // The service's own text first (so a failure below is Prometheus's, not the service's).
    const text = await (await fetch(`${svc!.address}/metrics`)).text();
    expect(text).toMatch(new RegExp(`^${M_FINDINGS}\\{kind="unsupported-argument",seam="choice"\\} 1$`, 'm'));
    const served = new Map<string, number>();
    for (const m of text.matchAll(new RegExp(`^${M_FINDINGS}\\{kind="([^"]+)",seam="[^"]+"\\} (\\S+)$`, 'gm'))) served.set(m[1]!, (served.get(m[1]!) ?? 0) + Number(m[2]));

    const byKind = await until('findings by kind in Prometheus', async () => {
      const rows = await query(`sum by (kind) (${M_FINDINGS}{job="footprint-otel"})`);
      return rows.some((r) => r.metric.kind === 'unsupported-argument') ? rows : undefined;
    }, WAIT_MS, () => promLog);
    const got = new Map(byKind.map((r) => [r.metric.kind!, Number(r.value[1])]));
    expect(got.get('unsupported-argument')).toBe(1);
    expect(got).toEqual(served);

    // The shipped rule, evaluated by Prometheus on the scraped series: a first finding fires it.
    const alert = await until('FootprintFinding firing for unsupported-argument', async () => {
      const r = (await (await fetch(`${promUrl}/api/v1/alerts`)).json()) as { data: { alerts: { labels: Record<string, string>; state: string }[] } };
      return r.data.alerts.find((a) => a.labels.alertname === 'FootprintFinding' && a.labels.kind === 'unsupported-argument' && a.state === 'firing');
    }, WAIT_MS, () => promLog);
    expect(alert.labels).toMatchObject({ severity: 'warning', source: 'footprint-otel' });
  }, 70_000);
});
