// Pins number ranges and numbers on a scale as written (src/values/intervals.ts, read through
// readNumbers): `$128–$214`, `1,200 to 1,500 EUR` and `128.00-214.00` are ranges of two numbers
// (a currency written on one end serves both); `4.6/5`, `4,6/5` and `4.6 out of 5` are a number on
// its scale; neither reads an id's digit groups, a date, a descending pair, or a ratio over its
// scale. A price range with decimals is not a phone (src/values/phones.ts).
import { describe, it, expect } from 'vitest';
import { readNumberPairs } from '../../src/values/intervals.js';
import { readForms, readNumbers } from '../../src/values/read.js';
import type { TypedValue } from '../../src/values/types.js';

const show = (v: TypedValue): unknown =>
  v.parts ? { range: v.raw, ends: v.parts.map((p) => [p.raw, p.keys, p.currency ?? null]) } : v.scale !== undefined ? { scale: v.raw, of: v.scale, keys: v.keys } : [v.raw, v.keys];

describe('number ranges', () => {
  it('reads two numbers joined by a dash or "to", with currencies on one or both ends', () => {
    const [dollars] = readNumbers('Rooms are $128-$214 per night.', 8);
    expect([dollars?.raw, dollars?.parts?.map((p) => [p.raw, p.keys])]).toEqual(['$128-$214', [['128', ['n:128']], ['214', ['n:214']]]]);
    // `$` is one currency on both ends (whichever `Intl` names it by).
    expect(dollars?.parts?.[0]?.currency).toBeDefined();
    expect(dollars?.parts?.[1]?.currency).toBe(dollars?.parts?.[0]?.currency);
    expect(readNumbers('From €89 to 131 a night', 8).map(show)).toEqual([{ range: '€89 to 131', ends: [['89', ['n:89'], 'EUR'], ['131', ['n:131'], 'EUR']] }]);
    expect(readNumbers('Weekly: 1,200–1,500 EUR', 8).map(show)).toEqual([{ range: '1,200–1,500', ends: [['1,200', ['n:1200'], 'EUR'], ['1,500', ['n:1500'], 'EUR']] }]);
    expect(readNumbers('between 89.50 to 131.00 a night', 8).map(show)).toEqual([{ range: '89.50 to 131.00', ends: [['89.50', ['n:89.5'], null], ['131.00', ['n:131'], null]] }]);
    expect(readNumbers('rates 128.00-214.00 EUR', 8).map(show)).toEqual([{ range: '128.00-214.00', ends: [['128.00', ['n:128'], 'EUR'], ['214.00', ['n:214'], 'EUR']] }]);
  });

  it('never reads an id, a date, a descending pair or a longer chain of groups as a range', () => {
    for (const text of ['Invoice INV-2024-0012', 'due 2026-04-14', 'fiscal 2023-24', 'zip 94105-1234', 'ref 1200-1500-1800', 'room B12-14', 'apt 12-14b']) {
      expect([text, readNumberPairs(text, 8)]).toEqual([text, []]);
    }
  });
});

describe('numbers on a scale', () => {
  it('reads a rating over its scale as the rating, its text the whole', () => {
    expect(readNumbers('Casa Lumen: 4.6/5 (1,342 reviews)', 8).map(show)).toEqual([{ scale: '4.6/5', of: 5, keys: ['n:4.6'] }, ['1,342', ['n:1342']]]);
    expect(readNumbers('Bewertung 4,6/5', 8).map(show)).toEqual([{ scale: '4,6/5', of: 5, keys: ['n:4.6'] }]);
    expect(readNumbers('rated 4.6 out of 5 stars', 8).map(show)).toEqual([{ scale: '4.6 out of 5', of: 5, keys: ['n:4.6'] }]);
    expect(readNumbers('a score of 87/100', 8).map(show)).toEqual([{ scale: '87/100', of: 100, keys: ['n:87'] }]);
  });

  it('never reads a number above its scale, a date, or a ratio glued to more digits', () => {
    for (const text of ['open 24/7', 'on 3/4/2026', 'period 2026/05', 'ratio 1234/5000']) {
      expect([text, readNumberPairs(text, 8).filter((p) => p.kind === 'scale')]).toEqual([text, []]);
    }
  });
});

describe('phones beside ranges', () => {
  it('a price range with decimals is no phone; a dotted phone grouped as its country groups it is', () => {
    expect(readForms('rates 128.00-214.00 EUR', 8, false).filter((v) => v.kind === 'phone')).toEqual([]);
    expect(readForms('call 415.555.0132', 8, false).map((v) => v.keys)).toEqual([['p:4155550132']]);
    expect(readForms('London desk 020.7946.0958', 8, false).map((v) => v.keys)).toEqual([['p:2079460958']]);
  });
});
