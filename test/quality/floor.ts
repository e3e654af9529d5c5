// The floor of the quality measure: per check, the precision and recall the corpus last reached
// (floor.json). Comparing never rounds a measured figure up, so a floor is never above what was
// measured. Pure functions; quality.ts writes the file, floor.test.ts holds it.

import type { CheckScore, QualityResults } from './score.js';

export interface Floor {
  /** The corpus may grow, never shrink below this. */
  cases: number;
  checks: Record<string, { precision: number | null; recall: number | null }>;
}

const down = (v: number | null) => (v === null ? null : Math.floor(v * 1000 + 1e-9) / 1000);

export function floorOf(r: QualityResults): Floor {
  return { cases: r.cases, checks: Object.fromEntries(r.checks.map((c) => [c.check, { precision: down(c.precision), recall: down(c.recall) }])) };
}

/** Every figure below its floor, as a sentence (empty when the floor holds). */
export function belowFloor(r: QualityResults, floor: Floor): string[] {
  const out: string[] = [];
  if (r.cases < floor.cases) out.push(`the corpus has ${r.cases} cases, fewer than the floor's ${floor.cases}`);
  for (const [check, f] of Object.entries(floor.checks)) {
    const m = r.checks.find((c) => c.check === check) as CheckScore | undefined;
    if (!m) {
      out.push(`${check}: not measured`);
      continue;
    }
    for (const key of ['precision', 'recall'] as const) {
      const want = f[key];
      const got = m[key];
      if (want === null) continue;
      if (got === null || got + 1e-9 < want) out.push(`${check}: ${key} ${got === null ? 'n/a' : got.toFixed(3)} is below the floor ${want.toFixed(3)}`);
    }
  }
  return out;
}
