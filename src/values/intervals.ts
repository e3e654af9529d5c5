// Number ranges and numbers on a scale, as people write them: two numerals joined by a dash or
// "to" (`$120–$180`, `1,200 to 1,500 EUR`, `10-12`), the first not above the second, and a number
// over its scale (`4.5/5`, `4.5 out of 5`, `8.7/10`), the number not above the scale. Each numeral
// is read by numerals.ts (every locale's marks, `4,5/5` too); this file only finds the pairs, so
// that a range's end or a rating is read as the number it is instead of as part of an opaque
// token (`100-$150`, `4.5/5`). Must never take digits glued to letters or to more digit groups
// (`INV-2024-0012`, `3/4/2025`, `2023-24`), and leaves dates, times and phones to their readers
// (the caller reads those first and drops what overlaps them). Pure: no I/O, no clocks, no globals.

import { readNumerals, type Numeral } from './numerals.js';

/** A pair of numerals read as one value: a range's two ends, or a number and its scale. */
export interface NumberPair {
  kind: 'range' | 'scale';
  raw: string;
  start: number;
  end: number;
  first: Numeral;
  second: Numeral;
}

const NUM = String.raw`\d(?:[\d,.'’]*\d)?`;
/** Not glued to a word, an id, a sign or another digit group before it. */
const OPEN = String.raw`(?<![\p{L}\p{N}_\-−./:#@])`;
/** Not glued to a word or another digit group after it. */
const CLOSE = String.raw`(?![\p{L}\p{N}_]|[-–/:.,]\d)`;
const CURRENCY = String.raw`\p{Sc}`;
/** `a – b`, `$a-$b`, `a to b`: the first number, what joins them, the second. */
const RANGE = new RegExp(
  `${OPEN}(${CURRENCY}\\s?)?(${NUM})(\\s?${CURRENCY})?(\\s*[-–—‒]\\s*|\\s+(?:to|until|through)\\s+)(${CURRENCY}\\s?)?(${NUM})${CLOSE}`,
  'gu',
);
/** `a/b`, `a out of b`: a number over its scale (a whole number of at most three digits, `5` or `5.0`). */
const SCALE = new RegExp(`${OPEN}(${NUM})(\\s*/\\s*|\\s+out\\s+of\\s+)(\\d{1,3}(?:[.,]0)?)${CLOSE}`, 'giu');

function numeral(raw: string, at: number, served: boolean): Numeral | undefined {
  const n = readNumerals(raw, 1, served)[0];
  if (!n || n.raw !== raw) return undefined;
  return { ...n, start: at, end: at + raw.length };
}

/**
 * The ranges and scaled numbers of an NFKC text, in text order, at most `max`, none overlapping.
 * `served` reads each numeral as a program's output (numerals.ts).
 */
export function readNumberPairs(text: string, max: number, served = false): NumberPair[] {
  const out: NumberPair[] = [];
  if (!/\d\s*(?:[-–—‒/]|to|until|through|out)/i.test(text)) return out;
  const overlaps = (a: number, b: number) => out.some((p) => a < p.end && b > p.start);
  for (const m of text.matchAll(SCALE)) {
    if (out.length >= max) break;
    const first = numeral(m[1]!, m.index, served);
    const second = numeral(m[3]!, m.index + m[1]!.length + m[2]!.length, served);
    const scale = second?.readings.find((r) => Number.isInteger(r.value))?.value;
    if (!first || !second || scale === undefined || scale < 2) continue;
    // The number is on the scale: at most the scale, in some reading.
    const readings = first.readings.filter((r) => r.value >= 0 && r.value <= scale);
    if (readings.length === 0) continue;
    out.push({ kind: 'scale', raw: m[0], start: m.index, end: m.index + m[0].length, first: { ...first, readings }, second: { ...second, readings: second.readings.filter((r) => r.value === scale) } });
  }
  for (const m of text.matchAll(RANGE)) {
    if (out.length >= max) break;
    const [whole, cur1 = '', a, cur1After = '', join, cur2 = '', b] = m as unknown as string[];
    const aAt = m.index + cur1.length;
    const bAt = m.index + cur1.length + a!.length + cur1After.length + join!.length + cur2.length;
    if (overlaps(m.index, m.index + whole!.length)) continue;
    const first = numeral(a!, aAt, served);
    const second = numeral(b!, bAt, served);
    if (!first || !second) continue;
    // A range runs upwards: some reading of the first is not above some reading of the second.
    if (!first.readings.some((x) => second.readings.some((y) => x.value <= y.value))) continue;
    out.push({ kind: 'range', raw: whole!, start: m.index, end: m.index + whole!.length, first, second });
  }
  return out.sort((x, y) => x.start - y.start);
}
