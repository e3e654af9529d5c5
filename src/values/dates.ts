// Dates, months and times as written, read by chrono-node (English, and German, French, Spanish,
// Italian, Portuguese, Dutch, Russian, Ukrainian, Japanese and Chinese where the text holds one of
// that language's month names, learned from `Intl.DateTimeFormat`): `May 19, 2024`, `19. Mai
// 2024`, `2024年5月19日`, `30.11.2025` and `11/30/2025` become `d:2024-05-19`…; an ambiguous day and
// month (`03/04/2025`) has both readings (chrono's US and British parsers). A date needs its year
// to be a value; a time needs its minutes (`2:00 AM` is `t:02:00`; `9 AM` is not read). A time
// written with a day offset (`03:00:00+1`, `00:00+1`) keeps it in its key (`t:03:00+1`), never as
// a time zone (chrono would read `+1` as UTC+1); zones are never converted. A reference instant is
// passed by the caller, never the clock. Pure: no I/O, no clocks, no globals besides the parsers.

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
/** A month name written beside a digit (`19. Mai`, `mai 2024`): a quick test that a language's parser has work. */
function besideDigit(names: readonly string[]): RegExp {
  const n = `(?<!\\p{L})(?:${names.map(esc).join('|')})(?!\\p{L})`;
  return new RegExp(`\\d[\\s.,]{0,3}(?:de\\s+)?${n}|${n}\\.?[\\s,]{0,3}\\d`, 'iu');
}
const OTHER_PARSERS: readonly LocaleParser[] = Object.freeze([
  ...LOCALES.map(([locale, parser]) => ({ parser, may: besideDigit(monthNames(locale)) })),
  { parser: chrono.ja.casual, may: /\d\s*年\s*\d{1,2}\s*月/ },
  { parser: chrono.zh.casual, may: /[\d〇一二三四五六七八九十]\s*年\s*[\d一二三四五六七八九十]{1,3}\s*月/ },
]);

/** A text may hold a date or time only with a numeric date, a clock, or an English month name beside a digit. */
const NUMERIC_OR_CLOCK = /\d{1,4}[-/.]\d{1,2}[-/.]\d|\d:\d\d/;
const ENGLISH_MONTH = besideDigit(monthNames('en'));
/** A bare ISO 8601 date, date-time or clock (a machine's format, as tool results write them): keyed without chrono. */
const ISO_LEAF = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$|^(\d{2}):(\d{2})(?::(\d{2}))?(?:\+(\d))?$/i;

/** Where a long text may hold a date: windows around digits beside date or clock marks or month names, merged. */
const HINT = /\d{1,4}[-/.]\d{1,2}[-/.]\d|\d:\d\d|\d\s*年|\d[\s.,]{0,3}\p{L}{3,}|\p{L}{3,}\.?[\s,]{0,3}\d/gu;
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
/** A time written with minutes, and a day offset after it (`23:00`, `03:00:00+1`). */
const CLOCK = /(?<!\d)(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?\+(\d)(?![\d:]))?/;
const CLOCK_G = new RegExp(CLOCK.source, 'g');

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

function timeValue(text: string, at: number, hour: number | undefined, served: boolean, values: TypedValue[]): void {
  CLOCK_G.lastIndex = 0;
  const m = CLOCK_G.exec(text);
  if (!m) return;
  const minute = Number(m[2]);
  // chrono applies AM/PM to the hour; the written hour otherwise.
  const h = hour ?? Number(m[1]);
  const keys = timeKeys(h, minute, m[3] !== undefined ? Number(m[3]) : undefined, m[4] !== undefined ? Number(m[4]) : undefined, served);
  if (keys.length === 0) return;
  // The value runs from the clock to the end of what chrono read (`2:00 AM`), or to the day offset.
  const start = at + m.index;
  const tail = text.slice(m.index + m[0].length);
  const meridiem = /^\s*[ap]\.?m\.?(?![a-z])/i.exec(tail);
  const end = start + m[0].length + (meridiem ? meridiem[0].length : 0);
  values.push({ kind: 'time', raw: text.slice(m.index, m.index + (end - start)), start, end, keys, key: keys[0]! });
}

function fromResult(r: chrono.ParsedResult, served: boolean, values: TypedValue[], second?: chrono.Chrono): void {
  const k = known(r.start);
  const text = r.text;
  // chrono takes a leading "at"/"on" into the text: the value starts at the first digit or letter of the date itself.
  if (k.y !== undefined && k.m !== undefined && k.d !== undefined) {
    const dates = new Set<string>();
    const first = isoDate(k.y, k.m, k.d);
    if (first) dates.add(first);
    // The date part ends where a clock starts (`Nov 30, 2025 at 2:00 AM`).
    const clock = CLOCK.exec(text);
    let dateText = clock ? text.slice(0, clock.index).replace(/[\s,:T]*(?:at|um|à|a las|alle|às|om|в)?[\s,:]*$/i, '') : text;
    const lead = /^(?:on|am|le|el|il|em|op|at)\s+/i.exec(dateText)?.[0].length ?? 0;
    dateText = dateText.slice(lead);
    if (second && NUMERIC_DATE.test(dateText)) {
      for (const o of second.parse(dateText, FIXED_REFERENCE)) {
        const ko = known(o.start);
        if (ko.y !== undefined && ko.m !== undefined && ko.d !== undefined) {
          const d = isoDate(ko.y, ko.m, ko.d);
          if (d) dates.add(d);
        }
      }
    }
    if (dates.size === 0) return;
    const start = r.index + lead;
    const keys = [...dates].map((d) => KEY.date + d);
    if (served) keys.push(...[...dates].map((d) => KEY.month + d.slice(0, 7)));
    values.push({ kind: 'date', raw: dateText, start, end: start + dateText.length, keys, key: keys[0]!, date: [...dates][0]! });
    if (clock && k.hour !== undefined) timeValue(text.slice(clock.index), r.index + clock.index, k.hour, served, values);
    return;
  }
  if (k.y !== undefined && k.m !== undefined && k.d === undefined && k.hour === undefined) {
    const key = `${KEY.month}${k.y}-${pad(k.m)}`;
    values.push({ kind: 'month', raw: text, start: r.index, end: r.index + text.length, keys: [key], key });
    return;
  }
  if (k.hour !== undefined && k.minute !== undefined && CLOCK.test(text)) {
    const clock = CLOCK.exec(text)!;
    timeValue(text.slice(clock.index), r.index + clock.index, k.hour, served, values);
  }
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
    const t = timeKeys(Number(iso[7]), Number(iso[8]), iso[9] !== undefined ? Number(iso[9]) : undefined, iso[10] !== undefined ? Number(iso[10]) : undefined, served);
    if (t.length > 0) values.push({ kind: 'time', raw: text, start: 0, end: text.length, keys: t, key: t[0]! });
    return values;
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
      const moved = { ...v, start: v.start + from, end: v.end + from };
      if (!values.some((o) => moved.start < o.end && moved.end > o.start)) values.push(moved);
    }
  }
  return values.sort((a, b) => a.start - b.start);
}
