import { describe, expect, it } from 'vitest';
import { everyOccurrence, MAX_OCCURRENCES } from '../../src/values/occurrences.js';

describe('everyOccurrence', () => {
  it('tests every place the value stands, overlapping ones included; false when it stands nowhere or is empty', () => {
    const seen: number[] = [];
    expect(everyOccurrence('aaa', 'aa', (i) => (seen.push(i), true))).toBe(true);
    expect(seen).toEqual([0, 1]);
    expect(everyOccurrence('10:00 and 10:00', '10:00', (i) => i === 0)).toBe(false);
    expect(everyOccurrence('10:00', '11:00', () => true)).toBe(false);
    expect(everyOccurrence('10:00', '', () => true)).toBe(false);
  });

  it(`looks at the first ${MAX_OCCURRENCES} places only`, () => {
    let n = 0;
    expect(everyOccurrence('x'.repeat(MAX_OCCURRENCES + 10), 'x', () => (n++, true))).toBe(true);
    expect(n).toBe(MAX_OCCURRENCES);
  });
});
