// Holds the quality floor: scores the whole corpus through the CLI core (with its declarations and
// with none) and the real agent runs (tau-airline in four modes; agentdojo-dev in two, read from
// ../shared where it is on the machine), and fails when any check's precision or recall falls
// below test/quality/floor.json (the figures last reached), when the corpus shrinks, or when
// healthy real runs draw more findings than the floor's ceiling. Raise the floor with
// `npm run quality -- --write-floor` after a measured gain.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreCorpus } from './score.js';
import { belowFloor, type Floor } from './floor.js';
import { REAL_MODES, modeName, realSetAvailable, scoreRealRuns, type RealSetId } from './real.js';
import { CHECK_IDS } from './build/spec.js';

const root = process.cwd();
const floor = JSON.parse(readFileSync('test/quality/floor.json', 'utf8')) as Floor;
const results = scoreCorpus(root);
const bare = scoreCorpus(root, 'none');
const real = scoreRealRuns(root);
const absent = (['tau-airline', 'agentdojo-dev'] as RealSetId[]).filter((s) => !realSetAvailable(root, s));

describe('quality floor', () => {
  it('scores every check of the catalog, over no fewer cases than the floor', () => {
    expect(results.checks.map((c) => c.check)).toEqual([...CHECK_IDS]);
    expect(results.cases).toBeGreaterThanOrEqual(Math.max(80, floor.cases));
  });

  it('no check falls below its floor, with declarations or without, and healthy real runs stay under their ceiling', () => {
    expect(floor.noDeclarations).toBeDefined();
    expect(Object.keys(floor.real ?? {})).toEqual(REAL_MODES.map(modeName));
    expect(absent).not.toContain('tau-airline');
    expect(belowFloor(results, floor, bare, real, absent)).toEqual([]);
  });

  // The AgentDojo dev set is read from ../shared/real-traces/agentdojo-dev (never copied into the
  // project): measured wherever it is on the machine, CI included; a clone elsewhere skips it, and
  // the skip names what is missing.
  it.skipIf(absent.includes('agentdojo-dev'))('measures the AgentDojo dev set in both trace forms (skipped only where ../shared/real-traces/agentdojo-dev is missing)', () => {
    const modes = real.filter((m) => m.set === 'agentdojo-dev');
    expect(modes.map((m) => m.mode)).toEqual(['agentdojo-dev app-spans/none', 'agentdojo-dev llm-only/none']);
    for (const m of modes) expect(m.healthyRuns).toBe(445);
  });
});
