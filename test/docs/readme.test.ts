// The newcomer's files: README.md fits the first five minutes (≤ 15 KB) and its demo excerpt is
// what `npm run demo` prints; every relative link in the README, CONTRIBUTING.md and docs/ points at
// a file that exists; LICENSE is the Apache-2.0 text package.json names; and no user-facing file
// names a path or a note outside this repository.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';

const ROOT = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

function filesUnder(dir: string, keep: (p: string) => boolean): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    if (e.isDirectory()) out.push(...filesUnder(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

const DOCS = ['README.md', 'CONTRIBUTING.md', ...filesUnder('docs', (p) => p.endsWith('.md'))];

describe('README.md', () => {
  it('fits the first five minutes: at most 15 KB', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThanOrEqual(15 * 1024);
  });

  it('opens with the two commands a newcomer needs: `npm install && npm run demo` and `npm test`, both scripts of package.json', () => {
    const readme = read('README.md');
    const first = /```sh\n([\s\S]*?)\n```/.exec(readme);
    expect(first, 'a sh block').not.toBeNull();
    expect(first!.index, 'before the first section').toBeLessThan(readme.indexOf('\n## '));
    const commands = first![1]!.split('\n').map((l) => l.replace(/(^|\s+)#.*$/, '').trim()).filter((l) => l !== '');
    expect(commands).toEqual(['npm install && npm run demo', 'npm test']);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts.demo).toBeDefined();
    expect(pkg.scripts.test).toBeDefined();
  });

  it('its demo excerpt is what `npm run demo` prints (in order; a line ending in "…" is a prefix)', () => {
    const readme = read('README.md');
    const block = /`npm run demo` prints \(excerpt\):\n\n```\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(block, 'the excerpt block').toBeDefined();
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const argv = pkg.scripts.demo!.split('&& ').at(-1)!.split(' ').slice(3); // node dist/cli/main.js check …
    expect(argv[0]).toBe('examples/backup-triage/trace.otlp.json');
    const out = runCheck(argv.map((a) => (a.startsWith('examples/') ? join(ROOT, a) : a))).stdout.split('\n');
    let at = 0;
    for (const line of block!.split('\n')) {
      if (line.trim() === '…') continue;
      const prefix = line.endsWith('…') ? line.slice(0, -1).trimEnd() : undefined;
      const found = out.findIndex((l, i) => i >= at && (prefix !== undefined ? l.startsWith(prefix) : l === line));
      expect(found, `README line not in the demo's output (in order): ${line}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });

  it('`npm run demo -- --html FILE` appends to the check command, which writes the page', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts.demo).toMatch(/ check examples\/backup-triage\/\S+ .*--declarations examples\/backup-triage\/declarations\.yaml$/);
  });
});

describe('docs/checks.md', () => {
  it('its example event is the demo\'s unsupported-argument finding, id and all', () => {
    const table = read('docs/checks.md');
    const row = (attr: string) => new RegExp(`^\\| \`${attr.replace(/\./g, '\\.')}\` \\| \`([^\`]+)\``, 'm').exec(table)?.[1];
    const out = JSON.parse(runCheck([join(ROOT, 'examples/backup-triage/trace.otlp.json'), join(ROOT, 'examples/backup-triage/logs.otlp.json'), '--declarations', join(ROOT, 'examples/backup-triage/declarations.yaml'), '--format', 'json']).stdout) as { findings: { kind: string; id: string; predicate: string; grounding: string }[] };
    const f = out.findings.find((x) => x.kind === 'unsupported-argument')!;
    expect(row('footprint.finding.id')).toBe(f.id);
    expect(row('footprint.finding.predicate')).toBe(f.predicate);
    expect(row('footprint.finding.grounding')).toBe(f.grounding);
  });
});

describe('links and licence', () => {
  it('every relative link in README.md, CONTRIBUTING.md and docs/ points at a file or folder that exists', () => {
    const broken: string[] = [];
    for (const f of DOCS) {
      for (const m of read(f).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '' || /^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(ROOT, dirname(f), target))) broken.push(`${f}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('LICENSE is the Apache License 2.0 text, as package.json says', () => {
    const text = read('LICENSE');
    expect(text).toContain('Apache License');
    expect(text).toContain('Version 2.0, January 2004');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(text.split('\n').length).toBeGreaterThan(190);
    expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('Apache-2.0');
  });
});

describe('user-facing files name nothing outside the repository', () => {
  const files = [
    ...DOCS,
    'package.json',
    ...filesUnder('examples', () => true),
    ...filesUnder('collector-config', () => true),
    ...filesUnder('docker', () => true),
    ...filesUnder('bench', (p) => p.endsWith('.md')),
    ...filesUnder('test/fixtures', (p) => /(manifest\.json|README\.md|\.yaml|\.mjs)$/.test(p)),
    ...filesUnder('test/live', (p) => /(package\.json|README\.md)$/.test(p)),
  ].filter((p) => statSync(join(ROOT, p)).size < 2_000_000);
  it(`${files.length} files: no /work/ or ../shared paths, no notes kept elsewhere`, () => {
    const outside = /\/work\/|\.\.\/shared\/|shared\/(research|fixtures|real-traces|DESIGN)|research notes?\b|kept outside this repository/i;
    const hits = files.flatMap((p) => read(p).split('\n').flatMap((l, i) => (outside.test(l) ? [`${relative(ROOT, join(ROOT, p))}:${i + 1}: ${l.trim().slice(0, 120)}`] : [])));
    expect(hits).toEqual([]);
  });
});
