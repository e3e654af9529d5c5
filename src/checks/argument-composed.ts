// A value built from served tokens joined by `/ : - . _` (`acme/srv-db-04`, `eu-west-1:srv-db-04`):
// each part is a WHOLE served token of at least 3 characters, and every part has its own witness.
// Tried only for a value that is neither served whole nor a fragment of a served token, with at
// most 8 joins. Must never accept a part shorter than 3 characters (`srv-db` + `1` is not
// `srv-db-1`). Pure: no I/O, no clocks, no globals.

import type { ServedString } from '../model/frame.js';

export const MIN_PART_CHARS = 3;
const MAX_JOINS = 8;
const JOINER = /[/:\-._]/;

export interface ComposedPart {
  part: string;
  served: ServedString;
}

/**
 * Splits `value` (lower-cased) into whole served parts at joiners, fewest parts first; undefined
 * when it cannot be (or needs one part only: that is "served", not composed).
 */
export function composedOf(value: string, findWhole: (part: string) => ServedString | undefined): ComposedPart[] | undefined {
  const cuts: number[] = [];
  for (let i = 1; i < value.length - 1; i++) if (JOINER.test(value[i]!)) cuts.push(i);
  if (cuts.length === 0 || cuts.length > MAX_JOINS) return undefined;
  // Part boundaries: starts are 0 and cut+1, ends are cut and value.length.
  const starts = [0, ...cuts.map((c) => c + 1)];
  const ends = [...cuts, value.length];
  const memo = new Map<string, ServedString | null>();
  const whole = (a: number, b: number): ServedString | undefined => {
    const part = value.slice(a, b);
    if (part.length < MIN_PART_CHARS) return undefined;
    if (!memo.has(part)) memo.set(part, findWhole(part) ?? null);
    return memo.get(part) ?? undefined;
  };
  // Breadth first over part starts: the first complete path has the fewest parts.
  const from = new Map<number, { prev: number; served: ServedString } | null>([[0, null]]);
  let frontier = [0];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const a of frontier) {
      for (const b of ends) {
        if (b <= a || (a === 0 && b === value.length)) continue;
        const nextStart = b === value.length ? value.length : b + 1;
        if (from.has(nextStart)) continue;
        const served = whole(a, b);
        if (!served) continue;
        from.set(nextStart, { prev: a, served });
        if (nextStart === value.length) return unwind(value, from);
        if (starts.includes(nextStart)) next.push(nextStart);
      }
    }
    frontier = next;
  }
  return undefined;
}

function unwind(value: string, from: Map<number, { prev: number; served: ServedString } | null>): ComposedPart[] {
  const parts: ComposedPart[] = [];
  let at = value.length;
  while (at !== 0) {
    const step = from.get(at)!;
    const end = at === value.length ? value.length : at - 1;
    parts.unshift({ part: value.slice(step.prev, end), served: step.served });
    at = step.prev;
  }
  return parts;
}
