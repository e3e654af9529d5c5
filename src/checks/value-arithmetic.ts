// Arithmetic grounding for `unsupported-value`: an answer number no result holds, but which equals
// the sum, difference, product or ratio (also as a percentage) of two served numbers, or the sum,
// difference or product of three, is `derived` — with the formula as its witness. The search is
// bounded (VALUE_SEARCH_LIMITS: operands for two, operands for three) so a big window stays cheap;
// 0 is never an operand and 1 only the numerator of a ratio (as a term they would make a served
// number's off-by-one, or the number itself, "derived"). Exact, or to the decimals the
// answer states (to its trailing zeros only when hedged). Pure: no I/O, no clocks, no globals.

import { meetsNumber, type AnswerNumber, type ServedNumber } from './value-numbers.js';

export interface Derivation {
  /** `38,200 + 3,000 = 41,200`, operands as they were served. */
  formula: string;
  operands: ServedNumber[];
  value: number;
}

export interface DerivationBounds {
  maxPairOperands: number;
  maxTripleOperands: number;
}

function shown(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  const r = Number(v.toPrecision(12));
  return r.toLocaleString('en-US', { maximumFractionDigits: 10 });
}

/** The operands worth trying: distinct values, 0 and 1 left out, at most `max`, in the given order. */
export function arithmeticOperands(pool: readonly ServedNumber[], max: number): ServedNumber[] {
  const out: ServedNumber[] = [];
  const seen = new Set<number>();
  for (const n of pool) {
    if (out.length >= max) break;
    if (n.value === 0 || n.value === 1 || seen.has(n.value)) continue;
    seen.add(n.value);
    out.push(n);
  }
  return out;
}

/**
 * The first formula over the operands that gives the answer number, two operands before three,
 * or undefined. `operands` is tried in order; only the first `maxTripleOperands` make triples.
 */
export function deriveNumber(t: AnswerNumber, operands: readonly ServedNumber[], bounds: DerivationBounds, one?: ServedNumber): Derivation | undefined {
  const rounding = t.hedged ? 'full' : 'fine';
  const meets = (v: number) => Number.isFinite(v) && meetsNumber(t, v, rounding);
  const pair = operands.slice(0, bounds.maxPairOperands);
  const w = (n: ServedNumber) => n.text;
  const found = (formula: string, ops: ServedNumber[], value: number): Derivation => ({ formula: `${formula} = ${shown(value)}`, operands: ops, value });

  for (let i = 0; i < pair.length; i++) {
    const a = pair[i]!;
    for (let j = 0; j < pair.length; j++) {
      if (j === i) continue;
      const b = pair[j]!;
      if (j > i) {
        if (meets(a.value + b.value)) return found(`${w(a)} + ${w(b)}`, [a, b], a.value + b.value);
        if (meets(a.value * b.value)) return found(`${w(a)} × ${w(b)}`, [a, b], a.value * b.value);
      }
      if (meets(a.value - b.value)) return found(`${w(a)} − ${w(b)}`, [a, b], a.value - b.value);
      if (meets(a.value / b.value)) return found(`${w(a)} ÷ ${w(b)}`, [a, b], a.value / b.value);
      if (meets((a.value / b.value) * 100)) return found(`${w(a)} ÷ ${w(b)} × 100`, [a, b], (a.value / b.value) * 100);
    }
  }
  // A served 1 is an operand of a ratio only ("1 of 8 jobs: 12.5%"); as a term it would make every
  // off-by-one of a served number "derived".
  if (one) {
    for (const b of pair) {
      if (meets(1 / b.value)) return found(`${w(one)} ÷ ${w(b)}`, [one, b], 1 / b.value);
      if (meets(100 / b.value)) return found(`${w(one)} ÷ ${w(b)} × 100`, [one, b], 100 / b.value);
    }
  }
  const triple = pair.slice(0, bounds.maxTripleOperands);
  for (let i = 0; i < triple.length; i++) {
    const a = triple[i]!;
    for (let j = i + 1; j < triple.length; j++) {
      const b = triple[j]!;
      for (let k = 0; k < triple.length; k++) {
        if (k === i || k === j) continue;
        const c = triple[k]!;
        if (k > j) {
          if (meets(a.value + b.value + c.value)) return found(`${w(a)} + ${w(b)} + ${w(c)}`, [a, b, c], a.value + b.value + c.value);
          if (meets(a.value * b.value * c.value)) return found(`${w(a)} × ${w(b)} × ${w(c)}`, [a, b, c], a.value * b.value * c.value);
        }
        if (meets(a.value + b.value - c.value)) return found(`${w(a)} + ${w(b)} − ${w(c)}`, [a, b, c], a.value + b.value - c.value);
        if (meets(c.value - a.value - b.value)) return found(`${w(c)} − ${w(a)} − ${w(b)}`, [c, a, b], c.value - a.value - b.value);
      }
    }
  }
  return undefined;
}
