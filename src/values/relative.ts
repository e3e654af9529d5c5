// Relative date expressions in the user's or system's words ("the next day", "3 days ago", "last
// month", "in March", "since November 3rd"), read by chrono-node: each expression is parsed
// against two fixed reference instants, and one that moves with the reference by the same number
// of days (or months) is a shift of that many. chrono reads no phrase of moving a date ("moving it
// back one day", "push it two days", "the following day", "the previous month"): those few are read
// here, with chrono's own counts (one…twelve, a, an) and no direction where the words give none
// ("back" is earlier to some and later to others: both are tried), and "this week/month/year",
// read as the calendar period so far ("this week" also as the last seven days). Lengths of time the
// user or system wrote ("for one hour", "90 minutes", "an hour and a half", "1.5 hours"), which
// chrono reads as no instant, are read here too, with the same counts. Pure: no I/O, no clocks.

import * as chrono from 'chrono-node';

/** A relative expression: a shift in days or months, a month and day with no year, or a named month. */
export interface Shift {
  phrase: string;
  days?: number;
  months?: number;
  /** The direction is not written: the shift is tried both ways. */
  eitherWay?: boolean;
  /** "since November 3rd": the year comes from the anchor. */
  monthDay?: { month: number; day: number };
  /** "in March": the year comes from the anchor. */
  month?: number;
  /** "this week": the first day of the anchor's week (Monday), month or year. */
  startOf?: 'week' | 'month' | 'year';
  /**
   * Said of a date the conversation names ("the next day", "the day after", "two days later",
   * "moving it back one day"), not of today: it may shift any served date. Every other expression
   * ("yesterday", "3 days ago", "last month") counts from today, so it shifts only a date the user
   * or system wrote (the request's "today is …").
   */
  anaphoric?: boolean;
}

/** Words that make an expression count from a date the conversation names rather than from today. */
const ANAPHORIC = /\b(?:(?:next|following|previous|preceding)\s+day|day\s+(?:after|before)|later|earlier|after(?:wards)?|before)\b/i;

const R1 = new Date(Date.UTC(2001, 0, 10, 12));
const R2 = new Date(Date.UTC(2001, 6, 19, 12));
const DAY_MS = 86_400_000;

const COUNT_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
const COUNT = '(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)';
const MOVE = new RegExp(
  `\\b(?:mov|push|shift|bring|brought|postpon|delay|reschedul|chang)\\w*\\b[^.?!\\n]{0,40}?\\b(?:(back|forward|ahead|up|earlier|later)\\s+)?(?:by\\s+)?${COUNT}\\s+(day|week)s?\\b(?:\\s+(back|forward|ahead|earlier|later|before|after))?`,
  'gi',
);
/** "this week", read both as the calendar week so far and as the last seven days (chrono reads no date in it). */
const THIS_UNIT = /\b(?:this|the current)\s+(week|month|year)\b/gi;
const FOLLOWING = /\bthe\s+(following|previous|preceding|next)\s+(day|week|month)\b/gi;

function ymd(c: chrono.ParsedComponents) {
  const get = (k: chrono.Component) => (c.isCertain(k) ? c.get(k) ?? undefined : undefined);
  return { y: get('year'), m: get('month'), d: get('day'), weekday: get('weekday') };
}

function dayNumber(y: number, m: number, d: number): number {
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

/** The relative expressions of the texts, at most `max`. */
export function relativeShifts(texts: readonly string[], max: number): Shift[] {
  const out: Shift[] = [];
  const push = (s: Shift) => {
    if (ANAPHORIC.test(s.phrase)) s.anaphoric = true;
    if (out.length < max && !out.some((o) => o.phrase === s.phrase && o.days === s.days && o.months === s.months)) out.push(s);
  };
  for (const text of texts) {
    if (out.length >= max) break;
    const a = chrono.casual.parse(text, R1);
    const b = chrono.casual.parse(text, R2);
    for (const ra of a) {
      const rb = b.find((x) => x.index === ra.index && x.text === ra.text);
      if (!rb) continue;
      const ka = ymd(ra.start);
      const kb = ymd(rb.start);
      if (ka.y !== undefined && ka.m !== undefined && ka.d !== undefined && kb.y !== undefined && kb.m !== undefined && kb.d !== undefined) {
        const da = dayNumber(ka.y, ka.m, ka.d) - dayNumber(2001, 1, 10);
        const db = dayNumber(kb.y, kb.m, kb.d) - dayNumber(2001, 7, 19);
        if (da === db && da !== 0 && ka.weekday === undefined) push({ phrase: ra.text, days: da });
        else if (da === db && da !== 0) push({ phrase: ra.text, days: da });
        continue;
      }
      if (ka.y !== undefined && ka.m !== undefined && ka.d === undefined && kb.y !== undefined && kb.m !== undefined) {
        const ma = ka.y * 12 + ka.m - (2001 * 12 + 1);
        const mb = kb.y * 12 + kb.m - (2001 * 12 + 7);
        if (ma === mb) push({ phrase: ra.text, months: ma });
        continue;
      }
      if (ka.y === undefined && ka.m !== undefined && ka.d !== undefined && ka.m === kb.m && ka.d === kb.d) {
        push({ phrase: ra.text, monthDay: { month: ka.m, day: ka.d } });
        continue;
      }
      // A month named alone is capitalised in English: "in may be late" is the verb.
      if (ka.y === undefined && ka.m !== undefined && ka.d === undefined && ka.m === kb.m && /^[A-Z]/.test(ra.text.replace(/^(?:in|for|during|the month of)\s+/i, ''))) push({ phrase: ra.text, month: ka.m });
    }
    for (const m of text.matchAll(MOVE)) {
      const n = /^\d+$/.test(m[2]!) ? Number(m[2]) : COUNT_WORDS[m[2]!.toLowerCase()]!;
      const days = n * (m[3]!.toLowerCase() === 'week' ? 7 : 1);
      const dir = (m[1] ?? m[4] ?? '').toLowerCase();
      if (dir === 'earlier' || dir === 'before') push({ phrase: m[0], days: -days, anaphoric: true });
      else if (dir === 'later' || dir === 'after' || dir === 'forward' || dir === 'ahead') push({ phrase: m[0], days, anaphoric: true });
      else push({ phrase: m[0], days, eitherWay: true, anaphoric: true });
    }
    for (const m of text.matchAll(THIS_UNIT)) {
      const unit = m[1]!.toLowerCase() as 'week' | 'month' | 'year';
      push({ phrase: m[0], startOf: unit });
      // "this week" is also the last seven days; "this month" is never last month.
      if (unit === 'week') push({ phrase: m[0], days: -7 });
    }
    for (const m of text.matchAll(FOLLOWING)) {
      const sign = /following|next/i.test(m[1]!) ? 1 : -1;
      const unit = m[2]!.toLowerCase();
      if (unit === 'month') push({ phrase: m[0], months: sign, anaphoric: true });
      else push({ phrase: m[0], days: sign * (unit === 'week' ? 7 : 1), anaphoric: true });
    }
  }
  return out;
}

/** A length of time the user or system wrote (`for one hour`, `90 minutes`), in minutes. */
export interface Length {
  phrase: string;
  minutes: number;
}

const AMOUNT = '(\\d{1,3}(?:[.,]\\d{1,2})?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)';
const LENGTH = new RegExp(`\\b(?:(half\\s+an?\\s+hour)|${AMOUNT}\\s*(hours?|hrs?|h|minutes?|mins?)\\b(\\s+and\\s+a\\s+half)?)`, 'gi');

/** The lengths of time written in the texts, at most `max` (minutes from 1 to 24 hours). */
export function statedLengths(texts: readonly string[], max: number): Length[] {
  const out: Length[] = [];
  for (const text of texts) {
    for (const m of text.matchAll(LENGTH)) {
      if (out.length >= max) return out;
      let minutes: number;
      if (m[1]) minutes = 30;
      else {
        const word = m[2]!.toLowerCase();
        const n = /^\d/.test(word) ? Number(word.replace(',', '.')) : COUNT_WORDS[word]!;
        minutes = n * (/^h/i.test(m[3]!) ? 60 : 1) + (m[4] ? (/^h/i.test(m[3]!) ? 30 : 0) : 0);
      }
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60) continue;
      if (!out.some((o) => o.minutes === minutes)) out.push({ phrase: m[0], minutes });
    }
  }
  return out;
}
