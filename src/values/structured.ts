// A tool result's text read as structure: JSON, or YAML where the text is a YAML dump (a block
// mapping or sequence, as AgentDojo, Python `yaml.dump` and many CLIs write results), read by the
// `yaml` library (never a parser of ours), line folds and quoting undone. The one place that
// decides whether a result text is structure, so every reader (typed values, the token index,
// the ledger's rows, served rows) sees the same thing. YAML is read with the failsafe schema:
// every scalar stays the string it was written as (`0123` keeps its zero, `2024-05-15 11:00`
// stays a string, `yes` is not a boolean); readers type the strings themselves.
// Must never guess: prose, a single `key: value` line, text whose top-level lines are not all
// keys or list items, or anything the library reports an error for is not structure (undefined).
// Pure: no I/O, no clocks, no globals.

import { parseDocument } from 'yaml';

export type StructuredFormat = 'json' | 'yaml';

export interface Structured {
  format: StructuredFormat;
  /** The parsed value: an object or an array (a scalar is never structure). */
  value: unknown;
}

/** Characters of YAML text read as structure; a longer text is text (the library is ~100x slower than JSON.parse). */
export const MAX_YAML_CHARS = 256 * 1024;

/** A top-level line of a YAML dump: a list item (`- x`, `-`) or a key (`key: value`, `key:`), the key one line of at most 80 characters. */
const TOP_LINE = /^(?:-(?:[ \t]|$)|[^\s#\-?:,[\]{}&*!|>'"%@`][^\n]{0,79}?:(?:[ \t]|$)|'[^'\n]{1,80}':(?:[ \t]|$)|"[^"\n]{1,80}":(?:[ \t]|$))/;

/** Whether a text is shaped like a YAML dump: two lines or more, every top-level (unindented, non-blank, non-comment) line a key or a list item. */
export function looksLikeYaml(text: string): boolean {
  if (text.length > MAX_YAML_CHARS) return false;
  const nl = text.indexOf('\n');
  if (nl < 0 || nl === text.length - 1) return false;
  let top = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const c = text.charCodeAt(start);
    // Unindented and not blank: it must open a key or an item. A document marker is allowed.
    if (end > start && c !== 32 && c !== 9 && c !== 13 && c !== 35) {
      const line = text.slice(start, end);
      if (line !== '---' && !TOP_LINE.test(line)) return false;
      top++;
    }
    start = end + 1;
  }
  return top > 0;
}

/** The text parsed as JSON when it looks like a JSON object or array, undefined when it is not that. */
export function parseJsonStructure(text: string): unknown {
  const t = text.trimStart();
  const c = t[0];
  if (c !== '{' && c !== '[') return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The text parsed as a YAML dump (failsafe schema), or undefined when it is not one. */
export function parseYamlStructure(text: string): unknown {
  if (!looksLikeYaml(text)) return undefined;
  try {
    const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: false, prettyErrors: false });
    // Any error (or warning) means the library did not read it whole: text, not structure.
    if (doc.errors.length > 0 || doc.warnings.length > 0) return undefined;
    const v = doc.toJS({ maxAliasCount: 0 }) as unknown;
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A result text as structure: JSON first, then a YAML dump; undefined for text that is neither. */
export function readStructured(text: string): Structured | undefined {
  const json = parseJsonStructure(text);
  if (json !== undefined) return { format: 'json', value: json };
  const yaml = parseYamlStructure(text);
  return yaml !== undefined ? { format: 'yaml', value: yaml } : undefined;
}
