// What the trace itself shows about a tool nobody declared: its role (a read or a write) from its
// MCP annotations, the verb of its name, or the verb its description opens with; and the tools its
// arguments come from, where its schema's descriptions name them ("as returned by list_machines"). The second, visible tier beside declarations:
// every inferred fact carries the evidence it came from, a declared fact always wins, and a tool
// whose evidence disagrees (`get_or_create_user`) gets no role at all.
// Must never infer from a tool's results or from values (only names, descriptions, schemas and
// annotations the telemetry recorded), and never override a declaration. Pure: no I/O, no clocks.

import type { ToolDeclaration } from './types.js';
import { known, unknown, type Known, type ToolRole } from '../model/known.js';

/** What the telemetry recorded about a tool, as inference reads it. */
export interface ToolEvidence {
  name: string;
  description?: string;
  /** MCP tool annotations, when a definition carried them. */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  /** Arguments whose schema description names the tools they come from (`as returned by list_machines`). */
  sources?: InferredSources;
  /** The input schema the telemetry recorded (bounded by the caller): recorded, so used as a declared one would be. */
  inputSchema?: unknown;
}

/** Producers by argument name, read from the schema's own words, with the words that said so. */
export interface InferredSources {
  byArgument: Record<string, string[]>;
  evidence: string;
}

/** An inferred role: `readOnly` true for a read, false for a write, with why. */
export interface InferredRole {
  readOnly: boolean;
  evidence: string;
}

/** Facts inference added to a declaration, each with its evidence (absent = declared or unknown). */
export interface InferredFacts {
  /** Set when `readOnly` was inferred. */
  readOnly?: string;
  /** Set when `argumentsFrom` (and `argumentSources`) were inferred. */
  argumentsFrom?: string;
}

const MAX_SCHEMA_PROPERTIES = 64;
const MAX_DESCRIPTION_CHARS = 400;

/**
 * The tools an input schema's argument descriptions name as their source: a top-level property
 * (or the items of an array property) whose description holds another offered tool's name as a
 * whole word (`Machine identifier as returned by list_machines.`). Undefined when none does.
 */
export function sourcesFromSchema(tool: string, schema: unknown, offered: readonly string[]): InferredSources | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const props = (schema as Record<string, unknown>)['properties'];
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return undefined;
  const others = offered.filter((n) => n !== tool && n.length >= 3);
  if (others.length === 0) return undefined;
  const byArgument: Record<string, string[]> = {};
  const said: string[] = [];
  for (const [arg, node] of Object.entries(props as Record<string, unknown>).slice(0, MAX_SCHEMA_PROPERTIES)) {
    const descriptions = descriptionsOf(node);
    const named = others.filter((n) => descriptions.some((d) => mentions(d, n)));
    if (named.length === 0) continue;
    byArgument[arg] = named;
    said.push(`the schema of '${arg}' names ${named.map((n) => `'${n}'`).join(', ')}`);
  }
  return said.length > 0 ? { byArgument, evidence: said.join('; ') } : undefined;
}

/** A property's own description and its array items' (and their properties'), bounded. */
function descriptionsOf(node: unknown): string[] {
  const out: string[] = [];
  const visit = (n: unknown, depth: number) => {
    if (n === null || typeof n !== 'object' || depth > 2) return;
    const r = n as Record<string, unknown>;
    if (typeof r['description'] === 'string') out.push(r['description'].slice(0, MAX_DESCRIPTION_CHARS));
    visit(r['items'], depth + 1);
  };
  visit(node, 0);
  return out;
}

/** Whether `text` holds the tool name as a whole word (tool names join words with _ - . or case). */
function mentions(text: string, name: string): boolean {
  const at = text.indexOf(name);
  if (at < 0) return false;
  const before = at === 0 ? '' : text[at - 1]!;
  const after = text[at + name.length] ?? '';
  return !/[\w-]/.test(before) && !/[\w-]/.test(after);
}

/** A tool's declaration as the checks see it: what was declared, completed by what was inferred. */
export type EffectiveDeclaration = ToolDeclaration & { inferred?: InferredFacts };

/** Verbs whose tools only look: a call of one reads and changes nothing. */
export const READ_VERBS: ReadonlySet<string> = new Set(
  'get list search find lookup show check fetch query read describe view retrieve browse count inspect lookup'.split(' '),
);

/** Verbs whose tools change something: a call of one is an action the answer may claim. */
export const WRITE_VERBS: ReadonlySet<string> = new Set(
  ('create update delete remove cancel book send pay transfer add set modify edit insert post submit refund charge reset ' +
    'change upgrade downgrade assign approve reject write put patch grant revoke enable disable archive schedule reschedule ' +
    'register subscribe unsubscribe purchase rename replace upload deploy issue reserve void close reopen mark')
    .split(' '),
);

/** Words of a tool name: snake, kebab, dotted, slashed and camel case split, lower-cased. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** Words after a verb that make it a phrasal verb the verb lists do not know (`check_in`, `set_up`, `log_out`). */
const PARTICLES: ReadonlySet<string> = new Set(['in', 'out', 'up', 'off', 'over', 'back', 'down', 'on']);

/**
 * The role a tool's name states, when it states one unambiguously: its first word is a read or a
 * write verb, not the start of a phrasal verb, and no later word is a verb of the other role
 * (`get_or_create_user` states none). A verb elsewhere in the name (`address_book`, `user_delete`)
 * is no evidence: where a name puts its verb is not known, so such a name has no role.
 */
function roleOfWords(words: readonly string[]): { readOnly: boolean; verb: string } | 'conflict' | undefined {
  const first = words[0];
  if (first === undefined) return undefined;
  const read = READ_VERBS.has(first);
  const write = WRITE_VERBS.has(first);
  if (!read && !write) return undefined;
  if (words[1] !== undefined && PARTICLES.has(words[1])) return 'conflict';
  const rest = words.slice(1);
  if (read && rest.some((w) => WRITE_VERBS.has(w))) return 'conflict';
  if (write && rest.some((w) => READ_VERBS.has(w))) return 'conflict';
  return { readOnly: read, verb: first };
}

/** The first word of a description (`Get the details…`, `Cancels an order.`), third person folded. */
function descriptionVerb(description: string): string | undefined {
  const first = /^\s*([A-Za-z]+)/.exec(description)?.[1]?.toLowerCase();
  if (!first) return undefined;
  if (READ_VERBS.has(first) || WRITE_VERBS.has(first)) return first;
  // `Returns`, `Lists`, `Searches`, `Cancels`: the verb's third person.
  for (const stem of [first.replace(/es$/, ''), first.replace(/s$/, '')]) if (READ_VERBS.has(stem) || WRITE_VERBS.has(stem)) return stem;
  if (first === 'returns' || first === 'return') return 'get';
  return undefined;
}

/**
 * The role the evidence shows, or undefined when it shows none or disagrees with itself. MCP
 * annotations first (the server said so), then the name's verbs, then the description's opening verb.
 */
export function inferRole(e: ToolEvidence): InferredRole | undefined {
  const a = e.annotations;
  if (a?.readOnlyHint === true && a.destructiveHint !== true) return { readOnly: true, evidence: 'its MCP annotations say readOnlyHint' };
  if (a?.destructiveHint === true || a?.readOnlyHint === false) return { readOnly: false, evidence: `its MCP annotations say ${a.destructiveHint === true ? 'destructiveHint' : 'readOnlyHint: false'}` };
  const byName = roleOfWords(nameWords(e.name));
  if (byName === 'conflict') return undefined;
  if (byName) return { readOnly: byName.readOnly, evidence: `its name has the ${byName.readOnly ? 'read' : 'write'} verb '${byName.verb}'` };
  const verb = e.description ? descriptionVerb(e.description) : undefined;
  if (verb) {
    const readOnly = READ_VERBS.has(verb);
    return { readOnly, evidence: `its description opens with the ${readOnly ? 'read' : 'write'} verb '${verb}'` };
  }
  return undefined;
}

/**
 * A declared tool completed by inference: every field the author declared stays; `readOnly` is
 * inferred only where the author said nothing about it. `infer: false` returns the declaration as is.
 */
export function effectiveDeclaration(declared: ToolDeclaration | undefined, evidence: ToolEvidence, infer: boolean): EffectiveDeclaration | undefined {
  if (!infer) return declared;
  let out: EffectiveDeclaration | undefined = declared;
  // A schema the telemetry recorded serves where none was declared (enum filters, identifier words).
  if (declared?.inputSchema === undefined && evidence.inputSchema !== undefined) out = { ...out, inputSchema: evidence.inputSchema };
  if (declared?.readOnly === undefined) {
    const role = inferRole(evidence);
    if (role) out = { ...out, readOnly: role.readOnly, inferred: { ...out?.inferred, readOnly: role.evidence } };
  }
  if (!(declared?.argumentsFrom?.length) && evidence.sources) {
    const producers = [...new Set(Object.values(evidence.sources.byArgument).flat())];
    out = { ...out, argumentsFrom: producers, argumentSources: evidence.sources.byArgument, inferred: { ...out?.inferred, argumentsFrom: evidence.sources.evidence } };
  }
  return out;
}

/**
 * A tool's role as a known reading (src/model/known.ts): read or write, with the evidence (a
 * declaration, or what inference read), or unknown when nothing says which. An unknown role can
 * only suppress a finding: a check never treats such a tool as a read or as a write to accuse.
 */
export function toolRole(d: EffectiveDeclaration | undefined): Known<ToolRole> {
  if (d?.readOnly === undefined) return unknown('nothing declared or recorded says whether it reads or writes');
  const role: ToolRole = d.readOnly ? 'read' : 'write';
  return known(role, d.inferred?.readOnly ?? `declared readOnly: ${String(d.readOnly)}`);
}

/** How a fact the check relied on came to be: declared by an author, or inferred from the trace. */
export type ArmedBy = 'declared' | 'inferred';

/** Whether `readOnly` of this declaration was inferred. */
export function roleArmedBy(d: EffectiveDeclaration | undefined): ArmedBy {
  return d?.inferred?.readOnly !== undefined ? 'inferred' : 'declared';
}

/** The evidence of an inferred `argumentsFrom`, or undefined when it was declared (or absent). */
export function sourcesInferred(d: ToolDeclaration | undefined): string | undefined {
  return (d as EffectiveDeclaration | undefined)?.inferred?.argumentsFrom;
}
