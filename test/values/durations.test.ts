// Pins the time derivations (src/values/derive.ts) and the lengths they use (src/values/relative.ts):
// hours and minutes that are the time between two served times of day (`01:30` from 11:00 and
// 12:30, never across midnight or of nothing), and a time of day that is a served one moved by a
// length the user or system wrote ("for one hour", "90 minutes", "an hour and a half", "1.5
// hours"), in either direction; a length nobody wrote moves nothing.
import { describe, it, expect } from 'vitest';
import { deriveDuration, deriveTimeShift } from '../../src/values/derive.js';
import { statedLengths } from '../../src/values/relative.js';

const at = (clock: string, source = 0) => {
  const [h, m] = clock.split(':').map(Number);
  return { minutes: h! * 60 + m!, at: source };
};

describe('hours and minutes between two served times', () => {
  const times = [at('10:00'), at('11:00'), at('12:30', 1), at('13:30', 1)];
  it('meets the difference of two, with the subtraction as its formula', () => {
    expect(deriveDuration(90, times)).toEqual({ formula: '12:30 − 11:00 = 1:30 (hours:minutes between two served times)', from: at('11:00'), to: at('12:30', 1) });
    expect(deriveDuration(210, times)?.formula).toBe('13:30 − 10:00 = 3:30 (hours:minutes between two served times)');
  });
  it('never a difference no two served times have, nothing, or a day or more', () => {
    expect(deriveDuration(45, times)).toBeUndefined();
    expect(deriveDuration(0, times)).toBeUndefined();
    expect(deriveDuration(24 * 60, times)).toBeUndefined();
    expect(deriveDuration(90, [])).toBeUndefined();
  });
});

describe('lengths of time the user wrote', () => {
  it('reads counts in digits and words, hours and minutes, and a half (each length once)', () => {
    expect(statedLengths(['Book it for one hour, then a 45 minutes break.', 'Make it an hour and a half, or 1.5 hours, or half an hour.', 'Reserve 2 hrs.'], 16).map((l) => [l.phrase, l.minutes])).toEqual([
      ['one hour', 60],
      ['45 minutes', 45],
      ['an hour and a half', 90],
      ['half an hour', 30],
      ['2 hrs', 120],
    ]);
  });
  it('reads no length in a clock, an id or a count of other things', () => {
    expect(statedLengths(['Meet at 10h30 in room 4; bring 3 copies.', 'Ticket H-2291', 'the 2hrs2go app'], 16)).toEqual([]);
  });
});

describe('a served time moved by a stated length', () => {
  const lengths = statedLengths(['Please book Sarah at 12:00 for one hour.'], 16);
  it('meets the served time plus or minus the length', () => {
    expect(deriveTimeShift([13 * 60], [at('12:00')], lengths)?.formula).toBe('12:00 + 60 min ("one hour") = 13:00');
    expect(deriveTimeShift([11 * 60], [at('12:00')], lengths)?.formula).toBe('12:00 − 60 min ("one hour") = 11:00');
  });
  it('meets nothing with no length written, or a time no length reaches', () => {
    expect(deriveTimeShift([13 * 60], [at('12:00')], [])).toBeUndefined();
    expect(deriveTimeShift([13 * 60 + 15], [at('12:00')], lengths)).toBeUndefined();
  });
});
