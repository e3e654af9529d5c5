// Identifiers written in display groups: an IBAN as `DE89 3704 0044 0532 0130 00`, a SIM's ICCID
// as `8949 0200 0012 3456 7890`. A run of groups (letters and digits) split by single blanks, all
// but the last of one length (3–6) and the last no longer, is read as the identifier its groups
// join to (`de89370400440532013000`, lower-cased), when the join has at least 10 characters and a
// digit. Used by unsupported-value (an answer's grouped value meets a served joined one, and the
// other way round) and unsupported-argument (a value the user typed in groups grounds the joined
// argument). The joins are only ever looked up, never reported on their own: a run whose join no
// source holds is judged group by group, as before. Must never join across anything but a single
// blank, never read a prose word as a group, never do I/O: pure functions over strings, bounded.

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
 * `Plus`) is never one. Runs are split by exactly one blank.
 */
const RUN = /(?<![\w-])[A-Z0-9]{1,6}(?: [A-Z0-9]{1,6})+(?![\w-])/g;
const HAS_DIGIT = /\d/;
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
