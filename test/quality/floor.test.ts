// Holds the quality floor: scores the whole corpus through the CLI core and fails when any check's
// precision or recall falls below test/quality/floor.json (the figures last reached), or when the
// corpus shrinks. Raise the floor with `npm run quality -- --write-floor` after a measured gain.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreCorpus } from './score.js';
import { belowFloor, type Floor } from './floor.js';
import { CHECK_IDS } from './build/spec.js';

const root = process.cwd();
const floor = JSON.parse(readFileSync('test/quality/floor.json', 'utf8')) as Floor;
const results = scoreCorpus(root);

describe('quality floor', () => {
  it('scores every check of the catalog, over no fewer cases than the floor', () => {
    expect(results.checks.map((c) => c.check)).toEqual([...CHECK_IDS]);
    expect(results.cases).toBeGreaterThanOrEqual(floor.cases);
  });

  it('no check falls below its floor', () => {
    expect(belowFloor(results, floor)).toEqual([]);
  });
});
