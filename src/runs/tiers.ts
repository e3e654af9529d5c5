// Applies each check's tier (src/checks/catalog.ts, docs/checks.md#tiers) and the user's setting
// of it (`checks:` in the declarations) to what one event's checks produced: findings of a check
// whose effective tier is `advisory` are marked advisory (saying why); a check that is `off`, or
// `opt-in` and not turned on, reports nothing, and its tallies say so (unreachable, with the
// reason), so "no findings" never reads as "checked and clean". Pure over the data it is given:
// no I/O, no clocks; it mutates only the findings and tallies it is handed.

import type { CheckTally, CheckTier, Finding } from '../model/finding.js';
import type { CheckSetting } from '../declarations/types.js';
import { checkOfKind, registeredCheck } from '../checks/catalog.js';

/** What a check's findings become: reported, reported as advisory (with why), or not reported (with why). */
export type Shipping = { ship: 'report' } | { ship: 'advisory'; why: string } | { ship: 'withhold'; why: string };

/** How a check's findings ship, armed as they were (by a declaration, or by inference), under the user's setting. */
export function shippingOf(check: string, armedBy: 'declared' | 'inferred', setting: CheckSetting | undefined): Shipping {
  if (setting === 'on') return { ship: 'report' };
  if (setting === 'off') return { ship: 'withhold', why: `turned off in the declarations (checks.${check}: off)` };
  if (setting === 'advisory') return { ship: 'advisory', why: `set advisory in the declarations (checks.${check}: advisory)` };
  const c = registeredCheck(check);
  if (!c) return { ship: 'report' };
  const tier: CheckTier = armedBy === 'inferred' ? (c.inferredTier ?? c.tier) : c.tier;
  if (tier === 'opt-in') return { ship: 'withhold', why: `opt-in${armedBy === 'inferred' && c.inferredTier ? ' when armed by inference' : ''} (${c.tierWhy}): turn it on with checks.${check}: on` };
  // A check that is advisory by nature already marks its findings; only a tier that makes it so says why.
  if (tier === 'advisory' && c.tier !== 'advisory') return { ship: 'advisory', why: `advisory when armed by inference: ${c.tierWhy}` };
  return { ship: 'report' };
}

/** The sentence an advisory-by-tier finding ends with. */
export function advisorySentence(why: string): string {
  return `It is advisory: ${why}.`;
}

/**
 * Applies tiers and settings to one event's findings and tallies, in place. Returns the findings
 * to report. A withheld check's tallies become one unreachable count with its reason.
 */
export function applyTiers(findings: readonly Finding[], tallies: CheckTally[], settings: Readonly<Record<string, CheckSetting>> | undefined): Finding[] {
  const out: Finding[] = [];
  const withheld = new Map<string, { why: string; n: number }>();
  for (const f of findings) {
    const check = checkOfKind(f.kind);
    const shipping = shippingOf(check, f.armedBy === 'inferred' ? 'inferred' : 'declared', settings?.[check]);
    if (shipping.ship === 'withhold') {
      const w = withheld.get(check) ?? { why: shipping.why, n: 0 };
      w.n++;
      withheld.set(check, w);
      continue;
    }
    if (shipping.ship === 'advisory' && !f.advisory) {
      f.advisory = true;
      f.message = `${f.message} ${advisorySentence(shipping.why)}`;
    }
    out.push(f);
  }
  for (const t of tallies) {
    // Withheld however it was armed (off, or opt-in): it reports nothing, and says why.
    const whole = shippingOf(t.check, 'declared', settings?.[t.check]);
    if (whole.ship === 'withhold') {
      t.checked = 0;
      t.findings = 0;
      t.notApplicable = 0;
      t.unreachable = 1;
      t.unreachableReasons = { [whole.why]: 1 };
      continue;
    }
    // Withheld only as armed by inference: those findings are taken out of its count, with the reason.
    const w = withheld.get(t.check);
    if (!w) continue;
    const n = Math.min(w.n, t.findings);
    t.findings -= n;
    t.checked -= n;
    t.unreachable += n;
    t.unreachableReasons[w.why] = (t.unreachableReasons[w.why] ?? 0) + n;
    w.n -= n;
  }
  return out;
}
