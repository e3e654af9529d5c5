// `npm run quality`: scores the quality corpus with its declarations and with none, and the real
// agent runs (real.ts: tau-airline in four modes, agentdojo-dev in two, by suite and model); prints the tables (every case with --verbose, with no
// declarations with --verbose-none), writes
// test/quality/results.json, and with --write-floor sets floor.json to the measured figures (and the
// quality block of docs/quality.md). Exit 1 when a figure is below its floor (or above its ceiling,
// for findings on healthy real runs). Run from the package root.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTable, renderVerbose, scoreCorpus } from './score.js';
import { belowFloor, floorOf, type Floor } from './floor.js';
import { readmeBlock, spliceReadme } from './readme-block.js';
import { realSetAvailable, renderRealGroups, renderRealTable, scoreRealRuns, type RealSetId } from './real.js';

const root = process.cwd();
const args = new Set(process.argv.slice(2));
const results = scoreCorpus(root);
const bare = scoreCorpus(root, 'none');
const real = scoreRealRuns(root);
const absent = (['tau-airline', 'agentdojo-dev'] as RealSetId[]).filter((s) => !realSetAvailable(root, s));
if (args.has('--verbose')) process.stdout.write(renderVerbose(results) + '\n');
if (args.has('--verbose-none')) process.stdout.write(renderVerbose(bare) + '\n');
process.stdout.write('Corpus, with each case\'s declarations:\n\n');
process.stdout.write(renderTable(results));
process.stdout.write('\nCorpus, with no declarations (what inference arms):\n\n');
process.stdout.write(renderTable(bare));
process.stdout.write('\nReal agent runs (tau-airline: tau-bench airline, GPT-4o; agentdojo-dev: AgentDojo workspace and slack, 13 models): findings on healthy runs by set and mode:\n\n');
process.stdout.write(renderRealTable(real));
for (const a of absent) process.stdout.write(`not measured: ${a} is not on this machine${a === 'agentdojo-dev' ? ' (../shared/real-traces/agentdojo-dev, or FP_AGENTDOJO_DIR)' : ''}\n`);
const groups = renderRealGroups(real);
if (groups) process.stdout.write(`\nHealthy-run findings by suite and model:\n\n${groups}`);
if (args.has('--verbose')) {
  for (const r of real) for (const f of r.healthyFindings) process.stdout.write(`  ${r.mode}  ${f.run}  ${f.kind}${f.advisory ? ' (advisory)' : ''}${f.tool ? ` tool=${f.tool}` : ''}${f.value ? ` value=${JSON.stringify(f.value)}` : ''} [${f.armedBy}]\n`);
}

const perCase = results.perCase.map((c) => ({
  case: c.case,
  check: c.check,
  kind: c.kind,
  shape: c.shape,
  pass: c.pass,
  ...(c.error ? { error: c.error.split('\n')[0] } : {}),
  items: c.items,
}));
writeFileSync(
  join(root, 'test/quality/results.json'),
  `${JSON.stringify({ cases: results.cases, casesPassing: results.casesPassing, checks: results.checks, total: results.total, noDeclarations: { checks: bare.checks, total: bare.total }, real, perCase }, null, 2)}\n`,
);

const floorPath = join(root, 'test/quality/floor.json');
if (args.has('--write-floor')) {
  writeFileSync(floorPath, `${JSON.stringify(floorOf(results, bare, real), null, 2)}\n`);
  const readmePath = join(root, 'docs', 'quality.md');
  const classes = results.perCase.map((c) => ({ name: c.case, check: c.check, kind: c.kind, class: c.class, shape: c.shape }));
  writeFileSync(readmePath, spliceReadme(readFileSync(readmePath, 'utf8'), readmeBlock(results, classes)));
  process.stdout.write('floor.json and the quality table in docs/quality.md set to the measured figures\n');
} else {
  const floor = JSON.parse(readFileSync(floorPath, 'utf8')) as Floor;
  const below = belowFloor(results, floor, bare, real, absent);
  for (const line of below) process.stdout.write(`below floor: ${line}\n`);
  if (below.length > 0) process.exitCode = 1;
}
