// Pins that the regular expression ServedValues' identifier pre-check scans served texts with
// (issue 36) answers exactly as the character loop it stands for: "do this ASCII text's letters
// and digits, lower-cased, hold `wanted` together", on random texts made to come close.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { asciiAlnumContains, asciiAlnumPattern, isAscii } from '../../src/values/served.js';
import { NON_ASCII } from '../../src/values/identifiers.js';

describe('asciiAlnumPattern: the same answer as asciiAlnumContains', () => {
  it('on random ASCII texts and identifiers, including ones split by punctuation, spaces and JSON structure', () => {
    const wanted = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    const noise = fc.constantFrom('-', '_', ' ', '"', ':', '{', '}', ',', '.', '/', '\\n', '');
    fc.assert(
      fc.property(wanted, fc.array(fc.tuple(fc.boolean(), noise), { maxLength: 12 }), fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (w, mix, before, after) => {
        // The identifier written out with noise between some of its characters, in mixed case, sometimes cut short.
        let written = '';
        for (let i = 0; i < w.length; i++) {
          const [upper, sep] = mix[i % Math.max(1, mix.length)] ?? [false, ''];
          written += (upper ? w[i]!.toUpperCase() : w[i]!) + (i < w.length - 1 ? sep : '');
        }
        for (const text of [`${before}${written}${after}`, `${before}${written.slice(0, -1)}${after}`, before, `${written}${written}`]) {
          const ascii = text.replace(/[^\x00-\x7f]/g, '?');
          expect(asciiAlnumPattern(w)!.test(ascii), `${JSON.stringify(ascii)} / ${w}`).toBe(asciiAlnumContains(ascii, w));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves what is not lower-case letters and digits to the loop', () => {
    expect(asciiAlnumPattern('')).toBeUndefined();
    expect(asciiAlnumPattern('ab_c')).toBeUndefined();
    expect(asciiAlnumPattern('Ab')).toBeUndefined();
    expect(asciiAlnumPattern('srvdb9000')!.test('{"machine_id":"SRV-DB-9000"}')).toBe(true);
    expect(asciiAlnumPattern('srvdb9000')!.test('{"machine_id":"srv-db-900"}')).toBe(false);
  });
});

describe('isAscii: the same answer as NON_ASCII', () => {
  it('on random texts of every kind of code unit, lone surrogates included', () => {
    const unit = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), fc.integer({ min: 0, max: 3 }), (units, mostlyAscii) => {
        const text = String.fromCharCode(...units.map((u) => (mostlyAscii > 0 && u > 0x7f && u % 4 !== 0 ? u & 0x7f : u)));
        expect(isAscii(text), JSON.stringify(text)).toBe(!NON_ASCII.test(text));
      }),
      { numRuns: 3000 },
    );
    expect(isAscii('')).toBe(true);
    expect(isAscii('srv-db-04 "ok"')).toBe(true);
    expect(isAscii('caf\u00e9')).toBe(false);
    expect(isAscii('\ud800')).toBe(false);
  });
});
