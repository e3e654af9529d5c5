// `npm run quality`: scores the quality corpus, prints the per-check table (and every case with
// --verbose), writes test/quality/results.json, and with --write-floor sets floor.json to the
// measured figures (and the quality block of docs/quality.md). Exit 1 when a figure is below the floor. Run from the package root.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTable, renderVerbose, scoreCorpus } from './score.js';
import { belowFloor, floorOf, type Floor } from './floor.js';
import { readmeBlock, spliceReadme } from './readme-block.js';

const root = process.cwd();
const args = new Set(process.argv.slice(2));
const results = scoreCorpus(root);
if (args.has('--verbose')) process.stdout.write(renderVerbose(results) + '\n');
process.stdout.write(renderTable(results));

const perCase = results.perCase.map((c) => ({
  case: c.case,
  check: c.check,
  kind: c.kind,
  shape: c.shape,
  pass: c.pass,
  ...(c.error ? { error: c.error.split('\n')[0] } : {}),
  items: c.items,
}));
writeFileSync(join(root, 'test/quality/results.json'), `${JSON.stringify({ cases: results.cases, casesPassing: results.casesPassing, checks: results.checks, total: results.total, perCase }, null, 2)}\n`);

const floorPath = join(root, 'test/quality/floor.json');
if (args.has('--write-floor')) {
  writeFileSync(floorPath, `${JSON.stringify(floorOf(results), null, 2)}\n`);
  const readmePath = join(root, 'docs', 'quality.md');
  const classes = results.perCase.map((c) => ({ name: c.case, check: c.check, kind: c.kind, class: c.class, shape: c.shape }));
  writeFileSync(readmePath, spliceReadme(readFileSync(readmePath, 'utf8'), readmeBlock(results, classes)));
  process.stdout.write('floor.json and the quality table in docs/quality.md set to the measured figures\n');
} else {
  const floor = JSON.parse(readFileSync(floorPath, 'utf8')) as Floor;
  const below = belowFloor(results, floor);
  for (const line of below) process.stdout.write(`below floor: ${line}\n`);
  if (below.length > 0) process.exitCode = 1;
}
