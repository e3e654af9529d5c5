// Dates a model computed: an ISO date argument that nothing served whole, but that equals a served
// anchor (today's date in the system prompt, a date or timestamp in the window) minus a relative
// span the USER asked for ("last 7 days", "past 2 weeks", "yesterday", "3 days ago", "since
// November 3rd"). The witness states the arithmetic. With no anchor, or no user phrase, nothing is
// derived. A `YYYY-MM` month argument is derived the same way from a month span ("last month",
// "3 months ago", "this month") or a named month ("in March"); a day span never makes a month.
// Calendar arithmetic in UTC on the served dates only: never the clock. Pure: no I/O, no clocks,
// no globals.

import type { ServedString } from '../model/frame.js';

const MAX_ANCHORS = 32;
const ISO_VALUE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const ISO_MONTH_VALUE = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** A month span this long or longer ("last 12 months", "last year") names no one month. */
const MAX_MONTH_SPAN = 12;
const ISO_IN_TEXT = /\b(\d{4})-(\d{2})-(\d{2})(?=$|[^\d])/g;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WRITTEN_IN_TEXT = new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi');
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fourteen: 14, thirty: 30, ninety: 90 };
const COUNT = '(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|thirty|ninety)';
const LAST_N = new RegExp(`\\b(?:last|past|previous|prior)\\s+${COUNT}\\s+(day|week|month)s?\\b`, 'gi');
const N_AGO = new RegExp(`\\b${COUNT}\\s+(day|week|month)s?\\s+ago\\b`, 'gi');
const LAST_UNIT = /\b(?:last|past|previous)\s+(day|week|month|year)\b/gi;
const THIS_UNIT = /\b(?:this|the current)\s+(week|month|year)\b/gi;
const YESTERDAY = /\byesterday\b/gi;
const IN_MONTH = new RegExp(`\\b(?:in|for|during|over|throughout)\\s+(?:the\\s+month\\s+of\\s+)?${MONTH}\\b(?!\\s*\\d)`, 'gi');
const SINCE_MONTH_DAY = new RegExp(`\\b(?:since|from|after|starting)\\s+(?:${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH})\\b`, 'gi');

export interface Anchor {
  /** `YYYY-MM-DD`. */
  date: string;
  served: ServedString;
}

interface Span {
  phrase: string;
  days?: number;
  months?: number;
  /** An absolute month and day ("since November 3rd"): the year comes from the anchor. */
  monthDay?: { month: number; day: number };
  /** "this week" / "this month" / "this year" read as a calendar period: its first day. */
  startOf?: 'week' | 'month' | 'year';
  /** The rolling reading of "this week/month/year": a date span only, never a month. */
  rolling?: true;
  /** A named month ("in March", 1–12): the year comes from the anchor; a month only, never a date. */
  month?: number;
}

export interface DerivedDate {
  anchor: Anchor;
  phrase: string;
  /** The arithmetic, e.g. `2025-12-01 − 7 days = 2025-11-24`. */
  arithmetic: string;
}

function monthIndex(name: string): number {
  const n = name.toLowerCase().slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(n));
}

function iso(y: number, m: number, d: number): string | undefined {
  const t = Date.UTC(y, m - 1, d);
  const dt = new Date(t);
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return undefined;
  return dt.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return iso(ny, nm, Math.min(d, last))!;
}

/** The first day of the ISO week (Monday), month or year holding `date`. */
function startOf(date: string, period: 'week' | 'month' | 'year'): string {
  if (period === 'month') return `${date.slice(0, 7)}-01`;
  if (period === 'year') return `${date.slice(0, 4)}-01-01`;
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

/** The date part of an ISO date or date-time value, else undefined. */
export function isoDateOf(value: string): string | undefined {
  const m = ISO_VALUE.exec(value.trim());
  return m ? iso(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

/** Served dates that can anchor arithmetic, in window order, at most 32 distinct. */
export function anchorsOf(texts: readonly { served: ServedString; text: string }[]): Anchor[] {
  const out: Anchor[] = [];
  const seen = new Set<string>();
  const push = (date: string | undefined, served: ServedString) => {
    if (date && !seen.has(date) && out.length < MAX_ANCHORS) {
      seen.add(date);
      out.push({ date, served });
    }
  };
  for (const { served, text } of texts) {
    if (served.source === 'tool-schema') continue;
    for (const m of text.matchAll(ISO_IN_TEXT)) push(iso(Number(m[1]), Number(m[2]), Number(m[3])), served);
    for (const m of text.matchAll(WRITTEN_IN_TEXT)) push(iso(Number(m[3]), monthIndex(m[1]!) + 1, Number(m[2])), served);
  }
  return out;
}

function count(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word.toLowerCase()] ?? NaN);
}

/** The relative spans the user's messages ask for. */
export function spansOf(userTexts: readonly string[]): Span[] {
  const out: Span[] = [];
  const unit = (n: number, u: string, phrase: string, rolling?: true) => {
    if (!Number.isFinite(n) || n <= 0) return;
    const lu = u.toLowerCase();
    const r = rolling ? { rolling } : {};
    if (lu === 'day') out.push({ phrase, days: n, ...r });
    else if (lu === 'week') out.push({ phrase, days: 7 * n, ...r });
    else if (lu === 'month') out.push({ phrase, months: n, ...r });
    else if (lu === 'year') out.push({ phrase, months: 12 * n, ...r });
  };
  for (const t of userTexts) {
    for (const m of t.matchAll(LAST_N)) unit(count(m[1]!), m[2]!, m[0]);
    for (const m of t.matchAll(N_AGO)) unit(count(m[1]!), m[2]!, m[0]);
    for (const m of t.matchAll(LAST_UNIT)) unit(1, m[1]!, m[0]);
    for (const m of t.matchAll(YESTERDAY)) unit(1, 'day', m[0]);
    for (const m of t.matchAll(THIS_UNIT)) {
      // Read both ways: the calendar period so far, or a rolling one.
      out.push({ phrase: m[0], startOf: m[1]!.toLowerCase() as 'week' | 'month' | 'year' });
      unit(1, m[1]!, m[0], true);
    }
    for (const m of t.matchAll(IN_MONTH)) {
      // "may" in lower case is the verb ("in may be"), never the month.
      if (m[1] === 'may') continue;
      out.push({ phrase: m[0], month: monthIndex(m[1]!) + 1 });
    }
    for (const m of t.matchAll(SINCE_MONTH_DAY)) {
      const month = monthIndex((m[1] ?? m[4])!) + 1;
      const day = Number(m[2] ?? m[3]);
      if (month > 0 && day >= 1 && day <= 31) out.push({ phrase: m[0], monthDay: { month, day } });
    }
  }
  return out;
}

/** How `date` follows from a served anchor and a user's span, if it does. */
export function derivedDate(date: string, anchors: readonly Anchor[], spans: readonly Span[]): DerivedDate | undefined {
  for (const span of spans) {
    if (span.month !== undefined) continue;
    for (const anchor of anchors) {
      if (span.startOf) {
        const start = startOf(anchor.date, span.startOf);
        if (start === date) return { anchor, phrase: span.phrase, arithmetic: `first day of the ${span.startOf} of ${anchor.date} = ${start}` };
        continue;
      }
      if (span.monthDay) {
        const [ay] = anchor.date.split('-').map(Number) as [number];
        for (const y of [ay, ay - 1]) {
          const d = iso(y, span.monthDay.month, span.monthDay.day);
          if (d === date && d <= anchor.date) return { anchor, phrase: span.phrase, arithmetic: `"${span.phrase}" read in the year of ${anchor.date} = ${d}` };
        }
        continue;
      }
      // Inclusive and exclusive readings: "last 7 days" of 12-01 starts 11-24 or 11-25.
      for (const inclusive of [0, 1]) {
        const d = span.days !== undefined ? addDays(anchor.date, -span.days + inclusive) : addMonths(anchor.date, -span.months!);
        if (d === date) {
          const amount = span.days !== undefined ? `${span.days - inclusive} day(s)` : `${span.months} month(s)`;
          return { anchor, phrase: span.phrase, arithmetic: `${anchor.date} − ${amount} = ${d}` };
        }
        if (span.months !== undefined) break;
      }
    }
  }
  return undefined;
}

/** A `YYYY-MM` month value, else undefined. */
export function isoMonthOf(value: string): string | undefined {
  const m = ISO_MONTH_VALUE.exec(value.trim());
  return m ? `${m[1]}-${m[2]}` : undefined;
}

/**
 * How a `YYYY-MM` month follows from a served anchor and a user's month phrase, if it does: the
 * anchor's month minus a month span under 12 ("last month", "2 months ago"), the anchor's own
 * month ("this month"), or a named month in the anchor's year (or the year before when that month
 * is still to come, or the year after when it is past: "in March" said in December).
 */
export function derivedMonth(month: string, anchors: readonly Anchor[], spans: readonly Span[]): DerivedDate | undefined {
  for (const span of spans) {
    for (const anchor of anchors) {
      const own = anchor.date.slice(0, 7);
      if (span.startOf === 'month') {
        if (own === month) return { anchor, phrase: span.phrase, arithmetic: `month of ${anchor.date} = ${own}` };
        continue;
      }
      if (span.month !== undefined) {
        const [ay, am] = anchor.date.split('-').map(Number) as [number, number];
        const years = span.month === am ? [ay] : span.month > am ? [ay, ay - 1] : [ay, ay + 1];
        for (const y of years) {
          const m = `${y}-${String(span.month).padStart(2, '0')}`;
          if (m === month) return { anchor, phrase: span.phrase, arithmetic: `"${span.phrase}" read beside ${anchor.date} = ${m}` };
        }
        continue;
      }
      if (span.months === undefined || span.rolling || span.months >= MAX_MONTH_SPAN) continue;
      const m = addMonths(anchor.date, -span.months).slice(0, 7);
      if (m === month) return { anchor, phrase: span.phrase, arithmetic: `month of ${anchor.date} − ${span.months} month(s) = ${m}` };
    }
  }
  return undefined;
}
