// Numbers as people write them in many locales: the grouping and decimal marks and the grouping
// sizes are learned from CLDR through `Intl.NumberFormat(locale).formatToParts` for a list of
// locales (never a hand table of marks). A numeral well-formed under several conventions has
// several readings (`12.480` is 12.48 and 12480); a comma followed by exactly three digits is read
// as grouping only (`1,234` is 1234, as English, Chinese, Japanese, Korean and Hindi write it)
// unless the text's unambiguous numerals show a decimal comma (`12,90 €`, `1.409,50`). Must never read digits glued to a word,
// an id, a date, a time or a version; never do I/O. Pure, bounded by the caller's text.

import type { NumberReading } from './types.js';

/** Locales whose conventions are learned (one per distinct convention is enough; more do no harm). */
export const NUMBER_LOCALES = Object.freeze(['en-US', 'en-IN', 'de-DE', 'de-CH', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'ru-RU', 'pl-PL', 'sv-SE', 'cs-CZ', 'ja-JP', 'zh-CN', 'ko-KR', 'hi-IN', 'tr-TR']);

export interface Convention {
  /** Grouping mark as matched in NFKC text (a no-break or narrow space becomes a plain blank). */
  group: string;
  decimal: string;
  /** Size of the groups after the first from the right (3, or 2 for en-IN lakh grouping). */
  secondary: number;
  locales: string[];
}

function learn(): Convention[] {
  const out: Convention[] = [];
  for (const locale of NUMBER_LOCALES) {
    let parts: Intl.NumberFormatPart[];
    try {
      parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.891);
    } catch {
      continue;
    }
    const integers = parts.filter((p) => p.type === 'integer').map((p) => p.value);
    if (!integers.every((d) => /^[0-9]+$/.test(d))) continue;
    const group = (parts.find((p) => p.type === 'group')?.value ?? ',').normalize('NFKC');
    const decimal = (parts.find((p) => p.type === 'decimal')?.value ?? '.').normalize('NFKC');
    const secondary = integers.length >= 3 ? integers[1]!.length : 3;
    const same = out.find((c) => c.group === group && c.decimal === decimal && c.secondary === secondary);
    if (same) same.locales.push(locale);
    else out.push({ group, decimal, secondary, locales: [locale] });
  }
  return out;
}

/** The conventions learned, once per process (CLDR data does not change while it runs). */
export const CONVENTIONS: readonly Convention[] = Object.freeze(learn());

/** Grouping marks people type for the ones CLDR gives (an apostrophe for `’`). */
const GROUP_ALIASES: Record<string, string[]> = { '’': ["'"], ' ': [] };

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Shape {
  convention: Convention;
  group: string;
  pattern: RegExp;
}

function shapes(): Shape[] {
  const out: Shape[] = [];
  for (const c of CONVENTIONS) {
    for (const g of [c.group, ...(GROUP_ALIASES[c.group] ?? [])]) {
      const G = esc(g);
      const D = esc(c.decimal);
      // Grouped: 1–3 digits (1–2 for secondary 2 after the lead), then groups, the last of three.
      const lead = c.secondary === 3 ? `\\d{1,3}(?:${G}\\d{3})+` : `\\d{1,2}(?:${G}\\d{2})*${G}\\d{3}`;
      out.push({ convention: c, group: g, pattern: new RegExp(`^(?:${lead}|\\d+)(?:${D}(\\d+))?$`) });
    }
  }
  return out;
}
const SHAPES = shapes();

/** A numeral candidate: digits with grouping or decimal marks inside, a sign before. */
const CANDIDATE = /(?<![\p{L}\p{N}_\-./:#@])([-−]?)(\d(?:[\d,.' ’]*\d)?)(?![\p{L}\p{N}_]|[-/:]\d|[.,]\d|%\d)/gu;

function shape(digits: string, decimals: number, value: number): NumberReading {
  const [whole = '', frac = ''] = digits.split('.');
  const trailingZeros = decimals === 0 ? whole.length - whole.replace(/0+$/, '').length : 0;
  const significant = decimals === 0 ? Math.max(1, whole.replace(/^0+/, '').length - trailingZeros) : `${whole.replace(/^0+/, '')}${frac}`.replace(/^0+/, '').length;
  return { value, decimals, trailingZeros, significant };
}

/** Every reading of one numeral (no sign), in the order of the conventions, distinct by value and decimals. */
export function numeralReadings(numeral: string): { reading: NumberReading; conventions: Convention[] }[] {
  const out: { reading: NumberReading; conventions: Convention[] }[] = [];
  for (const s of SHAPES) {
    const m = s.pattern.exec(numeral);
    if (!m) continue;
    const frac = m[1];
    const whole = (frac === undefined ? numeral : numeral.slice(0, numeral.length - frac.length - s.convention.decimal.length)).split(s.group).join('');
    if (!/^\d+$/.test(whole)) continue;
    // A decimal comma after ungrouped digits: a price's 1–2 decimals, or a short integer part
    // (`0,125`, `1,234`); `4521,4533` is two numbers in a list, not one.
    if (frac !== undefined && s.convention.decimal === ',' && whole === numeral.slice(0, whole.length) && frac.length > 2 && whole.length > 3) continue;
    const digits = frac === undefined ? whole : `${whole}.${frac}`;
    const value = Number(digits);
    if (!Number.isFinite(value)) continue;
    const decimals = frac?.length ?? 0;
    const same = out.find((o) => o.reading.value === value && o.reading.decimals === decimals);
    if (same) {
      if (!same.conventions.includes(s.convention)) same.conventions.push(s.convention);
      continue;
    }
    out.push({ reading: shape(digits, decimals, value), conventions: [s.convention] });
  }
  return out;
}

/** A numeral found in a text with its readings. */
export interface Numeral {
  raw: string;
  start: number;
  end: number;
  negative: boolean;
  readings: NumberReading[];
}

/** A comma then exactly three digits, nothing more: grouping unless the text says otherwise. */
const COMMA_THOUSANDS = /^\d{1,3},\d{3}$/;
/** A dot then three digits: a decimal, or German-style grouping. */
const DOT_THOUSANDS = /^\d{1,3}(?:\.\d{3})+$/;

/**
 * The numerals of an NFKC text, at most `max`, each with its readings. A blank is read as a
 * grouping mark only between groups of exactly three digits after a lead of 1–3 (`12 345,50`).
 * `served`: the text is a tool's output, where `1.234` is a decimal unless the text shows a
 * decimal comma (an answer's `12.480` keeps both readings: the model may have localised it).
 */
export function readNumerals(text: string, max: number, served = false): Numeral[] {
  const found: { raw: string; start: number; negative: boolean; all: ReturnType<typeof numeralReadings> }[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    if (found.length >= max) break;
    let body = m[2]!;
    // A trailing grouping or decimal mark is punctuation (`1,234.`), and blanks end a run unless they group.
    body = body.replace(/[,.' ’]+$/, '');
    let all = numeralReadings(body);
    if (all.length === 0) {
      // Not one numeral: read the run's blank-separated parts one by one.
      let at = m.index + m[1]!.length;
      for (const part of body.split(' ')) {
        const p = part.replace(/[,.' ’]+$/, '');
        const r = numeralReadings(p);
        if (p !== '' && r.length > 0 && found.length < max) found.push({ raw: p, start: at, negative: false, all: r });
        at += part.length + 1;
      }
      continue;
    }
    found.push({ raw: m[1]! + body, start: m.index, negative: m[1] !== '', all });
  }
  // A comma then three digits is a decimal comma only in a text whose unambiguous numerals show
  // one (`12,90 €`, `1.409,50`); otherwise it groups. Every other ambiguous numeral keeps both readings.
  const commaDecimal = found.some((f) => f.all.length === 1 && f.all[0]!.reading.decimals > 0 && f.all[0]!.conventions.every((c) => c.decimal === ','));
  return found.map((f) => {
    let all = f.all;
    if (!commaDecimal && all.length > 1 && COMMA_THOUSANDS.test(f.raw.replace(/^[-−]/, ''))) all = all.filter((r) => r.reading.decimals === 0);
    // Served text is a program's output: a dot there is a decimal point unless the text shows a decimal comma.
    if (served && !commaDecimal && all.length > 1 && DOT_THOUSANDS.test(f.raw.replace(/^[-−]/, ''))) all = all.filter((r) => r.reading.decimals > 0);
    const sign = f.negative ? -1 : 1;
    return {
      raw: f.raw,
      start: f.start,
      end: f.start + f.raw.length,
      negative: f.negative,
      readings: all.map((r) => ({ ...r.reading, value: sign * r.reading.value })),
    };
  });
}
