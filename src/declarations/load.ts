// Loads a declarations file (YAML or JSON; JSON is YAML) and validates it. Every failure is a
// result with one-line reasons naming the file, never an exception.

import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Declarations } from './types.js';
import { validateDeclarations, type DeclarationsResult } from './schema.js';

export function parseDeclarationsText(text: string, where: string): DeclarationsResult {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    return { ok: false, errors: [`${where}: not valid YAML or JSON (${(e as Error).message.split('\n')[0]})`] };
  }
  if (doc !== null && doc !== undefined && (typeof doc !== 'object' || Array.isArray(doc))) {
    return { ok: false, errors: [`${where}: declarations must be a mapping with a "tools" key`] };
  }
  const r = validateDeclarations(doc);
  return r.ok ? r : { ok: false, errors: r.errors.map((e) => `${where}: ${e}`) };
}

export function loadDeclarationsFile(path: string): DeclarationsResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, errors: [`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`] };
  }
  return parseDeclarationsText(text, path);
}

/** Merges span-carried declarations under file/object ones: what an author wrote down wins. */
export function mergeToolDeclaration(base: Declarations, toolName: string, fromSpan: { argumentsFrom?: string[]; readOnly?: boolean } | undefined): Declarations['tools'][string] | undefined {
  const declared = base.tools[toolName];
  if (!fromSpan) return declared;
  return { ...fromSpan, ...declared };
}
