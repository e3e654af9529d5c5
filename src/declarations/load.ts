// Loads a declarations file (YAML or JSON; JSON is YAML) and validates it. Every failure is a
// result with reasons naming the file (a YAML error with its line, column, whole message and the
// parser's excerpt), never an exception.

import { readFileSync } from 'node:fs';
import { parseDocument, type YAMLError } from 'yaml';
import type { Declarations } from './types.js';
import { validateDeclarations, type DeclarationsResult } from './schema.js';

export function parseDeclarationsText(text: string, where: string): DeclarationsResult {
  let doc: unknown;
  try {
    const parsed = parseDocument(text);
    if (parsed.errors.length > 0) return { ok: false, errors: parsed.errors.slice(0, MAX_YAML_ERRORS).map((e) => yamlErrorText(where, e)) };
    doc = parsed.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { ok: false, errors: [`${where}: not valid YAML or JSON: ${(e as Error).message}`] };
  }
  if (doc !== null && doc !== undefined && (typeof doc !== 'object' || Array.isArray(doc))) {
    return { ok: false, errors: [`${where}: declarations must be a mapping with a "tools" key`] };
  }
  const r = validateDeclarations(doc);
  return r.ok ? r : { ok: false, errors: r.errors.map((e) => `${where}: ${e}`) };
}

export const MAX_YAML_ERRORS = 10;

/** The parser's whole message, with its line and column first and its excerpt of the file kept. */
export function yamlErrorText(where: string, e: YAMLError): string {
  const pos = e.linePos?.[0];
  const [first = '', ...frame] = e.message.split('\n');
  const reason = first.replace(/ at line \d+, column \d+:?$/, '');
  while (frame.length > 0 && frame[0]!.trim() === '') frame.shift();
  while (frame.length > 0 && frame[frame.length - 1]!.trim() === '') frame.pop();
  return [`${where}: not valid YAML or JSON${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}: ${reason}`, ...frame.map((l) => `  ${l}`)].join('\n');
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
