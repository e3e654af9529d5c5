// Writes every case of the quality corpus into test/quality/cases/<name>/ from the case scripts
// (build/cases/*.ts) and removes case directories no script names any more. Run it with
// `npm run quality:build`; the output is byte-identical from run to run (seeded ids, fixed times).

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_CASES } from './cases/index.js';
import { renderCase } from './render.js';

export const CASES_DIR = 'test/quality/cases';

export function generateAll(root: string): number {
  const dir = join(root, CASES_DIR);
  mkdirSync(dir, { recursive: true });
  const names = new Set(ALL_CASES.map((c) => c.name));
  if (names.size !== ALL_CASES.length) throw new Error('two case scripts share a name');
  for (const old of readdirSync(dir)) if (!names.has(old)) rmSync(join(dir, old), { recursive: true, force: true });
  for (const spec of ALL_CASES) {
    const caseDir = join(dir, spec.name);
    rmSync(caseDir, { recursive: true, force: true });
    mkdirSync(caseDir, { recursive: true });
    for (const [file, text] of Object.entries(renderCase(spec))) writeFileSync(join(caseDir, file), text);
  }
  return ALL_CASES.length;
}

if (process.argv[1] && /generate\.(js|ts)$/.test(process.argv[1])) {
  const n = generateAll(process.cwd());
  process.stdout.write(`wrote ${n} quality cases into ${CASES_DIR}\n`);
}
