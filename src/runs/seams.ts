// Runs the checks of each seam over one model event, with the conversation state it needs:
// `offer` and `choice` (and `answer` for a final response) on an LLM request, `write` on a tool
// execution. Gathers inputs, calls the pure checks, records what later checks need. No I/O.

import type { LlmRequest, Message, ToolCall, ToolExecution } from '../model/agent.js';
import type { CheckTally, Finding } from '../model/finding.js';
import type { LedgerRow, LedgerSource } from '../model/ledger.js';
import type { SpanEventData } from '../model/telemetry.js';
import type { EffectiveDeclaration } from '../declarations/inferred.js';
import { VALUE_SEARCH_LIMITS, type Limits } from '../limits.js';
import { buildFrame, resultText, type Frame } from './frame.js';
import { servedKey, type ConversationState, type ConversationStore } from './conversations.js';
import { ledgerRowOf } from './ledger-row.js';
import { argumentsLost, lastUserMessage as lastUserIndex, rowOfCall, windowCallArguments, windowCalls, windowExecution, withoutRow } from './window-reads.js';
import { withSoleArgument } from './sole-argument.js';
import { unsupportedArguments, UNSUPPORTED_ARGUMENT, type DerivedUse, type EarlierServed, type ExternalGroundUse } from '../checks/unsupported-argument.js';
import { danglingReferences } from '../checks/dangling-reference.js';
import { emptyLookups, NO_PRODUCER_RESULT } from '../checks/empty-lookup.js';
import { resultColumns } from '../checks/result-columns.js';
import { unsupportedValues, UNSUPPORTED_VALUE, type WindowResult } from '../checks/unsupported-value.js';
import { ValueMemo } from '../values/served.js';
import { priorTurnEvidence, type PriorWrite } from '../checks/prior-turn-evidence.js';
import { argumentLeaves } from '../checks/argument-leaves.js';
import { armedByInference } from '../checks/arming.js';
import { sourcesInferred } from '../declarations/inferred.js';
import { unsupportedClaims } from '../checks/unsupported-claim.js';
import { refusalAssertsAbsence } from '../checks/refusal-asserts-absence.js';
import { producersOf } from '../checks/absence-reads.js';
import { answerStanding, answerStatesFacts, type UnrecordedCall } from '../checks/answer-standing.js';
import { argumentSchemas, type ToolSchema } from '../checks/argument-schema.js';
import { repeatedCalls } from '../checks/repeated-call.js';
import { countMismatches } from '../checks/count-mismatch.js';
import { statusContradictions } from '../checks/status-contradiction.js';
import { unconfirmedActions, type ActionCall, type ActionTool } from '../checks/unconfirmed-action.js';
import { readServedRows, type ServedResult, type ServedRows } from '../checks/served-rows.js';
import { roleArmedBy, toolRole } from '../declarations/inferred.js';
import { servedResults } from './served-results.js';
import { createSchemaValidator } from './schema-validator.js';
import { conversationCalls, rawTurnCalls, readTurnCalls } from './turn-calls.js';
import { canonical } from '../checks/absence-reads.js';
import { SCHEMA_LIMITS, WINDOW_ROW_TALLY_SHAPES } from '../limits.js';
import type { Diagnostic } from '../model/diagnostics.js';
import { CHECK_CATALOG, CONTENT_NOT_CAPTURED, STATE_INCOMPLETE } from '../checks/catalog.js';
import type { Declarations, ToolDeclaration } from '../declarations/types.js';
import type { Redaction } from './footprint.js';
import { redactValue } from '../findings/quote.js';
import { negated } from './trace-record.js';
import { fitBytes } from '../findings/events.js';
import { ATTR_DERIVATION, ATTR_TOOL_CALL_ID, ATTR_TOOL_NAME, ATTR_FINDING_GROUNDING, ATTR_FINDING_KIND, ATTR_FINDING_PREDICATE, ATTR_FINDING_VALUE, EVENT_VALUE_DERIVED, GROUNDING_DERIVED, ATTR_ANSWER_REASONS, ATTR_ANSWER_STANDING, ATTR_ANSWER_STATEMENT, EVENT_ANSWER_STANDING } from '../findings/names.js';
import { withoutExamples } from '../values/examples.js';

export interface SeamContext {
  limits: Limits;
  conversations: ConversationStore;
  declarations: Declarations;
  redaction: Redaction;
  declarationOf: (tenant: string, toolName: string) => EffectiveDeclaration | undefined;
  /** Whether any tool of this tenant is declared to take its arguments from others (file or spans). */
  anyArgumentsFrom: (tenant: string) => boolean;
  /** Tallies this trace has gathered so far (before this request's). */
  talliesOf: (traceId: string) => readonly CheckTally[];
}

export interface SeamOutcome {
  findings: Finding[];
  tallies: CheckTally[];
  externalGroundsUsed: ExternalGroundUse[];
  /** Further events for the request's own span (e.g. the answer's standing). */
  events: SpanEventData[];
  /** What a check could not use (a tool's input schema that does not compile), once each. */
  diagnostics?: Diagnostic[];
  /** Ledger rows recorded (+1) or replaced (-1), by the trace they belong to and where they were read from. */
  ledger: LedgerSourceChange[];
}

export interface LedgerSourceChange {
  traceId: string;
  source: LedgerSource;
  rows: number;
}

const empty = (): SeamOutcome => ({ findings: [], tallies: [], externalGroundsUsed: [], events: [], ledger: [] });

/**
 * The write-seam tallies a window row was judged with, in memory only: taken back if the call's
 * own span arrives later and its row replaces this one (so the call is counted once). A row read
 * back from a shared store has none, and its tallies stay.
 */
const windowRowTallies = new WeakMap<LedgerRow, readonly CheckTally[]>();
/** A window row replaced by one reading its result from the history keeps what it was judged with. */
function movedWindowRow(before: LedgerRow, after: LedgerRow): void {
  const t = windowRowTallies.get(before);
  if (t !== undefined) windowRowTallies.set(after, t);
}

/**
 * Window rows' tallies, one shared array per distinct content: most window rows are tallied alike
 * (each keeping its own cost ~350 bytes a row on bench/memory's workload). Tallies are never
 * written after they are made (trace records copy their counts), so sharing them is safe. At most
 * WINDOW_ROW_TALLY_SHAPES contents are shared; past it a row keeps its own.
 */
const sharedTallies = new Map<string, readonly CheckTally[]>();
function sharedTalliesOf(tallies: CheckTally[]): readonly CheckTally[] {
  const key = JSON.stringify(tallies);
  const hit = sharedTallies.get(key);
  if (hit !== undefined) return hit;
  if (sharedTallies.size < WINDOW_ROW_TALLY_SHAPES) sharedTallies.set(key, tallies);
  return tallies;
}

/** The one validator of tool input schemas: ajv, each schema compiled once, a bounded cache (SCHEMA_LIMITS). */
const schemaValidator = createSchemaValidator();

/** Every request-reading check, unreachable once for `reason`. */
export function unreachableAll(reason: string): CheckTally[] {
  return CHECK_CATALOG.filter((c) => c.readsContent && c.seam !== 'write').map((c) => ({
    check: c.id,
    seam: c.seam,
    checked: 0,
    findings: 0,
    notApplicable: 0,
    unreachable: 1,
    unreachableReasons: { [reason]: 1 },
  }));
}

/** The name of each tool call of the window by its id (the last call of an id). */
function callNamesById(input: readonly Message[]): Map<string, string> {
  const byId = new Map<string, string>();
  for (const m of input) for (const p of m.parts) if (p.type === 'tool-call' && p.id) byId.set(p.id, p.name);
  return byId;
}

/**
 * Tool names whose results this window holds, recovered from call ids where the part has no name.
 * The window's calls are indexed only when a result needs it (issue 36: a window the conventions
 * named every result of, as a long conversation's, indexed its hundreds of calls on every request).
 */
function resultToolsOf(req: LlmRequest, state: ConversationState): Set<string> {
  let byId: Map<string, string> | undefined;
  const out = new Set<string>();
  for (const m of req.input)
    for (const p of m.parts) {
      if (p.type !== 'tool-result') continue;
      const name = p.name ?? (p.id ? ((byId ??= callNamesById(req.input)).get(p.id) ?? state.chosen.get(p.id)?.toolName) : undefined);
      if (name) out.add(name);
    }
  return out;
}

/** Checks for one LLM request: offer (tools offered), choice (calls chosen). */
export function checkRequest(ctx: SeamContext, state: ConversationState, req: LlmRequest): SeamOutcome {
  const { limits } = ctx;
  const out = empty();
  state.requests++;
  // What cannot be judged is said so: content not recorded, or a window cut at the bound
  // (judging a cut window would call values "served by nothing" that were served).
  const unreadable =
    req.outputContent === 'not-captured' || req.inputContent === 'not-captured'
      ? (req.contentNote ?? CONTENT_NOT_CAPTURED)
      : req.input.length >= limits.maxMessagesPerRequest
        ? `the request's window had more than ${limits.maxMessagesPerRequest} messages (maxMessagesPerRequest)`
        : undefined;
  if (unreadable) {
    out.tallies.push(...unreachableAll(unreadable));
    ctx.conversations.recordChosen(state, state.requests, req.toolCalls);
    return out;
  }
  const declarationOf = (name: string) => ctx.declarationOf(req.tenant, name);
  // Calls an earlier request chose with lost arguments, judged now with the ones this window holds;
  // then the calls this window shows answered that no span recorded: the ledger from the windows.
  if (state.pendingChoice?.toolCalls.some((c) => c.id !== undefined && argumentsLost(c.arguments))) checkLostArguments(ctx, state, req.tenant, windowCallArguments(req.input), out);
  // Calls an earlier request chose without its span recording them, read from this window.
  if (state.pendingChoice?.unrecordedAt !== undefined) checkUnrecordedChoice(ctx, state, req, out);
  const windowRowsFrom = state.ledger.length;
  recordWindowReads(ctx, state, req, out);
  const windowRowsTo = state.ledger.length;
  const frame: Frame = buildFrame(req);
  // Computed only if a finding needs it, once: the served history grows with the conversation,
  // and hashing the whole window for it would cost every request.
  // The history as it stands now: a later request's strings are never "served earlier" to this one.
  const historyLength = state.served.length;
  let earlier: EarlierServed[] | undefined;
  let inWindow: Set<number> | undefined;
  const earlierServed = (needle?: string) => {
    if (earlier) return earlier;
    // Given what a finding looks for, only the strings whose bytes hold its run of characters
    // that have no case (a search of the history's bytes, nothing decoded): the others cannot.
    const run = needle !== undefined ? caselessRun(needle) : undefined;
    const holding = run !== undefined ? state.served.textsHolding(run, historyLength) : undefined;
    const out: EarlierServed[] = [];
    for (let i = 0; i < historyLength; i++) {
      if (holding !== undefined && holding[i] === 0) continue;
      inWindow ??= new Set(frame.served.map((s) => servedKey(s.text)));
      if (!inWindow.has(state.served.keyAt(i))) out.push(state.served.record(i));
    }
    if (run === undefined) earlier = out;
    return out;
  };
  const presentResultTools = resultToolsOf(req, state);

  // Unknown offered tools can hide an armed one only if some tool is armed at all: otherwise the
  // check has nothing declared to judge (and an undeclared run stays as it was).
  const offeredTools = req.toolDefinitions?.map((d) => d.name) ?? (ctx.anyArgumentsFrom(req.tenant) ? undefined : []);
  const offer = danglingReferences({
    span: req.span,
    offeredTools,
    declarationOf,
    presentResultTools,
    earlierResultTools: state.resultTools,
    inputCaptured: true,
    toolCalls: req.toolCalls,
  });
  const choice = unsupportedArguments({
    span: req.span,
    toolCalls: req.toolCalls,
    frame,
    declarationOf,
    earlierServed,
    ...(req.idsMatchedByOrder ? { idsMatchedByOrder: true } : {}),
    inputCaptured: true,
    maxArgumentLeaves: limits.maxArgumentLeaves,
    quotedValueChars: limits.quotedValueChars,
    memo: valueMemoOf(state),
    inferIdentifiers: ctx.declarations.inference !== false,
  });
  out.findings.push(...offer.findings, ...choice.findings);
  out.events.push(...derivedEvents(choice.derived, req.endTimeUnixNano, ctx));
  out.tallies.push(offer.tally, choice.tally);
  out.externalGroundsUsed.push(...choice.externalGroundsUsed);
  checkCalls(ctx, req, frame, declarationOf, out);
  if (req.toolCalls.length === 0 && req.outputText.some((t) => t.trim() !== '')) checkAnswer(ctx, state, req, frame, out);

  ctx.conversations.recordServed(state, state.requests, frame.served, presentResultTools);
  // The window rows just recorded read their results from the history from now on (no second copy).
  if (windowRowsTo > windowRowsFrom) ctx.conversations.linkResults(state, windowRowsFrom, windowRowsTo, movedWindowRow);
  ctx.conversations.recordChosen(state, state.requests, req.toolCalls);
  // Calls to tools nobody has declared yet may still be judged if their own span declares them;
  // calls whose arguments were lost (`{}`) once their span or a later window gives them.
  const pending = req.toolCalls.filter((c) => !declarationOf(c.name)?.argumentsFrom?.length || (c.id !== undefined && argumentsLost(c.arguments)));
  ctx.conversations.setPendingChoice(
    state,
    pending.length > 0 || req.choiceNotRecorded
      ? { request: state.requests, span: req.span, frame, toolCalls: pending, earlierServed, idsMatchedByOrder: req.idsMatchedByOrder === true, ...(req.choiceNotRecorded ? { unrecordedAt: req.input.length } : {}) }
      : undefined,
  );
  return out;
}

/**
 * The calls an earlier request chose that its span did not record (choiceNotRecorded): the tool
 * calls of the assistant message this window holds where that request's window ended, recorded as
 * that request's choice and judged now (findings on its span). A window that does not hold such a
 * message there (another conversation's, a cut history) judges nothing.
 */
function checkUnrecordedChoice(ctx: SeamContext, state: ConversationState, req: LlmRequest, out: SeamOutcome): void {
  const pending = state.pendingChoice!;
  const at = pending.unrecordedAt!;
  delete pending.unrecordedAt;
  const m = req.input[at];
  const calls: ToolCall[] = [];
  if (m?.role === 'assistant') for (const p of m.parts) if (p.type === 'tool-call') calls.push({ ...(p.id !== undefined ? { id: p.id } : {}), name: p.name, arguments: p.arguments });
  if (calls.length === 0) {
    if (pending.toolCalls.length === 0) ctx.conversations.setPendingChoice(state, undefined);
    return;
  }
  ctx.conversations.recordChosen(state, pending.request, calls);
  const judged = calls.filter((c) => (ctx.declarationOf(req.tenant, c.name)?.argumentsFrom?.length ?? 0) > 0);
  if (judged.length > 0) judgeLateChoice(ctx, state, req.tenant, judged, out);
  else if (pending.toolCalls.length === 0) ctx.conversations.setPendingChoice(state, undefined);
}

/**
 * The input schema a call is judged against: the one declared in the declarations file, else (with
 * inference on) the one this request's tool definitions recorded, else the one an earlier request
 * recorded (inference keeps it on the tool's effective declaration).
 */
function schemaOf(ctx: SeamContext, req: LlmRequest, declarationOf: (name: string) => ToolDeclaration | undefined, name: string, infer: boolean): ToolSchema | undefined {
  const declared = ctx.declarations.tools[name]?.inputSchema;
  if (declared !== undefined) return { schema: declared, armedBy: 'declared', source: 'declared inputSchema' };
  if (!infer) return undefined;
  const recorded = req.toolDefinitions?.find((d) => d.name === name)?.inputSchema;
  if (recorded !== undefined) return { schema: recorded, armedBy: 'inferred', source: `the request's tool definition of '${name}'` };
  const remembered = declarationOf(name)?.inputSchema;
  if (remembered !== undefined) return { schema: remembered, armedBy: 'inferred', source: `the tool definition of '${name}' an earlier request recorded` };
  return undefined;
}

/** The choice checks that read the calls themselves: their arguments against the schema, and repeats within the turn. */
function checkCalls(ctx: SeamContext, req: LlmRequest, frame: Frame, declarationOf: (name: string) => ToolDeclaration | undefined, out: SeamOutcome): void {
  const { limits } = ctx;
  // What the trace shows (a recorded schema, the window) arms these unless `inference: false`.
  const infer = ctx.declarations.inference !== false;
  const schemas = argumentSchemas({
    span: req.span,
    toolCalls: req.toolCalls,
    schemaOf: (name) => schemaOf(ctx, req, declarationOf, name, infer),
    validate: (schema, value) => schemaValidator.validate(schema, value),
    quotedValueChars: limits.quotedValueChars,
    maxNamedViolations: SCHEMA_LIMITS.maxNamedViolations,
  });
  for (const bad of schemas.badSchemas) {
    (out.diagnostics ??= []).push({ level: 'warn', code: 'argument-schema.bad-schema', message: `the input schema of tool '${bad.toolName}' cannot be used to check its calls: ${bad.reason}`, traceId: req.span.traceId, spanId: req.span.spanId });
  }
  out.findings.push(...schemas.findings);
  out.tallies.push(schemas.tally);
  if (!infer) return;
  // The turn's calls are read only when a chosen call repeats one the window shows (the usual request repeats none).
  const raw = req.toolCalls.length > 0 ? rawTurnCalls(req.input) : [];
  const repeats = raw.length > 0 && repeatsAChosenCall(req.toolCalls, raw);
  const repeated = repeatedCalls({
    span: req.span,
    toolCalls: req.toolCalls,
    turnCalls: repeats ? readTurnCalls(raw, req, declarationOf).calls : [],
    readOnlyOf: (name) => declarationOf(name)?.readOnly,
    ...(repeats ? lastUserMessage(frame) : {}),
    quotedValueChars: limits.quotedValueChars,
  });
  out.findings.push(...repeated.findings);
  out.tallies.push(repeated.tally);
}

/**
 * The longest run (at least 3 characters) of `needle` (lower-cased) made of characters no case
 * mapping produces but from themselves (ASCII digits and punctuation), as UTF-8: a text whose lower
 * case holds the needle holds this run as it is. Undefined when the needle has none.
 */
const CASELESS_RUN = /[0-9 !-/:-@[-`{-~]{3,}/g;
function caselessRun(needle: string): Buffer | undefined {
  let best = '';
  for (const m of needle.matchAll(CASELESS_RUN)) if (m[0].length > best.length) best = m[0];
  return best === '' ? undefined : Buffer.from(best, 'latin1');
}

/** Whether a chosen call repeats, name and arguments, a call the window shows was served. */
function repeatsAChosenCall(toolCalls: readonly ToolCall[], raw: ReturnType<typeof rawTurnCalls>): boolean {
  const chosen = new Set(toolCalls.map((c) => `${c.name}\u0000${canonical(c.arguments)}`));
  return raw.some((c) => c.served && chosen.has(`${c.toolName}\u0000${canonical(c.arguments)}`));
}

/**
 * A tool span declared `argumentsFrom` that no one had declared when the request that chose its
 * call was checked (the request's span has usually gone on by now): judge that choice now. Its
 * findings attach to the choosing request's span, which the core turns into a carrier if needed.
 */
function checkLateDeclaration(ctx: SeamContext, state: ConversationState, ex: ToolExecution, out: SeamOutcome): void {
  const pending = state.pendingChoice;
  if (!pending || !ex.declared?.argumentsFrom?.length) return;
  const calls = pending.toolCalls.filter((c) => c.name === ex.toolName && (ex.callId === undefined || c.id === ex.callId));
  if (calls.length === 0) return;
  pending.toolCalls = pending.toolCalls.filter((c) => !calls.includes(c));
  // A call whose arguments the request lost is judged with the ones its span recorded.
  const judged = calls.map((c) => (c.id !== undefined && c.id === ex.callId && argumentsLost(c.arguments) && !argumentsLost(ex.arguments) ? { ...c, arguments: ex.arguments } : c));
  judgeLateChoice(ctx, state, ex.tenant, judged, out);
}

/**
 * Calls of the pending choice whose arguments were lost (`{}` on the LLM span: Traceloop's
 * Anthropic streaming) and that another record of the same call (its execute_tool span, a later
 * window) gives: judged now with those arguments, if their tool is armed by then. A lost call is
 * let go once judged, or when that record has no arguments either.
 */
function checkLostArguments(ctx: SeamContext, state: ConversationState, tenant: string, argumentsById: ReadonlyMap<string, unknown>, out: SeamOutcome): void {
  const pending = state.pendingChoice;
  if (!pending) return;
  const found = pending.toolCalls.filter((c) => c.id !== undefined && argumentsLost(c.arguments) && argumentsById.has(c.id));
  if (found.length === 0) return;
  pending.toolCalls = pending.toolCalls.filter((c) => !found.includes(c));
  const judged = found
    .filter((c) => !argumentsLost(argumentsById.get(c.id!)) && (ctx.declarationOf(tenant, c.name)?.argumentsFrom?.length ?? 0) > 0)
    .map((c) => ({ ...c, arguments: argumentsById.get(c.id!) }));
  if (judged.length > 0) judgeLateChoice(ctx, state, tenant, judged, out);
  else if (pending.toolCalls.length === 0) ctx.conversations.setPendingChoice(state, undefined);
}

/** Judges calls of the pending choice now (their findings go on the choosing request's span). */
function judgeLateChoice(ctx: SeamContext, state: ConversationState, tenant: string, calls: ToolCall[], out: SeamOutcome): void {
  const pending = state.pendingChoice!;
  const choice = unsupportedArguments({
    span: pending.span,
    toolCalls: calls,
    frame: pending.frame,
    declarationOf: (name) => ctx.declarationOf(tenant, name),
    earlierServed: pending.earlierServed,
    ...(pending.idsMatchedByOrder ? { idsMatchedByOrder: true } : {}),
    inputCaptured: true,
    maxArgumentLeaves: ctx.limits.maxArgumentLeaves,
    quotedValueChars: ctx.limits.quotedValueChars,
    memo: valueMemoOf(state),
  });
  out.findings.push(...choice.findings);
  out.tallies.push(choice.tally);
  out.externalGroundsUsed.push(...choice.externalGroundsUsed);
  if (pending.toolCalls.length === 0) ctx.conversations.setPendingChoice(state, undefined);
}

/** Checks for one tool execution (write seam); records its ledger row (in place of a window row of the same call). */
export function checkExecution(ctx: SeamContext, state: ConversationState, ex: ToolExecution): SeamOutcome {
  const out = empty();
  checkLateDeclaration(ctx, state, ex, out);
  if (ex.callId !== undefined) checkLostArguments(ctx, state, ex.tenant, new Map([[ex.callId, ex.arguments]]), out);
  const declaration = ctx.declarationOf(ex.tenant, ex.toolName);
  const chosen = ex.callId ? state.chosen.get(ex.callId) : undefined;
  const request = chosen?.request;
  const row = ledgerRowOf(withSoleArgument(ex, chosen), declaration, request);
  const at = rowOfCall(state.ledger, row);
  judgeRow(ctx, state, row, declaration, out, at >= 0 && state.ledger[at]!.source === 'window' ? at : undefined);
  return out;
}

/**
 * The calls this request's window shows answered (windowCalls) that have no ledger row yet: each
 * becomes a row read from the window, judged by the same write-seam checks as a span's. Only calls
 * this conversation saw chosen, or that this turn made (after the window's last user message): an
 * earlier turn's call seen first here belongs to a turn whose trace is not known.
 */
function recordWindowReads(ctx: SeamContext, state: ConversationState, req: LlmRequest, out: SeamOutcome): void {
  // A long conversation's window repeats every earlier result, most with their row by now: only
  // the others are paired (rowOfCall below still decides, for rows recorded without an id), and
  // of those only calls the conversation saw chosen or that may be this turn's (an id the window
  // shows after its last user message): the others are passed over below anyway.
  const noRow = withoutRow(state.ledger);
  const input = req.input;
  let late: Set<string> | undefined;
  for (let i = lastUserIndex(input) + 1; i < input.length; i++) for (const p of input[i]!.parts) if ((p.type === 'tool-call' || p.type === 'tool-result') && p.id !== undefined) (late ??= new Set()).add(p.id);
  for (const c of windowCalls(input, (id) => (state.chosen.has(id) || late?.has(id) === true) && noRow(id))) {
    const chosen = state.chosen.get(c.callId);
    if (!chosen && !c.thisTurn) continue;
    const toolName = c.toolName ?? chosen?.toolName;
    if (toolName === undefined) continue;
    if (rowOfCall(state.ledger, { callId: c.callId, toolName, arguments: c.arguments }) >= 0) continue;
    const ex = windowExecution(req, c, toolName);
    const declaration = ctx.declarationOf(req.tenant, toolName);
    judgeRow(ctx, state, ledgerRowOf(withSoleArgument(ex, chosen), declaration, chosen?.request, undefined, 'window'), declaration, out);
  }
}

/**
 * The row as the conversation keeps it once judged: without the reading's object rows, which only
 * result-columns reads, and only here. For a result kept as a string (every window row) they are a
 * second, parsed copy of it (measured: ~3 KiB a conversation on bench/memory's workload, more than
 * the string itself).
 */
function keptRow(row: LedgerRow): LedgerRow {
  if (row.reading.objectRows === undefined) return row;
  const { objectRows: _judgedOnly, ...reading } = row.reading;
  return { ...row, reading };
}

/** The write-seam checks of one ledger row, then the row into the ledger (at `replacing`, a window row of the same call). */
function judgeRow(ctx: SeamContext, state: ConversationState, row: LedgerRow, declaration: EffectiveDeclaration | undefined, out: SeamOutcome, replacing?: number): void {
  // Earlier producer results matter only for an empty result: only then are they gathered (and
  // only the declared producers' results turned into text).
  const resultEmpty = row.reading.emptiness === 'undeclared-empty' || row.reading.emptiness === 'declared-absent';
  const producers = new Set(declaration?.argumentsFrom ?? []);
  const producerResults = !resultEmpty
    ? []
    : state.ledger
        .filter((r) => producers.has(r.toolName) && r.result !== undefined && r.outcome === 'ran')
        .map((r) => ({ toolName: r.toolName, ...(r.callId ? { callId: r.callId } : {}), text: resultText(r.result), ...(r.request !== undefined ? { request: r.request } : {}) }));
  const userTexts = !resultEmpty ? [] : earlierUserTexts(state);
  const lookup = emptyLookups({ row, declaration, producerResults, userTexts, maxArgumentLeaves: ctx.limits.maxArgumentLeaves, quotedValueChars: ctx.limits.quotedValueChars });
  const sourcesEvidence = sourcesInferred(declaration);
  if (sourcesEvidence !== undefined) lookup.findings = lookup.findings.map((f) => armedByInference(f, sourcesEvidence));
  // Past its bounds the conversation's ledger is partial: "no earlier producer result" may only
  // mean the result was not kept, and the disposition says so instead of guessing.
  const missing = lookup.tally.unreachableReasons[NO_PRODUCER_RESULT];
  if (state.incomplete && missing !== undefined) {
    delete lookup.tally.unreachableReasons[NO_PRODUCER_RESULT];
    lookup.tally.unreachableReasons[STATE_INCOMPLETE] = missing;
  }
  const columns = resultColumns({ row, declaration, quotedValueChars: ctx.limits.quotedValueChars });
  out.findings.push(...lookup.findings, ...columns.findings);
  row = keptRow(row);
  out.tallies.push(lookup.tally, columns.tally);
  if (replacing !== undefined) {
    const before = state.ledger[replacing]!;
    // The call is counted once: what its window row was judged with is taken back.
    for (const t of windowRowTallies.get(before) ?? []) out.tallies.push(negated(t));
    ctx.conversations.replaceRead(state, replacing, row);
    out.ledger.push({ traceId: before.traceId, source: before.source, rows: -1 }, { traceId: row.traceId, source: row.source, rows: 1 });
    return;
  }
  if (!ctx.conversations.recordRead(state, row)) return;
  if (row.source === 'window') windowRowTallies.set(row, sharedTalliesOf([lookup.tally, columns.tally]));
  out.ledger.push({ traceId: row.traceId, source: row.source, rows: 1 });
}

/** The final answer of a turn: answer-seam checks, then its standing, on the answering chat span. */
function checkAnswer(ctx: SeamContext, state: ConversationState, req: LlmRequest, frame: Frame, out: SeamOutcome): void {
  const { limits, declarations } = ctx;
  const traceId = req.span.traceId;
  const answerText = req.outputText.join('\n');
  const q = (v: string, cap: number) => redactValue(v, ctx.redaction, cap);
  const turnRows = state.ledger.filter((r) => r.traceId === traceId);
  const answerFindings: Finding[] = [];
  const tallies: CheckTally[] = [];

  // Armed by declaration, or by inference when the answer was written from tool results (an agent
  // that reads tools answers from them); `checkValues: false` or `inference: false` keeps it off.
  const windowResultCount = frame.served.filter((s) => s.source === 'tool-result').length;
  // Tools were used in this conversation: this window holds results, or an earlier turn read some
  // (an app that keeps only the dialogue still answers from what its tools said).
  const toolsUsed = windowResultCount > 0 || state.ledger.length > 0;
  const valuesInferred = declarations.answers?.checkValues === undefined && declarations.inference !== false && toolsUsed;
  if (declarations.answers?.checkValues || valuesInferred) {
    // One pass each over the ledger and the served history, not one per window result.
    const rowByCall = new Map<string, LedgerRow>();
    for (const r of state.ledger) if (r.callId && !rowByCall.has(r.callId)) rowByCall.set(r.callId, r);
    const firstServed = new Map<number, number>();
    for (let i = 0; i < state.served.length; i++) {
      const key = state.served.keyAt(i);
      if (!firstServed.has(key)) firstServed.set(key, state.served.requestAt(i));
    }
    const windowResults: WindowResult[] = frame.served
      .filter((s) => s.source === 'tool-result')
      .map((s) => {
        const row = s.callId ? rowByCall.get(s.callId) : undefined;
        const first = firstServed.get(servedKey(s.text)) ?? state.requests;
        return {
          text: s.text,
          ...(s.toolName ?? row?.toolName ? { toolName: (s.toolName ?? row?.toolName)! } : {}),
          ...(s.callId ? { callId: s.callId } : {}),
          request: first,
          ...(row ? { turnTraceId: row.traceId } : first === state.requests ? { turnTraceId: traceId } : {}),
        };
      });
    const values = unsupportedValues({
      span: req.span,
      answerText,
      windowResults,
      // This window's user and system text, and the user messages of the conversation's earlier
      // requests (a window that dropped them still answers a question the user asked with them).
      exemptTexts: [
        ...frame.served.filter((s) => s.source === 'system' || s.source === 'user').map((s) => s.text),
        ...earlierUserTexts(state),
      ],
      schemaTexts: frame.served.filter((s) => s.source === 'tool-schema').map((s) => withoutExamples(s.text)),
      writtenTexts: frame.written.map((w) => w.text),
      windowCalls: frame.written.filter((w) => w.source === 'assistant-tool-call').map((w) => ({ text: w.text, ...(w.callId ? { callId: w.callId } : {}) })),
      memo: valueMemoOf(state),
      inputCaptured: true,
      bounds: { maxAnswerTokens: 20_000, maxIndexTokens: 200_000, quotedValueChars: limits.quotedValueChars },
    });
    const declarationOf = (name: string) => ctx.declarationOf(req.tenant, name);
    const prior = priorTurnEvidence({
      span: req.span,
      grounded: values.grounded,
      ...(values.incomplete ? { incomplete: values.incomplete } : {}),
      currentTurnTraceId: traceId,
      toolCallsThisTurn: turnRows.length,
      ...lastUserMessage(frame),
      writes: conversationWrites(state.ledger, declarationOf, limits.maxArgumentLeaves),
      readArguments: (callId) => {
        const row = rowByCall.get(callId);
        return row ? argumentValues(row.arguments, limits.maxArgumentLeaves) : [];
      },
      isVolatile: (name) => declarationOf(name)?.volatile === true,
      quotedValueChars: limits.quotedValueChars,
    });
    const evidence =
      windowResultCount > 0
        ? `the answer was written from a window holding ${windowResultCount} tool result${windowResultCount === 1 ? '' : 's'}`
        : `the conversation read ${state.ledger.length} tool result${state.ledger.length === 1 ? '' : 's'} before this answer`;
    answerFindings.push(...[...values.findings, ...prior.findings].map((f) => (valuesInferred ? armedByInference(f, evidence) : f)));
    // Values that passed as derivations: their steps, on the answering span (the witness of the pass).
    for (const d of values.derived.slice(0, VALUE_SEARCH_LIMITS.maxDerivedEvents)) {
      out.events.push({
        name: EVENT_VALUE_DERIVED,
        timeUnixNano: req.endTimeUnixNano,
        attributes: {
          [ATTR_FINDING_KIND]: UNSUPPORTED_VALUE,
          [ATTR_FINDING_PREDICATE]: d.key,
          [ATTR_FINDING_VALUE]: q(d.raw, limits.quotedValueChars),
          [ATTR_FINDING_GROUNDING]: GROUNDING_DERIVED,
          [ATTR_DERIVATION]: fitBytes(`${d.formula}; from ${d.from}`, limits.maxWrittenAttributeBytes),
        },
      });
    }
    tallies.push(values.tally, prior.tally);
  } else {
    tallies.push(notArmed('unsupported-value'), notArmed('prior-turn-evidence'));
  }

  const claims = unsupportedClaims({ span: req.span, answerText, claims: declarations.claims, rows: state.ledger, quotedValueChars: limits.quotedValueChars });
  // A refusal is judged only for tools someone declared (or inference inferred) something about,
  // or named as a producer in some argumentsFrom; and a refused call counts as a read unless its
  // tool is known to be a write (`readOnly: false`, declared or inferred): a refusal establishes
  // nothing, whether or not anyone said the tool only reads.
  const declarationOf = (name: string) => ctx.declarationOf(req.tenant, name);
  const turnDeclarations = [...Object.values(declarations.tools), ...turnRows.map((r) => declarationOf(r.toolName))];
  const isRead = (tool: string) => declarationOf(tool)?.readOnly !== false;
  const producers = new Set(turnDeclarations.flatMap((d) => producersOf(d?.argumentsFrom)));
  const declaredRows = turnRows.filter((r) => declarationOf(r.toolName) !== undefined || producers.has(r.toolName));
  // With inference on, every call of the turn not known to be a write is judged: a refused call
  // establishes nothing about absence, whatever anyone declared about its tool.
  const infer = declarations.inference !== false;
  const judgedRows = infer ? turnRows : declaredRows;
  const refusal = refusalAssertsAbsence({ span: req.span, answerText, rows: judgedRows, quotedValueChars: limits.quotedValueChars, isRead });
  if (infer) {
    refusal.findings = refusal.findings.map((f) => {
      const d = f.toolName !== undefined ? declarationOf(f.toolName) : undefined;
      const declared = f.toolName !== undefined && (declarations.tools[f.toolName] !== undefined || producers.has(f.toolName)) && d?.inferred?.readOnly === undefined;
      if (declared) return f;
      const why = d?.inferred?.readOnly ?? 'nothing says it is a write';
      return armedByInference(f, `'${f.toolName ?? 'the tool'}' is taken for a read (${why}), and a refused call establishes nothing about absence`);
    });
  }
  answerFindings.push(...claims.findings, ...refusal.findings);
  tallies.push(claims.tally, refusal.tally);
  checkAnswerRows(ctx, state, req, frame, answerText, answerFindings, tallies);
  out.findings.push(...answerFindings);
  out.tallies.push(...tallies);

  // The standing: folded from this turn's reads and the answer's findings. Written only when some
  // check was armed on this turn, so an undeclared run stays as it was.
  const turnTallies = [...ctx.talliesOf(traceId), ...out.tallies];
  const armed = turnTallies.some((t) => t.checked > 0 || t.unreachable > 0);
  if (!armed) return;
  const checksRan = new Set(turnTallies.filter((t) => t.checked > 0).map((t) => t.check)).size;
  // Every call of the turn counts, whatever was declared: the rows, and the calls its window shows
  // with no row (neither their span nor a window held their result).
  const unrecorded = unrecordedCalls(req, state.ledger);
  const statesFacts = turnRows.length === 0 && unrecorded.length === 0 && answerStatesFacts(answerText, frame.served.filter((s) => s.source === 'system' || s.source === 'user').map((s) => s.text));
  const standing = answerStanding({ rows: turnRows, answerFindings, checksRan, quote: q, isRead, unrecorded, statesFacts });
  out.events.push({
    name: EVENT_ANSWER_STANDING,
    timeUnixNano: req.endTimeUnixNano,
    attributes: {
      [ATTR_ANSWER_STANDING]: standing.standing,
      [ATTR_ANSWER_REASONS]: standing.reasons,
      [ATTR_ANSWER_STATEMENT]: fitBytes(standing.statement, limits.maxWrittenAttributeBytes),
    },
  });
}

/** The answer checks that read what was served as rows and what this turn's calls did: counts, statuses, actions. */
function checkAnswerRows(ctx: SeamContext, state: ConversationState, req: LlmRequest, frame: Frame, answerText: string, answerFindings: Finding[], tallies: CheckTally[]): void {
  const { limits } = ctx;
  // Each read at most once, and only when a check's clauses need it.
  let served: ServedResult[] | undefined;
  let rows: ServedRows | undefined;
  const getServed = () => (served ??= servedResults(req, state.ledger, req.span.traceId));
  const getRows = () => (rows ??= readServedRows(getServed()));
  const userTexts = [...frame.served.filter((s) => s.source === 'system' || s.source === 'user').map((s) => s.text), ...earlierUserTexts(state)];
  // The served rows arm counts and states unless `inference: false`; a write known by declaration
  // (or, with inference on, by its name or description) arms actions.
  if (ctx.declarations.inference !== false) {
    const counts = countMismatches({ span: req.span, answerText, rows: getRows, userTexts, quotedValueChars: limits.quotedValueChars });
    const statuses = statusContradictions({ span: req.span, answerText, served: getServed, rows: getRows, quotedValueChars: limits.quotedValueChars });
    answerFindings.push(...counts.findings, ...statuses.findings);
    tallies.push(counts.tally, statuses.tally);
  }
  const declarationOf = (name: string) => ctx.declarationOf(req.tenant, name);
  let calls: ActionCall[] | undefined;
  const getCalls = () => (calls ??= conversationCalls(req, state.ledger, req.span.traceId, declarationOf));
  const actions = unconfirmedActions({ span: req.span, answerText, tools: () => actionTools(ctx, req, getCalls().map((c) => c.toolName)), calls: getCalls, quotedValueChars: limits.quotedValueChars });
  answerFindings.push(...actions.findings);
  tallies.push(actions.tally);
}

/**
 * The tools offered, declared or called that are not known to only read: those known as writes
 * (declared or inferred `readOnly: false`, with how that is known) and those whose role is unknown.
 */
function actionTools(ctx: SeamContext, req: LlmRequest, called: readonly string[]): ActionTool[] {
  const names = new Set([...(req.toolDefinitions ?? []).map((d) => d.name), ...Object.keys(ctx.declarations.tools), ...called]);
  const out: ActionTool[] = [];
  for (const name of names) {
    const d = ctx.declarationOf(req.tenant, name);
    const role = toolRole(d);
    if (role.known && role.value === 'read') continue;
    if (!role.known) out.push({ name, role: 'unknown', armedBy: 'inferred', evidence: role.why });
    else out.push({ name, role: 'write', armedBy: roleArmedBy(d), evidence: role.evidence });
  }
  return out;
}

/** The conversation's memo of typed readings of served strings (src/values/served.ts), made on first need. */
function valueMemoOf(state: ConversationState): ValueMemo {
  return (state.valueMemo ??= new ValueMemo(VALUE_SEARCH_LIMITS.maxMemoTexts, VALUE_SEARCH_LIMITS.maxMemoTextChars, VALUE_SEARCH_LIMITS.maxMemoBytes));
}

/** `footprint.value.derived` events for arguments that passed as derivations of served values (their witnesses). */
function derivedEvents(derived: readonly DerivedUse[], timeUnixNano: bigint, ctx: SeamContext): SpanEventData[] {
  return derived.slice(0, VALUE_SEARCH_LIMITS.maxDerivedEvents).map((d) => ({
    name: EVENT_VALUE_DERIVED,
    timeUnixNano,
    attributes: {
      [ATTR_FINDING_KIND]: UNSUPPORTED_ARGUMENT,
      [ATTR_TOOL_NAME]: d.toolName,
      ...(d.toolCallId ? { [ATTR_TOOL_CALL_ID]: d.toolCallId } : {}),
      [ATTR_FINDING_PREDICATE]: d.path,
      [ATTR_FINDING_VALUE]: redactValue(d.value, ctx.redaction, ctx.limits.quotedValueChars),
      [ATTR_FINDING_GROUNDING]: GROUNDING_DERIVED,
      [ATTR_DERIVATION]: fitBytes(`${d.formula}; from ${d.from}`, ctx.limits.maxWrittenAttributeBytes),
    },
  }));
}

/** The calls this turn made (after the answer window's last user message) that no ledger row records. */
function unrecordedCalls(req: LlmRequest, ledger: readonly LedgerRow[]): UnrecordedCall[] {
  const out: UnrecordedCall[] = [];
  const input = req.input;
  for (let i = lastUserIndex(input) + 1; i < input.length; i++) {
    for (const p of input[i]!.parts) {
      // A call without an id cannot be paired with its result: never called unrecorded.
      if (p.type !== 'tool-call' || p.id === undefined || p.id === '') continue;
      if (rowOfCall(ledger, { callId: p.id, toolName: p.name, arguments: p.arguments }) >= 0) continue;
      out.push({ toolName: p.name, callId: p.id, arguments: p.arguments });
    }
  }
  return out;
}

/** A call's argument values, lower-cased (string and number leaves), for "a write touched it". */
function argumentValues(args: unknown, max: number): string[] {
  return argumentLeaves(args, max)
    .leaves.map((l) => (typeof l.value === 'string' ? l.value.trim().toLowerCase() : typeof l.value === 'number' ? String(l.value) : ''))
    .filter((v) => v.length >= 3);
}

/** The conversation's writes that went through (tools declared or inferred `readOnly: false`), with their argument values. */
function conversationWrites(ledger: readonly LedgerRow[], declarationOf: (name: string) => { readOnly?: boolean } | undefined, max: number): PriorWrite[] {
  const out: PriorWrite[] = [];
  // A conversation has few tools and up to maxCallsPerConversation rows: each tool asked once.
  const isWrite = new Map<string, boolean>();
  for (const r of ledger) {
    if (r.request === undefined) continue;
    let write = isWrite.get(r.toolName);
    if (write === undefined) isWrite.set(r.toolName, (write = declarationOf(r.toolName)?.readOnly === false));
    if (!write) continue;
    // A write that failed or was refused changed nothing.
    if (r.outcome !== 'ran' || r.reading.refusal !== undefined || r.reading.absence?.notFound !== undefined) continue;
    out.push({ toolName: r.toolName, ...(r.callId ? { callId: r.callId } : {}), request: r.request, values: argumentValues(r.arguments, max) });
  }
  return out;
}

function notArmed(check: string): CheckTally {
  return { check, seam: 'answer', checked: 0, findings: 0, notApplicable: 1, unreachable: 0, unreachableReasons: {} };
}

/** The user messages the conversation's earlier requests were served (first sighting of each). */
function earlierUserTexts(state: ConversationState): string[] {
  return state.served.userTexts();
}

/** The window's last user message (this turn's question), as `userMessage` when there is one. */
function lastUserMessage(frame: Frame): { userMessage?: string } {
  for (let i = frame.served.length - 1; i >= 0; i--) if (frame.served[i]!.source === 'user') return { userMessage: frame.served[i]!.text };
  return {};
}
