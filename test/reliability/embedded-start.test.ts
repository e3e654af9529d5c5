// Reliability, issue 10 item 7: the embedded default as a new user starts it — `node
// dist/cli/main.js serve` with no flags, no config and a clean environment (what `npm start`
// runs). With 4317 held by a listener of this test (as on any host with a collector or Jaeger)
// it starts on 127.0.0.1:4318 and says what it listens on, that no check is armed without
// declarations (naming the command that drafts them) and where findings go. With 4318 held by
// this test it exits 1 with ONE line naming the address and the --listen flag, no stack trace.
// Asked for gRPC on a held 4317, likewise one line naming --grpc-listen.
// The default port is fixed by design, so case A needs 127.0.0.1:4318 free on this machine; when
// another process holds it the case is skipped and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, ensureDist } from './helpers.js';

const holders: Server[] = [];

/** Listens on 127.0.0.1:port; resolves false when someone else already holds it (it is held either way). */
function hold(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer((c) => c.destroy());
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => {
      holders.push(s);
      resolve(true);
    });
  });
}

function release(port: number): Promise<void> {
  const i = holders.findIndex((s) => (s.address() as { port?: number } | null)?.port === port);
  if (i < 0) return Promise.resolve();
  const [s] = holders.splice(i, 1);
  return new Promise((r) => s!.close(() => r()));
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `serve ARGS` with a clean environment until it exits, or until `until(stderr)` holds (then SIGTERM). */
function serve(args: string[], until: (stderr: string) => boolean, ms = 20_000): Promise<Run & { sawUntil: boolean }> {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('OTEL_') || k.startsWith('FOOTPRINT_')) delete env[k];
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'serve', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let sawUntil = false;
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), ms);
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (!sawUntil && until(stderr)) {
        sawUntil = true;
        // Give the summary a moment to finish printing, then stop it as a user would.
        setTimeout(() => child.kill('SIGTERM'), 300);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr, sawUntil });
    });
  });
}

beforeAll(() => {
  ensureDist();
}, 180_000);
afterAll(async () => {
  await Promise.all(holders.map((s) => new Promise((r) => s.close(r))));
});

describe('item 7: the embedded default starts anywhere and says what it does', () => {
  it('with 4317 taken, a bare `serve` listens on 127.0.0.1:4318 and tells where, which checks are armed and where findings go', async (ctx) => {
    await hold(4317);
    if (!(await isFree(4318))) {
      console.log('[embedded-start] 127.0.0.1:4318 is held by another process on this machine: case skipped');
      ctx.skip();
    }
    const r = await serve([], (e) => /findings: /.test(e));
    await release(4317);
    expect(r.sawUntil, r.stderr).toBe(true);
    expect(r.stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:4318/);
    expect(r.stderr).toMatch(/OTLP\/HTTP on http:\/\/127\.0\.0\.1:4318\/v1\/traces and \/v1\/logs \(gRPC off: --grpc-listen HOST:PORT to add it\)/);
    expect(r.stderr).toMatch(/checks: armed by inference from what the trace shows \(tool names, descriptions, schemas, MCP annotations; `inference: false` turns it off\): dangling-reference, unsupported-argument, empty-lookup, unsupported-value, prior-turn-evidence, refusal-asserts-absence; need declarations: result-columns, unsupported-claim/);
    expect(r.stderr).toMatch(/footprint-otel declarations suggest/);
    expect(r.stderr).toMatch(/findings: printed here, one line each, and kept for the last 100 traces at http:\/\/127\.0\.0\.1:4318\/api\/findings/);
    expect(r.stderr).not.toMatch(/4317/);
    expect(r.code).toBe(0);
  }, 30_000);

  it('with 4318 taken, it exits 1 with ONE line naming the address and --listen, no stack trace', async () => {
    await hold(4318);
    const r = await serve([], () => false);
    await release(4318);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(r.code).toBe(1);
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^serve: 127\.0\.0\.1:4318 is already in use .*; choose another address with --listen HOST:PORT/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }, 30_000);

  it('asked for gRPC on a taken 4317, it exits 1 with ONE line naming --grpc-listen', async () => {
    await hold(4317);
    const r = await serve(['--listen', '127.0.0.1:0', '--grpc-listen', '127.0.0.1:4317'], () => false);
    await release(4317);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !/ info footprint-otel: /.test(l));
    expect(r.code).toBe(1);
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^serve: gRPC 127\.0\.0\.1:4317 is already in use .*--grpc-listen HOST:PORT/);
  }, 30_000);
});
