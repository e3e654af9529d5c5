// Dates, months, times and their ranges as written, read by chrono-node (English, and German,
// French, Spanish, Italian, Portuguese, Dutch, Russian, Ukrainian, Japanese and Chinese where the
// text holds one of that language's month names, learned from `Intl.DateTimeFormat`, or a French
// `10h30`): `May 19, 2024`, `19. Mai 2024`, `2024年5月19日`, `30.11.2025` and `11/30/2025` become
// `d:2024-05-19`…; an ambiguous day and month (`03/04/2025`) has both readings (chrono's US and
// British parsers). A date needs its year to be a value (a range's year written once, `May 3 -
// May 5, 2024`, serves both ends). A time needs its minutes, its meridiem or "o'clock" (`2:00 AM`
// is `t:02:00`, `1 PM` is `t:13:00`, `10h30` is `t:10:30`, `9` alone is not read); a clock
// without a meridiem in 12-hour form (`1:30`, `4:30`; never `01:30`, `16:30`, `10h30` or one right
// after a numeric date) has both readings (`t:01:30`, `t:13:30`), and a clock written `0H:MM` or
// `1h30` also reads as a duration (`01:30` is 90 minutes). A range chrono reads (`10:00-11:00`,
// `5:00 PM - 7:00 PM`, `from 9am to 5pm`) is one value of kind `range` whose ends are values of
// their own. A time written with a day offset (`03:00:00+1`, `00:00+1`) keeps it in its key
// (`t:03:00+1`), never as a time zone (chrono would read `+1` as UTC+1); zones are never
// converted. A reference instant is passed by the caller, never the clock. Pure: no I/O, no
// clocks, no globals besides the parsers.

import * as chrono from 'chrono-node';
import { KEY, type TypedValue } from './types.js';

/** Any fixed instant: only values whose year is written are kept, so it never shows in a key. */
const FIXED_REFERENCE = new Date(Date.UTC(2001, 0, 10, 12));

const pad = (n: number) => String(n).padStart(2, '0');

interface LocaleParser {
  parser: chrono.Chrono;
  /** A quick test that the text may hold a date in this language (its month names). */
  may: RegExp;
}

function monthNames(locale: string): string[] {
  const out = new Set<string>();
  for (const month of ['long', 'short'] as const) {
    for (const context of ['format', 'standalone']) {
      void context;
      const f = new Intl.DateTimeFormat(locale, { month, day: 'numeric', timeZone: 'UTC' });
      for (let m = 0; m < 12; m++) {
        const part = f.formatToParts(new Date(Date.UTC(2001, m, 15))).find((p) => p.type === 'month')?.value;
        if (part) out.add(part.toLowerCase().replace(/\.$/, ''));
      }
    }
  }
  return [...out].filter((n) => n.length >= 3 && !/^\d+$/.test(n));
}

const LOCALES: readonly [string, chrono.Chrono][] = [
  ['de', chrono.de.casual],
  ['fr', chrono.fr.casual],
  ['es', chrono.es.casual],
  ['it', chrono.it.casual],
  ['pt', chrono.pt.casual],
  ['nl', chrono.nl.casual],
  ['ru', chrono.ru.casual],
  ['uk', chrono.uk.casual],
];

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Between a month name and its digits: a few marks, or a line break and its indent (a folded line). */
const BESIDE = String.raw`(?:[\s.,]{0,3}|[.,]?\s{1,16})`;
/** A month name written beside a digit (`19. Mai`, `mai 2024`): a quick test that a language's parser has work. */
function besideDigit(names: readonly string[]): RegExp {
  const n = `(?<!\\p{L})(?:${names.map(esc).join('|')})(?!\\p{L})`;
  return new RegExp(`\\d${BESIDE}(?:de\\s+)?${n}|${n}\\.?${BESIDE}\\d`, 'iu');
}
/** A clock written with an `h` between hours and minutes (`10h30`, `1h30`), as French writes it. */
const H_CLOCK = /(?<![\p{L}\d])\d{1,2}h\d{2}(?!\d)/iu;
const OTHER_PARSERS: readonly LocaleParser[] = Object.freeze([
  ...LOCALES.map(([locale, parser]) => {
    const names = besideDigit(monthNames(locale));
    // chrono's French parser reads `10h30`; the others only have work beside their month names.
    return { parser, may: locale === 'fr' ? new RegExp(`${names.source}|${H_CLOCK.source}`, 'iu') : names };
  }),
  { parser: chrono.ja.casual, may: /\d\s*年\s*\d{1,2}\s*月/ },
  { parser: chrono.zh.casual, may: /[\d〇一二三四五六七八九十]\s*年\s*[\d一二三四五六七八九十]{1,3}\s*月/ },
]);

/** A text may hold a date or time only with a numeric date, a clock, an hour with its meridiem or "o'clock", or an English month name beside a digit. */
const NUMERIC_OR_CLOCK = /\d{1,4}[-/.]\d{1,2}[-/.]\d|\d:\d\d|\d\s?[ap]\.?\s?m(?![a-z])|\d\s?o['’]?\s?clock/i;
const ENGLISH_MONTH = besideDigit(monthNames('en'));
/** A bare ISO 8601 date, date-time or clock (a machine's format, as tool results write them): keyed without chrono. */
const ISO_LEAF = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$|^(\d{2}):(\d{2})(?::(\d{2}))?(?:\+(\d))?$/i;

/** Where a long text may hold a date: windows around digits beside date or clock marks or month names, merged. */
const HINT = new RegExp(String.raw`\d{1,4}[-/.]\d{1,2}[-/.]\d|\d[:hH]\d\d|\d\s*年|\d\s?[aApP]\.?\s?[mM](?!\p{L})|\d\s?o['’]?\s?clock|\d${BESIDE}\p{L}{3,}|\p{L}{3,}\.?${BESIDE}\d`, 'gu');
const WINDOW = 48;
function windows(text: string): [number, number][] {
  if (text.length <= 4 * WINDOW) return [[0, text.length]];
  const out: [number, number][] = [];
  for (const m of text.matchAll(HINT)) {
    const a = Math.max(0, m.index - WINDOW);
    const b = Math.min(text.length, m.index + m[0].length + WINDOW);
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  // A window starts and ends at a blank, so no word is cut.
  return out.map(([a, b]) => {
    let x = a;
    while (x > 0 && !/\s/.test(text[x - 1]!)) x--;
    let y = b;
    while (y < text.length && !/\s/.test(text[y]!)) y++;
    return [x, y];
  });
}

/** `11/30/2025`, `30.11.2025`, `2025/11/30`: a numeric date, read both ways where day and month are ambiguous. */
const NUMERIC_DATE = /^\d{1,4}([/.-])\d{1,2}\1\d{2,4}$/;
/**
 * A time as written: a clock with its seconds, day offset and meridiem (`23:00`, `03:00:00+1`,
 * `7:00 PM`), an hour with its meridiem (`1 PM`, `8 a.m.`), or an hour with "o'clock". A match
 * with none of minutes, meridiem or "o'clock" is no time (`10th`, `2024`).
 */
const TIME_TEXT = /(?<![\d.,])(\d{1,2})(?:([:h])(\d{2})(?::(\d{2}))?(?:\s?\+(\d)(?![\d:]))?)?(?:(\s?([ap])\.?\s?m\.?(?![a-z]))|(\s?o['’]?\s?clock))?/gi;
/** A clock with its minutes, not part of a longer run of digits, colons or decimals. */
const LONE_CLOCK = /(?<![\d.,:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:]|[.,]\d)/g;
/** A clock right after a numeric date (`2024-05-15 10:00`, `2024-05-15T10:00`): a machine's 24-hour form. */
const AFTER_NUMERIC_DATE = /\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}[T\s]{1,3}$/i;

interface TimeText {
  index: number;
  end: number;
  hour: number;
  minute?: number;
  second?: number;
  dayOffset?: number;
  /** `a` or `p` when written. */
  meridiem?: string;
  /** The hour was written with a leading zero (`01:30`). */
  padded: boolean;
  /** Written `10h30`: a 24-hour clock (French), or hours and minutes. */
  h: boolean;
}

/** The first time written in a text, if any. */
function firstTime(text: string): TimeText | undefined {
  TIME_TEXT.lastIndex = 0;
  for (const m of text.matchAll(TIME_TEXT)) {
    if (m[3] === undefined && m[6] === undefined && m[8] === undefined) continue;
    return {
      index: m.index,
      end: m.index + m[0].length,
      hour: Number(m[1]),
      ...(m[3] !== undefined ? { minute: Number(m[3]) } : {}),
      ...(m[4] !== undefined ? { second: Number(m[4]) } : {}),
      ...(m[5] !== undefined ? { dayOffset: Number(m[5]) } : {}),
      ...(m[7] !== undefined ? { meridiem: m[7].toLowerCase() } : {}),
      padded: m[1]!.length === 2 && m[1]!.startsWith('0'),
      h: m[2] === 'h' || m[2] === 'H',
    };
  }
  return undefined;
}

/** The year, month and day chrono knows (not implied), if all three. */
function known(c: chrono.ParsedComponents): { y?: number; m?: number; d?: number; hour?: number; minute?: number; second?: number } {
  const get = (k: chrono.Component) => (c.isCertain(k) ? c.get(k) ?? undefined : undefined);
  return { y: get('year'), m: get('month'), d: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

function isoDate(y: number, m: number, d: number): string | undefined {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** Time keys of a clock reading: `t:HH:MM` (and `:SS` when not zero), with the day offset if written. */
export function timeKeys(hour: number, minute: number, second: number | undefined, dayOffset: number | undefined, served: boolean): string[] {
  if (hour > 24 || minute > 59 || (second ?? 0) > 59) return [];
  const hm = `${KEY.time}${pad(hour)}:${pad(minute)}`;
  const hms = second ? `${hm}:${pad(second)}` : undefined;
  const off = dayOffset ? `+${dayOffset}` : '';
  if (!served) return [hms ? hms + off : hm + off];
  // A served time meets the same time written with fewer parts: with or without its seconds or its day offset.
  const out = [hm + off, hm];
  if (hms) out.push(hms + off, hms);
  return [...new Set(out)];
}

/**
 * The hours a written time may mean: with its meridiem, that one (`1 PM` is 13); a clock in
 * 12-hour form without one (`1:30`, `4:30`, an hour from 1 to 11 without a leading zero, no
 * seconds, not after a numeric date) both (1 and 13); otherwise the hour as written.
 */
function hoursOf(t: TimeText, machine: boolean): number[] {
  if (t.meridiem) {
    if (t.hour < 1 || t.hour > 12) return [];
    return [(t.hour % 12) + (t.meridiem === 'p' ? 12 : 0)];
  }
  if (t.hour >= 1 && t.hour <= 11 && !t.padded && !t.h && t.second === undefined && !machine) return [t.hour, t.hour + 12];
  return [t.hour];
}

/** The time written in `text` (a chrono result's text, or one end of its range), as a value at `at`. */
function timeValue(text: string, at: number, served: boolean, values: TypedValue[]): void {
  const t = firstTime(text);
  if (!t) return;
  const minute = t.minute ?? 0;
  const keys = [...new Set(hoursOf(t, AFTER_NUMERIC_DATE.test(text.slice(0, t.index))).flatMap((h) => timeKeys(h, minute, t.second, t.dayOffset, served)))];
  if (keys.length === 0) return;
  const raw = text.slice(t.index, t.end).trimEnd();
  // A clock written `0H:MM` or `1h30` without a meridiem also reads as hours and minutes (`01:30`:
  // 90 minutes), as an answer in 'HH:MM' form gives a duration; `1:30` or `14:30` is a time of day only.
  const duration = (t.padded || t.h) && t.minute !== undefined && !t.meridiem && t.dayOffset === undefined && t.second === undefined ? t.hour * 60 + t.minute : undefined;
  values.push({ kind: 'time', raw, start: at + t.index, end: at + t.index + raw.length, keys, key: keys[0]!, ...(duration ? { duration } : {}) });
}

/** What joins a date to the time after it (`, at`, `um`, `T`), and the time to a date after it (`on`). */
const JOIN_BEFORE_TIME = /(?:[\s,:]|(?<=\d)[Tt])*(?:(?<!\p{L})(?:at|um|à|a las|alle|às|om|в|on|from|between|von|ab|dès|de|desde|dalle|dalle ore|vanaf|с))?[\s,:]*$/iu;
const JOIN_AFTER_TIME = /^[\s,]*(?:(?:on|am|le|el|il|em|op|de)(?!\p{L}))?[\s,]*/iu;
const LEAD = /^(?:(?:on|am|le|el|il|em|op|at|from|von|du|de|del|dal|vanaf|с)\s+)+/i;

/**
 * The values of one point chrono read (a result's start, or one end of a range) from its own
 * text, which starts at `at` of the caller's text. `yearOf`: a year chrono implied from the other
 * end of the same range, where that end wrote it.
 */
function fromComponents(c: chrono.ParsedComponents, text: string, at: number, served: boolean, values: TypedValue[], second?: chrono.Chrono, yearOf?: number): void {
  const k = known(c);
  if (k.y === undefined && yearOf !== undefined && c.get('year') === yearOf) k.y = yearOf;
  const time = k.hour !== undefined ? firstTime(text) : undefined;
  if (k.y !== undefined && k.m !== undefined && k.d !== undefined) {
    const dates = new Set<string>();
    const first = isoDate(k.y, k.m, k.d);
    if (first) dates.add(first);
    // The date is the text around its time (`Nov 30, 2025 at 2:00 AM`, `1 PM on June 10, 2024`), without what joins them.
    let from = 0;
    let dateText = text;
    if (time) {
      const before = text.slice(0, time.index).replace(JOIN_BEFORE_TIME, '');
      const afterRaw = text.slice(time.end);
      const skip = JOIN_AFTER_TIME.exec(afterRaw)?.[0].length ?? 0;
      const after = afterRaw.slice(skip).trimEnd();
      if (/\d/.test(before) || !/\d/.test(after)) dateText = before;
      else {
        dateText = after;
        from = time.end + skip;
      }
    }
    const lead = LEAD.exec(dateText)?.[0].length ?? 0;
    dateText = dateText.slice(lead).trimEnd();
    from += lead;
    if (second && NUMERIC_DATE.test(dateText)) {
      for (const o of second.parse(dateText, FIXED_REFERENCE)) {
        const ko = known(o.start);
        if (ko.y !== undefined && ko.m !== undefined && ko.d !== undefined) {
          const d = isoDate(ko.y, ko.m, ko.d);
          if (d) dates.add(d);
        }
      }
    }
    const timed: TypedValue[] = [];
    if (time) timeValue(text, at, served, timed);
    // A range's end that writes only its time (`… from 18:00 to 19:00`): chrono copies the date to it, unwritten.
    if (dates.size === 0 || !/\d/.test(dateText)) {
      values.push(...timed);
      return;
    }
    const keys = [...dates].map((d) => KEY.date + d);
    if (served) keys.push(...[...dates].map((d) => KEY.month + d.slice(0, 7)));
    const date: TypedValue = { kind: 'date', raw: dateText, start: at + from, end: at + from + dateText.length, keys, key: keys[0]!, date: [...dates][0]! };
    values.push(...[date, ...timed].sort((a, b) => a.start - b.start));
    return;
  }
  if (k.y !== undefined && k.m !== undefined && k.d === undefined && k.hour === undefined) {
    const lead = LEAD.exec(text)?.[0].length ?? 0;
    const raw = text.slice(lead).trimEnd();
    const key = `${KEY.month}${k.y}-${pad(k.m)}`;
    values.push({ kind: 'month', raw, start: at + lead, end: at + lead + raw.length, keys: [key], key });
    return;
  }
  if (time && k.minute !== undefined) timeValue(text, at, served, values);
}

/** What joins a range's ends (`to`, `until`, ` - `, `–`), or a bare hyphen outside a numeric date. */
const RANGE_WORD = /\s+(?:-|–|—|‒|to|until|till|through|thru|bis|à|a|al|au|tot)\s+|\s*[–—‒]\s*/giu;
const RANGE_HYPHEN = /\s*-\s*/g;
const NUMERIC_DATE_G = /\d{1,4}([-/.])\d{1,2}\1\d{1,4}/g;

/** Where a range's text is cut into its two ends: the first joining word or dash that is not inside a numeric date. */
function rangeCut(text: string): { index: number; length: number } | undefined {
  const dates = [...text.matchAll(NUMERIC_DATE_G)].map((m) => [m.index, m.index + m[0].length] as const);
  const inside = (i: number, n: number) => dates.some(([a, b]) => i < b && i + n > a);
  for (const re of [RANGE_WORD, RANGE_HYPHEN]) {
    for (const m of text.matchAll(re)) {
      if (m.index === 0 || m.index + m[0].length >= text.length || inside(m.index, m[0].length)) continue;
      return { index: m.index, length: m[0].length };
    }
  }
  return undefined;
}

function fromResult(r: chrono.ParsedResult, served: boolean, values: TypedValue[], second?: chrono.Chrono): void {
  const cut = r.end ? rangeCut(r.text) : undefined;
  if (!r.end || !cut) {
    fromComponents(r.start, r.text, r.index, served, values, second);
    return;
  }
  // A range: each end is read from its own text; a year written once serves both.
  const yearOf = (c: chrono.ParsedComponents) => (c.isCertain('year') ? (c.get('year') ?? undefined) : undefined);
  const a: TypedValue[] = [];
  const b: TypedValue[] = [];
  fromComponents(r.start, r.text.slice(0, cut.index), r.index, served, a, second, yearOf(r.end));
  fromComponents(r.end, r.text.slice(cut.index + cut.length), r.index + cut.index + cut.length, served, b, second, yearOf(r.start));
  if (a.length === 0 || b.length === 0) {
    values.push(...a, ...b);
    return;
  }
  const parts = [...a, ...b];
  const start = parts[0]!.start;
  const end = parts[parts.length - 1]!.end;
  const keys = [...new Set(parts.flatMap((p) => p.keys))];
  values.push({ kind: 'range', raw: r.text.slice(start - r.index, end - r.index), start, end, keys, key: parts[0]!.key, parts });
}

/** A value read from a window of the text, placed in the whole text (a range's ends with it). */
function shifted(v: TypedValue, by: number): TypedValue {
  return { ...v, start: v.start + by, end: v.end + by, ...(v.parts ? { parts: v.parts.map((p) => shifted(p, by)) } : {}) };
}

/**
 * The dates, months and times of an NFKC text, in text order. `served` adds the keys a served value
 * also meets (a served date serves its month; a served `10:30:00+1` serves `10:30`).
 */
export function readDates(text: string, served: boolean): TypedValue[] {
  const values: TypedValue[] = [];
  if (!/\d/.test(text)) return values;
  const iso = ISO_LEAF.exec(text);
  if (iso) {
    if (iso[1]) {
      const d = isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
      if (!d) return values;
      const keys = [KEY.date + d, ...(served ? [KEY.month + d.slice(0, 7)] : [])];
      values.push({ kind: 'date', raw: text.slice(0, 10), start: 0, end: 10, keys, key: keys[0]!, date: d });
      if (iso[4]) {
        const t = timeKeys(Number(iso[4]), Number(iso[5]), iso[6] !== undefined ? Number(iso[6]) : undefined, undefined, served);
        if (t.length > 0) values.push({ kind: 'time', raw: text.slice(11), start: 11, end: text.length, keys: t, key: t[0]! });
      }
      return values;
    }
    // A bare clock leaf is a machine's 24-hour form; an answer that is only a clock is read as written (below).
    if (served) {
      const t = timeKeys(Number(iso[7]), Number(iso[8]), iso[9] !== undefined ? Number(iso[9]) : undefined, iso[10] !== undefined ? Number(iso[10]) : undefined, served);
      if (t.length > 0) values.push({ kind: 'time', raw: text, start: 0, end: text.length, keys: t, key: t[0]! });
      return values;
    }
  }
  // A long text is read only around what may be a date or a clock (chrono reads every word it is given).
  for (const [from, to] of windows(text)) {
    const part = text.slice(from, to);
    const found: TypedValue[] = [];
    if (NUMERIC_OR_CLOCK.test(part) || ENGLISH_MONTH.test(part)) for (const r of chrono.casual.parse(part, FIXED_REFERENCE)) fromResult(r, served, found, chrono.en.GB);
    for (const p of OTHER_PARSERS) {
      if (!p.may.test(part)) continue;
      for (const r of p.parser.parse(part, FIXED_REFERENCE)) {
        const more: TypedValue[] = [];
        fromResult(r, served, more);
        for (const v of more) if (!found.some((o) => v.start < o.end && v.end > o.start)) found.push(v);
      }
    }
    for (const v of found) {
      const moved = shifted(v, from);
      if (!values.some((o) => moved.start < o.end && moved.end > o.start)) values.push(moved);
    }
  }
  // A clock chrono left unread beside another (`10:00 ~ 11:00`, `10:00/11:00`): read as written.
  if (/\d:\d\d/.test(text)) {
    const read = values.length;
    for (const m of text.matchAll(LONE_CLOCK)) {
      const end = m.index + m[0].length;
      if (values.some((o, i) => i < read && m.index < o.end && end > o.start)) continue;
      timeValue(text.slice(m.index, end + 6), m.index, served, values);
    }
  }
  return values.sort((a, b) => a.start - b.start);
}
