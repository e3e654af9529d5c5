// Data tokens: the values in a text that carry data (a digit, and distinctive enough that a model
// could not have produced it by chance), normalised the same way on the answer side and on the
// evidence side, plus a bounded, token-exact index over tool results. Used by the answer-seam
// checks (`unsupported-value`, `prior-turn-evidence`). Must never match by substring, never grow
// past its bounds without saying `truncated`, and never do I/O: pure functions over strings.
//
// Rules (both sides):
// - Text is NFKC-normalised, then cut into candidates: runs of `A-Za-z0-9:_-/.,%+@#$`.
// - Edges stripped: leading `$#@+'"\`([{<:,.`, trailing `.,;:!?%'"\`)]}>`.
// - Commas: a candidate that is a thousands-grouped number (`41,200`, `1,234,567.5`) loses its
//   commas; any other comma separates two candidates (`srv-01,srv-02`). Numbers in other locales'
//   marks (`4.850,00 €`, `12 345,50`) are read as typed values (src/values/numerals.ts), not here.
// - A decimal number drops trailing fractional zeros (`1234.50` ≡ `1234.5`, `1234.0` ≡ `1234`).
// - Case is folded: `SRV-DB-04` ≡ `srv-db-04` (a model capitalising a host name did not invent it).
// - Data iff it has a digit and is distinctive: a number (`-?\d+(\.\d+)?`) of ≥ 4 digits, or an
//   identifier of ≥ 4 characters mixing digits with letters or `:_-/.`.
// - Prose numbers (`47th`, `32G`, `48-port`, `$20/month`) are judged on their number alone, and
//   keyed by it (`2048MB` ≡ `2048`). `24/7`-style ratios (1–2 digits / 1–2 digits) are never data.
// Evidence side only: JSON results and YAML dumps (src/values/structured.ts) are walked (keys and
// leaves, each whole and tokenised; a YAML dump's text is also indexed as written); an ISO-8601
// date or date-time (`2025-11-30T02:00:00Z`) also indexes its date (`2025-11-30`), month (`2025-11`),
// year (`2025`) and times (`02:00:00`, `02:00`); an absence envelope (`af_absent: true`) grounds only its `checked`, `not_checked` and
// `cannot_cover` items (never `looked_for`, which echoes the model's own query, nor `short`/`kind`).

import { readStructured } from '../values/structured.js';

export type DataTokenKind = 'number' | 'identifier';

export interface DataToken {
  /** The normalised form: the key tokens are compared by. */
  key: string;
  /** The token as it appeared in the text (edges stripped). */
  raw: string;
  kind: DataTokenKind;
}

export interface TokenExtraction {
  /** Distinct tokens, in order of first appearance. */
  tokens: DataToken[];
  /** True when the text held more distinct data tokens than the bound; the rest were dropped. */
  truncated: boolean;
}

/** Default bounds (the evidence gate's figures). */
export const DEFAULT_MAX_ANSWER_TOKENS = 20_000;
export const DEFAULT_MAX_INDEX_TOKENS = 200_000;
/** Fewest digits a bare number needs to count as data. */
export const MIN_NUMBER_DIGITS = 4;
/** Fewest characters an identifier needs to count as data. */
export const MIN_IDENTIFIER_CHARS = 4;

const CANDIDATE = /[A-Za-z0-9:_\-/.,%+@#$]+/g;
const LEADING = /^[$#@+'"`([{<:,.]+/;
const TRAILING = /[.,;:!?%'"`)\]}>]+$/;
const THOUSANDS = /^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const RATIO = /^\d{1,2}\/\d{1,2}$/;
const PROSE_NUMBER = /^(\d+(?:\.\d+)?)(?:-?[a-z]{1,5}|\/[a-z]+)$/i;
const HAS_DIGIT = /\d/;
const MIXER = /[A-Za-z:_\-/.]/;
const ISO_DATE_TIME = /^((\d{4})-\d{2})-\d{2}(?:t(\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/** `1234.50` -> `1234.5`, `1234.0` -> `1234`; integers unchanged. */
function canonicalNumber(s: string): string {
  if (!s.includes('.')) return s;
  const trimmed = s.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}

function stripEdges(s: string): string {
  return s.replace(LEADING, '').replace(TRAILING, '');
}

/** Judges one edge-stripped, comma-free candidate. */
function classify(raw: string): DataToken | undefined {
  if (raw === '' || !HAS_DIGIT.test(raw)) return undefined;
  if (NUMBER.test(raw)) {
    const key = canonicalNumber(raw);
    return digitCount(key) >= MIN_NUMBER_DIGITS ? { key, raw, kind: 'number' } : undefined;
  }
  if (RATIO.test(raw)) return undefined;
  const prose = PROSE_NUMBER.exec(raw);
  if (prose) {
    const key = canonicalNumber(prose[1]!);
    return digitCount(key) >= MIN_NUMBER_DIGITS ? { key, raw, kind: 'number' } : undefined;
  }
  if (raw.length >= MIN_IDENTIFIER_CHARS && MIXER.test(raw)) return { key: raw.toLowerCase(), raw, kind: 'identifier' };
  return undefined;
}

/** Every data token of one candidate run (a run splits on commas that are not thousands separators). */
function tokensOfCandidate(candidate: string, emit: (t: DataToken) => boolean): boolean {
  const s = stripEdges(candidate);
  if (s === '') return true;
  if (THOUSANDS.test(s)) {
    const t = classify(s.replace(/,/g, ''));
    if (t) return emit({ ...t, raw: s });
    return true;
  }
  if (!s.includes(',')) {
    const t = classify(s);
    return t ? emit(t) : true;
  }
  for (const part of s.split(',')) {
    const t = classify(stripEdges(part));
    if (t && !emit(t)) return false;
  }
  return true;
}

/** Calls `emit` for every data token of `text` in order (duplicates included); stops when it returns false. */
export function scanDataTokens(text: string, emit: (t: DataToken) => boolean): void {
  const s = text.normalize('NFKC');
  for (const m of s.matchAll(CANDIDATE)) if (!tokensOfCandidate(m[0], emit)) return;
}

/** The distinct data tokens of a text, in order of first appearance, at most `maxTokens`. */
export function extractDataTokens(text: string, maxTokens: number): TokenExtraction {
  const seen = new Set<string>();
  const tokens: DataToken[] = [];
  let truncated = false;
  scanDataTokens(text, (t) => {
    if (seen.has(t.key)) return true;
    if (tokens.length >= maxTokens) {
      truncated = true;
      return false;
    }
    seen.add(t.key);
    tokens.push(t);
    return true;
  });
  return { tokens, truncated };
}

/** The normalised key of a single value, when the whole value is one data token. */
export function dataTokenKey(value: string): string | undefined {
  const s = stripEdges(value.normalize('NFKC').trim());
  if (s === '' || /\s/.test(s)) return undefined;
  if (THOUSANDS.test(s)) return classify(s.replace(/,/g, ''))?.key;
  return classify(s)?.key;
}

/** One text to index, with the request that served it (later requests win "last served"). */
export interface IndexSource {
  text: string;
  request?: number;
}

export interface EvidenceIndex {
  /** Position (in the sources given) of the source that last served this key, if any did. */
  lookup(key: string): number | undefined;
  /** Distinct keys held. */
  readonly size: number;
  /** True when the sources held more distinct keys than the bound; keys past it were not indexed. */
  readonly truncated: boolean;
}

const ABSENCE_GROUNDING_KEYS = new Set(['checked', 'not_checked', 'cannot_cover']);
const ABSENCE_ITEM_SKIPPED = new Set(['short', 'kind']);


/**
 * Builds a token-exact index over texts, in one pass: each text is tokenised; JSON texts are also
 * walked (keys and leaves, whole and tokenised). Keys past `maxTokens` distinct are not indexed and
 * `truncated` says so. Linear in the total text size.
 */
export function buildEvidenceIndex(sources: readonly IndexSource[], maxTokens: number): EvidenceIndex {
  const map = new Map<string, number>();
  let truncated = false;

  const add = (key: string, at: number): boolean => {
    const prev = map.get(key);
    if (prev === undefined) {
      if (map.size >= maxTokens) {
        truncated = true;
        return false;
      }
      map.set(key, at);
      return true;
    }
    if (prev !== at && (sources[at]!.request ?? -Infinity) >= (sources[prev]!.request ?? -Infinity)) map.set(key, at);
    return true;
  };
  const addToken = (t: DataToken, at: number): boolean => {
    if (!add(t.key, at)) return false;
    const iso = ISO_DATE_TIME.exec(t.key);
    if (iso) {
      // 2025-11-30T02:00:00Z also serves 2025-11-30, 2025-11, 2025, 02:00:00 and 02:00.
      const parts = [t.key.slice(0, 10), iso[1]!, iso[2]!];
      if (iso[3]) parts.push(iso[3]);
      if (iso[3] && iso[4]) parts.push(`${iso[3]}${iso[4]}`);
      for (const p of parts) if (p !== t.key && !add(p, at)) return false;
    }
    return true;
  };
  const addText = (s: string, at: number): boolean => {
    let ok = true;
    const whole = dataTokenKey(s);
    if (whole !== undefined) ok = add(whole, at);
    if (ok) scanDataTokens(s, (t) => (ok = addToken(t, at)));
    return ok;
  };

  for (let at = 0; at < sources.length && !truncated; at++) {
    const text = sources[at]!.text;
    const parsed = readStructured(text);
    // A YAML dump's text is indexed as written too (its walk below adds the leaves a line fold cut).
    if (!parsed || parsed.format === 'yaml') {
      if (!addText(text, at) || !parsed) continue;
    }
    // Integers past 2^53 lose digits in JSON.parse: index long digit runs of the raw text as well.
    else for (const m of text.matchAll(/\d{16,}/g)) if (!add(m[0], at)) break;
    const stack: { v: unknown; skip?: ReadonlySet<string> }[] = [{ v: parsed.value }];
    while (stack.length > 0 && !truncated) {
      const { v, skip } = stack.pop()!;
      if (typeof v === 'string') addText(v, at);
      else if (typeof v === 'number' && Number.isFinite(v)) addText(String(v), at);
      else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], ...(skip ? { skip } : {}) });
      else if (v !== null && typeof v === 'object') {
        const obj = v as Record<string, unknown>;
        const absence = obj['af_absent'] === true;
        const entries = Object.entries(obj);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [k, child] = entries[i]!;
          if (skip?.has(k)) continue;
          if (absence) {
            if (ABSENCE_GROUNDING_KEYS.has(k)) stack.push({ v: child, skip: ABSENCE_ITEM_SKIPPED });
            continue;
          }
          stack.push({ v: child, ...(skip ? { skip } : {}) });
          stack.push({ v: k });
        }
      }
    }
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
