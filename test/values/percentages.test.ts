import { describe, expect, it } from 'vitest';
import { deriveNumber, type StatedNumber } from '../../src/values/derive.js';
import type { ServedNumber } from '../../src/values/served.js';
import { readNumerals } from '../../src/values/numerals.js';

const BOUNDS = { maxPairOperands: 32, maxTripleOperands: 12 };
const stated = (text: string, unit?: string): StatedNumber => ({ ...readNumerals(text, 1)[0]!.readings[0]!, hedged: false, ...(unit ? { unit } : {}) });
const served = (...xs: (number | [number, string])[]): ServedNumber[] =>
  xs.map((x, at) => (Array.isArray(x) ? { value: x[0], text: `${x[0]}${x[1]}`, at, unit: x[1] } : { value: x, text: String(x), at }));

describe('percentages of served numbers (deriveNumber)', () => {
  it('a change between two served numbers stated as a percentage, either way', () => {
    expect(deriveNumber(stated('12.5', '%'), served(800, 900), BOUNDS)?.formula).toBe('(900 − 800) ÷ 800 × 100 = 12.5');
    expect(deriveNumber(stated('11.1', '%'), served(900, 800), BOUNDS)?.operands.map((o) => o.value)).toEqual([800, 900]);
    expect(deriveNumber(stated('15.5', '%'), served(800, 900), BOUNDS)).toBeUndefined();
  });

  it('a change is tried only for a number stated as a percentage', () => {
    expect(deriveNumber(stated('12.5'), served(800.4, 900.7), BOUNDS)).toBeUndefined();
  });

  it('a served percentage applied to a served number: raised, lowered, or taken', () => {
    expect(deriveNumber(stated('1,210.00'), served(1100, [10, '%']), BOUNDS)?.formula).toBe('1100 × (1 + 10%) = 1,210');
    expect(deriveNumber(stated('1,019.15'), served(1199, [15, '%']), BOUNDS)?.formula).toBe('1199 × (1 − 15%) = 1,019.15');
    expect(deriveNumber(stated('179.85'), served(1199, [15, '%']), BOUNDS)?.formula).toBe('1199 × 15% = 179.85');
    expect(deriveNumber(stated('1,220.00'), served(1100, [10, '%']), BOUNDS)).toBeUndefined();
  });

  it('a number that is no percentage is never applied as one', () => {
    expect(deriveNumber(stated('1,210.00'), served(1100.5, 10.25), BOUNDS)).toBeUndefined();
  });
});
