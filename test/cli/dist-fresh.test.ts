// scripts/dist-fresh.mjs (run first by `npm run demo`, `npm start`, `npm run bench` and the
// examples): dist/ counts as stale when an entry point is missing or older than the newest file
// under src/ (or tsconfig.build.json), and only then is it built. Checked on a scratch tree with
// set file times, with --check (which never builds).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const SCRIPT = join(ROOT, 'scripts', 'dist-fresh.mjs');
const ENTRIES = ['dist/index.js', 'dist/cli/main.js', 'dist/trace/index.js', 'dist/service/serve.js', 'dist/processor/analysis-worker.js'];
const dir = mkdtempSync(join(tmpdir(), 'fp-dist-fresh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function put(rel: string, seconds: number): void {
  const p = join(dir, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, '');
  utimesSync(p, seconds, seconds);
}
const check = () => {
  const r = spawnSync(process.execPath, [SCRIPT, '--check', '--root', dir], { encoding: 'utf8' });
  return [r.status, r.stdout.trim()];
};

describe('dist-fresh: build only when dist/ is older than src/', () => {
  it('missing dist/ is stale; a newer dist/ is fresh; a source edited after the build makes it stale again', () => {
    put('tsconfig.build.json', 1_000);
    put('src/index.ts', 2_000);
    put('src/cli/main.ts', 2_000);
    expect(check()).toEqual([1, 'stale']);
    for (const e of ENTRIES) put(e, 3_000);
    expect(check()).toEqual([0, 'fresh']);
    put('src/cli/check.ts', 4_000);
    expect(check()).toEqual([1, 'stale']);
    for (const e of ENTRIES) put(e, 5_000);
    expect(check()).toEqual([0, 'fresh']);
    // One entry point missing (a partial build) is stale too; so is a changed build config.
    rmSync(join(dir, 'dist/processor/analysis-worker.js'));
    expect(check()).toEqual([1, 'stale']);
    put('dist/processor/analysis-worker.js', 5_000);
    put('tsconfig.build.json', 6_000);
    expect(check()).toEqual([1, 'stale']);
  });

  it('the scripts that run dist/ go through it', async () => {
    const pkg = (await import(join(ROOT, 'package.json'), { with: { type: 'json' } })).default as { scripts: Record<string, string> };
    for (const name of ['demo', 'start', 'bench', 'example:openai', 'example:vercel-ai']) expect(pkg.scripts[name], name).toMatch(/^node scripts\/dist-fresh\.mjs && /);
  });
});
