// Identifiers compared modulo case, punctuation, display grouping and width: `SRV_DB_04`,
// `srv-db-04` and full-width `ＳＲＶ－ＤＢ－０４` have one key (`i:srvdb04`), and an IBAN printed in
// groups (`DE89 3704 0044 0532 0130 00`) has the key of its join. A token is an identifier when it
// mixes letters and digits and has at least 6 letters and digits: numbers, dates, versions and
// addresses (`v7.4.2`, `10.0.0.12`) never get an identifier key (their punctuation is meaning).
// Display groups: a run of groups of digits or capitals split by single blanks, all but the last
// of one width (3–6) and the last no longer, whose join has 10–40 characters and a digit.
// Must never join across anything but a single blank, never read a prose word as a group, never
// do I/O: pure functions over strings, bounded by their callers.

import { KEY } from './types.js';

/** Fewest letters and digits an identifier key needs. */
export const MIN_IDENTIFIER_ALNUM = 6;
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}_\-./:#]*[\p{L}\p{N}]/gu;
/** TOKEN for a text of ASCII only (the same matches there, without Unicode property lookups). */
const ASCII_TOKEN = /[A-Za-z0-9][A-Za-z0-9_\-./:#]*[A-Za-z0-9]/g;
/** A text holding anything but ASCII (the ASCII fast paths do not apply to it). */
export const NON_ASCII = /[^\x00-\x7f]/;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

/** The identifier key of one token (NFKC), if it is one. */
export function identifierKey(token: string): string | undefined {
  return keyOfNormalised(token.normalize('NFKC'));
}

/** identifierKey of a token already in NFKC; an ASCII token is read by its char codes alone. */
function keyOfNormalised(s: string): string | undefined {
  let letter = false;
  let digit = false;
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digit = true;
    else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) letter = true;
    else if (c > 127) ascii = false;
  }
  if (!ascii) {
    letter ||= LETTER.test(s);
    digit ||= DIGIT.test(s);
  }
  if (!letter || !digit) return undefined;
  const alnum = lettersAndDigits(s, ascii);
  return alnum.length >= MIN_IDENTIFIER_ALNUM ? KEY.identifier + alnum : undefined;
}

/** The letters and digits of an NFKC text, lower-cased: what an identifier key keeps of it (`ascii`: the text is ASCII only). */
export function lettersAndDigits(s: string, ascii: boolean): string {
  return ascii ? s.toLowerCase().replace(/[^a-z0-9]/g, '') : s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Every identifier key of an NFKC text (tokens, and display-grouped joins), at most `max`. */
export function identifierKeys(text: string, max: number, visit: (key: string) => boolean): void {
  let n = 0;
  for (const m of text.matchAll(NON_ASCII.test(text) ? TOKEN : ASCII_TOKEN)) {
    // A long run of digits (an ICCID, an account number) is keyed too: a display-grouped join may meet it.
    const k = keyOfNormalised(m[0]) ?? (/^\d+$/.test(m[0]) && m[0].length >= MIN_JOINED_CHARS ? KEY.identifier + m[0] : undefined);
    if (k !== undefined && (n++ >= max || !visit(k))) return;
  }
  for (const g of groupedJoins(text, max)) if (n++ >= max || !visit(KEY.identifier + g.key)) return;
}
/** One contiguous sub-run of display groups, joined. */
export interface GroupedJoin {
  /** The groups as written, single blanks kept (`DE89 3704 0044 0532 0130 00`). */
  raw: string;
  /** The join, lower-cased (`de89370400440532013000`). */
  key: string;
  /** Where it starts and ends in the (NFKC-normalised) text. */
  start: number;
  end: number;
}

/** Fewest characters a join needs (`12 34` is never `1234`). */
export const MIN_JOINED_CHARS = 10;
/** Most characters a join may have (an IBAN has at most 34). */
export const MAX_JOINED_CHARS = 40;
const MIN_GROUP = 3;
const MAX_GROUP = 6;

/**
 * A group: digits, or upper-case letters and digits (`DE89`, `NWBK`, `0044`); a prose word (`the`,
 * `Plus`) is never one. Runs are split by exactly one blank. Joins are display groups (all but the
 * last of one length, at least MIN_JOINED_CHARS) or a letter prefix and the longer number after it.
 */
const RUN = /(?<![\w-])[A-Z0-9]{1,6}(?: [A-Z0-9]{1,6})+(?![\w-])/g;
const HAS_DIGIT = /\d/;
/** A code's letter prefix (`UA`, `INV`) and the number after it (`2291`). */
const PREFIX = /^[A-Z]{2,4}$/;
const NUMBER = /^\d{3,6}$/;
/** Cheap pre-test: a digit or capital, a blank, then another. */
const MAY_HOLD_RUN = /[A-Z0-9] [A-Z0-9]/;

/**
 * Every display-grouped sub-run of `text` (two groups or more, all but the last of one length,
 * the last no longer), at most `max`, in text order; for each start the longer joins first.
 */
export function groupedJoins(text: string, max: number): GroupedJoin[] {
  const out: GroupedJoin[] = [];
  if (!MAY_HOLD_RUN.test(text)) return out;
  const s = text.normalize('NFKC');
  for (const m of s.matchAll(RUN)) {
    const groups = m[0].split(' ');
    const starts: number[] = [];
    let at = m.index;
    for (const g of groups) {
      starts.push(at);
      at += g.length + 1;
    }
    for (let i = 0; i < groups.length; i++) {
      const width = groups[i]!.length;
      // A code's letter prefix and its number, a blank where the served form has a hyphen or
      // nothing (`UA 2291` for `UA-2291`, `INV 30981`): joined whatever the number's length.
      const next = groups[i + 1];
      if (next !== undefined && next.length > width && PREFIX.test(groups[i]!) && NUMBER.test(next)) {
        if (out.length >= max) return out;
        const end = starts[i + 1]! + next.length;
        out.push({ raw: s.slice(starts[i]!, end), key: (groups[i]! + next).toLowerCase(), start: starts[i]!, end });
      }
      if (width < MIN_GROUP || width > MAX_GROUP) continue;
      const found: GroupedJoin[] = [];
      let key = groups[i]!;
      for (let j = i + 1; j < groups.length; j++) {
        const g = groups[j]!;
        if (g.length > width) break;
        key += g;
        if (key.length > MAX_JOINED_CHARS) break;
        if (key.length >= MIN_JOINED_CHARS && HAS_DIGIT.test(key)) {
          const end = starts[j]! + g.length;
          found.push({ raw: s.slice(starts[i]!, end), key: key.toLowerCase(), start: starts[i]!, end });
        }
        // Only the last group may be shorter: a shorter group ends the run.
        if (g.length < width) break;
      }
      for (let k = found.length - 1; k >= 0; k--) {
        if (out.length >= max) return out;
        out.push(found[k]!);
      }
    }
  }
  return out;
}
