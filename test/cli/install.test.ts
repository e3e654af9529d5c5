// The README's install path, done for real: `npm pack` the project, install the tarball into an
// empty directory outside the checkout (from the local npm cache when it can, else the registry),
// then run the installed `footprint-otel --version` and `check` on the demo trace it ships, and
// `npx footprint-otel` inside the checkout. Bounded (< 2 min); skipped, saying why, only when the
// registry is unreachable and the cache cannot serve the dependencies.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDist } from '../reliability/helpers.js';
import { ROOT } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NETWORK_ERRORS = /ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED|ECONNRESET|ETIMEDOUT/;

const run = (cmd: string, args: string[], cwd: string, timeout = 60_000): SpawnSyncReturns<string> =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });

describe('install from the packed tarball, outside the checkout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fp-install-'));
  const app = join(dir, 'app');
  let skipReason: string | undefined;
  let how = '';

  beforeAll(() => {
    ensureDist();
  }, 180_000);

  // The install itself: bounded under 2 minutes (pack ~5 s, offline attempt ≤ 25 s, registry ≤ 80 s).
  beforeAll(() => {
    const packed = run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fp-install-probe', private: true }));
    const offline = run(NPM, ['install', '--offline', tarball], app, 25_000);
    if (offline.status === 0) how = 'offline, from the npm cache';
    else {
      const online = run(NPM, ['install', '--prefer-offline', tarball], app, 80_000);
      if (online.status === 0) how = 'from the cache and the registry';
      else if (NETWORK_ERRORS.test(online.stderr)) skipReason = `the registry is unreachable and the npm cache lacks the dependencies: ${online.stderr.split('\n').find((l) => NETWORK_ERRORS.test(l))}`;
      else throw new Error(`npm install of the tarball failed:\n${online.stderr}`);
    }
  }, 115_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

  const bin = () => join(app, 'node_modules', '.bin', 'footprint-otel');
  const demo = (f: string) => join(app, 'node_modules', 'footprint-otel', 'examples', 'backup-triage', f);

  it('the installed command prints its version', (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const r = run(bin(), ['--version'], app);
    expect([r.status, r.stdout, how]).toEqual([0, `footprint-otel ${pkg.version}\n`, how]);
  });

  it('the installed command checks the demo trace it ships, and gates on its finding', (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const argv = ['check', demo('trace.otlp.json'), demo('logs.otlp.json'), '--declarations', demo('declarations.yaml')];
    const r = run(bin(), [...argv, '--format', 'json'], app);
    expect(r.status, r.stderr).toBe(0);
    const kinds = (JSON.parse(r.stdout) as { findings: { kind: string }[] }).findings.map((f) => f.kind);
    expect(kinds).toEqual(['unsupported-argument', 'empty-lookup']);
    const gate = run(bin(), [...argv, '--fail-on', 'findings'], app);
    expect(gate.status).toBe(1);
    expect(gate.stdout).toMatch(/^4 checks ran on 5 LLM requests in 2 traces/);
    // Without declarations the demo is not silent.
    const bare = run(bin(), ['check', demo('trace.otlp.json'), demo('logs.otlp.json')], app);
    expect(bare.stdout).toContain('footprint-otel declarations suggest');
  });

  it('npx footprint-otel in the installing project, and inside the checkout', (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    for (const cwd of [app, ROOT]) {
      const r = run(NPM, ['exec', '--no', '--', 'footprint-otel', '--version'], cwd);
      expect([cwd, r.status, r.stdout]).toEqual([cwd, 0, `footprint-otel ${pkg.version}\n`]);
    }
    // `npm exec` reads the whole dependency tree first: inside the checkout (~1,500 packages with the
    // stacks' test clients) that alone can pass 30 s on a shared CI core (each call is bounded at 60 s).
  }, 130_000);
});
