// Where `npm run bench` writes its results, and which benchmarks it runs, from its command line:
// by default an untracked file (bench/results.local.json, git-ignored), so a bench run never
// dirties the checkout; the tracked record bench/results.json only with --write. Must never write.

import { parseArgs } from 'node:util';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const TRACKED_RESULTS = resolve(HERE, 'results.json');
export const LOCAL_RESULTS = resolve(HERE, 'results.local.json');

export const BENCH_USAGE = `usage: npm run bench -- [--only KEY,...] [--out FILE | --write]
  --only KEY,...  run only these benchmarks
  --out FILE      write the results to FILE (default: bench/results.local.json, not tracked)
  --write         write the tracked record bench/results.json (to commit a new baseline)`;

/**
 * `{ ok: true, path, tracked, only }` or `{ ok: false, reason }` for argv (after the script name).
 * BENCH_OUT in env stands for --out.
 */
export function benchOptions(argv, env, keys) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { only: { type: 'string' }, out: { type: 'string' }, write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (e) {
    return { ok: false, reason: e.message };
  }
  if (values.help) return { ok: false, reason: 'help' };
  const out = values.out ?? env.BENCH_OUT;
  if (values.write && out) return { ok: false, reason: '--write and --out (or BENCH_OUT) both given: choose one' };
  let only = keys;
  if (values.only !== undefined) {
    only = values.only.split(',').map((k) => k.trim()).filter(Boolean);
    const unknown = only.filter((k) => !keys.includes(k));
    if (unknown.length > 0 || only.length === 0) return { ok: false, reason: `--only: unknown benchmark ${unknown.map((k) => `"${k}"`).join(', ') || '(none given)'}; the benchmarks are ${keys.join(', ')}` };
  }
  const path = values.write ? TRACKED_RESULTS : out ? (isAbsolute(out) ? out : resolve(process.cwd(), out)) : LOCAL_RESULTS;
  return { ok: true, path, tracked: path === TRACKED_RESULTS, only };
}
