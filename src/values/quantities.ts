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

/** A unit word right after a number (one blank at most between them); `m³` is `m3` after NFKC. */
const UNIT_AFTER = /^ ?([A-Za-zµ°%]{1,12}(?:-[A-Za-z]{1,8})?[23]?)(?![A-Za-z0-9])/;

/** The unit word written right after `end` in `text` (`1,234 MWh` -> `MWh`), if any. */
export function unitAfter(text: string, end: number): string | undefined {
  return UNIT_AFTER.exec(text.slice(end, end + 24))?.[1];
}

const cache = new Map<string, Qty[]>();
/**
 * Every unit a word may name (js-quantities is case-sensitive: `mwh` in a JSON key is `MWh` or
 * `mWh`), tried as written, without hyphens, lower, upper, capitalised, then (for a symbol of
 * 2–5 letters) in every casing.
 */
function unitsOf(word: string): Qty[] {
  const hit = cache.get(word);
  if (hit !== undefined) return hit;
  const out: Qty[] = [];
  const seen = new Set<string>();
  const spelled = word.replace(/-/g, ' ');
  const upperFirst = (w: string) => w.replace(/^(\w)(\w*)$/, (_m, a: string, b: string) => a.toUpperCase() + b);
  const spellings = [word, spelled, word.toLowerCase(), word.toUpperCase(), upperFirst(word.toLowerCase()), upperFirst(word)];
  // A short symbol in a JSON key lost its case (`mwh`): every casing of it (`MWh`, `mWh` …).
  if (/^[a-z]{2,5}$/i.test(word)) {
    const lower = word.toLowerCase();
    for (let mask = 0; mask < 1 << lower.length; mask++) spellings.push([...lower].map((c, i) => (mask & (1 << i) ? c.toUpperCase() : c)).join(''));
  }
  for (const w of spellings) {
    let q: Qty | null = null;
    try {
      q = Qty.parse(`1 ${w}`);
    } catch {
      q = null;
    }
    if (!q || q.isUnitless() || seen.has(q.units())) continue;
    seen.add(q.units());
    out.push(q);
  }
  if (cache.size < 512) cache.set(word, out);
  return out;
}
const unitOf = (word: string): Qty | undefined => unitsOf(word)[0];

/** Whether a word names a unit js-quantities knows. */
export function isUnit(word: string | undefined): boolean {
  return word !== undefined && unitOf(word) !== undefined;
}

/**
 * `value` in `from` converted to `to`, for each unit the two words may name that are of one kind;
 * none when the units are the same, case aside (no conversion happened).
 */
export function convert(value: number, from: string, to: string): number[] {
  if (from.toLowerCase() === to.toLowerCase()) return [];
  const out: number[] = [];
  for (const a of unitsOf(from)) {
    for (const b of unitsOf(to)) {
      if (!a.isCompatible(b)) continue;
      try {
        const v = a.mul(value).to(b.units()).scalar;
        if (Number.isFinite(v) && !out.includes(v)) out.push(v);
      } catch {
        /* incompatible after all: skipped */
      }
    }
  }
  return out;
}
