// The period verdict: whether the span of time a tool declared it holds covers the span a read
// asked about. Decided only from the instants the tool declared (ISO-8601 date-times WITH a zone,
// inclusive bounds); it must never read a clock, parse durations like "2h", or guess a zone.
// Pure: no I/O, no clocks, no globals.

import type { PeriodRange, PeriodVerdict } from '../model/ledger.js';

// Date-time with a zone: 2026-09-26T09:00:00Z, 2026-09-26T09:00:00.123+02:00, 2026-09-26T09:00+0200.
const ZONED_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)$/i;

const NS_PER_SECOND = 1_000_000_000n;

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Milliseconds since the epoch of a UTC calendar time (years 0000–0099 kept as written). */
function utcMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

/**
 * An instant as nanoseconds since the Unix epoch, exact (no millisecond rounding), or undefined
 * when the string is not an ISO-8601 date-time with a zone or names an impossible calendar date.
 */
export function zonedInstantNanos(text: string): bigint | undefined {
  const m = ZONED_INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day > daysIn(year, month)) return undefined;
  let offsetMinutes = 0;
  if (m[8]!.toUpperCase() !== 'Z') {
    const oh = Number(m[10]);
    const om = m[11] === undefined ? 0 : Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utcMs = utcMillis(year, month, day, hour, minute, second) - offsetMinutes * 60_000;
  const fraction = BigInt((m[7] ?? '').padEnd(9, '0') || '0');
  return (BigInt(utcMs) / 1000n) * NS_PER_SECOND + fraction;
}

/** True when `text` is an ISO-8601 date-time with a zone. */
export function isZonedInstant(text: unknown): text is string {
  return typeof text === 'string' && zonedInstantNanos(text) !== undefined;
}

function bounds(range: PeriodRange): [bigint, bigint] | undefined {
  const from = zonedInstantNanos(range.from);
  const to = zonedInstantNanos(range.to);
  if (from === undefined || to === undefined || from > to) return undefined;
  return [from, to];
}

/**
 * The verdict for one period: held 'unknown' → unknown; held contains queried → covered; no
 * instant in common → not-held; otherwise partly-held. Bounds are inclusive: ranges that share
 * one instant overlap. A range whose instants lack a zone or run backwards cannot be judged:
 * unknown.
 */
export function periodVerdict(queried: PeriodRange, held: PeriodRange | 'unknown'): PeriodVerdict {
  if (held === 'unknown') return 'unknown';
  const q = bounds(queried);
  const h = bounds(held);
  if (!q || !h) return 'unknown';
  if (h[0] <= q[0] && q[1] <= h[1]) return 'covered';
  if (q[1] < h[0] || q[0] > h[1]) return 'not-held';
  return 'partly-held';
}

/** Least held first: a call with several periods stands on its weakest one. */
const LEAST_HELD_ORDER: readonly PeriodVerdict[] = ['not-held', 'partly-held', 'unknown', 'covered'];

/** The least held of several verdicts; undefined when there are none. */
export function leastHeldVerdict(verdicts: readonly PeriodVerdict[]): PeriodVerdict | undefined {
  for (const v of LEAST_HELD_ORDER) if (verdicts.includes(v)) return v;
  return undefined;
}
