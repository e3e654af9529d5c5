// Holds the quality floor: scores the whole corpus through the CLI core (with its declarations and
// with none) and the real agent runs in four modes, and fails when any check's precision or recall
// falls below test/quality/floor.json (the figures last reached), when the corpus shrinks, or when
// healthy real runs draw more findings than the floor's ceiling. Raise the floor with
// `npm run quality -- --write-floor` after a measured gain.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreCorpus } from './score.js';
import { belowFloor, type Floor } from './floor.js';
import { scoreRealRuns } from './real.js';
import { CHECK_IDS } from './build/spec.js';

const root = process.cwd();
const floor = JSON.parse(readFileSync('test/quality/floor.json', 'utf8')) as Floor;
const results = scoreCorpus(root);
const bare = scoreCorpus(root, 'none');
const real = scoreRealRuns(root);

describe('quality floor', () => {
  it('scores every check of the catalog, over no fewer cases than the floor', () => {
    expect(results.checks.map((c) => c.check)).toEqual([...CHECK_IDS]);
    expect(results.cases).toBeGreaterThanOrEqual(Math.max(80, floor.cases));
  });

  it('no check falls below its floor, with declarations or without, and healthy real runs stay under their ceiling', () => {
    expect(floor.noDeclarations).toBeDefined();
    expect(Object.keys(floor.real ?? {})).toEqual(real.map((m) => m.mode));
    expect(belowFloor(results, floor, bare, real)).toEqual([]);
  });
});
