// The voucher of a sentence: the weakest of the sources that decide whether it is true. Rank:
// person (0) > library (1) > tool:<name> (2) > model (3) > app (4); the weakest is the highest
// rank. Pure.

import type { Source } from './types.js';

export function rankOf(s: Source): number {
  if (s === 'person') return 0;
  if (s === 'library') return 1;
  if (s.startsWith('tool:')) return 2;
  if (s === 'model') return 3;
  return 4;
}

/** The weakest source among them (the template's own voucher is one of them). */
export function weakest(sources: readonly Source[]): Source {
  let out: Source = 'person';
  for (const s of sources) if (rankOf(s) > rankOf(out)) out = s;
  return out;
}
