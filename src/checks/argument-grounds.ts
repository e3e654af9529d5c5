// Where a chosen argument value sits in the text a request was served: as a WHOLE token (or a whole
// run of a token's segments: `acme/api` of `github.com/acme/api`, `srv-db-04` of
// `srv-db-04.prod`), or only as a proper part of one (`srv-db` of `srv-db-04`: a fragment). Text is
// searched raw and JSON-decoded (`\uXXXX`, `\"`, `\\`, `\/`, a JSON string inside a JSON string);
// example values of a tool's description ("e.g.", "for example", "such as": src/values/examples.ts) are blanked first.
// Used by unsupported-argument and empty-lookup. Must never report a fragment as whole, never hold
// more than the texts it was given, and never do I/O: pure functions over strings.

import type { ServedString } from '../model/frame.js';
import { withoutExamples } from '../values/examples.js';

/** Token separators: a token never spans one. */
const TOKEN_SEPARATOR = new Set([...' \t\n\r\f\v\u00a0"\'`{}[](),;<>|!*$%~^\u0000']);
/** Segment separators: inside a token, a value may start or end at one and still be whole. */
const SEGMENT_SEPARATOR = new Set([...'/:@.?&#=\\+']);
/** Inside an ISO date or date-time these also bound a part (`2025-11-30` of `2025-11-30T02:00Z`). */
const ISO_PART_SEPARATOR = new Set([...'-tz']);
const ISO_TOKEN = /^\d{4}-\d{2}(?:-\d{2})?(?:t\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const TRAILING_PUNCTUATION = /[.:?=&#@/\\+]+$/;
const LEADING_PUNCTUATION = /^[.:?=&#@/\\+]+/;

/** Splits text into tokens exactly where `isTokenSeparator` says a token ends. */
const TOKEN_SPLIT = /[\s"'`{}[\](),;<>|!*$%~^\u0000]+/;
/** Splits a token into segments, keeping the separators (odd positions). */
const SEGMENT_SPLIT = /([/:@.?&#=\\+])/;
const MAX_INDEXED_SEGMENTS = 8;
const HAS_SEGMENT_SEPARATOR = /[/:@.?&#=\\+]/;

function isTokenSeparator(c: string | undefined): boolean {
  return c === undefined || TOKEN_SEPARATOR.has(c) || c.trim() === '';
}

function isBoundary(c: string | undefined): boolean {
  return isTokenSeparator(c) || SEGMENT_SEPARATOR.has(c!);
}

/** `isBoundary` of every ASCII character, looked up by code (the hot loop of `occurrence`). */
const ASCII_BOUNDARY = Uint8Array.from({ length: 128 }, (_, code) => (isBoundary(String.fromCharCode(code)) ? 1 : 0));
/** `isBoundary(text[i])`, by char code for ASCII. */
function boundaryAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return true;
  const code = text.charCodeAt(i);
  return code < 128 ? ASCII_BOUNDARY[code] === 1 : isBoundary(text[i]);
}
/**
 * A character neither ISO_TOKEN nor the punctuation `enclosingToken` strips can hold: a needle with
 * one leaves it in its enclosing token, which is then never an ISO date.
 */
const NOT_ISO_CHAR = /[^0-9tz:.+\-?=&#@/\\]/;

/** The whole token around `[start, end)` of `text`, trailing punctuation stripped. */
export function enclosingToken(text: string, start: number, end: number): string {
  let a = start;
  let b = end;
  while (a > 0 && !isTokenSeparator(text[a - 1])) a--;
  while (b < text.length && !isTokenSeparator(text[b])) b++;
  return text.slice(a, b).replace(TRAILING_PUNCTUATION, '').replace(LEADING_PUNCTUATION, '');
}

/**
 * How `needle` occurs in `text` (both lower-cased): `whole` when some occurrence is bounded on both
 * sides (a token or segment edge, or an ISO date part), else the first occurrence's start.
 * `patterns`: the caller's cache of the pattern made for a needle with many places, when it looks
 * for the same needle in text after text.
 */
export function occurrence(text: string, needle: string, patterns?: PatternCache): { whole: true } | { whole: false; at: number } | undefined {
  if (needle === '') return undefined;
  let i = text.indexOf(needle);
  if (i < 0) return undefined;
  const first = i;
  const openStart = isBoundary(needle[0]);
  const openEnd = isBoundary(needle[needle.length - 1]);
  // The enclosing token holds the needle, so it can be an ISO date only if the needle's characters can.
  const mayBeIso = !NOT_ISO_CHAR.test(needle);
  let seen = 0;
  while (i >= 0) {
    const end = i + needle.length;
    const leftBoundary = boundaryAt(text, i - 1);
    const rightBoundary = boundaryAt(text, end);
    if ((openStart || leftBoundary) && (openEnd || rightBoundary)) return { whole: true };
    if (mayBeIso && (leftBoundary || ISO_PART_SEPARATOR.has(text[i - 1]!)) && (rightBoundary || ISO_PART_SEPARATOR.has(text[end]!))) {
      if (ISO_TOKEN.test(enclosingToken(text, i, end))) return { whole: true };
    }
    // Many places, none whole (`srv` in a window of `srv-db-04`s): the rest in one engine scan.
    if (!mayBeIso && ++seen === MANY_PLACES) {
      const rest = wholePattern(needle, openStart, openEnd, patterns);
      rest.lastIndex = i + 1;
      return rest.test(text) ? { whole: true } : { whole: false, at: first };
    }
    i = text.indexOf(needle, i + 1);
  }
  return { whole: false, at: first };
}

/** Places of a needle looked at one by one before the rest of the text is scanned by wholePattern. */
const MANY_PLACES = 8;
/** Every character isBoundary accepts, as a character class (`\s` is the white space `trim` removes). */
const BOUNDARY_CLASS = String.raw`\s"'\`{}\[\](),;<>|!*$%~^\u0000/:@.?&#=\\+`;
/**
 * What occurrence's loop finds, as one regular expression: `needle` with a boundary (or the text's
 * edge) on each side that is not open. For needles that cannot be part of an ISO date token only.
 */
function wholePattern(needle: string, openStart: boolean, openEnd: boolean, patterns: PatternCache | undefined): RegExp {
  // The caller's last one is kept: a needle is searched for in every served string of a window in turn.
  if (patterns?.last !== undefined && patterns.last.needle === needle) return patterns.last.re;
  const body = needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  // Global, so a search can start where the loop stopped (lastIndex) and still see what precedes it.
  const re = new RegExp(`${openStart ? '' : `(?<![^${BOUNDARY_CLASS}])`}${body}${openEnd ? '' : `(?![^${BOUNDARY_CLASS}])`}`, 'g');
  if (patterns !== undefined) patterns.last = { needle, re };
  return re;
}
/**
 * wholePattern's last pattern (its open ends follow from the needle), held by its caller for the
 * texts it searches in turn (a ServedGrounds: one request's served strings); a cache of one, never
 * a result, and no state of this module's.
 */
export interface PatternCache {
  last?: { needle: string; re: RegExp };
}

const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;
const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: ' ', f: ' ', n: '\n', r: '\r', t: '\t' };

/**
 * `text` with JSON string escapes decoded, repeatedly (a JSON string inside a JSON string is
 * escaped twice), at most three rounds. Returns `text` itself when it has no backslash.
 */
export function decodeEscapes(text: string): string {
  let out = text;
  for (let round = 0; round < 3 && out.includes('\\'); round++) {
    const next = out.replace(ESCAPE, (_m, hex: string | undefined, c: string | undefined) => (hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : SIMPLE[c!]!));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Where a value was found: the served string, and for a fragment the whole token it was cut from. */
export interface Place {
  served: ServedString;
  /** The whole served token (original case) the value is a proper part of; only on fragments. */
  token?: string;
}

export interface Located {
  /** The first served string holding the value whole that `accept` accepts. */
  accepted?: ServedString;
  /** The first served string holding the value whole, accepted or not. */
  whole?: ServedString;
  /** When no served string holds the value whole: one it is a proper part of, with that token. */
  fragment?: Place;
}

/**
 * A text lower-cased. The engine's own lower-casing returns a one-byte text with no upper-case
 * letter as it is, having looked for one faster than a regular expression can (issue 36: a test
 * for a character that may change case first cost more than the lower-casing it saved).
 */
function lower(text: string): string {
  return text.toLowerCase();
}

interface View {
  served: ServedString;
  /** Lower-cased text as served (examples blanked for tool schemas). */
  raw: string;
  /** Decoded text (original case), when it differs from the text as served (built on first need). */
  decoded?: string | null;
  /** `decoded` lower-cased (built with it). */
  decodedLower?: string;
  /** Original-case text the lower-cased views were made from (for quoting a token). */
  original: string;
}

/**
 * The served strings of one request, viewed for whole-token lookup. Built once per check; each
 * string's lower case and decoded form are made on first need, so a request whose values are all
 * found verbatim costs one `indexOf` per value and string.
 */
export class ServedGrounds {
  private readonly views: View[];
  /** Whole tokens and segment runs -> first view holding them; only for many values over a large window. */
  private index: Map<string, number> | undefined;
  /** The pattern occurrence made last for a needle with many places (reused for the next string). */
  private readonly patterns: PatternCache = {};
  constructor(served: readonly ServedString[], values = 0) {
    this.views = served.map((s) => {
      const original = s.source === 'tool-schema' ? withoutExamples(s.text) : s.text;
      return { served: s, raw: '', original };
    });
    let length = 0;
    for (const v of this.views) length += v.original.length + 1;
    // Many values over a large text: index whole tokens once, so each value is one lookup, not a scan.
    if (values > 64 && length * values > 4_000_000) this.index = this.buildIndex();
  }

  private buildIndex(): Map<string, number> {
    const index = new Map<string, number>();
    const add = (k: string, at: number) => {
      if (k !== '' && !index.has(k)) index.set(k, at);
    };
    this.views.forEach((v, at) => {
      const texts = [this.rawOf(v)];
      const d = this.decodedOf(v);
      if (d) texts.push(d.lower);
      for (const text of texts) {
        for (const token of text.split(TOKEN_SPLIT)) {
          if (token === '') continue;
          add(token, at);
          if (!HAS_SEGMENT_SEPARATOR.test(token)) continue;
          const stripped = SEGMENT_SEPARATOR.has(token[0]!) || SEGMENT_SEPARATOR.has(token[token.length - 1]!) ? token.replace(TRAILING_PUNCTUATION, '').replace(LEADING_PUNCTUATION, '') : token;
          add(stripped, at);
          // Every contiguous run of segments is whole too (`acme/api` of `github.com/acme/api`).
          const segments = stripped.split(SEGMENT_SPLIT);
          if (segments.length > 1 && segments.length <= MAX_INDEXED_SEGMENTS * 2 + 1) {
            for (let i = 0; i < segments.length; i += 2) {
              let run = segments[i]!;
              add(run, at);
              for (let j = i + 1; j + 1 < segments.length; j += 2) {
                run += segments[j]! + segments[j + 1]!;
                add(run, at);
              }
            }
          }
        }
      }
    });
    return index;
  }

  private rawOf(v: View): string {
    if (v.raw === '' && v.original !== '') v.raw = lower(v.original);
    return v.raw;
  }

  private decodedOf(v: View): { lower: string; original: string } | undefined {
    if (v.decoded === undefined) {
      if (!v.original.includes('\\')) v.decoded = null;
      else {
        const d = decodeEscapes(v.original);
        v.decoded = d === v.original ? null : d;
        if (v.decoded !== null) v.decodedLower = lower(v.decoded);
      }
    }
    return v.decoded === null ? undefined : { lower: v.decodedLower!, original: v.decoded };
  }

  /**
   * Finds `needle` (lower-cased) whole in the served strings, stopping at the first whole place
   * `accept` takes (every place, by default).
   */
  locate(needle: string, accept: (s: ServedString) => boolean = () => true): Located {
    const out: Located = {};
    const indexed = this.index?.get(needle);
    if (indexed !== undefined && accept(this.views[indexed]!.served)) return { accepted: this.views[indexed]!.served, whole: this.views[indexed]!.served };
    for (const v of this.views) {
      const raw = this.rawOf(v);
      let hit = occurrence(raw, needle, this.patterns);
      let text = raw;
      let original = v.original;
      if (hit?.whole !== true) {
        const d = this.decodedOf(v);
        if (d) {
          const again = occurrence(d.lower, needle, this.patterns);
          if (again) {
            hit = again;
            text = d.lower;
            original = d.original;
          }
        }
      }
      if (!hit) continue;
      if (hit.whole) {
        out.whole ??= v.served;
        if (accept(v.served)) {
          out.accepted = v.served;
          return out;
        }
        continue;
      }
      if (!out.fragment) {
        // Lower-casing can change lengths outside ASCII: cut the token from the original only when aligned.
        const source = original.length === text.length ? original : text;
        out.fragment = { served: v.served, token: enclosingToken(source, hit.at, hit.at + needle.length) };
      }
    }
    if (out.whole) delete out.fragment;
    return out;
  }

  /** Case-insensitive substring anywhere (raw or decoded): the lenient rule for free-text phrases. */
  containsPhrase(needle: string): ServedString | undefined {
    for (const v of this.views) {
      if (this.rawOf(v).includes(needle)) return v.served;
      const d = this.decodedOf(v);
      if (d && d.lower.includes(needle)) return v.served;
    }
    return undefined;
  }

  /** Every served string's decoded text (original case), for scanners that read the whole window. */
  texts(): { served: ServedString; text: string }[] {
    return this.views.map((v) => ({ served: v.served, text: this.decodedOf(v)?.original ?? v.original }));
  }
}
