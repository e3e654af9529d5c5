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
