// The one reader of a tool's result: says whether it was empty (and who said so), counts its rows,
// and records the envelopes a tool may return — an absence envelope (`af_absent`), a coverage
// ledger (`af_coverage`) and a described result (`af_semantics`) — plus how the result says its
// call ended (refusal-reading.ts): a refusal or failure, or a not-found, which is recorded as a
// declared absence of the call's values, never as a refusal. It counts, it never interprets: prose, objects of unknown shape and null
// read `unknown`, never guessed. Every envelope is validated with zod; a malformed one is read as
// plain data with the reason recorded, never half-read. Pure: no I/O, no clocks, no globals.

import { z } from 'zod';
import type { ToolDeclaration } from '../declarations/types.js';
import type { CoverageItem, DeclaredPeriod, DescribedFact, ResultReading } from '../model/ledger.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { nearest } from '../declarations/nearest.js';
import { valueAtRowsAt } from '../declarations/rows-at.js';
import { isZonedInstant, periodVerdict, zonedInstantNanos } from './period.js';
import { declaredVerdict, objectVerdict, textVerdict, type EndingVerdict } from './refusal-reading.js';
import { parseYamlStructure } from '../values/structured.js';

/** Coverage ledgers wrapping coverage ledgers are read this deep; a deeper one is plain data. */
export const MAX_COVERAGE_NESTING = 8;
/** Code points of a refusal's text kept on the reading. */
export const MAX_REFUSAL_CHARS = 500;
export interface ResultReaderOptions {
  /** UTF-8 bytes of a string result that will be JSON-parsed; longer strings read as text. */
  maxParsedBytes?: number;
  /**
   * The call's arguments as the model sent them: an argument echoed back beside an error is not
   * entity data, and a not-found is recorded as an absence of these values (its `looked_for`).
   */
  arguments?: unknown;
  /** The span's error message, read for a not-found when the result itself was not captured. */
  spanError?: string;
}

/** What every route of one read shares. */
interface ReadContext {
  maxBytes: number;
  args: unknown;
  declaration: ToolDeclaration | undefined;
  spanError?: string;
}

// ---------------------------------------------------------------------------------------------
// Envelope schemas (the wire is snake_case; the reading is camelCase).

const nonBlank = z.string().refine((s) => s.trim() !== '', { message: 'must be a non-blank string' });
const short = z
  .string()
  .max(80, { message: 'must be at most 80 characters' })
  .refine((s) => !/[\r\n]/.test(s), { message: 'must be one line' });
const shortFitsWhat = (item: { what: string; short?: string | undefined }) => item.short === undefined || item.short.length <= item.what.length;
const SHORT_TOO_LONG = { message: 'short must not be longer than what', path: ['short'] };

const CheckedItem = z.strictObject({ what: nonBlank, why: z.string().optional(), short: short.optional() }).refine(shortFitsWhat, SHORT_TOO_LONG);
const NotCheckedItem = z
  .strictObject({ what: nonBlank, why: z.string().optional(), kind: z.enum(['existence', 'scope']).optional(), short: short.optional() })
  .refine(shortFitsWhat, SHORT_TOO_LONG);
const CannotCoverItem = z
  .strictObject({
    what: nonBlank,
    why: z
      .string({ error: (issue) => (issue.input === undefined ? 'every cannot_cover item needs a why' : 'must be a string') })
      .refine((s) => s.trim() !== '', { message: 'every cannot_cover item needs a why' }),
    short: short.optional(),
  })
  .refine(shortFitsWhat, SHORT_TOO_LONG);

const instant = z.string().refine(isZonedInstant, { message: 'must be an ISO-8601 date-time with a zone, e.g. 2026-09-26T09:00:00Z' });
const Range = z
  .strictObject({ from: instant, to: instant })
  .refine((r) => (zonedInstantNanos(r.from) ?? 0n) <= (zonedInstantNanos(r.to) ?? 0n), { message: 'from must not be later than to' });
const Period = z.strictObject({ queried: Range, held: z.union([z.literal('unknown'), Range]), read_at: instant.optional() });

const AbsenceProvenance = z.strictObject({ source: nonBlank.optional(), measured_at: nonBlank.optional() });

const AbsenceEnvelope = z.strictObject({
  af_absent: z.literal(true),
  outcome: z.string().optional(),
  looked_for: nonBlank,
  checked: z.array(CheckedItem).min(1, { message: 'must list at least one thing that was checked (an absence that checked nothing is not a declared absence)' }),
  not_checked: z.array(NotCheckedItem).optional(),
  cannot_cover: z.array(CannotCoverItem).optional(),
  retry_returns_the_same: z.boolean().optional(),
  try_instead: nonBlank.optional(),
  try_instead_tool: z.strictObject({ tool: nonBlank, why: z.string().optional() }).optional(),
  period: Period.optional(),
  provenance: AbsenceProvenance.optional(),
  note: z.string().optional(),
});

const CoverageLists = z.strictObject({
  checked: z.array(CheckedItem).optional(),
  not_checked: z.array(NotCheckedItem).optional(),
  cannot_cover: z.array(CannotCoverItem).optional(),
  note: z.string().optional(),
});

const CoverageLedger = z.strictObject({ af_coverage: CoverageLists, result: z.unknown() });

const Fact = z
  .looseObject({ entity: nonBlank })
  .refine((f) => Object.keys(f).some((k) => k !== 'entity'), { message: 'a fact must state at least one field besides entity' });
const SeriesPoint = z.strictObject({ t: nonBlank, entity: nonBlank, metric: nonBlank, value: z.union([z.number(), z.string(), z.boolean(), z.null()]) });
const Edge = z.strictObject({ from: nonBlank, to: nonBlank, kind: z.string().optional() });
const DescribedProvenance = z.strictObject({
  measured_at: nonBlank,
  source: nonBlank,
  age_seconds: z.number().nonnegative().optional(),
  source_export_date: z.string().optional(),
});
const nonEmptyList = <T extends z.ZodType>(item: T) => z.array(item).min(1, { message: 'must not be empty (say "nothing matched" with an absence envelope instead)' });

const DescribedEnvelope = z
  .strictObject({
    af_semantics: z.literal(true),
    facts: nonEmptyList(Fact).optional(),
    series: nonEmptyList(SeriesPoint).optional(),
    edges: nonEmptyList(Edge).optional(),
    grain: z.record(z.string(), z.unknown()).optional(),
    provenance: DescribedProvenance.optional(),
    coverage: CoverageLists.optional(),
    not_covered: z.array(z.string()).optional(),
    clarify: z.union([z.null(), z.looseObject({ question: nonBlank })]).optional(),
    render: z.record(z.string(), z.unknown()).optional(),
    note: z.string().optional(),
  })
  .superRefine((e, ctx) => {
    if (!e.facts && !e.series && !e.edges && !e.clarify) ctx.addIssue({ code: 'custom', message: 'must carry facts, series, edges or a clarify question' });
    if ((e.facts || e.series) && !e.provenance) ctx.addIssue({ code: 'custom', path: ['provenance'], message: 'provenance (measured_at and source) is required with facts or series' });
  });

/** Every wire key the envelopes know, for "did you mean" on an unknown key. */
const WIRE_KEYS = [
  'af_absent', 'outcome', 'looked_for', 'checked', 'not_checked', 'cannot_cover', 'retry_returns_the_same', 'try_instead',
  'try_instead_tool', 'period', 'provenance', 'note', 'what', 'why', 'kind', 'short', 'tool', 'queried', 'held', 'read_at',
  'from', 'to', 'source', 'measured_at', 'af_coverage', 'result', 'af_semantics', 'facts', 'series', 'edges', 'grain',
  'coverage', 'not_covered', 'clarify', 'render', 'entity', 't', 'metric', 'value', 'age_seconds', 'source_export_date', 'question',
];

function why(envelope: string, error: z.ZodError): string {
  const problems = error.issues.flatMap((issue) => {
    const where = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => {
        // Very short names are too close to everything to suggest anything.
        const guess = k.length >= 4 ? nearest(k, WIRE_KEYS) : undefined;
        return `${where === '' ? k : `${where}.${k}`}: unknown key${guess && guess !== k ? ` (did you mean "${guess}"?)` : ''}`;
      });
    }
    return [`${where || '(top level)'}: ${issue.message}`];
  });
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
  return `${envelope} refused, read as plain data: ${problems.slice(0, 3).join('; ')}${more}`;
}

// ---------------------------------------------------------------------------------------------
// Reading.

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function capPoints(text: string, cap: number): string {
  const points = Array.from(text.length > cap * 2 ? text.slice(0, cap * 2) : text);
  return points.length <= cap ? points.join('') : `${points.slice(0, cap).join('')}…`;
}

/** UTF-8 length, stopping as soon as it passes `max`. */
function utf8LongerThan(s: string, max: number): boolean {
  if (s.length > max) return true;
  if (s.length * 3 <= max) return false;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}

function nonBlankString(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function items(list: readonly { what: string; why?: string | undefined; kind?: 'existence' | 'scope' | undefined; short?: string | undefined }[] | undefined): CoverageItem[] {
  return (list ?? []).map((i) => ({
    what: i.what,
    ...(i.why !== undefined && i.why.trim() !== '' ? { why: i.why } : {}),
    ...(i.kind ? { kind: i.kind } : {}),
    ...(i.short !== undefined ? { short: i.short } : {}),
  }));
}

function coverageOf(lists: z.infer<typeof CoverageLists> | undefined): NonNullable<ResultReading['coverage']> {
  return { checked: items(lists?.checked), notChecked: items(lists?.not_checked), cannotCover: items(lists?.cannot_cover) };
}

/** Outer lists first, then inner; an item already listed (same what, why and kind) is kept once. */
function mergeCoverage(a: ResultReading['coverage'], b: ResultReading['coverage']): ResultReading['coverage'] {
  if (!a) return b;
  if (!b) return a;
  const merge = (x: CoverageItem[], y: CoverageItem[]) => {
    const seen = new Set<string>();
    return [...x, ...y].filter((i) => {
      const key = `${i.what}\u0000${i.why ?? ''}\u0000${i.kind ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  return { checked: merge(a.checked, b.checked), notChecked: merge(a.notChecked, b.notChecked), cannotCover: merge(a.cannotCover, b.cannotCover) };
}

function readArray(list: readonly unknown[], shape: 'array' | 'rows-at'): ResultReading {
  const reading: ResultReading = { emptiness: list.length === 0 ? 'undeclared-empty' : 'non-empty', rows: list.length, shape };
  if (list.length > 0 && list.every(isPlainObject)) reading.objectRows = list as Record<string, unknown>[];
  return reading;
}

function readPlainObject(o: Record<string, unknown>, ctx: ReadContext, refused?: string): ResultReading {
  const rowsAt = ctx.declaration?.rowsAt;
  const rows = rowsAt !== undefined ? valueAtRowsAt(o, rowsAt) : undefined;
  const reading: ResultReading = Array.isArray(rows) ? readArray(rows, 'rows-at') : { emptiness: 'unknown', shape: 'object' };
  applyVerdict(reading, declaredVerdict(o, ctx.declaration?.errorShape) ?? objectVerdict(o, ctx.args), ctx);
  if (refused !== undefined) reading.envelopeRefused = refused;
  return reading;
}

/** The call's values as one line, for a not-found's `looked_for` ("order_id A-17, region eu"). */
function lookedForOf(args: unknown): string | undefined {
  const parts: string[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (parts.length >= 8 || depth > 4) return;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      if (String(v).trim() !== '') parts.push(path === '' ? String(v) : `${path} ${String(v)}`);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, path, depth + 1));
    else if (isPlainObject(v)) for (const [k, x] of Object.entries(v)) walk(x, path === '' ? k : `${path}.${k}`, depth + 1);
  };
  walk(args, '', 0);
  return parts.length > 0 ? capPoints(parts.join(', '), MAX_REFUSAL_CHARS) : undefined;
}

/**
 * Records what the result said about how the call ended: a refusal or failure on `refusal`; a
 * not-found as a declared absence of the call's values, with the tool's words on `notFound`
 * (the tool itself said the thing is not there, so it is never a refusal).
 */
function applyVerdict(reading: ResultReading, verdict: EndingVerdict | undefined, ctx: ReadContext): void {
  if (!verdict) return;
  const said = capPoints(verdict.said, MAX_REFUSAL_CHARS);
  if (verdict.kind === 'refusal') {
    reading.refusal = said;
    return;
  }
  reading.emptiness = 'declared-absent';
  reading.absence = { lookedFor: lookedForOf(ctx.args) ?? said, notFound: said };
}

function readAbsence(o: Record<string, unknown>, ctx: ReadContext): ResultReading {
  const parsed = AbsenceEnvelope.safeParse(o);
  if (!parsed.success) return readPlainObject(o, ctx, why('absence envelope (af_absent)', parsed.error));
  const e = parsed.data;
  const reading: ResultReading = {
    emptiness: 'declared-absent',
    shape: 'absence',
    absence: {
      lookedFor: e.looked_for,
      ...(e.try_instead !== undefined ? { tryInstead: e.try_instead } : {}),
      ...(e.try_instead_tool ? { tryInsteadTool: { tool: e.try_instead_tool.tool, ...(nonBlankString(e.try_instead_tool.why) ? { why: e.try_instead_tool.why! } : {}) } } : {}),
    },
    coverage: coverageOf(e),
  };
  if (e.period) {
    const period: DeclaredPeriod = { queried: e.period.queried, held: e.period.held, verdict: periodVerdict(e.period.queried, e.period.held) };
    if (e.period.read_at !== undefined) period.readAt = e.period.read_at;
    reading.period = period;
  }
  if (e.provenance && (e.provenance.source !== undefined || e.provenance.measured_at !== undefined)) {
    reading.provenance = {
      ...(e.provenance.source !== undefined ? { source: e.provenance.source } : {}),
      ...(e.provenance.measured_at !== undefined ? { measuredAt: e.provenance.measured_at } : {}),
    };
  }
  return reading;
}

function readCoverageLedger(o: Record<string, unknown>, ctx: ReadContext, depth: number): ResultReading {
  if (depth >= MAX_COVERAGE_NESTING) {
    return readPlainObject(o, ctx, `coverage ledger (af_coverage) refused, read as plain data: nested deeper than ${MAX_COVERAGE_NESTING} ledgers`);
  }
  if (!Object.prototype.hasOwnProperty.call(o, 'result')) {
    return readPlainObject(o, ctx, 'coverage ledger (af_coverage) refused, read as plain data: result: the wrapped result is missing');
  }
  const parsed = CoverageLedger.safeParse(o);
  if (!parsed.success) return readPlainObject(o, ctx, why('coverage ledger (af_coverage)', parsed.error));
  const inner = readValue(o['result'], ctx, depth + 1);
  const reading: ResultReading = {
    ...inner,
    shape: 'coverage',
    // The ledger bounds the read: an empty list inside it is a declared absence.
    emptiness: inner.emptiness === 'undeclared-empty' ? 'declared-absent' : inner.emptiness,
  };
  const coverage = mergeCoverage(coverageOf(parsed.data.af_coverage), inner.coverage);
  if (coverage) reading.coverage = coverage;
  return reading;
}

function readDescribed(o: Record<string, unknown>, ctx: ReadContext): ResultReading {
  const parsed = DescribedEnvelope.safeParse(o);
  if (!parsed.success) return readPlainObject(o, ctx, why('described result (af_semantics)', parsed.error));
  const e = parsed.data;
  const measuredAt = e.provenance?.measured_at;
  const facts: DescribedFact[] = [];
  for (const fact of e.facts ?? []) {
    for (const [field, value] of Object.entries(fact)) {
      if (field === 'entity') continue;
      facts.push({ entity: fact.entity, field, value, ...(measuredAt !== undefined ? { measuredAt } : {}) });
    }
  }
  for (const point of e.series ?? []) facts.push({ entity: point.entity, field: point.metric, value: point.value, measuredAt: point.t });
  const data = (e.facts?.length ?? 0) + (e.series?.length ?? 0) + (e.edges?.length ?? 0);
  const reading: ResultReading = { emptiness: data > 0 ? 'non-empty' : 'unknown', shape: 'described', rows: data };
  if (facts.length > 0) reading.facts = facts;
  if (e.provenance) reading.provenance = { source: e.provenance.source, measuredAt: e.provenance.measured_at };
  if (e.coverage) reading.coverage = coverageOf(e.coverage);
  return reading;
}

function readObject(o: Record<string, unknown>, ctx: ReadContext, depth: number): ResultReading {
  // A marker key says which envelope the tool meant; its shape then decides whether it is one.
  if (Object.prototype.hasOwnProperty.call(o, 'af_absent')) return readAbsence(o, ctx);
  if (Object.prototype.hasOwnProperty.call(o, 'af_coverage')) return readCoverageLedger(o, ctx, depth);
  if (Object.prototype.hasOwnProperty.call(o, 'af_semantics')) return readDescribed(o, ctx);
  return readPlainObject(o, ctx);
}

function readString(s: string, ctx: ReadContext, depth: number): ResultReading {
  const text = (): ResultReading => {
    const reading: ResultReading = { emptiness: 'unknown', shape: 'text' };
    applyVerdict(reading, declaredVerdict(s, ctx.declaration?.errorShape) ?? textVerdict(s), ctx);
    return reading;
  };
  if (utf8LongerThan(s, ctx.maxBytes)) return text();
  const first = s.trimStart()[0];
  if (first !== '[' && first !== '{') {
    // A YAML dump (src/values/structured.ts): a list is rows, as a JSON array is. Its scalars are
    // strings as written (their types unknown), so its items are not object rows for column checks;
    // a mapping stays text, read for its ending as text is.
    const yaml = parseYamlStructure(s);
    if (Array.isArray(yaml)) return { emptiness: yaml.length === 0 ? 'undeclared-empty' : 'non-empty', rows: yaml.length, shape: 'array' };
    return text();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    return text();
  }
  // A string parsed from a string is not parsed again: one level of JSON text only.
  if (parsed === null || typeof parsed !== 'object') return text();
  return readValue(parsed, ctx, depth);
}

function readValue(value: unknown, ctx: ReadContext, depth: number): ResultReading {
  if (value === undefined || value === null) {
    // Nothing captured: the span's own error words may still say the thing is not there.
    const reading: ResultReading = { emptiness: 'unknown', shape: 'none' };
    if (depth === 0 && ctx.spanError !== undefined) {
      const verdict = textVerdict(ctx.spanError);
      if (verdict?.kind === 'not-found') applyVerdict(reading, verdict, ctx);
    }
    return reading;
  }
  if (typeof value === 'string') return readString(value, ctx, depth);
  if (Array.isArray(value)) return readArray(value, 'array');
  if (isPlainObject(value)) return readObject(value, ctx, depth);
  // Numbers, booleans and anything else: a value, not rows.
  return { emptiness: 'unknown', shape: 'text' };
}

/**
 * Reads one tool result. A string is JSON-parsed first when it looks like a JSON array or object
 * and is at most `maxParsedBytes` (4 MiB by default) of UTF-8; a YAML dump that is a list is read
 * as rows (its count only); otherwise it is text.
 */
export function readToolResult(result: unknown, declaration?: ToolDeclaration, options: ResultReaderOptions = {}): ResultReading {
  const ctx: ReadContext = {
    maxBytes: options.maxParsedBytes ?? DEFAULT_LIMITS.maxJsonAttributeBytes,
    args: options.arguments,
    declaration,
    ...(options.spanError !== undefined ? { spanError: options.spanError } : {}),
  };
  return readValue(result, ctx, 0);
}

/** The settled value of each (entity, field): the last fact filed for it wins. */
export function settledFacts(facts: readonly DescribedFact[]): Map<string, DescribedFact> {
  const settled = new Map<string, DescribedFact>();
  for (const f of facts) settled.set(`${f.entity}\u0000${f.field}`, f);
  return settled;
}
