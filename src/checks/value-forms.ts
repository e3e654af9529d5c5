// Canonical forms of answer values that a model writes differently from how a tool served them:
// calendar dates (ISO, US `11/30/2025`, European `30/11/2025` `30.11.2025`, written `30 November
// 2025`, `Nov 30, 2025`), clock times (`2:00 AM` = `02:00`, `2:30 PM` = `14:30`)
// phone numbers (compared by their digits, a country code aside) and percentages with decimals
// (`99.5%`: data however few digits, met by the number or the ratio served). Each form found in a text
// becomes a canonical key (`2025-11-30`, `02:00`, `tel10:4155550132`) on both sides,
// so `unsupported-value` can look a date up as the served ISO date. Used by unsupported-value only.
// Must never guess a form from a bare number, never read a date without a year as data, never do
// I/O: pure functions over strings, bounded by their callers' caps.

/** What kind of value a form is. */
export type ValueFormKind = 'date' | 'time' | 'phone' | 'percent';

/** One value written in a recognised form, found in a text. */
export interface ValueForm {
  kind: ValueFormKind;
  /** The text as written (`Nov 30, 2025`). */
  raw: string;
  /** The normalised key the answer reports it by (`2025-11-30`; `4155550132` for a phone). */
  key: string;
  /** Keys that ground it, any one enough (an ambiguous `03/04/2025` has two dates). */
  lookups: string[];
  /** Where it starts and ends in the (NFKC-normalised) text. */
  start: number;
  end: number;
}

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
};
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';

/** `30 November 2025`, `30th Nov, 2025`. */
const DAY_MONTH_YEAR = new RegExp(`(?<![\\w])${DAY}\\s+(?:of\\s+)?${MONTH}\\s*,?\\s+${YEAR}(?![\\w])`, 'gi');
/** `November 30, 2025`, `Nov 30th 2025`. */
const MONTH_DAY_YEAR = new RegExp(`(?<![\\w])${MONTH}\\s+${DAY}\\s*,?\\s+${YEAR}(?![\\w])`, 'gi');
/**
 * `11/30/2025`, `30/11/2025`, `30.11.2025`, `11-30-2025`, `2025/11/30`, `11/30/25`; a label colon
 * right after it (`- 19.08.2026: 1.150,00 €`) ends it like a blank, a colon then a digit does not.
 */
const NUMERIC_DATE = /(?<![\w./:-])(\d{1,4})([/.-])(\d{1,2})\2(\d{2,4})(?![\w/-]|:\d|\.\d)/g;
/** `2:00`, `02:00:00`, `2:00 AM`, `2:30pm`, `11:05 p.m.`. */
const CLOCK = /(?<![\w:.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])(?:m|\.m\.)(?![a-z]))?(?![\d:])/gi;
/** A phone-shaped run: optional +, digit groups split by blanks, dots, dashes or parentheses. */
const PHONE = /(?<![\w+.\-/:])(\+?\(?\d[\d \t().-]{8,}\d)(?![\w.\-/:]?\d)/g;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const PHONE_SHAPE = /^(?:\+|\(\d{2,4}\)|\d{2,4}(?:-\d{2,4}){2,4}$|\d{2,4}(?:\.\d{2,4}){2,4}$|\d{3} \d{3} \d{4}$)/;
/** A percentage with decimals and at least three digits (`99.5%`, `12.5 %`): data, however few digits. */
const PERCENT = /(?<![\w.\-:/])(\d{1,3}\.\d+)\s?%/g;
/** Cheap pre-test: a text with a form has a digit beside a separator a form needs (or ten digits in a row). */
const MAY_HOLD_FORM = /\d[/.:\s)-]|[\s(+]\d|\d{10}/;

const pad = (n: number) => String(n).padStart(2, '0');

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function monthOf(name: string): number {
  return MONTHS[name.toLowerCase().replace(/\.$/, '')] ?? 0;
}

function numericDates(a: string, b: string, c: string): string[] {
  // Y/M/D when the first part has four digits; otherwise M/D/Y and D/M/Y, each if it is a date.
  if (a.length === 4) {
    const d = c.length <= 2 ? isoDate(Number(a), Number(b), Number(c)) : undefined;
    return d ? [d] : [];
  }
  if (a.length > 2 || (c.length !== 2 && c.length !== 4)) return [];
  const year = c.length === 2 ? 2000 + Number(c) : Number(c);
  const out = new Set<string>();
  const us = isoDate(year, Number(a), Number(b));
  if (us) out.add(us);
  const eu = isoDate(year, Number(b), Number(a));
  if (eu) out.add(eu);
  return [...out];
}

function clockKey(h: number, m: number, s: string | undefined, half: string | undefined): string | undefined {
  if (m > 59 || (s !== undefined && Number(s) > 59)) return undefined;
  let hour = h;
  if (half) {
    if (h < 1 || h > 12) return undefined;
    const pm = half.toLowerCase() === 'p';
    hour = h === 12 ? (pm ? 12 : 0) : pm ? h + 12 : h;
  } else if (h > 23) return undefined;
  return s !== undefined ? `${pad(hour)}:${pad(m)}:${s}` : `${pad(hour)}:${pad(m)}`;
}

/** Phone lookups: the whole digit string, and its last ten digits (a country code aside). */
export function phoneKeys(digits: string): string[] {
  if (digits.length < 10 || digits.length > 15) return [];
  return [`tel10:${digits.slice(-10)}`];
}

function overlaps(taken: readonly ValueForm[], start: number, end: number): boolean {
  return taken.some((f) => start < f.end && end > f.start);
}

/**
 * Every recognised form in a text, at most `max`, in text order; where two overlap the first kind
 * found wins (written dates, then numeric dates, times, phones: a date beats a phone-shaped run).
 */
export function findValueForms(text: string, max: number): ValueForm[] {
  const s = text.normalize('NFKC');
  const out: ValueForm[] = [];
  const push = (f: ValueForm) => {
    if (out.length < max && !overlaps(out, f.start, f.end)) out.push(f);
  };
  for (const m of s.matchAll(DAY_MONTH_YEAR)) {
    const d = isoDate(Number(m[3]), monthOf(m[2]!), Number(m[1]));
    if (d) push({ kind: 'date', raw: m[0], key: d, lookups: [d], start: m.index, end: m.index + m[0].length });
  }
  for (const m of s.matchAll(MONTH_DAY_YEAR)) {
    const d = isoDate(Number(m[3]), monthOf(m[1]!), Number(m[2]));
    if (d) push({ kind: 'date', raw: m[0], key: d, lookups: [d], start: m.index, end: m.index + m[0].length });
  }
  for (const m of s.matchAll(NUMERIC_DATE)) {
    const dates = numericDates(m[1]!, m[3]!, m[4]!);
    if (dates.length > 0) push({ kind: 'date', raw: m[0], key: dates[0]!, lookups: dates, start: m.index, end: m.index + m[0].length });
  }
  for (const m of s.matchAll(CLOCK)) {
    const key = clockKey(Number(m[1]), Number(m[2]), m[3], m[4]);
    if (key) push({ kind: 'time', raw: m[0], key, lookups: [key], start: m.index, end: m.index + m[0].length });
  }
  for (const m of s.matchAll(PHONE)) {
    const raw = m[1]!.trim();
    if (IPV4.test(raw)) continue;
    const digits = raw.replace(/\D/g, '');
    const lookups = phoneKeys(digits);
    // A phone has a phone's shape: a leading + or an area code in parentheses, or groups joined by
    // one kind of dash or dot, or 3-3-4 digits split by single blanks. A bare run of digits is a
    // number, and numbers in a table row (`1840 920 310`) are not a phone.
    if (lookups.length === 0 || !PHONE_SHAPE.test(raw)) continue;
    push({ kind: 'phone', raw, key: digits, lookups, start: m.index, end: m.index + raw.length });
  }
  for (const m of s.matchAll(PERCENT)) {
    const written = m[1]!;
    if (written.replace(/\D/g, '').length < 3) continue;
    const key = written.replace(/0+$/, '').replace(/\.$/, '');
    push({ kind: 'percent', raw: m[0], key, lookups: [key], start: m.index, end: m.index + m[0].length });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** One text to index, as in data-tokens' IndexSource. */
export interface FormSource {
  text: string;
  request?: number;
}

export interface FormIndex {
  /** Position of the source that last served this canonical key, if any did. */
  lookup(key: string): number | undefined;
  readonly size: number;
  readonly truncated: boolean;
}

/**
 * Every string and number leaf of a JSON text (not its keys; an absence envelope's `looked_for`
 * skipped), or the text itself when it is not JSON. Stops when `visit` returns false.
 */
export function textLeaves(text: string, visit: (leaf: string | number) => boolean): void {
  const t = text.trimStart();
  let value: unknown;
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      value = JSON.parse(t) as unknown;
    } catch {
      value = undefined;
    }
  }
  if (value === undefined) {
    visit(text);
    return;
  }
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!visit(v)) return;
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      if (!visit(v)) return;
    } else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v !== null && typeof v === 'object') {
      // Absence envelopes echo the model's own query in looked_for: never a ground.
      const obj = v as Record<string, unknown>;
      const entries = Object.entries(obj);
      // Pushed last-first, so leaves are visited in document order.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (obj['af_absent'] === true && k === 'looked_for') continue;
        stack.push(child);
      }
    }
  }
}

/**
 * An index of the canonical forms the sources hold (written and US dates as ISO, times as
 * 24-hour, phones by digits, and a bare 10–15 digit run as a phone too), at most `maxKeys`
 * distinct keys; later requests win "last served", as in the evidence index.
 */
export function buildFormIndex(sources: readonly FormSource[], maxKeys: number): FormIndex {
  const map = new Map<string, number>();
  let truncated = false;
  const add = (key: string, at: number): boolean => {
    const prev = map.get(key);
    if (prev === undefined) {
      if (map.size >= maxKeys) {
        truncated = true;
        return false;
      }
      map.set(key, at);
    } else if (prev !== at && (sources[at]!.request ?? -Infinity) >= (sources[prev]!.request ?? -Infinity)) map.set(key, at);
    return true;
  };
  for (let at = 0; at < sources.length && !truncated; at++) {
    textLeaves(sources[at]!.text, (value) => {
      if (typeof value === 'number') {
        // A number leaf can only be a phone written as digits.
        if (!Number.isInteger(value) || value < 1e9) return true;
        for (const k of phoneKeys(String(value))) if (!add(k, at)) return false;
        return true;
      }
      const leaf = value;
      if (!MAY_HOLD_FORM.test(leaf)) return true;
      for (const f of findValueForms(leaf, maxKeys)) {
        for (const k of f.lookups) if (!add(k, at)) return false;
        // A served 10:30:00 also serves 10:30 (as a served date-time does).
        if (f.kind === 'time' && f.key.length === 8 && !add(f.key.slice(0, 5), at)) return false;
      }
      for (const m of leaf.matchAll(/(?<![\w.])\+?(\d{10,15})(?![\w.]?\d)/g)) for (const k of phoneKeys(m[1]!)) if (!add(k, at)) return false;
      return true;
    });
  }
  return {
    lookup: (key) => map.get(key),
    get size() {
      return map.size;
    },
    get truncated() {
      return truncated;
    },
  };
}
