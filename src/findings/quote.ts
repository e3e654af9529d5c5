// How a value from telemetry is shown to people: NFKC-normalised, control and format characters
// removed, line breaks flattened, backticks turned into apostrophes, capped in code points with
// "…". Text from spans is data: this only quotes it, never interprets it.

import { createHash } from 'node:crypto';
import type { Redaction } from '../model/finding.js';

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const LINE_BREAKS = /[\r\n\u2028\u2029]+/g;

/** Cleans and caps a value for display. `cap` counts code points, not UTF-16 units. */
export function quoteText(value: string, cap: number): string {
  const clean = value.normalize('NFKC').replace(LINE_BREAKS, ' ').replace(CONTROL_OR_FORMAT, '').replace(/`/g, "'");
  const points = Array.from(clean);
  return points.length <= cap ? clean : `${points.slice(0, cap).join('')}…`;
}

/** A stable, non-reversible stand-in for a value (redaction `hash`). */
export function hashValue(value: string): string {
  return `sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16)}`;
}

export const OMITTED = '(omitted)';

/** The value as the redaction setting lets it be written. */
export function redactValue(value: string, redaction: Redaction, cap: number): string {
  if (redaction === 'omit') return OMITTED;
  if (redaction === 'hash') return hashValue(value);
  return quoteText(value, cap);
}

/** What `hash` and `omit` leave in place of a value: never redacted again. */
const MARKER = /^(?:sha256:[0-9a-f]{16}|\(omitted\))$/;
/** Characters that end the token a value sits in (whitespace and double quotes of any kind). */
const TOKEN_END = /[\s"\u201C\u201D\u00AB\u00BB]/u;
/** Punctuation trimmed from a token's edges when it is not part of the value itself. */
const LEADING = /^[(\[{'<]+/u;
const TRAILING = /[.,;:!?)\]}'>]+$/u;
/** A predicate that names a place (`args.machine_id`, `cost_usd`), not a value. */
const PLACE_NAME = /^[A-Za-z_$][\w$.\-[\]]*$/;

/** One code point at a time: NFKC, lower case; with the index of each unit in the original. */
function folded(s: string): { text: string; at: number[] } {
  let text = '';
  const at: number[] = [];
  let i = 0;
  for (const cp of s) {
    const f = cp.normalize('NFKC').toLowerCase();
    for (let k = 0; k < f.length; k++) at.push(i);
    text += f;
    i += cp.length;
  }
  at.push(i);
  return { text, at };
}

/** A value worth finding inside free text: not a bare lower-case word a sentence may use itself. */
function valueLike(v: string): boolean {
  return /[^a-z\s]/.test(v) || v.length >= 12;
}

/** Parts of a value a sentence may quote on their own: tokens of 4+ characters holding a digit or a sign. */
function dataTokens(v: string): string[] {
  return v.split(/[\s,;()]+/u).filter((t) => Array.from(t).length >= 4 && /[\p{N}]/u.test(t) && !MARKER.test(t));
}

/**
 * Redaction of text that quotes values from telemetry. Under `hash` and `omit`, a string that
 * holds a redacted value is redacted WHOLE, never only in the part that matched: in a sentence,
 * the token the value sits in (up to whitespace or a double quote) and every double-quoted
 * segment; a value (a witness's, a finding's) as a whole. Values are compared NFKC-folded and
 * case-insensitively; values shorter than 4 characters only as whole tokens. Under `quote`,
 * values are quoted and text is left as it is.
 */
export interface TextRedactor {
  readonly redaction: Redaction;
  /** A value as written: quoted, or hashed / omitted whole (the hash of the raw value when it is a known one). */
  value(v: string): string;
  /** A sentence with every token holding a value, and every double-quoted segment, redacted whole. */
  text(s: string): string;
  /** A predicate: kept when it names a place and holds no value, else redacted whole. */
  predicate(p: string): string;
  /** Whether the string holds one of the values. */
  holds(s: string): boolean;
  /** The string itself, or redacted whole when it holds one of the values. */
  whole(s: string): string;
}

/**
 * `values` are the raw sensitive values (a finding's value and `sensitive`); `witnessValues` are
 * values witnesses quote, looked for in text only when they look like data (digits, capitals,
 * punctuation, or long). Parts of either that hold a digit (an operand of a sum, a date in a
 * phrase) are looked for on their own too. With no value at all, nothing is redacted: a finding
 * without a value quotes only declarations (tool and column names).
 */
export function textRedactor(values: readonly string[], redaction: Redaction, cap: number, witnessValues: readonly string[] = []): TextRedactor {
  if (redaction === 'quote' || values.every((v) => v.trim() === '')) {
    return { redaction, value: (v) => quoteText(v, cap), text: (s) => s, predicate: (p) => p, holds: () => false, whole: (s) => s };
  }
  const raws = [...new Set(values.filter((v) => v.trim() !== ''))];
  // A quoted (clipped) form maps back to its raw value, so its hash is the raw value's.
  const rawOf = new Map<string, string>();
  for (const v of raws) {
    rawOf.set(v, v);
    rawOf.set(quoteText(v, cap), v);
  }
  const forms = new Set<string>();
  const addForms = (v: string) => {
    for (const form of [v, quoteText(v, cap).replace(/…$/u, '')]) {
      const t = folded(form.trim()).text;
      if (t !== '') forms.add(t);
    }
  };
  raws.forEach(addForms);
  const quoted = witnessValues.filter((w) => w.trim() !== '' && !MARKER.test(w));
  quoted.filter(valueLike).forEach(addForms);
  [...raws, ...quoted].flatMap(dataTokens).forEach(addForms);
  const items = [...forms].sort((a, b) => b.length - a.length);
  const redact = (s: string) => redactValue(rawOf.get(s) ?? s, redaction, cap);

  /** Spans [start, end) of the original string that hold a value, merged. */
  const spans = (s: string): [number, number][] => {
    const f = folded(s);
    const out: [number, number][] = [];
    for (const item of items) {
      for (let i = f.text.indexOf(item); i >= 0; i = f.text.indexOf(item, i + 1)) {
        const a = f.at[i]!;
        const b = f.at[i + item.length]!;
        if (item.length < 4 && (/[\p{L}\p{N}]/u.test(s[a - 1] ?? '') || /[\p{L}\p{N}]/u.test(s[b] ?? ''))) continue;
        out.push([a, b]);
      }
    }
    return out;
  };
  const holds = (s: string) => spans(s).length > 0;

  const text = (s: string): string => {
    // 1. The token around each value, whole.
    const found = spans(s).map(([a, b]): [number, number] => {
      let start = a;
      let end = b;
      while (start > 0 && !TOKEN_END.test(s[start - 1]!)) start--;
      while (end < s.length && !TOKEN_END.test(s[end]!)) end++;
      const lead = LEADING.exec(s.slice(start, a))?.[0].length ?? 0;
      const trail = TRAILING.exec(s.slice(b, end))?.[0].length ?? 0;
      return [start + lead, end - trail];
    });
    found.sort((x, y) => x[0] - y[0]);
    const merged: [number, number][] = [];
    for (const sp of found) {
      const last = merged[merged.length - 1];
      if (last && sp[0] <= last[1]) last[1] = Math.max(last[1], sp[1]);
      else merged.push([...sp]);
    }
    let out = '';
    let from = 0;
    for (const [a, b] of merged) {
      out += s.slice(from, a) + redact(s.slice(a, b));
      from = b;
    }
    out += s.slice(from);
    // 2. Every double-quoted segment, whole: what a sentence quotes is data.
    return out.replace(/"([^"]*)"/g, (m, inner: string) => (inner.trim() === '' || MARKER.test(inner) ? m : `"${redact(inner)}"`));
  };

  return {
    redaction,
    value: (v) => (MARKER.test(v) ? v : redact(v)),
    text,
    predicate: (p) => (!holds(p) && PLACE_NAME.test(p) ? p : redact(p)),
    holds,
    whole: (s) => (MARKER.test(s) || !holds(s) ? s : redact(s)),
  };
}
