// `footprint-otel --version` prints the package.json version, from the source and from the built
// command (dist/cli/main.js, two levels under the package root like src/cli/).
import { describe, it, expect, beforeAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageInfo, versionLine } from '../../src/cli/version.js';
import { ensureDist } from '../reliability/helpers.js';
import { ROOT } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const cli = (...args: string[]) => execFileSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), ...args], { encoding: 'utf8', timeout: 20_000 });

describe('--version', () => {
  beforeAll(() => {
    ensureDist();
  }, 180_000);

  it('reads name and version from package.json', () => {
    expect(packageInfo()).toEqual({ name: pkg.name, version: pkg.version });
    expect(versionLine()).toBe(`footprint-otel ${pkg.version}`);
  });

  it('the built command prints it for --version, -V and version', () => {
    for (const flag of ['--version', '-V', 'version']) expect(cli(flag)).toBe(`footprint-otel ${pkg.version}\n`);
  });

  it('an unknown command is exit 2 with the nearest command and the usage', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'chek', 'x.json'], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^footprint-otel: unknown command "chek"; did you mean check\?\nusage: footprint-otel <command> \[options\]\n/);
  });

  it('--help lists --version and the exit codes', () => {
    const help = cli('--help');
    expect(help).toContain('--version');
    expect(help).toContain('exit codes:');
  });
});
