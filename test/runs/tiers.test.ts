// Check tiers (docs/checks.md#tiers) and the user's setting of each check: a check ships its
// findings as findings, as advisories (an advisory tier, or `checks: { id: advisory }`), or not at
// all (`off`, or an `opt-in` tier not turned on), and a withheld check's disposition says why, so
// "no findings" never reads as "checked and clean". Also the declarations' `checks:` key.

import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyTiers, shippingOf } from '../../src/runs/tiers.js';
import { validateDeclarations } from '../../src/declarations/schema.js';
import { checkTiers, tierLine } from '../../src/declarations/armed.js';
import { CHECK_CATALOG } from '../../src/checks/catalog.js';
import { runCheck } from '../../src/cli/check.js';
import type { CheckTally, Finding } from '../../src/model/finding.js';

const span = { traceId: '1f2e3d4c5b6a79881f2e3d4c5b6a7988', spanId: '1a2b3c4d5e6f7a8b' };
const finding = (kind: string, armedBy: 'declared' | 'inferred' = 'inferred'): Finding => ({ kind, seam: 'answer', subjects: [], predicate: 'x', message: 'A finding.', witnesses: [], span, armedBy });
const tally = (check: string, findings = 1): CheckTally => ({ check, seam: 'answer', checked: findings, findings, notApplicable: 0, unreachable: 0, unreachableReasons: {} });

describe('tiers', () => {
  it('every registered check has a tier and says why it is in it', () => {
    for (const c of CHECK_CATALOG) {
      expect(['default', 'advisory', 'opt-in'], c.id).toContain(c.tier);
      expect(c.tierWhy.length, c.id).toBeGreaterThan(20);
    }
  });

  it('a setting wins over the tier: on reports, advisory marks and says why, off withholds and says why', () => {
    expect(shippingOf('count-mismatch', 'inferred', undefined)).toEqual({ ship: 'report' });
    expect(shippingOf('count-mismatch', 'inferred', 'advisory')).toMatchObject({ ship: 'advisory' });
    expect(shippingOf('count-mismatch', 'declared', 'off')).toEqual({ ship: 'withhold', why: 'turned off in the declarations (checks.count-mismatch: off)' });
    expect(shippingOf('repeated-call', 'inferred', 'on')).toEqual({ ship: 'report' });
  });

  it('applies to one event: advisory findings end with why, a withheld check\'s tally is unreachable with the reason', () => {
    const findings = [finding('count-mismatch'), finding('unconfirmed-action')];
    const tallies = [tally('count-mismatch'), tally('unconfirmed-action'), tally('status-contradiction', 0)];
    const out = applyTiers(findings, tallies, { 'count-mismatch': 'advisory', 'unconfirmed-action': 'off', 'status-contradiction': 'off' });
    expect(out.map((f) => [f.kind, f.advisory])).toEqual([['count-mismatch', true]]);
    expect(out[0]!.message).toBe('A finding. It is advisory: set advisory in the declarations (checks.count-mismatch: advisory).');
    expect(tallies[1]).toMatchObject({ checked: 0, findings: 0, unreachable: 1, unreachableReasons: { 'turned off in the declarations (checks.unconfirmed-action: off)': 1 } });
    expect(tallies[2]).toMatchObject({ checked: 0, unreachable: 1 });
    expect(tallies[0]).toMatchObject({ checked: 1, findings: 1 });
  });

  it('the start summary names each check\'s tier and the settings', () => {
    const t = checkTiers({ tools: {}, checks: { 'count-mismatch': 'off', 'unsupported-value': 'advisory' } });
    expect(t.off).toEqual(['count-mismatch']);
    expect(t.advisory).toEqual(expect.arrayContaining(['repeated-call', 'empty-lookup', 'prior-turn-evidence', 'unsupported-value']));
    expect(tierLine(t)).toMatch(/^tiers \(docs\/checks\.md#tiers\): findings: .*; advisory: .*; off: count-mismatch$/);
  });
});

describe('declarations: checks', () => {
  it('accepts on, advisory and off per registered check; refuses an unknown check with the nearest name, and another value', () => {
    expect(validateDeclarations({ checks: { 'unsupported-value': 'off', 'repeated-call': 'on' } }).ok).toBe(true);
    const bad = validateDeclarations({ checks: { 'unsuported-value': 'off' } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toContain('did you mean "unsupported-value"');
    const value = validateDeclarations({ checks: { 'unsupported-value': 'maybe' } });
    expect(value.ok).toBe(false);
    if (!value.ok) expect(value.errors[0]).toContain('must be on, advisory or off');
  });

  it('a check turned off reports nothing on a real case, and the turn says why', () => {
    const dir = 'test/quality/cases/found2-uv-defect-decimal-read-as-thousands';
    const args = [join(dir, 'trace.otlp.json'), join(dir, 'logs.otlp.json'), '--format', 'json', '--fail-on', 'never'];
    const on = JSON.parse(runCheck([...args, '--declarations', join(dir, 'declarations.yaml')]).stdout) as { findings: { kind: string }[] };
    expect(on.findings.map((f) => f.kind)).toContain('unsupported-value');
    const tmp = mkdtempSync(join(tmpdir(), 'fp-tiers-'));
    const decl = join(tmp, 'declarations.yaml');
    writeFileSync(decl, `${readFileSync(join(dir, 'declarations.yaml'), 'utf8')}\nchecks:\n  unsupported-value: off\n`);
    const off = runCheck([...args, '--declarations', decl]);
    const report = JSON.parse(off.stdout) as { findings: { kind: string }[]; traces: { turns?: { disposition?: string }[] }[] };
    expect(report.findings.map((f) => f.kind)).not.toContain('unsupported-value');
    expect(JSON.stringify(report.traces)).toContain('turned off in the declarations (checks.unsupported-value: off)');
  });
});
