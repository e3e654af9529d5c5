// Bounded derivations of served values, each with its steps as the witness: a number that is a
// served number rounded to the precision the value states, converted between units (js-quantities;
// a currency's minor units from `Intl`; a ratio as a percentage), with its sign moved, or the sum,
// difference, product or ratio of two or three served numbers; a number the model computed itself
// in writing (`$402 + $306 + $308 + $16005 = $17021`) whose operands are served and whose
// arithmetic is right; a date or month that is a served date shifted by a relative expression the
// user or system wrote; hours and minutes that are the time between two served times of day; a
// time of day that is a served one moved by a length of time the user or system wrote. Exact, or to the precision the value states (arithmetic: exact or to the
// decimals stated). Never the clock; bounded by its callers' caps. Pure: no I/O, no clocks, no globals.

import type { NumberReading } from './types.js';
import type { ServedDate, ServedNumber, ServedTime } from './served.js';
import type { Length, Shift } from './relative.js';
import { convert } from './quantities.js';
import { readNumerals } from './numerals.js';

/** A derivation: what was computed, from which served values, and the value it gives. */
export interface Derivation {
  /** `2787 − 207 = 2,580`, `2024-05-18 + 1 day ("the next day") = 2024-05-19`. */
  formula: string;
  operands: ServedNumber[];
  value: number;
  /** What kind of step it is (for the witness). */
  step: 'rounding' | 'unit' | 'sign' | 'arithmetic' | 'written';
}

/** An answer number: one reading, and whether a hedge word came before it. */
export interface StatedNumber extends NumberReading {
  hedged: boolean;
  unit?: string;
  currency?: string;
}

const HEDGE = /(?:\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|circa|ca\.|some|close to|just (?:over|under)|an estimated|estimated|est\.)|~|≈)\s*[$€£¥]?\s*$/i;

/** Whether some occurrence of `raw` in the (NFKC) text follows a hedge word or sign (`about`, `roughly`, `~`). */
export function hedgedIn(text: string, raw: string): boolean {
  let from = 0;
  for (let n = 0; n < 32; n++) {
    const i = text.indexOf(raw, from);
    if (i < 0) return false;
    if (HEDGE.test(text.slice(Math.max(0, i - 24), i))) return true;
    from = i + raw.length;
  }
  return false;
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function meetsAtDecimals(v: number, t: number, decimals: number): boolean {
  const p = 10 ** decimals;
  const scaled = v * p;
  return near(Math.round(scaled + 1e-9 * Math.max(1, Math.abs(scaled))) / p, t) || near(Math.trunc(scaled) / p, t);
}

export type Rounding = 'full' | 'fine';

/**
 * Whether `v` meets the stated number: equal; or rounded or cut to the decimals it states; with
 * `full` rounding also an integer cut or rounded from a fraction, and an integer with trailing
 * zeros a value rounded to them when it keeps two significant digits or is hedged.
 */
export function meetsNumber(t: StatedNumber, v: number, rounding: Rounding): boolean {
  if (near(v, t.value)) return true;
  if (t.decimals > 0) return meetsAtDecimals(v, t.value, t.decimals);
  if (rounding === 'fine') return false;
  if (Math.abs(v - t.value) < 1 && !Number.isInteger(v)) return meetsAtDecimals(v, t.value, 0);
  if (t.trailingZeros > 0 && (t.hedged || t.significant >= 2)) {
    const step = 10 ** t.trailingZeros;
    return near(Math.round(v / step) * step, t.value) || near(Math.trunc(v / step) * step, t.value);
  }
  return false;
}

/** A number as a witness shows it (`1,169.75`). */
export function shown(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Number(v.toPrecision(12)).toLocaleString('en-US', { maximumFractionDigits: 10 });
}

/** Minor units of a currency from `Intl` (2 for EUR, 0 for JPY). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The ways a served number may be written in the stated number's unit, besides itself. */
function conversions(t: StatedNumber, n: ServedNumber): { value: number; label: string }[] {
  const out: { value: number; label: string }[] = [];
  if (t.unit && n.unit && t.unit !== '%') {
    for (const v of convert(n.value, n.unit, t.unit)) out.push({ value: v, label: `${n.unit} → ${t.unit}` });
    // `MB`, `GB` … written for binary multiples (as many systems print them): also read as `MiB`, `GiB` ….
    const binary = /^([kKMGTP])B$/.exec(t.unit);
    if (binary) for (const v of convert(n.value, n.unit, `${binary[1]!.toUpperCase()}iB`)) out.push({ value: v, label: `${n.unit} → ${binary[1]!.toUpperCase()}iB (written ${t.unit})` });
  }
  if (t.currency && n.unit && /^cents?$/i.test(n.unit)) out.push({ value: n.value / 10 ** minorDigits(t.currency), label: `minor units → ${t.currency}` });
  if (t.unit === '%' && (n.unit === undefined || /^(ratio|rate|fraction|share)$/i.test(n.unit))) out.push({ value: n.value * 100, label: 'ratio × 100 %' });
  return out;
}

/**
 * The first served number the stated number meets rounded, converted, or with its sign moved;
 * `pool` is searched in full (bounded by its builder).
 */
export function meetServed(t: StatedNumber, pool: readonly ServedNumber[]): Derivation | undefined {
  for (const n of pool) {
    if (meetsNumber(t, n.value, 'full')) return { formula: near(n.value, t.value) ? n.text : `${n.text} rounded = ${shown(t.value)}`, operands: [n], value: n.value, step: 'rounding' };
  }
  for (const n of pool) {
    for (const c of conversions(t, n)) {
      if (meetsNumber(t, c.value, 'fine') || (t.hedged && meetsNumber(t, c.value, 'full'))) return { formula: `${n.text} ${n.unit ?? ''} (${c.label}) = ${shown(c.value)}`.replace('  ', ' '), operands: [n], value: c.value, step: 'unit' };
    }
  }
  for (const n of pool) {
    if (n.value !== 0 && meetsNumber(t, -n.value, 'fine')) return { formula: `−(${n.text}) = ${shown(-n.value)}`, operands: [n], value: -n.value, step: 'sign' };
  }
  return undefined;
}

export interface ArithmeticBounds {
  maxPairOperands: number;
  maxTripleOperands: number;
}

/** The operands worth trying: distinct absolute values, 0 and 1 left out, at most `max`, in the given order. */
export function arithmeticOperands(pool: readonly ServedNumber[], max: number): ServedNumber[] {
  const out: ServedNumber[] = [];
  const seen = new Set<number>();
  for (const n of pool) {
    if (out.length >= max) break;
    if (n.value === 0 || n.value === 1 || seen.has(n.value)) continue;
    seen.add(n.value);
    out.push(n);
  }
  return out;
}

/**
 * The first formula over the operands that gives the stated number (its sign aside: a refund of
 * `2580` is the difference `207 − 2787` too), two operands before three; a served 1 is only the
 * numerator of a ratio.
 */
export function deriveNumber(t: StatedNumber, operands: readonly ServedNumber[], bounds: ArithmeticBounds, one?: ServedNumber): Derivation | undefined {
  // Exact, or to the decimals stated; a hedge widens it to the trailing zeros stated only when they
  // leave three significant digits (`about $2,340` of 2340.50; `about 39,000` is no rounded sum).
  const rounding = t.hedged && t.significant >= 3 ? 'full' : 'fine';
  const meets = (v: number) => Number.isFinite(v) && (meetsNumber(t, v, rounding) || (v < 0 && meetsNumber(t, -v, rounding)));
  const pair = operands.slice(0, bounds.maxPairOperands);
  const w = (n: ServedNumber) => n.text;
  const found = (formula: string, ops: ServedNumber[], value: number): Derivation => ({ formula: `${formula} = ${shown(value)}`, operands: ops, value, step: 'arithmetic' });
  for (let i = 0; i < pair.length; i++) {
    const a = pair[i]!;
    for (let j = 0; j < pair.length; j++) {
      if (j === i) continue;
      const b = pair[j]!;
      if (j > i) {
        if (meets(a.value + b.value)) return found(`${w(a)} + ${w(b)}`, [a, b], a.value + b.value);
        if (meets(a.value * b.value)) return found(`${w(a)} × ${w(b)}`, [a, b], a.value * b.value);
      }
      if (meets(a.value - b.value)) return found(`${w(a)} − ${w(b)}`, [a, b], a.value - b.value);
      if (meets(a.value / b.value)) return found(`${w(a)} ÷ ${w(b)}`, [a, b], a.value / b.value);
      if (meets((a.value / b.value) * 100)) return found(`${w(a)} ÷ ${w(b)} × 100`, [a, b], (a.value / b.value) * 100);
    }
  }
  if (one) {
    for (const b of pair) {
      if (meets(1 / b.value)) return found(`${w(one)} ÷ ${w(b)}`, [one, b], 1 / b.value);
      if (meets(100 / b.value)) return found(`${w(one)} ÷ ${w(b)} × 100`, [one, b], 100 / b.value);
    }
  }
  const triple = pair.slice(0, bounds.maxTripleOperands);
  for (let i = 0; i < triple.length; i++) {
    const a = triple[i]!;
    for (let j = i + 1; j < triple.length; j++) {
      const b = triple[j]!;
      for (let k = 0; k < triple.length; k++) {
        if (k === i || k === j) continue;
        const c = triple[k]!;
        if (k > j) {
          if (meets(a.value + b.value + c.value)) return found(`${w(a)} + ${w(b)} + ${w(c)}`, [a, b, c], a.value + b.value + c.value);
          if (meets(a.value * b.value * c.value)) return found(`${w(a)} × ${w(b)} × ${w(c)}`, [a, b, c], a.value * b.value * c.value);
        }
        if (meets(a.value + b.value - c.value)) return found(`${w(a)} + ${w(b)} − ${w(c)}`, [a, b, c], a.value + b.value - c.value);
        if (meets(c.value - a.value - b.value)) return found(`${w(c)} − ${w(a)} − ${w(b)}`, [c, a, b], c.value - a.value - b.value);
      }
    }
  }
  // Percentages: a change between two served numbers stated as a percentage ("rose by 12.5%"), and
  // a served percentage applied to a served number ("1,210.00 after the 10% increase", "15% of it").
  for (let i = 0; i < pair.length; i++) {
    const a = pair[i]!;
    for (let j = 0; j < pair.length; j++) {
      if (j === i) continue;
      const b = pair[j]!;
      if (t.unit === '%' && b.value !== 0 && meets(((a.value - b.value) / b.value) * 100)) return found(`(${w(a)} − ${w(b)}) ÷ ${w(b)} × 100`, [a, b], ((a.value - b.value) / b.value) * 100);
      if (a.unit !== '%') continue;
      if (meets(b.value * (1 + a.value / 100))) return found(`${w(b)} × (1 + ${w(a)})`, [b, a], b.value * (1 + a.value / 100));
      if (meets(b.value * (1 - a.value / 100))) return found(`${w(b)} × (1 − ${w(a)})`, [b, a], b.value * (1 - a.value / 100));
      if (meets((b.value * a.value) / 100)) return found(`${w(b)} × ${w(a)}`, [b, a], (b.value * a.value) / 100);
    }
  }
  return undefined;
}

/** A computation written out (`$402 + $306 + $308 + $16005 = $17021`): operands, operators, the stated result. */
const WRITTEN = /((?:[(]?\s*[$€£¥]?\s*-?\d[\d,.' ]*\s*[)]?\s*[-+×x*÷/−]\s*){1,15}[$€£¥]?\s*-?\d[\d,.' ]*\s*[)]?)\s*=\s*[$€£¥]?\s*(-?\d[\d,.' ]*\d|\d)/g;

function evaluate(expr: string): { value: number; operands: string[] } | undefined {
  const tokens = expr.match(/\d[\d,.' ]*\d|\d|[-+×x*÷/−()]/g);
  if (!tokens) return undefined;
  let i = 0;
  const operands: string[] = [];
  const num = (): number | undefined => {
    const t = tokens[i];
    if (t === '(') {
      i++;
      const v = sum();
      if (tokens[i] !== ')') return undefined;
      i++;
      return v;
    }
    if (t === '-' || t === '−') {
      i++;
      const v = num();
      return v === undefined ? undefined : -v;
    }
    if (t === undefined || !/\d/.test(t)) return undefined;
    i++;
    const r = readNumerals(t.trim(), 1)[0]?.readings[0];
    if (!r) return undefined;
    operands.push(t.trim());
    return r.value;
  };
  const product = (): number | undefined => {
    let v = num();
    while (v !== undefined && (tokens[i] === '×' || tokens[i] === 'x' || tokens[i] === '*' || tokens[i] === '÷' || tokens[i] === '/')) {
      const op = tokens[i++]!;
      const b = num();
      if (b === undefined) return undefined;
      v = op === '÷' || op === '/' ? v / b : v * b;
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    while (v !== undefined && (tokens[i] === '+' || tokens[i] === '-' || tokens[i] === '−')) {
      const op = tokens[i++]!;
      const b = product();
      if (b === undefined) return undefined;
      v = op === '+' ? v + b : v - b;
    }
    return v;
  };
  const value = sum();
  return value !== undefined && i === tokens.length && Number.isFinite(value) ? { value, operands } : undefined;
}

/** Written steps read per call, and rounds of chaining (a step whose operand is an earlier step's result). */
const MAX_WRITTEN_STEPS = 64;
const MAX_WRITTEN_CHAIN = 4;

interface WrittenStep {
  expr: string;
  result: string;
  /** The stated result, and what the arithmetic gives (equal to its stated decimals). */
  value: number;
  computed: number;
  operands: string[];
  /** The served numbers under it, once grounded. */
  grounds?: ServedNumber[];
}

/**
 * A computation the model wrote out whose stated result meets the stated number, whose arithmetic
 * is right (to the result's stated decimals) and whose every operand `served` grounds, or is the
 * stated result of another such step the model wrote ("3 × 180 = 540 … 540 + 144 = 684"), at most
 * four steps deep.
 */
export function writtenComputation(t: StatedNumber, written: readonly string[], served: (operand: string) => ServedNumber | undefined, maxTexts: number): Derivation | undefined {
  const steps: WrittenStep[] = [];
  for (const text of written.slice(-maxTexts)) {
    if (!text.includes('=')) continue;
    const s = text.normalize('NFKC');
    for (const m of s.matchAll(WRITTEN)) {
      if (steps.length >= MAX_WRITTEN_STEPS) break;
      const stated = readNumerals(m[2]!.trim(), 1)[0]?.readings[0];
      if (!stated) continue;
      const e = evaluate(m[1]!);
      if (!e || !meetsNumber({ ...stated, hedged: false }, e.value, 'fine')) continue;
      steps.push({ expr: m[1]!.trim(), result: m[2]!.trim(), value: stated.value, computed: e.value, operands: e.operands });
    }
  }
  const groundOf = (operand: string): { grounds: ServedNumber[]; chained: boolean } | undefined => {
    const n = served(operand);
    if (n) return { grounds: [n], chained: false };
    const r = readNumerals(operand, 1)[0]?.readings[0];
    if (!r) return undefined;
    const step = steps.find((s) => s.grounds !== undefined && near(s.value, r.value));
    return step ? { grounds: step.grounds!, chained: true } : undefined;
  };
  for (let round = 0; round < MAX_WRITTEN_CHAIN; round++) {
    let grew = false;
    for (const step of steps) {
      if (step.grounds) continue;
      const grounds: ServedNumber[] = [];
      let chained = false;
      let whole = true;
      for (const o of step.operands) {
        const g = groundOf(o);
        if (!g) {
          whole = false;
          break;
        }
        grounds.push(...g.grounds);
        chained ||= g.chained;
      }
      if (!whole) continue;
      step.grounds = grounds;
      grew = true;
      if (meetsNumber(t, step.value, 'fine')) {
        const why = chained ? "computed in the model's own writing; every operand served or the result of an earlier written step" : "computed in the model's own writing; every operand served";
        return { formula: `${step.expr} = ${step.result} (${why})`, operands: grounds, value: step.computed, step: 'written' };
      }
    }
    if (!grew) break;
  }
  return undefined;
}

/** A date derived from a served date and a relative expression. */
export interface DateDerivation {
  anchor: ServedDate;
  shift: Shift;
  /** `2024-05-18 + 1 day ("next day") = 2024-05-19`. */
  formula: string;
}

const DAY_MS = 86_400_000;
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${ny}-${String(nm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}
function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/**
 * How a date (`YYYY-MM-DD`) or a month (`YYYY-MM`) follows from a served date and a relative
 * expression (one that counts from today only from an anchor `today` accepts: a date the user or
 * system wrote): the date shifted by the days (both ways when the words give no direction; "last 7
 * days" also counted inclusively), the month shifted by the months (and its first or last day), a
 * month and day or a named month in the anchor's year (or the one before or after).
 */
export function deriveDate(value: string, anchors: readonly ServedDate[], shifts: readonly Shift[], today: (anchor: ServedDate) => boolean = () => true): DateDerivation | undefined {
  const isMonth = value.length === 7;
  for (const shift of shifts) {
    for (const anchor of anchors) {
      // "yesterday", "last month" count from today: only a date `today` accepts anchors them (a
      // named month or a month and day take only their year from the anchor).
      const fromToday = shift.days !== undefined || shift.months !== undefined || shift.startOf !== undefined;
      if (fromToday && !shift.anaphoric && !today(anchor)) continue;
      const a = anchor.date;
      const q = `"${shift.phrase}"`;
      if (shift.days !== undefined && !isMonth) {
        const tries = new Set<number>([shift.days]);
        if (shift.eitherWay) tries.add(-shift.days);
        if (Math.abs(shift.days) >= 2) tries.add(shift.days + Math.sign(-shift.days));
        for (const d of tries) if (addDays(a, d) === value) return { anchor, shift, formula: `${a} ${d < 0 ? '−' : '+'} ${Math.abs(d)} day(s) (${q}) = ${value}` };
      }
      // A span of a year or more ("the last 12 months") names no one month.
      if (shift.months !== undefined && !(isMonth && Math.abs(shift.months) >= 12)) {
        const m = addMonths(a, shift.months).slice(0, 7);
        const sign = shift.months < 0 ? '−' : '+';
        if (isMonth ? m === value : `${m}-01` === value || lastDay(m) === value) return { anchor, shift, formula: `month of ${a} ${sign} ${Math.abs(shift.months)} (${q}) = ${m}${isMonth ? '' : `, whose ${value.endsWith('-01') ? 'first' : 'last'} day is ${value}`}` };
      }
      if (shift.startOf && !isMonth) {
        const start = shift.startOf === 'month' ? `${a.slice(0, 7)}-01` : shift.startOf === 'year' ? `${a.slice(0, 4)}-01-01` : addDays(a, -((new Date(`${a}T00:00:00Z`).getUTCDay() + 6) % 7));
        if (start === value) return { anchor, shift, formula: `first day of the ${shift.startOf} of ${a} (${q}) = ${value}` };
      }
      const ay = Number(a.slice(0, 4));
      if (shift.monthDay && !isMonth) {
        for (const y of [ay, ay - 1]) {
          const d = `${y}-${String(shift.monthDay.month).padStart(2, '0')}-${String(shift.monthDay.day).padStart(2, '0')}`;
          if (d === value && d <= a) return { anchor, shift, formula: `${q} read in the year of ${a} = ${d}` };
        }
      }
      if (shift.month !== undefined) {
        for (const y of [ay, ay - 1, ay + 1]) {
          const m = `${y}-${String(shift.month).padStart(2, '0')}`;
          if (isMonth ? m === value : `${m}-01` === value || lastDay(m) === value) return { anchor, shift, formula: `${q} read beside ${a} = ${m}` };
        }
      }
    }
  }
  return undefined;
}

/** A duration that is the time between two served times of day. */
export interface DurationDerivation {
  /** `13:30 − 12:00 = 1:30`. */
  formula: string;
  from: ServedTime;
  to: ServedTime;
}

const clock = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * Hours and minutes (`01:30`, as minutes) that are the time from one served time of day to a
 * later one the same day. At most one pass over the times (at most 1,440 distinct).
 */
export function deriveDuration(minutes: number, times: readonly ServedTime[]): DurationDerivation | undefined {
  if (minutes <= 0 || minutes >= 24 * 60) return undefined;
  const byMinute = new Map<number, ServedTime>();
  for (const t of times) if (!byMinute.has(t.minutes)) byMinute.set(t.minutes, t);
  for (const from of byMinute.values()) {
    const to = byMinute.get(from.minutes + minutes);
    if (to) return { formula: `${clock(to.minutes)} − ${clock(from.minutes)} = ${clock(minutes)} (hours:minutes between two served times)`, from, to };
  }
  return undefined;
}

/** A time of day that is a served one moved by a length the user or system wrote. */
export interface TimeShiftDerivation {
  /** `12:00 + 60 min ("for one hour") = 13:00`. */
  formula: string;
  from: ServedTime;
}

/**
 * A time of day (each of its readings, minutes after midnight) that is a served time plus or
 * minus a stated length, the same day. At most lengths × readings look-ups.
 */
export function deriveTimeShift(readings: readonly number[], times: readonly ServedTime[], lengths: readonly Length[]): TimeShiftDerivation | undefined {
  if (lengths.length === 0 || times.length === 0) return undefined;
  const byMinute = new Map<number, ServedTime>();
  for (const t of times) if (!byMinute.has(t.minutes)) byMinute.set(t.minutes, t);
  for (const value of readings) {
    for (const l of lengths) {
      for (const sign of [1, -1]) {
        const from = byMinute.get(value - sign * l.minutes);
        if (from) return { formula: `${clock(from.minutes)} ${sign > 0 ? '+' : '−'} ${l.minutes} min ("${l.phrase}") = ${clock(value)}`, from };
      }
    }
  }
  return undefined;
}
