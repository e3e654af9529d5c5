// Where a value stands in a text: every occurrence of it, the first MAX_OCCURRENCES of them, put to
// one test. The one loop the checks' "is it only ever written so" readings share (read only in
// part, offered only as an example). Pure: no I/O, no clocks.

/** Occurrences looked at per value; past it the rest are not tested. */
export const MAX_OCCURRENCES = 64;

/**
 * Whether `raw` occurs in `text` and every occurrence (found at each index, overlapping ones
 * included, the first MAX_OCCURRENCES) passes `test`, given where it starts. False when it occurs
 * nowhere, or when `raw` is empty.
 */
export function everyOccurrence(text: string, raw: string, test: (at: number) => boolean): boolean {
  if (raw === '') return false;
  let from = 0;
  let found = false;
  for (let n = 0; n < MAX_OCCURRENCES; n++) {
    const i = text.indexOf(raw, from);
    if (i < 0) break;
    found = true;
    if (!test(i)) return false;
    from = i + 1;
  }
  return found;
}
