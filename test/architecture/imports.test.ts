// The house is one-directional: model/ is the bottom, checks/ and findings/ sit on model/ (and the
// leaf modules of declared data and bounds), nothing below imports what is above it. This test reads
// every import of those folders and fails on one that points the wrong way.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** What each folder may import from outside itself (paths relative to src/). */
const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  // values/ reads typed values with field libraries only (src/values/*.ts): nothing of the project's.
  values: [],
  // declarations/inferred.ts is a pure leaf too: what a declaration says, completed by what inference read.
  checks: ['model/', 'values/', 'findings/', 'declarations/types.ts', 'declarations/inferred.ts', 'limits.ts'],
  findings: ['model/', 'declarations/types.ts', 'limits.ts'],
};

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOf(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) out.push(m[1]!);
  return out;
}

describe('module direction', () => {
  for (const [folder, allowed] of Object.entries(ALLOWED)) {
    it(`src/${folder} imports only ${allowed.length ? allowed.join(', ') : 'itself'} (and node:/packages)`, () => {
      const wrong: string[] = [];
      for (const file of filesOf(join(SRC, folder))) {
        for (const spec of importsOf(file)) {
          if (!spec.startsWith('.')) continue;
          const target = relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
          if (target.startsWith(`${folder}/`)) continue;
          if (!allowed.some((a) => (a.endsWith('/') ? target.startsWith(a) : target === a))) wrong.push(`${relative(SRC, file)} -> ${target}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
  it('finds the imports it judges (a file known to import model/)', () => {
    expect(importsOf(join(SRC, 'checks/unsupported-argument.ts'))).toContain('../model/frame.js');
  });
});
