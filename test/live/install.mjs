// Installs the live tests' own packages (test/live/package.json: every agent framework and
// instrumentation the live tests drive) with `npm ci`, unless what is installed was installed from
// this very package-lock.json. Run by `npm run test:live` and by .ci/run; never touches the
// checkout's own node_modules. Exits non-zero, saying why, when npm does.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const MARK = join(HERE, 'node_modules', '.footprint-installed-from');
const lockHash = createHash('sha256').update(readFileSync(join(HERE, 'package-lock.json'))).digest('hex');

if (existsSync(MARK) && readFileSync(MARK, 'utf8').trim() === lockHash) {
  console.log('test/live: packages already installed from this package-lock.json');
  process.exit(0);
}
console.log('test/live: npm ci (the frameworks the live tests drive)…');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: HERE, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
if (r.status !== 0) {
  console.error(`test/live: npm ci failed (${r.error ? r.error.message : `exit ${r.status}`}); the live tests need these packages`);
  process.exit(r.status || 1);
}
writeFileSync(MARK, `${lockHash}\n`);
