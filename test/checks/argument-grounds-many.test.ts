// Pins occurrence's scan of a needle with many places (issue 36: past eight places that are not
// whole, the rest of the text is searched by one regular expression): the same answer as the loop
// over every place that it stands for (kept here as it was), on random texts built to hold a needle
// many times, at boundaries and inside tokens, with every kind of separator and white space.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { occurrence, enclosingToken } from '../../src/checks/argument-grounds.js';

const TOKEN_SEPARATOR = new Set([...' \t\n\r\f\v\u00a0"\'`{}[](),;<>|!*$%~^\u0000']);
const SEGMENT_SEPARATOR = new Set([...'/:@.?&#=\\+']);
const ISO_PART_SEPARATOR = new Set([...'-tz']);
const ISO_TOKEN = /^\d{4}-\d{2}(?:-\d{2})?(?:t\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const NOT_ISO_CHAR = /[^0-9tz:.+\-?=&#@/\\]/;
const isTokenSeparator = (c: string | undefined) => c === undefined || TOKEN_SEPARATOR.has(c) || c.trim() === '';
const isBoundary = (c: string | undefined) => isTokenSeparator(c) || SEGMENT_SEPARATOR.has(c!);

/** occurrence as it was before issue 36: every place looked at in turn. */
function loopOccurrence(text: string, needle: string): { whole: true } | { whole: false; at: number } | undefined {
  if (needle === '') return undefined;
  let i = text.indexOf(needle);
  if (i < 0) return undefined;
  const first = i;
  const openStart = isBoundary(needle[0]);
  const openEnd = isBoundary(needle[needle.length - 1]);
  const mayBeIso = !NOT_ISO_CHAR.test(needle);
  while (i >= 0) {
    const end = i + needle.length;
    const left = isBoundary(text[i - 1]);
    const right = isBoundary(text[end]);
    if ((openStart || left) && (openEnd || right)) return { whole: true };
    if (mayBeIso && (left || ISO_PART_SEPARATOR.has(text[i - 1]!)) && (right || ISO_PART_SEPARATOR.has(text[end]!))) {
      if (ISO_TOKEN.test(enclosingToken(text, i, end))) return { whole: true };
    }
    i = text.indexOf(needle, i + 1);
  }
  return { whole: false, at: first };
}

describe('occurrence: a needle with many places', () => {
  it('answers as the loop over every place, on random texts holding the needle many times', () => {
    const separators = [...TOKEN_SEPARATOR, ...SEGMENT_SEPARATOR, '-', '_', 'a', '9', '\u2003', '\ufeff', '\u2028', 'é', '\ud800'];
    const needle = fc.oneof(fc.constantFrom('srv', 'srv-db', 'db-9000', 'x.y', 'a/b', '-1', 'ab+', '9000', 'é1', 'k'), fc.stringMatching(/^[a-z0-9./:-]{1,6}$/));
    fc.assert(
      fc.property(needle, fc.array(fc.tuple(fc.constantFrom(...separators), fc.constantFrom(...separators), fc.nat(3)), { minLength: 0, maxLength: 40 }), (n, places) => {
        // The needle glued to neighbours (never whole) or set between separators (whole), many times.
        let text = '';
        for (const [before, after, extra] of places) text += before + n + 'x'.repeat(extra) + after;
        expect(occurrence(text, n), JSON.stringify([text, n])).toEqual(loopOccurrence(text, n));
        const glued = places.map(([, , extra]) => `q${n}${'z'.repeat(extra)}q`).join('') + ` ${n} `;
        expect(occurrence(glued, n)).toEqual(loopOccurrence(glued, n));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the one whole place after many that are not, and says no whole place with the first place when there is none', () => {
    const many = 'srv-db-0000 '.repeat(40);
    expect(occurrence(`${many} srv `, 'srv')).toEqual({ whole: true });
    expect(occurrence(many, 'srv')).toEqual({ whole: false, at: 0 });
    expect(occurrence(`${many}srv`, 'srv')).toEqual({ whole: true });
    expect(occurrence(`${many}/srv+`, 'srv')).toEqual({ whole: true });
  });
});
