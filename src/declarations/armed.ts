// Which registered checks are armed before any trace arrives, and by what: by the declarations (an
// author said so), or by inference (the trace will show it: tool names, descriptions, schemas, MCP
// annotations), and which need a declaration inference cannot give (result columns, claims). Said
// at start by `serve` and the in-process processor. Pure: declarations in, names out.

import type { Declarations } from './types.js';
import { CHECK_CATALOG } from '../checks/catalog.js';

export interface ArmedChecks {
  declared: string[];
  /** Armed by inference, beyond what is declared (empty when `inference: false`). */
  inferred: string[];
  /** Neither declared nor inferable: they need a declaration. */
  needDeclarations: string[];
}

export function armedChecks(d: Declarations | undefined): ArmedChecks {
  const tools = Object.values(d?.tools ?? {});
  const declared = new Set<string>();
  if (tools.some((t) => (t.argumentsFrom?.length ?? 0) > 0)) for (const id of ['dangling-reference', 'unsupported-argument', 'empty-lookup']) declared.add(id);
  if (tools.some((t) => t.resultColumns && Object.keys(t.resultColumns).length > 0)) declared.add('result-columns');
  if (d?.answers?.checkValues) for (const id of ['unsupported-value', 'prior-turn-evidence']) declared.add(id);
  if (d?.claims && Object.keys(d.claims).length > 0) declared.add('unsupported-claim');
  if (tools.length > 0) declared.add('refusal-asserts-absence');
  if (tools.some((t) => t.inputSchema !== undefined)) declared.add('argument-schema');
  if (tools.some((t) => t.readOnly === false)) declared.add('unconfirmed-action');
  const infer = d?.inference !== false;
  const ids = CHECK_CATALOG.map((c) => c.id);
  const inferred = infer ? CHECK_CATALOG.filter((c) => c.inferable && !declared.has(c.id) && !((c.id === 'unsupported-value' || c.id === 'prior-turn-evidence') && d?.answers?.checkValues === false)).map((c) => c.id) : [];
  return {
    declared: ids.filter((id) => declared.has(id)),
    inferred: ids.filter((id) => inferred.includes(id)),
    needDeclarations: ids.filter((id) => !declared.has(id) && !inferred.includes(id)),
  };
}

/** One line saying it, for a person reading a terminal or a log. */
export function armedLine(a: ArmedChecks, source: string): string {
  const parts: string[] = [];
  if (a.declared.length) parts.push(`armed by ${source}: ${a.declared.join(', ')}`);
  if (a.inferred.length) parts.push(`armed by inference from what the trace shows (tool names, descriptions, schemas, MCP annotations; \`inference: false\` turns it off): ${a.inferred.join(', ')}`);
  if (a.needDeclarations.length) parts.push(`need declarations: ${a.needDeclarations.join(', ')}`);
  return parts.length ? parts.join('; ') : 'none armed';
}

/** Each check's tier as it will ship, under the declarations' `checks:` settings (docs/checks.md#tiers). */
export interface CheckTiers {
  /** Findings reported as findings (the default tier, or turned on). */
  reported: string[];
  /** Findings marked advisory (by the check's nature, its tier, or a setting); an inferred-only advisory tier is named with "(inferred)". */
  advisory: string[];
  /** Not reported unless turned on (`checks: { id: on }`). */
  optIn: string[];
  /** Turned off in the declarations. */
  off: string[];
}

export function checkTiers(d: Declarations | undefined): CheckTiers {
  const out: CheckTiers = { reported: [], advisory: [], optIn: [], off: [] };
  for (const c of CHECK_CATALOG) {
    const setting = d?.checks?.[c.id];
    if (setting === 'off') out.off.push(c.id);
    else if (setting === 'advisory') out.advisory.push(c.id);
    else if (setting === 'on') out.reported.push(c.id);
    else if (c.tier === 'opt-in') out.optIn.push(c.id);
    else if (c.tier === 'advisory') out.advisory.push(c.id);
    else if (c.inferredTier === 'opt-in') (out.reported.push(c.id), out.optIn.push(`${c.id} (inferred)`));
    else if (c.inferredTier === 'advisory') (out.reported.push(c.id), out.advisory.push(`${c.id} (inferred)`));
    else out.reported.push(c.id);
  }
  return out;
}

/** One line saying the tiers, for a person reading a terminal or a log. */
export function tierLine(t: CheckTiers): string {
  const parts = [`findings: ${t.reported.join(', ') || 'none'}`, `advisory: ${t.advisory.join(', ') || 'none'}`];
  if (t.optIn.length) parts.push(`opt-in (checks: { id: on }): ${t.optIn.join(', ')}`);
  if (t.off.length) parts.push(`off: ${t.off.join(', ')}`);
  return `tiers (docs/checks.md#tiers): ${parts.join('; ')}`;
}
