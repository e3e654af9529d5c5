// Validates declarations (a config file's or an object's) with zod. Unknown keys are refused with
// the nearest valid name, so `argumentFrom` says "did you mean argumentsFrom". Returns a result,
// never throws: a caller decides whether a bad file stops it.

import { z } from 'zod';
import type { Declarations } from './types.js';
import { nearest } from './nearest.js';
import { rowsAtSteps } from './rows-at.js';
import { CHECK_CATALOG } from '../checks/catalog.js';

const nonBlank = z.string().trim().min(1, 'must be a non-blank string');

const ColumnType = z.enum(['number', 'string', 'boolean', 'date']);
const Column = z.union([ColumnType.transform((type) => ({ type })), z.strictObject({ type: ColumnType, nullable: z.boolean().optional() })]);

const Producers = z.array(nonBlank).min(1, 'must name at least one tool');
/** Whole-tool form (a list of producers) or named form (argument -> its producers). */
const ArgumentsFrom = z.union([Producers, z.record(nonBlank, Producers).refine((r) => Object.keys(r).length > 0, 'must name at least one argument')]);

// How a tool says refused or not found when no known shape does (docs/checks-ledger.md).
const dottedPath = nonBlank.regex(/^[^.]+(\.[^.]+)*$/, 'must be a dotted path such as "resp.rc"');
const ErrorValue = z.union([nonBlank, z.number()]);
const ErrorShape = z
  .strictObject({
    field: dottedPath.optional(),
    refused: z.array(ErrorValue).min(1, 'must list at least one value').optional(),
    notFound: z.array(ErrorValue).min(1, 'must list at least one value').optional(),
    message: dottedPath.optional(),
  })
  .refine((e) => e.refused !== undefined || e.notFound !== undefined, { message: 'must list refused or notFound values' })
  .refine((e) => !(e.field === undefined && e.message !== undefined), { message: 'message needs a field: a text result has no fields', path: ['message'] })
  .refine((e) => !(e.refused ?? []).some((r) => (e.notFound ?? []).some((n) => String(n).trim().toLowerCase() === String(r).trim().toLowerCase())), {
    message: 'a value cannot mean both refused and notFound',
  });

const Tool = z.strictObject({
  argumentsFrom: ArgumentsFrom.optional(),
  readOnly: z.boolean().optional(),
  volatile: z.boolean().optional(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  resultColumns: z.record(nonBlank, Column).optional(),
  rowsAt: nonBlank.refine((s) => rowsAtSteps(s) !== undefined, 'must be a key, a dotted path (data.items) or a JSON pointer (/data/items) with no blank step').optional(),
  errorShape: ErrorShape.optional(),
});

const Claim = z.strictObject({ entity: nonBlank, field: nonBlank, exact: z.boolean().optional() });

const Answers = z.strictObject({ checkValues: z.boolean().optional() });

const CHECK_IDS = CHECK_CATALOG.map((c) => c.id);
const Checks = z.record(z.string(), z.enum(['on', 'advisory', 'off'], { message: 'must be on, advisory or off' })).superRefine((r, ctx) => {
  for (const id of Object.keys(r)) {
    if (CHECK_IDS.includes(id)) continue;
    const guess = nearest(id, CHECK_IDS);
    ctx.addIssue({ code: 'custom', path: [id], message: `unknown check${guess ? ` (did you mean "${guess}"?)` : ''}; the checks are ${CHECK_IDS.join(', ')}` });
  }
});

const DeclarationsSchema = z.strictObject({
  tools: z.record(nonBlank, Tool).default({}),
  claims: z.record(nonBlank, Claim).optional(),
  answers: Answers.optional(),
  inference: z.boolean().optional(),
  checks: Checks.optional(),
});

const TOOL_KEYS = ['argumentsFrom', 'readOnly', 'volatile', 'inputSchema', 'resultColumns', 'rowsAt', 'errorShape'];
const ERROR_SHAPE_KEYS = ['field', 'refused', 'notFound', 'message'];
const TOP_KEYS = ['tools', 'claims', 'answers', 'inference', 'checks'];
const ANSWER_KEYS = ['checkValues'];
const COLUMN_KEYS = ['type', 'nullable'];
const CLAIM_KEYS = ['entity', 'field', 'exact'];

export type DeclarationsResult = { ok: true; declarations: Declarations } | { ok: false; errors: string[] };

function validKeysAt(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return TOP_KEYS;
  if (path[0] === 'tools' && path.length === 2) return TOOL_KEYS;
  if (path[0] === 'tools' && path[2] === 'resultColumns' && path.length === 4) return COLUMN_KEYS;
  if (path[0] === 'tools' && path[2] === 'errorShape' && path.length === 3) return ERROR_SHAPE_KEYS;
  if (path[0] === 'claims' && path.length === 2) return CLAIM_KEYS;
  if (path[0] === 'answers' && path.length === 1) return ANSWER_KEYS;
  return [];
}

function describe(issue: z.core.$ZodIssue): string[] {
  const where = issue.path.map(String).join('.') || '(top level)';
  if (issue.code === 'unrecognized_keys') {
    const valid = validKeysAt(issue.path);
    return issue.keys.map((k) => {
      const guess = nearest(k, valid);
      const at = issue.path.length ? `${where}.${k}` : k;
      return `${at}: unknown key${guess ? ` (did you mean "${guess}"?)` : ''}; valid keys here: ${valid.join(', ')}`;
    });
  }
  return [`${where}: ${issue.message}`];
}

/** Validates a parsed declarations document. Self-referencing `argumentsFrom` is refused too. */
export function validateDeclarations(input: unknown): DeclarationsResult {
  const parsed = DeclarationsSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.flatMap(describe) };
  const errors: string[] = [];
  const tools: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(parsed.data.tools)) {
    const { argumentsFrom, ...rest } = tool;
    // The named form keeps its map and lists the union of its producers as `argumentsFrom`.
    const named = argumentsFrom !== undefined && !Array.isArray(argumentsFrom) ? argumentsFrom : undefined;
    const producers = Array.isArray(argumentsFrom) ? argumentsFrom : named ? [...new Set(Object.values(named).flat())] : undefined;
    if (producers?.includes(name)) errors.push(`tools.${name}.argumentsFrom: a tool cannot take its arguments from its own results`);
    tools[name] = { ...rest, ...(producers ? { argumentsFrom: producers } : {}), ...(named ? { argumentSources: named } : {}) };
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, declarations: { ...parsed.data, tools } as Declarations };
}
