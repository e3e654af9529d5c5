// Typed values: what a served string, a chosen argument or an answer says, read by the field
// libraries of src/values (numbers and money from CLDR conventions, dates, times and their ranges by
// chrono-node, phones by libphonenumber-js, quantities by js-quantities, identifiers modulo case,
// punctuation, grouping and width; number ranges and ratings read around those numerals). Each
// reading has typed keys: a served value and a chosen one meet when they share a key, whatever
// their written forms. Types only: no I/O, no clocks, no globals.

/** What a value is. */
export type TypedKind = 'number' | 'date' | 'month' | 'time' | 'phone' | 'quantity' | 'identifier' | 'words' | 'range';

/** One reading of a number as written (`12.480` has two: 12.48 and 12480). */
export interface NumberReading {
  value: number;
  /** Digits after the decimal mark as written (`1.409,50` -> 2). */
  decimals: number;
  /** Trailing zeros of an integer as written (`41,200` -> 2); 0 for decimals. */
  trailingZeros: number;
  /** Significant digits as written (`41,200` -> 3). */
  significant: number;
}

/** A value read from a text, where it stands, and the typed keys any one of which grounds it. */
export interface TypedValue {
  kind: TypedKind;
  /** As written (NFKC). */
  raw: string;
  start: number;
  end: number;
  /** Typed keys (`n:2580`, `d:2024-05-19`, `t:03:00+1`, `p:4155550132`, `i:de8937…`, `q:1536000000 B`). */
  keys: string[];
  /** The key the value is reported by (its first reading). */
  key: string;
  /** Number readings (kind `number`), first the text's own convention. */
  numbers?: NumberReading[];
  /** A currency sign or code written beside a number (ISO 4217 code). */
  currency?: string;
  /** A unit written beside a number (`MWh`, `kg`), as written. */
  unit?: string;
  /** ISO date (kind `date`), the first reading. */
  date?: string;
  /** An amount in words (kind `words`): its language, compared by n2words' renderings of served numbers. */
  amount?: import('./words.js').WordAmount;
  /**
   * A rating or fraction (kind `number`, `4.5/5`, `4.5 out of 5`): the scale written after the
   * number. The value is the number before it (its `numbers`); the scale is never judged.
   */
  scale?: number;
  /**
   * A time written as a clock without a meridiem (`01:30`, `1:30`): the minutes it also reads as a
   * duration (hours and minutes), for the difference of two served times.
   */
  duration?: number;
  /**
   * An interval (kind `range`: `10:00-11:00`, `5:00 PM - 7:00 PM`, `May 3 - May 5, 2024`,
   * `$120–$180`): its ends, each a value of its own, judged apart; the range's own text is never
   * judged as an opaque token.
   */
  parts?: TypedValue[];
}

/** Key prefixes, one per kind. */
export const KEY = Object.freeze({
  number: 'n:',
  date: 'd:',
  month: 'm:',
  time: 't:',
  phone: 'p:',
  quantity: 'q:',
  identifier: 'i:',
});

/** The canonical text of a number in keys: 15 significant digits, no trailing zeros, no `-0`. */
export function numberKey(v: number): string {
  const r = Number(v.toPrecision(15));
  return KEY.number + (Object.is(r, -0) ? '0' : String(r));
}
