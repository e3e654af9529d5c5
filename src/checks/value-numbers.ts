// Numbers for `unsupported-value` beyond exact tokens: the numbers a window served (tool results,
// user and system text; JSON number leaves and numbers in text, never the digits of an id, date,
// time or version), an answer number's stated precision and hedge (`about`, `roughly`, `~`), and
// whether a served number meets it after rounding to that precision or a unit factor (100 for
// percent and cents, 1000ⁿ and 1024ⁿ for bytes, 60 and 3600 for seconds). Used by
// unsupported-value and value-arithmetic. A factor other than 1 never meets an answer number
// written with the same unit word the served number carries (its key's last word or the word
// after it): `1,234 MWh` against a served `consumption_mwh: 1.234` is a misread, not a conversion.
// Must never accept a rounding coarser than the answer
// states, never read a number out of an identifier, never do I/O: pure, bounded by its callers.

import { textLeaves } from './value-forms.js';
import { besideCurrency, decimalCommaNumber } from './data-tokens.js';

/** A number a window served, with the source (position in the caller's list) that served it. */
export interface ServedNumber {
  value: number;
  /** As written where it was served (JSON number leaves as JSON writes them). */
  text: string;
  at: number;
  /**
   * The unit it was served in, lower-cased, when one is named: the last word of its JSON key
   * (`consumption_mwh`, `sizeGb`) or a word right after it in text (`1.234 MWh`).
   */
  unit?: string;
}

export interface NumberPool {
  /** Distinct by value; in the order the sources were given. */
  numbers: ServedNumber[];
  /** True when the sources held more distinct numbers than the bound. */
  truncated: boolean;
}

/**
 * A number in text: decimal-comma (`4.850,00`; `12,50` beside a currency, see data-tokens),
 * thousands-grouped or plain, not glued to a word, an id, a date, a time or a version.
 */
const TEXT_NUMBER = /(?<![\w.\-:/])(\d{1,3}(?:\.\d{3})+,\d{1,2}(?![\d.,])|\d+,\d{1,2}(?![\d.,])|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\d|[-:/]\d|\.\d|,\d{3}(?!\d))/g;

/** A unit word: letters only, at most six (`MWh`, `kg`, `GiB`). */
const UNIT_WORD = /^[a-z]{1,6}$/i;
/** A unit word right after a number (one blank at most between them). */
const UNIT_AFTER = /^ ?([A-Za-z]{1,6})(?![A-Za-z0-9])/;

/** The unit a JSON key names as its last word (`consumption_mwh` -> `mwh`, `sizeGb` -> `gb`), if any. */
export function unitOfKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const words = key.split(/[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== '');
  if (words.length < 2) return undefined;
  const last = words[words.length - 1]!;
  return UNIT_WORD.test(last) ? last.toLowerCase() : undefined;
}

/** The unit word written right after `end` in `text` (`1,234 MWh` -> `mwh`), if any. */
export function unitAfter(text: string, end: number): string | undefined {
  return UNIT_AFTER.exec(text.slice(end, end + 8))?.[1]!.toLowerCase();
}

/** The numbers of one source text, in order (duplicates included), with the unit each was served in. */
export function numbersOfText(text: string, visit: (value: number, written: string, unit?: string) => boolean): void {
  textLeaves(text, (leaf, key) => {
    if (typeof leaf === 'number') return visit(leaf, String(leaf), unitOfKey(key));
    const s = leaf.normalize('NFKC');
    for (const m of s.matchAll(TEXT_NUMBER)) {
      const written = m[1]!;
      const decimal = decimalCommaNumber(written, besideCurrency(s, m.index, m.index + written.length));
      if (decimal === undefined && /^\d+,\d{1,2}$/.test(written)) {
        // `12,5` with no currency beside it is two numbers, as it always was.
        for (const part of written.split(',')) if (!visit(Number(part), part)) return false;
        continue;
      }
      const value = Number(decimal ?? written.replace(/,/g, ''));
      if (Number.isFinite(value) && !visit(value, written, unitAfter(s, m.index + written.length) ?? unitOfKey(key))) return false;
    }
    return true;
  });
}

/** Distinct served numbers of the sources, at most `max`. */
export function collectNumbers(sources: readonly { text: string }[], max: number): NumberPool {
  const seen = new Set<number>();
  const numbers: ServedNumber[] = [];
  let truncated = false;
  for (let at = 0; at < sources.length && !truncated; at++) {
    numbersOfText(sources[at]!.text, (value, text, unit) => {
      if (seen.has(value)) return true;
      if (numbers.length >= max) {
        truncated = true;
        return false;
      }
      seen.add(value);
      numbers.push({ value, text, at, ...(unit !== undefined ? { unit } : {}) });
      return true;
    });
  }
  return { numbers, truncated };
}

/** An answer number with the precision it states. */
export interface AnswerNumber {
  value: number;
  /** Digits after the decimal point as written (`1,234.50` -> 2). */
  decimals: number;
  /** Trailing zeros of an integer as written (`41,200` -> 2); 0 for decimals. */
  trailingZeros: number;
  /** Significant digits as written (`41,200` -> 3, `0.9995` -> 4). */
  significant: number;
  /** Written after a hedge (`about`, `roughly`, `~`, …): any rounding to its precision counts. */
  hedged: boolean;
}

const HEDGE = /(?:\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|circa|ca\.|some|close to|just (?:over|under)|an estimated|estimated|est\.)|~|≈)\s*[$€£¥]?\s*$/i;
const FIRST_NUMBER = /\d[\d,]*(?:\.\d+)?/;

/** Whether some occurrence of `raw` in the text follows a hedge word or sign. */
export function hedgedIn(text: string, raw: string): boolean {
  const s = text.normalize('NFKC');
  let from = 0;
  for (let n = 0; n < 32; n++) {
    const i = s.indexOf(raw, from);
    if (i < 0) return false;
    if (HEDGE.test(s.slice(Math.max(0, i - 24), i))) return true;
    from = i + raw.length;
  }
  return false;
}

/** The number an answer token states (`41,200`, `2048MB`, `99.95`), or undefined. */
export function answerNumber(raw: string, hedged: boolean): AnswerNumber | undefined {
  // A token the data tokens read as decimal-comma (`4.850,00`, or `12,50` beside a currency) is
  // only ever whole in that reading: the bare `\d+,\d{1,2}` shape is never a token otherwise.
  const decimal = decimalCommaNumber(raw, true);
  const first = decimal ?? FIRST_NUMBER.exec(raw)?.[0];
  if (first === undefined) return undefined;
  const written = first.replace(/,/g, '');
  const value = Number(written);
  if (!Number.isFinite(value)) return undefined;
  const [whole, frac = ''] = written.split('.');
  const digits = `${whole!.replace(/^0+/, '')}${frac}`;
  const trailingZeros = frac === '' ? whole!.length - whole!.replace(/0+$/, '').length : 0;
  const significant = frac === '' ? Math.max(1, whole!.replace(/^0+/, '').length - trailingZeros) : digits.replace(/^0+/, '').length;
  return { value, decimals: frac.length, trailingZeros, significant, hedged };
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** `v` rounded (half up) or cut to `decimals` places equals `t`. */
function meetsAtDecimals(v: number, t: number, decimals: number): boolean {
  const p = 10 ** decimals;
  const scaled = v * p;
  // A hair of slack so 99.95 * 10 = 999.4999… still rounds to 1000.
  return near(Math.round(scaled + 1e-9 * Math.max(1, Math.abs(scaled))) / p, t) || near(Math.trunc(scaled) / p, t);
}

export type Rounding = 'full' | 'fine';

/**
 * Whether a candidate value meets the answer number: equal; or, the answer stating decimals,
 * rounded or cut to them (`412.5` meets 412.53). With `full` rounding also an integer answer cut
 * or rounded from a fractional value (`1,235` meets 1234.6), and an integer answer with trailing
 * zeros (`41,200`) a value rounded to them, when it keeps at least two significant digits or is
 * hedged (`about 40,000`). `fine` (unit factors, arithmetic) stops after decimals.
 */
export function meetsNumber(t: AnswerNumber, v: number, rounding: Rounding): boolean {
  if (near(v, t.value)) return true;
  if (t.decimals > 0) return meetsAtDecimals(v, t.value, t.decimals);
  if (rounding === 'fine') return false;
  if (Math.abs(v - t.value) < 1 && !Number.isInteger(v)) return meetsAtDecimals(v, t.value, 0);
  if (rounding === 'full' && t.trailingZeros > 0 && (t.hedged || t.significant >= 2)) {
    const step = 10 ** t.trailingZeros;
    return near(Math.round(v / step) * step, t.value) || near(Math.trunc(v / step) * step, t.value);
  }
  return false;
}

/** A unit factor a model may convert by: the served value times `factor` is the answer's. */
export interface UnitFactor {
  factor: number;
  /** How the witness names it. */
  label: string;
  /** Coarse rounding (to tens, hundreds, …) is allowed only for the plain value and percent/cents. */
  rounding: Rounding;
}

function powers(base: number, name: string): UnitFactor[] {
  const out: UnitFactor[] = [];
  for (let n = 1; n <= 4; n++) {
    const f = base ** n;
    const label = n === 1 ? `${base}` : `${name}^${n}`;
    out.push({ factor: f, label: `× ${label}`, rounding: 'fine' }, { factor: 1 / f, label: `÷ ${label}`, rounding: 'fine' });
  }
  return out;
}

export const UNIT_FACTORS: readonly UnitFactor[] = Object.freeze([
  { factor: 1, label: '', rounding: 'full' },
  { factor: 100, label: '× 100', rounding: 'full' },
  { factor: 0.01, label: '÷ 100', rounding: 'full' },
  ...powers(1000, '1000'),
  ...powers(1024, '1024'),
  { factor: 60, label: '× 60', rounding: 'fine' },
  { factor: 1 / 60, label: '÷ 60', rounding: 'fine' },
  { factor: 3600, label: '× 3600', rounding: 'fine' },
  { factor: 1 / 3600, label: '÷ 3600', rounding: 'fine' },
]);

/** Served numbers sorted by value, for the interval search of `meetByRoundingOrUnit`. */
export type SortedNumbers = readonly ServedNumber[] & { readonly sorted: true };

export function sortNumbers(pool: readonly ServedNumber[]): SortedNumbers {
  return [...pool].sort((a, b) => a.value - b.value) as ServedNumber[] & { sorted: true };
}

function lowerBound(xs: readonly ServedNumber[], v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]!.value < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first served number that meets the answer number as it is, rounded or by a unit factor
 * (the plain value first). Each factor is an interval search over the sorted pool: O(factors ×
 * log n) per answer number, whatever the window's size.
 */
export function meetByRoundingOrUnit(t: AnswerNumber, pool: SortedNumbers, answerUnit?: string): { number: ServedNumber; factor: UnitFactor } | undefined {
  // Every value any rounding accepts lies within `width` of the answer number.
  const width = Math.max(1, 10 ** t.trailingZeros, 10 ** -t.decimals) * (1 + 1e-9) + 1e-9 * Math.abs(t.value);
  for (const factor of UNIT_FACTORS) {
    const a = (t.value - width) / factor.factor;
    const b = (t.value + width) / factor.factor;
    for (let i = lowerBound(pool, Math.min(a, b)); i < pool.length && pool[i]!.value <= Math.max(a, b); i++) {
      const n = pool[i]!;
      // Same unit named on both sides: no conversion happened, so no factor but 1 can meet it
      // (a served 1.234 MWh is not "1,234 MWh").
      if (factor.factor !== 1 && answerUnit !== undefined && n.unit === answerUnit) continue;
      if (meetsNumber(t, n.value * factor.factor, factor.rounding)) return { number: n, factor };
    }
  }
  return undefined;
}
