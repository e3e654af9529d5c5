// Pins `occurrence` (src/checks/argument-grounds.ts) where its fast path meets ISO dates: the ISO
// enclosing-token test is skipped only for needles holding a character no ISO date and no stripped
// punctuation can hold, so a needle ending in stripped punctuation (`05-01/` of `2024-05-01/`)
// still counts as whole, and a needle with a letter outside the ISO set stays a fragment.
import { describe, it, expect } from 'vitest';
import { occurrence } from '../../src/checks/argument-grounds.js';

describe('occurrence: ISO date parts with stripped punctuation', () => {
  it('counts `05-01/` inside `2024-05-01/` as whole (the trailing `/` is stripped punctuation)', () => {
    expect(occurrence('backups listed under 2024-05-01/ and 2024-05-02/', '05-01/')).toEqual({ whole: true });
  });

  it('counts `05-01` inside `2024-05-01t02:00z` as whole (an ISO date part)', () => {
    expect(occurrence('last run 2024-05-01t02:00z failed', '05-01')).toEqual({ whole: true });
  });

  it('keeps `4-05-01/` a fragment of `2024-05-01/` (not an ISO part boundary)', () => {
    const text = 'backups listed under 2024-05-01/ only';
    expect(occurrence(text, '4-05-01/')).toEqual({ whole: false, at: text.indexOf('4-05-01/') });
  });

  it('keeps `05-01x` a fragment of `2024-05-01x/` (a letter no ISO date holds)', () => {
    const text = 'path 2024-05-01x/ here';
    expect(occurrence(text, '05-01x')).toEqual({ whole: false, at: text.indexOf('05-01x') });
  });
});
