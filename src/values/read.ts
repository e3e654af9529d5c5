// Reads the typed values of a text (src/values): numbers and money (numerals.ts, with the currency
// and unit written beside them; their ranges and scales, intervals.ts), dates, months, times and
// their ranges (dates.ts), phones (phones.ts), and, on the served side, identifier keys
// (identifiers.ts). The answer side and the served side read the
// same way; a served value also carries the keys a looser writing of it meets (dates.ts `served`).
// Pure: no I/O, no clocks, no globals.

import { readNumerals, type Numeral } from './numerals.js';
import { readNumberPairs } from './intervals.js';
import { readDates } from './dates.js';
import { readPhones } from './phones.js';
import { isUnit, unitAfter } from './quantities.js';
import { numberKey, type TypedValue } from './types.js';

/** Currency codes and signs, from `Intl` (ISO 4217 codes, and each one's symbol and narrow symbol in English). */
function currencyMarks(): Map<string, string> {
  const out = new Map<string, string>();
  let codes: string[] = [];
  try {
    codes = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('currency');
  } catch {
    codes = ['USD', 'EUR', 'GBP', 'JPY', 'CHF'];
  }
  for (const code of codes) {
    out.set(code, code);
    for (const display of ['symbol', 'narrowSymbol'] as const) {
      try {
        const sym = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: display }).formatToParts(1).find((p) => p.type === 'currency')?.value;
        if (sym && sym !== code && !out.has(sym.normalize('NFKC'))) out.set(sym.normalize('NFKC'), code);
      } catch {
        /* an unknown code: skipped */
      }
    }
  }
  return out;
}
const CURRENCY = currencyMarks();
const SIGN_BEFORE = /(\S{1,3})\s?$/;
const SIGN_AFTER = /^\s?([^\s\d]{1,3})/;

function currencyBeside(text: string, start: number, end: number): string | undefined {
  const before = SIGN_BEFORE.exec(text.slice(Math.max(0, start - 4), start))?.[1];
  if (before) {
    for (let i = 0; i < before.length; i++) {
      const c = CURRENCY.get(before.slice(i));
      if (c) return c;
    }
  }
  const after = SIGN_AFTER.exec(text.slice(end, end + 4))?.[1];
  if (after) {
    for (let i = after.length; i > 0; i--) {
      const c = CURRENCY.get(after.slice(0, i));
      if (c) return c;
    }
  }
  return undefined;
}

function numberValue(text: string, n: Numeral, currencyOf?: string): TypedValue {
  const keys = [...new Set(n.readings.map((r) => numberKey(r.value)))];
  const currency = currencyBeside(text, n.start, n.end) ?? currencyOf;
  const word = unitAfter(text, n.end);
  const unit = word === '%' || (word !== undefined && isUnit(word)) ? word : undefined;
  // A percentage is quoted with its sign (`99.5%`).
  const pct = unit === '%' ? (/^ ?%/.exec(text.slice(n.end))?.[0] ?? '') : '';
  return {
    kind: 'number',
    raw: n.raw + pct,
    start: n.start,
    end: n.end + pct.length,
    keys,
    key: keys[0]!,
    numbers: n.readings,
    ...(currency ? { currency } : {}),
    ...(unit ? { unit } : {}),
  } satisfies TypedValue;
}

/**
 * The numbers of an NFKC text with their readings, currency and unit, at most `max`. A range
 * (`$120–$180`) is one value of kind `range` whose two ends are numbers (a currency written on one
 * end serves both); a number on a scale (`4.5/5`, `4.5 out of 5`) is a number whose `scale` is set
 * and whose text is the whole rating.
 */
export function readNumbers(text: string, max: number, served = false): TypedValue[] {
  const out: TypedValue[] = [];
  const pairs = readNumberPairs(text, max, served);
  for (const p of pairs) {
    if (p.kind === 'scale') {
      const keys = [...new Set(p.first.readings.map((r) => numberKey(r.value)))];
      out.push({ kind: 'number', raw: p.raw, start: p.start, end: p.end, keys, key: keys[0]!, numbers: p.first.readings, scale: p.second.readings[0]!.value });
      continue;
    }
    const a = numberValue(text, p.first);
    const b = numberValue(text, p.second, a.currency);
    if (a.currency === undefined && b.currency !== undefined) a.currency = b.currency;
    out.push({ kind: 'range', raw: p.raw, start: p.start, end: p.end, keys: [...new Set([...a.keys, ...b.keys])], key: a.key, parts: [a, b] });
  }
  for (const n of readNumerals(text, max, served)) {
    if (out.length >= max) break;
    if (pairs.some((p) => n.start < p.end && n.end > p.start)) continue;
    out.push(numberValue(text, n));
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The dates, months, times and phones of an NFKC text, in text order; where two overlap the first found wins (dates before phones). */
export function readForms(text: string, max: number, served: boolean): TypedValue[] {
  const out: TypedValue[] = [];
  for (const v of readDates(text, served)) if (out.length < max) out.push(v);
  for (const v of readPhones(text, max)) if (out.length < max && !out.some((o) => v.start < o.end && v.end > o.start)) out.push(v);
  return out.sort((a, b) => a.start - b.start);
}
