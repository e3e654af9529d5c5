// The answer's standing (event `footprint.answer.standing` on the final chat span): folded from
// this turn's ledger rows (from spans or windows), the calls it made, and its answer findings
// only, never from the model's confidence and never `consistent` from silence. Reasons:
// declared-absent, coverage-gap, empty-undeclared, period-not-held / period-partly-held /
// period-unknown, value-unsupported, refused-read, refused-write, result-not-recorded, no-read, and
// answer-check-failed (any other non-advisory answer finding). A refused or failed call counts
// whatever was declared: `refused-read` for a tool not known to be a write, `refused-write` for a
// known write (`readOnly: false`); a not-found is an absence (never a refusal), and a later
// successful call of the same tool with the same arguments supersedes an earlier refusal
// (absence-reads.ts). A call whose result no record holds is `result-not-recorded`; no call at all
// on a turn whose answer states data values (not the user's or the system's own) is `no-read`.
// Any reason -> `not-sure`; else at least one check gave a verdict -> `consistent`; else
// `not-assessed`. The statement says, one clause per call in call order, what was searched (tool +
// arguments as sent by the model) and every gap out loud, attributed (declared by the tool / as the
// tool's result says), values quoted and capped, lists capped with "and N more". Deterministic: same
// input, same bytes. Must never interpret telemetry text (it is quoted only), read a clock, or do I/O.

import type { Finding } from '../model/finding.js';
import type { CoverageItem, LedgerRow } from '../model/ledger.js';
import { quoteText } from '../findings/quote.js';
import { refusalOf, turnReads } from './absence-reads.js';
import { UNSUPPORTED_VALUE } from './unsupported-value.js';
import { DEFAULT_MAX_ANSWER_TOKENS, extractDataTokens } from './data-tokens.js';

export type AnswerStandingValue = 'consistent' | 'not-sure' | 'not-assessed';

export type StandingReason =
  | 'declared-absent'
  | 'coverage-gap'
  | 'empty-undeclared'
  | 'period-not-held'
  | 'period-partly-held'
  | 'period-unknown'
  | 'value-unsupported'
  | 'refused-read'
  | 'refused-write'
  | 'result-not-recorded'
  | 'no-read'
  | 'answer-check-failed';

/** Reasons always come out in this order. */
export const STANDING_REASONS: readonly StandingReason[] = Object.freeze([
  'declared-absent',
  'coverage-gap',
  'empty-undeclared',
  'period-not-held',
  'period-partly-held',
  'period-unknown',
  'value-unsupported',
  'refused-read',
  'refused-write',
  'result-not-recorded',
  'no-read',
  'answer-check-failed',
] as StandingReason[]);

/** Code points of a quoted value (arguments, names) in the statement. */
export const STATEMENT_VALUE_CHARS = 64;
/** Code points of a gap's text (what was not checked, why, a refusal's words). */
export const STATEMENT_GAP_CHARS = 120;
/** Items of one list (and reads described) before "and N more". */
export const STATEMENT_LIST_ITEMS = 12;

export interface AnswerStandingInput {
  /** This turn's ledger rows, in call order. */
  rows: readonly LedgerRow[];
  /** This turn's answer-seam findings. */
  answerFindings: readonly Finding[];
  /** How many checks gave a verdict (checked > 0) on this turn. */
  checksRan: number;
  /**
   * How values (arguments, gap texts, refusal words, unsupported values) are shown; defaults to
   * quoteText. The core passes a redacting one under `hash`/`omit`. Tool names, call ids and
   * period instants are always quoted plainly.
   */
  quote?: (value: string, cap: number) => string;
  /** Whether a tool is a read (not known to be a write); default: every row is. A refused call of a non-read is `refused-write`. */
  isRead?: (toolName: string) => boolean;
  /** Calls this turn made whose result no record holds (no span, no later window): each is `result-not-recorded`. */
  unrecorded?: readonly UnrecordedCall[];
  /** Whether the answer states data values of its own (answerStatesFacts): with no call this turn, `no-read`. */
  statesFacts?: boolean;
}

/** A call the turn's windows show the model made, with no ledger row (neither its span nor a window held its result). */
export interface UnrecordedCall {
  toolName: string;
  callId?: string;
  arguments: unknown;
}

/**
 * Whether an answer states data values (data-tokens.ts: numbers of 4+ digits, identifiers) that
 * are not the user's or the system's own words: facts that some read would have to back.
 */
export function answerStatesFacts(answerText: string, servedTexts: readonly string[]): boolean {
  const answer = extractDataTokens(answerText, DEFAULT_MAX_ANSWER_TOKENS).tokens;
  if (answer.length === 0) return false;
  const own = new Set<string>();
  for (const t of servedTexts) for (const tok of extractDataTokens(t, DEFAULT_MAX_ANSWER_TOKENS).tokens) own.add(tok.key);
  return answer.some((t) => !own.has(t.key));
}

export interface AnswerStanding {
  standing: AnswerStandingValue;
  reasons: StandingReason[];
  statement: string;
}

/** How the turn's refusals stand: refused reads and writes that count, and refusals a later call superseded. */
interface RefusalStanding {
  counts: ReadonlySet<LedgerRow>;
  writes: ReadonlySet<LedgerRow>;
  supersededBy: ReadonlyMap<LedgerRow, LedgerRow>;
}

function refusalStanding(rows: readonly LedgerRow[], isRead: (toolName: string) => boolean = () => true): RefusalStanding {
  const counts = new Set<LedgerRow>();
  const writes = new Set<LedgerRow>();
  const supersededBy = new Map<LedgerRow, LedgerRow>();
  for (const r of turnReads(rows)) {
    if (r.refusal) (isRead(r.row.toolName) ? counts : writes).add(r.row);
    if (r.supersededBy !== undefined) supersededBy.set(r.row, rows[r.supersededBy]!);
  }
  return { counts, writes, supersededBy };
}

function reasonsOfRow(row: LedgerRow, into: Set<StandingReason>, refusals: RefusalStanding): void {
  const r = row.reading;
  if (r.emptiness === 'declared-absent') into.add('declared-absent');
  if (r.emptiness === 'undeclared-empty') into.add('empty-undeclared');
  if (r.coverage && (r.coverage.notChecked.length > 0 || r.coverage.cannotCover.length > 0)) into.add('coverage-gap');
  if (r.period?.verdict === 'not-held') into.add('period-not-held');
  if (r.period?.verdict === 'partly-held') into.add('period-partly-held');
  if (r.period?.verdict === 'unknown') into.add('period-unknown');
  if (refusals.counts.has(row)) into.add('refused-read');
  if (refusals.writes.has(row)) into.add('refused-write');
  if (row.result === undefined && refusalOf(row) === undefined) into.add('result-not-recorded');
}

function hasGap(row: LedgerRow, refusals: RefusalStanding): boolean {
  const s = new Set<StandingReason>();
  reasonsOfRow(row, s, refusals);
  return s.size > 0 || row.result === undefined || row.reading.emptiness === 'unknown';
}

function argumentsText(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args) ?? undefined;
  } catch {
    return undefined;
  }
}

function capList(items: readonly string[]): string {
  if (items.length <= STATEMENT_LIST_ITEMS) return joinAnd(items);
  const shown = items.slice(0, STATEMENT_LIST_ITEMS);
  return `${shown.join(', ')}, and ${items.length - STATEMENT_LIST_ITEMS} more`;
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function clauseOf(row: LedgerRow, q: (v: string, cap: number) => string, refusals: RefusalStanding): string {
  // Names and instants are quoted plainly; values (arguments, gap texts, refusals) through `q`.
  const v = (s: string) => quoteText(s, STATEMENT_VALUE_CHARS);
  const a = (s: string) => q(s, STATEMENT_VALUE_CHARS);
  const g = (s: string) => q(s, STATEMENT_GAP_CHARS);
  const item = (c: CoverageItem) => `"${g(c.what)}"${c.why ? ` (${g(c.why)})` : ''}`;
  const r = row.reading;
  const args = argumentsText(row.arguments);
  const parts: string[] = [];
  let head = `'${v(row.toolName)}'${row.callId ? ` (call ${v(row.callId)})` : ''} was called with ${args !== undefined ? `"${a(args)}" as sent by the model` : 'arguments that were not recorded'}`;

  const refusal = refusalOf(row);
  if (refusal) {
    const fromResult = refusal.from === 'result';
    const verb = refusal.how === 'refused' ? 'was refused' : 'failed';
    head += refusal.error !== undefined
      ? ` and ${verb}: "${g(refusal.error)}", ${fromResult ? "as the tool's result says" : "as the tool's span records"}`
      : ` and ${verb}, with no reason recorded`;
    const later = refusals.supersededBy.get(row);
    if (later) head += `; a later call of it with the same arguments${later.callId ? ` (call ${v(later.callId)})` : ''} ran, so this ${refusal.how === 'refused' ? 'refusal' : 'failure'} no longer counts`;
  } else if (row.result === undefined) {
    head += ', but its result was not recorded, so what it found cannot be told';
  } else if (r.emptiness === 'declared-absent') {
    head += r.absence?.notFound !== undefined
      ? ` and found nothing for "${g(r.absence.lookedFor)}", as the tool's result says ("${g(r.absence.notFound)}")`
      : r.absence
        ? ` and found nothing for "${g(r.absence.lookedFor)}", declared by the tool`
        : ' and found nothing, declared by the tool';
  } else if (r.emptiness === 'undeclared-empty') {
    head += ' and returned an empty result without saying what it searched';
  } else if (r.emptiness === 'non-empty') {
    head += r.rows !== undefined ? ` and returned ${r.rows} row${r.rows === 1 ? '' : 's'}` : ' and returned a result';
  } else {
    head += ' and returned a result whose shape does not say whether anything was found';
  }
  parts.push(head);

  if (r.coverage) {
    if (r.coverage.checked.length > 0) parts.push(`it checked ${capList(r.coverage.checked.map(item))}, declared by the tool`);
    if (r.coverage.notChecked.length > 0) parts.push(`it did not check ${capList(r.coverage.notChecked.map(item))}, declared by the tool`);
    if (r.coverage.cannotCover.length > 0) parts.push(`it cannot cover ${capList(r.coverage.cannotCover.map(item))}, declared by the tool`);
  }
  if (r.period) {
    const p = r.period;
    const asked = `${v(p.queried.from)} to ${v(p.queried.to)}`;
    const held = p.held === 'unknown' ? undefined : `${v(p.held.from)} to ${v(p.held.to)}`;
    if (p.verdict === 'covered') parts.push(`the period asked, ${asked}, is held${held ? ` (the tool holds ${held})` : ''}, as the tool's result says`);
    else if (p.verdict === 'not-held') parts.push(`the period asked, ${asked}, is not held${held ? `: the tool holds ${held}` : ''}, as the tool's result says`);
    else if (p.verdict === 'partly-held') parts.push(`only part of the period asked, ${asked}, is held${held ? `: the tool holds ${held}` : ''}, as the tool's result says`);
    else parts.push(`whether the tool holds the period asked, ${asked}, is unknown${held ? ` (it states ${held})` : ''}, as the tool's result says`);
  }
  if (r.absence?.tryInstead) parts.push(`it suggests "${g(r.absence.tryInstead)}", declared by the tool`);
  if (r.absence?.tryInsteadTool) parts.push(`it suggests calling '${v(r.absence.tryInsteadTool.tool)}', declared by the tool`);
  if (r.envelopeRefused) parts.push(`its result looked like an envelope but was read as plain data (${g(r.envelopeRefused)})`);
  return `${parts.join('; ')}.`;
}

/** The clause of a call no record of whose result was seen. */
function unrecordedClause(call: UnrecordedCall, q: (v: string, cap: number) => string): string {
  const args = argumentsText(call.arguments);
  const what = args !== undefined ? `"${q(args, STATEMENT_VALUE_CHARS)}" as sent by the model` : 'arguments that were not recorded';
  return `'${quoteText(call.toolName, STATEMENT_VALUE_CHARS)}'${call.callId ? ` (call ${quoteText(call.callId, STATEMENT_VALUE_CHARS)})` : ''} was called with ${what}, but no record of its result was seen (no span of the call, and no later window held it), so what it found cannot be told.`;
}

export function answerStanding(input: AnswerStandingInput): AnswerStanding {
  const q = input.quote ?? quoteText;
  const found = new Set<StandingReason>();
  const refusals = refusalStanding(input.rows, input.isRead);
  const unrecorded = input.unrecorded ?? [];
  for (const row of input.rows) reasonsOfRow(row, found, refusals);
  if (unrecorded.length > 0) found.add('result-not-recorded');
  if (input.rows.length === 0 && unrecorded.length === 0 && input.statesFacts === true) found.add('no-read');
  const unsupported = input.answerFindings.filter((f) => f.kind === UNSUPPORTED_VALUE && !f.advisory);
  const otherFailed = input.answerFindings.filter((f) => f.kind !== UNSUPPORTED_VALUE && !f.advisory);
  if (unsupported.length > 0) found.add('value-unsupported');
  if (otherFailed.length > 0) found.add('answer-check-failed');
  const reasons = STANDING_REASONS.filter((r) => found.has(r));
  const standing: AnswerStandingValue = reasons.length > 0 ? 'not-sure' : input.checksRan > 0 ? 'consistent' : 'not-assessed';

  const sentences: string[] = [];
  if (input.rows.length === 0 && unrecorded.length === 0) {
    sentences.push(
      found.has('no-read')
        ? 'No tool was called this turn, so the answer rests on no read of this turn, yet it states values neither the user nor the system gave.'
        : 'No tool was called this turn, so the answer rests on no read of this turn.',
    );
  }
  for (const row of input.rows.slice(0, STATEMENT_LIST_ITEMS)) sentences.push(clauseOf(row, q, refusals));
  for (const call of unrecorded.slice(0, STATEMENT_LIST_ITEMS)) sentences.push(unrecordedClause(call, q));
  if (unrecorded.length > STATEMENT_LIST_ITEMS) sentences.push(`And ${unrecorded.length - STATEMENT_LIST_ITEMS} more call${unrecorded.length - STATEMENT_LIST_ITEMS === 1 ? '' : 's'} whose result no record holds.`);
  const rest = input.rows.slice(STATEMENT_LIST_ITEMS);
  if (rest.length > 0) {
    const gaps = rest.filter((r) => hasGap(r, refusals)).length;
    sentences.push(`And ${rest.length} more read${rest.length === 1 ? '' : 's'}, not described here${gaps > 0 ? `, ${gaps} of them with a gap or refusal` : ''}.`);
  }
  if (unsupported.length > 0) {
    const values = unsupported.map((f) => `"${q(f.value ?? f.predicate, STATEMENT_VALUE_CHARS)}"`);
    sentences.push(`The answer states ${unsupported.length === 1 ? 'a value' : `${unsupported.length} values`} no tool result in its window held: ${capList(values)}.`);
  }
  if (otherFailed.length > 0) {
    const counts = new Map<string, number>();
    for (const f of otherFailed) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
    sentences.push(`Answer checks also found: ${capList([...counts].map(([k, n]) => `${k} (${n})`))}.`);
  }
  return { standing, reasons, statement: sentences.join(' ') };
}
