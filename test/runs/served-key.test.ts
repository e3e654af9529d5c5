// servedKey's numbers (issue 36): the hash mixes in its loops, no longer in a closure, and must give
// exactly the numbers the closure's version gave (a conversation's served history and the shared
// state's merges compare keys, so a changed number would change which strings count as seen). The
// oracle below is that version as it was, kept here on purpose; pinned values guard both.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { servedKey } from '../../src/runs/conversations.js';

/** servedKey as it was before issue 36 (a closure mixing each character): the oracle. */
function closureKey(text: string): number {
  const n = text.length;
  let h1 = 0x811c9dc5 ^ n;
  let h2 = 0x9e3779b9 ^ Math.imul(n, 0x85ebca6b);
  const mix = (c: number) => {
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  };
  if (n <= 160) for (let i = 0; i < n; i++) mix(text.charCodeAt(i));
  else {
    for (let i = 0; i < 64; i++) mix(text.charCodeAt(i));
    for (let i = n - 64; i < n; i++) mix(text.charCodeAt(i));
  }
  h1 ^= h1 >>> 16;
  return (h1 >>> 0) * 0x200000 + (h2 >>> 11);
}

describe('unit: servedKey', () => {
  it('gives the numbers it gave before (pinned)', () => {
    expect(servedKey('')).toBe(4542647778920175);
    expect(servedKey('srv-db-04')).toBe(1488664341626502);
    expect(servedKey('x'.repeat(160))).toBe(7193594321398185);
    expect(servedKey('x'.repeat(161))).toBe(424339236364265);
    expect(servedKey('Welche Maschinen von Müller & Söhne? → 東京 🙂')).toBe(356743981667782);
  });

  it('equals the closure version for texts of every length and width, lone surrogates included', () => {
    const char = fc.oneof(fc.constantFrom('a', 'Z', '0', '-', '"', '\\', 'é', '東', '\ud83d', '\ude42', '\u0000'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    const text = fc.oneof(fc.string({ unit: char, maxLength: 40 }), fc.string({ unit: char, minLength: 150, maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 300 }));
    fc.assert(
      fc.property(text, (t) => {
        expect(servedKey(t)).toBe(closureKey(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads only the length and both 64-character ends of a text past 160 characters', () => {
    const middle = (m: string) => `${'a'.repeat(64)}${m}${'b'.repeat(64)}`;
    expect(servedKey(middle('x'.repeat(40)))).toBe(servedKey(middle('y'.repeat(40))));
    expect(servedKey(middle('x'.repeat(40)))).not.toBe(servedKey(middle('x'.repeat(41))));
    expect(servedKey('x'.repeat(160))).not.toBe(servedKey(`${'x'.repeat(159)}y`));
  });
});
