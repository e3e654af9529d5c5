// The floor of the quality measure: per check, the precision and recall the corpus last reached
// (floor.json); the same for the corpus run with no declarations (overall); and, for the real agent
// runs, the most findings each mode of each set may raise on healthy runs (a ceiling: a finding
// there is almost always false; a set not on this machine is skipped, and the caller says so). Comparing never rounds a measured figure up, so a floor is never above what was
// measured. Pure functions; quality.ts writes the file, floor.test.ts holds it.

import type { CheckScore, QualityResults } from './score.js';
import type { RealModeResult } from './real.js';

export interface Floor {
  /** The corpus may grow, never shrink below this. */
  cases: number;
  checks: Record<string, { precision: number | null; recall: number | null }>;
  /** The corpus with no declarations: overall precision and recall. */
  noDeclarations?: { precision: number | null; recall: number | null };
  /** Real runs, by mode: the most non-advisory and advisory findings on healthy runs. */
  real?: Record<string, { nonAdvisory: number; advisory: number }>;
}

const down = (v: number | null) => (v === null ? null : Math.floor(v * 1000 + 1e-9) / 1000);

export function floorOf(r: QualityResults, bare?: QualityResults, real?: readonly RealModeResult[]): Floor {
  return {
    cases: r.cases,
    checks: Object.fromEntries(r.checks.map((c) => [c.check, { precision: down(c.precision), recall: down(c.recall) }])),
    ...(bare ? { noDeclarations: { precision: down(bare.total.precision), recall: down(bare.total.recall) } } : {}),
    ...(real ? { real: Object.fromEntries(real.map((m) => [m.mode, { nonAdvisory: m.nonAdvisory, advisory: m.advisory }])) } : {}),
  };
}

function under(label: string, got: number | null, want: number | null, out: string[]): void {
  if (want === null) return;
  if (got === null || got + 1e-9 < want) out.push(`${label} ${got === null ? 'n/a' : got.toFixed(3)} is below the floor ${want.toFixed(3)}`);
}

/** Every figure below its floor (or above its ceiling), as a sentence (empty when the floor holds). */
export function belowFloor(r: QualityResults, floor: Floor, bare?: QualityResults, real?: readonly RealModeResult[], absent: readonly string[] = []): string[] {
  const out: string[] = [];
  if (r.cases < floor.cases) out.push(`the corpus has ${r.cases} cases, fewer than the floor's ${floor.cases}`);
  for (const [check, f] of Object.entries(floor.checks)) {
    const m = r.checks.find((c) => c.check === check) as CheckScore | undefined;
    if (!m) {
      out.push(`${check}: not measured`);
      continue;
    }
    under(`${check}: precision`, m.precision, f.precision, out);
    under(`${check}: recall`, m.recall, f.recall, out);
  }
  if (floor.noDeclarations && bare) {
    under('with no declarations: precision', bare.total.precision, floor.noDeclarations.precision, out);
    under('with no declarations: recall', bare.total.recall, floor.noDeclarations.recall, out);
  }
  if (floor.real && real) {
    for (const [mode, ceiling] of Object.entries(floor.real)) {
      const m = real.find((x) => x.mode === mode);
      // A set that is not on this machine (the shared AgentDojo runs outside the workplace) is said by the caller, not failed here.
      if (!m && absent.some((a) => mode.startsWith(`${a} `))) continue;
      if (!m) {
        out.push(`real runs ${mode}: not measured`);
        continue;
      }
      if (m.nonAdvisory > ceiling.nonAdvisory) out.push(`real runs ${mode}: ${m.nonAdvisory} non-advisory findings on healthy runs, above the ceiling ${ceiling.nonAdvisory}`);
      if (m.advisory > ceiling.advisory) out.push(`real runs ${mode}: ${m.advisory} advisory findings on healthy runs, above the ceiling ${ceiling.advisory}`);
    }
  }
  return out;
}
