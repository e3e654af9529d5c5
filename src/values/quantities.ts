// Quantities with units, by js-quantities: a number written with a unit (`1,536 MB`, `90 min`,
// `1.5 h`, `12 kWh`) and a served number whose unit is named (by the last word of its JSON key,
// `size_bytes`, `duration_seconds`, `consumption_mwh`, or the word after it in text) are compared
// in one unit when their kinds agree (information, time, energy, length, mass, currency …).
// A unit word js-quantities does not know is no unit. Pure: no I/O, no clocks.

/// <reference path="./js-quantities.d.ts" />
import Qty from 'js-quantities';

/** The last word of a JSON key as a unit word (`consumption_mwh` -> `mwh`, `sizeGb` -> `Gb`, `bytes`), if any. */
export function unitOfKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const words = key.split(/[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== '');
  const last = words[words.length - 1]!;
  if (!/^[a-z]{1,8}$/i.test(last)) return undefined;
  // A key of one word names a unit only when it is one (`bytes`, `seconds`; not `count`).
  return words.length >= 2 || (last.length >= 2 && isUnit(last)) ? last : undefined;
}

/** A unit word right after a number (one blank at most between them). */
const UNIT_AFTER = /^ ?([A-Za-zµ°%]{1,12}(?:-[A-Za-z]{1,8})?)(?![A-Za-z0-9])/;

/** The unit word written right after `end` in `text` (`1,234 MWh` -> `MWh`), if any. */
export function unitAfter(text: string, end: number): string | undefined {
  return UNIT_AFTER.exec(text.slice(end, end + 24))?.[1];
}

const cache = new Map<string, Qty | null>();
/** Unit spellings js-quantities wants in one case or the other: tried as written, lower and upper. */
function unitOf(word: string): Qty | undefined {
  const hit = cache.get(word);
  if (hit !== undefined) return hit ?? undefined;
  let q: Qty | null = null;
  for (const w of [word, word.replace(/-/g, ' '), word.toLowerCase(), word.toUpperCase(), word.replace(/^(\w)(\w*)$/, (_m, a: string, b: string) => a.toUpperCase() + b.toLowerCase())]) {
    try {
      q = Qty.parse(`1 ${w}`);
    } catch {
      q = null;
    }
    if (q && !q.isUnitless()) break;
    q = null;
  }
  if (cache.size < 512) cache.set(word, q);
  return q ?? undefined;
}

/** Whether a word names a unit js-quantities knows. */
export function isUnit(word: string | undefined): boolean {
  return word !== undefined && unitOf(word) !== undefined;
}

/**
 * `value` in `from` converted to `to`, when both are units of one kind and differ; undefined
 * otherwise (no conversion happened when the units are the same, case aside).
 */
export function convert(value: number, from: string, to: string): number | undefined {
  if (from.toLowerCase() === to.toLowerCase()) return undefined;
  const a = unitOf(from);
  const b = unitOf(to);
  if (!a || !b || !a.isCompatible(b)) return undefined;
  try {
    const v = a.mul(value).to(b.units()).scalar;
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
