// `npm run bench` never dirties the checkout: by default the results go to the untracked
// bench/results.local.json, --out FILE elsewhere, and only --write updates the tracked
// bench/results.json. Runs the real runner on its quickest benchmark (scaling-window, ~2 s).
import { describe, it, expect, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDist } from '../reliability/helpers.js';
import { ROOT } from './helpers.js';
// @ts-expect-error plain .mjs module without types
import { benchOptions, LOCAL_RESULTS, TRACKED_RESULTS } from '../../bench/output.mjs';

const KEYS = ['sdk-ordinary', 'sdk-agent', 'service-throughput', 'scaling-window', 'scaling-args', 'memory'];
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const bench = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 90_000, env: { ...process.env, BENCH_OUT: '' } });

describe('bench results path', () => {
  it('default: the untracked bench/results.local.json, which git ignores', () => {
    const o = benchOptions([], {}, KEYS);
    expect(o).toEqual({ ok: true, path: LOCAL_RESULTS, tracked: false, only: KEYS });
    expect(git('check-ignore', 'bench/results.local.json').trim()).toBe('bench/results.local.json');
  });
  it('--write: the tracked record; --out / BENCH_OUT: that file; both at once refused', () => {
    expect(benchOptions(['--write'], {}, KEYS)).toMatchObject({ ok: true, path: TRACKED_RESULTS, tracked: true });
    expect(benchOptions(['--out', '/tmp/x.json'], {}, KEYS)).toMatchObject({ ok: true, path: '/tmp/x.json', tracked: false });
    expect(benchOptions([], { BENCH_OUT: '/tmp/y.json' }, KEYS)).toMatchObject({ ok: true, path: '/tmp/y.json' });
    expect(benchOptions(['--write', '--out', '/tmp/x.json'], {}, KEYS)).toMatchObject({ ok: false });
  });
  it('--only picks benchmarks and refuses unknown ones, naming the valid keys', () => {
    expect(benchOptions(['--only', 'scaling-window,memory'], {}, KEYS)).toMatchObject({ ok: true, only: ['scaling-window', 'memory'] });
    const bad = benchOptions(['--only', 'scalng-window'], {}, KEYS);
    expect(bad.ok).toBe(false);
    expect(bad.reason).toContain('unknown benchmark "scalng-window"; the benchmarks are sdk-ordinary, ');
  });
});

describe('a real bench run leaves the checkout as it was', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('default run: results in bench/results.local.json, git status unchanged', () => {
    const before = git('status', '--porcelain', '--', 'bench');
    const trackedBefore = readFileSync(TRACKED_RESULTS, 'utf8');
    const r = bench('--only', 'scaling-window');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote bench/results.local.json (not tracked; --write updates bench/results.json)');
    expect(git('status', '--porcelain', '--', 'bench')).toBe(before);
    expect(readFileSync(TRACKED_RESULTS, 'utf8')).toBe(trackedBefore);
    const written = JSON.parse(readFileSync(LOCAL_RESULTS, 'utf8'));
    expect(written['scaling-window'].points.length).toBeGreaterThan(2);
    expect(written['sdk-ordinary']).toBeUndefined();
  }, 100_000);

  it('--out FILE writes there and nowhere in the checkout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fp-bench-'));
    const out = join(dir, 'r.json');
    const before = git('status', '--porcelain', '--', 'bench');
    const r = bench('--only', 'scaling-window', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))['scaling-window'].met).toBeTypeOf('boolean');
    expect(git('status', '--porcelain', '--', 'bench')).toBe(before);
    rmSync(dir, { recursive: true, force: true });
    expect(existsSync(out)).toBe(false);
  }, 100_000);
});
