// Check `argument-schema` (seam `choice`): a call's arguments break the called tool's input JSON
// Schema — a required field missing, a value of the wrong type, a value outside the `enum`, a
// property the schema forbids, a format or bound it does not meet. The schema is the declared
// `inputSchema` when one is declared (armedBy declared), else the one the request's own tool
// definitions recorded (armedBy inferred: the model was shown it). Validation is ajv's, given to
// this check as verdicts (src/runs/schema-validator.ts); this file only decides and words.
// Fences: no schema for the tool -> not applicable; arguments not recorded, recorded as text that
// is not JSON, or recorded as `{}` where the schema requires something (instrumentations that
// lose streamed arguments record exactly that) -> unreachable, said so; a schema that cannot be
// compiled -> unreachable with the reason (and a diagnostic from the seam), never a throw. One
// finding per call, naming up to SCHEMA_LIMITS.maxNamedViolations violations. Detection only:
// nothing is blocked. Pure function over plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { ArmedBy, CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { ToolCall } from '../model/agent.js';
import type { SchemaVerdict, SchemaViolation } from '../model/schema.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { armedByInference } from './arming.js';

export const ARGUMENT_SCHEMA = 'argument-schema';
export const ARGUMENTS_NOT_JSON = 'the call\'s arguments were recorded as text that is not JSON (truncated, or not an object)';
export const ARGUMENTS_RECORDED_EMPTY = 'the call\'s arguments were recorded as {} while its schema requires fields (instrumentations that lose streamed arguments record exactly that)';

const NOTHING_BLOCKED = 'Nothing here blocked the call.';

/** The schema a tool's calls are judged against, and how the check came to have it. */
export interface ToolSchema {
  schema: unknown;
  armedBy: ArmedBy;
  /** Where it came from, said in the finding: "declared inputSchema", "the request's tool definition". */
  source: string;
}

export interface ArgumentSchemaInput {
  /** The chat span of the request that chose the calls. */
  span: SpanRef;
  toolCalls: readonly ToolCall[];
  /** The schema to judge a tool's calls against; undefined = none declared or recorded. */
  schemaOf: (toolName: string) => ToolSchema | undefined;
  /** Validates arguments against a schema (ajv, compiled once per schema). */
  validate: (schema: unknown, value: unknown) => SchemaVerdict;
  quotedValueChars: number;
  /** Violations named in one finding; the rest are counted. */
  maxNamedViolations: number;
}

export interface ArgumentSchemaOutcome extends CheckOutcome {
  /** Schemas that could not be used, the first time each was met: the seam reports them as diagnostics. */
  badSchemas: { toolName: string; reason: string }[];
}

/** A JSON pointer as the dot path findings use (`/flights/0/date` -> `args.flights.0.date`). */
export function argumentPath(pointer: string): string {
  if (pointer === '') return 'args';
  const steps = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return `args.${steps.join('.')}`;
}

/** The value a JSON pointer names in `root`, or undefined. */
function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let v: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const step = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v) && /^\d+$/.test(step)) v = v[Number(step)];
    else if (v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, step)) v = (v as Record<string, unknown>)[step];
    else return undefined;
  }
  return v;
}

function shown(v: unknown, cap: number): string {
  if (typeof v === 'string') return `"${quoteText(v, cap)}"`;
  let json: string | undefined;
  try {
    json = JSON.stringify(v);
  } catch {
    json = undefined;
  }
  return quoteText(json ?? String(v), cap);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** The required fields of a schema's top level (for the `{}` fence). */
function requiresSomething(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const req = (schema as Record<string, unknown>)['required'];
  return Array.isArray(req) && req.length > 0;
}

/** Where a violation is (the missing or extra property joined to its parent's path). */
function locationOf(v: SchemaViolation): string {
  const child = v.keyword === 'required' ? v.params['missingProperty'] : v.keyword === 'additionalProperties' ? v.params['additionalProperty'] : undefined;
  const base = argumentPath(v.path);
  return typeof child === 'string' ? `${base}.${child}` : base;
}

/** One violation in words, quoting the offending value. */
export function describeViolation(v: SchemaViolation, args: unknown, cap: number): string {
  const where = locationOf(v);
  const value = valueAt(args, v.path);
  const q = (s: unknown) => quoteText(String(s), cap);
  switch (v.keyword) {
    case 'required':
      return `required '${q(where)}' is missing`;
    case 'additionalProperties':
      return `'${q(where)}' is not a property the schema allows`;
    case 'type':
      return `'${q(where)}' must be ${q(v.params['type'])}, got ${typeName(value)} ${shown(value, cap)}`;
    case 'enum': {
      const allowed = Array.isArray(v.params['allowedValues']) ? (v.params['allowedValues'] as unknown[]) : [];
      const list = allowed.slice(0, 8).map((a) => shown(a, cap)).join(', ') + (allowed.length > 8 ? `, and ${allowed.length - 8} more` : '');
      return `'${q(where)}' must be one of ${list}, got ${shown(value, cap)}`;
    }
    case 'const':
      return `'${q(where)}' must be ${shown(v.params['allowedValue'], cap)}, got ${shown(value, cap)}`;
    case 'format':
      return `'${q(where)}' must be in the format '${q(v.params['format'])}', got ${shown(value, cap)}`;
    case 'pattern':
      return `'${q(where)}' must match the pattern ${shown(v.params['pattern'], cap)}, got ${shown(value, cap)}`;
    case 'anyOf':
    case 'oneOf':
      return `'${q(where)}' matches none of the shapes the schema allows, got ${shown(value, cap)}`;
    default:
      return `'${q(where)}' ${q(v.message)}${value !== undefined && typeof value !== 'object' ? `, got ${shown(value, cap)}` : ''}`;
  }
}

/**
 * The violations worth naming: one per (location, keyword); under an `anyOf`/`oneOf` that failed,
 * its branches' own complaints are dropped (the union's failure says it).
 */
export function namedViolations(violations: readonly SchemaViolation[]): SchemaViolation[] {
  const unions = violations.filter((v) => v.keyword === 'anyOf' || v.keyword === 'oneOf').map((v) => v.path);
  const seen = new Set<string>();
  const out: SchemaViolation[] = [];
  for (const v of violations) {
    if (v.keyword !== 'anyOf' && v.keyword !== 'oneOf' && unions.some((p) => v.path === p || v.path.startsWith(`${p}/`))) continue;
    // `if`/`then` failures repeat what their branch said.
    if (v.keyword === 'if') continue;
    const key = `${locationOf(v)}\u0000${v.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

export function argumentSchemas(input: ArgumentSchemaInput): ArgumentSchemaOutcome {
  const tally: CheckTally = newTally(ARGUMENT_SCHEMA, 'choice');
  const findings: Finding[] = [];
  const badSchemas: { toolName: string; reason: string }[] = [];
  const cap = input.quotedValueChars;
  const unreachable = (reason: string) => addUnreachable(tally, reason);
  for (const [position, call] of input.toolCalls.entries()) {
    const schema = input.schemaOf(call.name);
    if (!schema) {
      tally.notApplicable++;
      continue;
    }
    if (call.arguments === undefined) {
      unreachable(CONTENT_NOT_CAPTURED);
      continue;
    }
    if (typeof call.arguments === 'string') {
      unreachable(ARGUMENTS_NOT_JSON);
      continue;
    }
    const args = call.arguments;
    if (args !== null && typeof args === 'object' && !Array.isArray(args) && Object.keys(args).length === 0 && requiresSomething(schema.schema)) {
      unreachable(ARGUMENTS_RECORDED_EMPTY);
      continue;
    }
    const verdict = input.validate(schema.schema, args);
    if (verdict.kind === 'bad-schema') {
      unreachable(`the input schema of '${quoteText(call.name, cap)}' cannot be used: ${quoteText(verdict.reason, 160)}`);
      if (verdict.firstSeen) badSchemas.push({ toolName: call.name, reason: verdict.reason });
      continue;
    }
    tally.checked++;
    if (verdict.kind === 'valid') continue;
    const named = namedViolations(verdict.violations);
    if (named.length === 0) continue;
    const first = named[0]!;
    const shownViolations = named.slice(0, input.maxNamedViolations).map((v) => describeViolation(v, args, cap));
    const more = named.length - shownViolations.length;
    const tool = quoteText(call.name, cap);
    const callRef = call.id ? `call ${quoteText(call.id, cap)}` : `its call #${position + 1} of this response, with no recorded id`;
    const from = schema.armedBy === 'declared' ? `its declared input schema (${schema.source})` : `its input schema as the request recorded it (${schema.source})`;
    const firstValue = valueAt(args, first.path);
    const witnesses: Witness[] = named.slice(0, input.maxNamedViolations).map((v) => {
      const at = valueAt(args, v.path);
      return {
        subject: `tool ${call.name}`,
        predicate: locationOf(v),
        value: at === undefined || v.keyword === 'required' || v.keyword === 'additionalProperties' ? v.keyword : typeof at === 'string' ? at : shown(at, cap),
        stratum: 'chosen' as const,
        provenance: `the model's arguments (${callRef}): ${describeViolation(v, args, cap)}`,
      };
    });
    witnesses.push({
      subject: `tool ${call.name}`,
      predicate: 'inputSchema',
      value: schema.source,
      stratum: schema.armedBy === 'declared' ? 'declared' : 'served',
      provenance: schema.armedBy === 'declared' ? 'declared by the tool\'s author (armedBy declared)' : 'recorded in the request\'s tool definitions, so the model was shown it (armedBy inferred)',
    });
    tally.findings++;
    const finding: Finding = {
      kind: ARGUMENT_SCHEMA,
      seam: 'choice',
      subjects: [{ kind: 'tool', id: call.name }],
      predicate: locationOf(first),
      ...(typeof firstValue === 'string' ? { value: firstValue } : {}),
      message:
        `The call to '${tool}' (${callRef}) breaks ${from}: ${shownViolations.join('; ')}${more > 0 ? `; and ${more} more` : ''}. ` +
        `A tool refuses or misreads arguments its schema forbids: correct them from what the run served. ${NOTHING_BLOCKED}`,
      witnesses,
      span: input.span,
      toolName: call.name,
      ...(call.id ? { toolCallId: call.id } : {}),
      armedBy: 'declared',
    };
    findings.push(schema.armedBy === 'inferred' ? armedByInference(finding, `the request recorded '${call.name}''s input schema, which the model was shown`) : finding);
  }
  return { findings, tally, badSchemas };
}
