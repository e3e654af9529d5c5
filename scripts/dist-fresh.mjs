#!/usr/bin/env node
// Builds dist/ only when it is older than src/ (or missing): what `npm run demo`, `npm start`,
// `npm run bench` and the examples run first, so a second run starts at once instead of paying a
// full tsc build (15-40 s on a small machine). `--check` only says which (exit 0 fresh, 1 stale),
// building nothing; `--root DIR` looks at another checkout. Never deletes anything.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const at = args.indexOf('--root');
const ROOT = resolve(at >= 0 ? args[at + 1] : join(dirname(fileURLToPath(import.meta.url)), '..'));
/** The files a run needs; dist/ is stale when one is missing or older than the newest source. */
const ENTRIES = ['dist/index.js', 'dist/cli/main.js', 'dist/trace/index.js', 'dist/service/serve.js', 'dist/processor/analysis-worker.js'];

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function distIsStale(root = ROOT) {
  try {
    const oldest = Math.min(...ENTRIES.map((p) => statSync(join(root, p)).mtimeMs));
    return oldest < Math.max(newest(join(root, 'src')), statSync(join(root, 'tsconfig.build.json')).mtimeMs);
  } catch {
    return true;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const stale = distIsStale();
  if (args.includes('--check')) {
    console.log(stale ? 'stale' : 'fresh');
    process.exit(stale ? 1 : 0);
  }
  if (stale) {
    console.error('footprint-otel: dist/ is older than src/ (or missing): building it (tsc -p tsconfig.build.json)…');
    const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
    chmodSync(join(ROOT, 'dist/cli/main.js'), 0o755);
  }
}
