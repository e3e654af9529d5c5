// This turn's tool calls as a request's window shows them (the calls after the window's last user
// message, each paired by its call id with the tool message answering it), for the checks that
// judge a turn's calls: `repeated-call` (what was already asked and answered) and, where no
// execute_tool span recorded the turn's calls, `unconfirmed-action` (which writes ran). Each
// result is read by the one result reader, so "refused", "failed" and "not found" mean here what
// they mean in the ledger. Pure: no I/O, no clocks. Must never pair a result without an id (names
// and order are never joined) and never make up a result the window does not hold.
// (Issue 27's window-reads.ts builds the ledger's rows from windows; `conversationCalls` takes the
// ledger's rows first and reads from the window only what no row records.)

import type { LlmRequest, Message, ToolExecution } from '../model/agent.js';
import type { LedgerRow } from '../model/ledger.js';
import type { TurnCall } from '../checks/repeated-call.js';
import type { ActionCall } from '../checks/unconfirmed-action.js';
import type { ToolDeclaration } from '../declarations/types.js';
import { ledgerRowOf } from './ledger-row.js';
import { lastUserMessage } from './window-reads.js';

/** Index of the window's last user message that says something (window-reads.ts, the ledger's reader of windows). */
export const lastUserText = lastUserMessage;

/** How a served result says its call ended, read as the ledger reads it. */
export function endingOf(row: LedgerRow): TurnCall['ending'] {
  if (row.reading.absence?.notFound !== undefined) return 'not-found';
  if (row.outcome === 'failed' || row.outcome === 'refused') return row.outcome;
  if (row.result === undefined) return 'unknown';
  return 'ok';
}

/** A call as the window holds it, before its result is read. */
export interface RawTurnCall {
  toolName: string;
  callId?: string;
  arguments: unknown;
  message: number;
  /** Whether the window holds a result for it (paired by id). */
  served: boolean;
  result?: unknown;
  /** The call comes after the window's last user message. */
  thisTurn: boolean;
}

/**
 * Every call the window shows, in the order it shows them, each with the result answering it when
 * the window holds one, and whether it is this turn's (after the last user message). Calls without
 * an id, or with an id another call of the window also has, are listed without a result (nothing
 * pairs them).
 */
export function rawWindowCalls(input: readonly Message[]): RawTurnCall[] {
  const lastUser = lastUserText(input);
  const results = new Map<string, unknown>();
  for (const m of input) for (const p of m.parts) if (p.type === 'tool-result' && p.id !== undefined && !results.has(p.id)) results.set(p.id, p.result);
  const shared = sharedIds(input, 0);
  const out: RawTurnCall[] = [];
  input.forEach((m, i) => {
    for (const p of m.parts) {
      if (p.type !== 'tool-call') continue;
      const served = p.id !== undefined && results.has(p.id) && !shared.has(p.id);
      out.push({ toolName: p.name, ...(p.id !== undefined ? { callId: p.id } : {}), arguments: p.arguments, message: i, served, ...(served ? { result: results.get(p.id!) } : {}), thisTurn: i > lastUser });
    }
  });
  return out;
}

/** Call ids the window gives to more than one call (a recorder that reused them): such a call cannot be paired with its result. */
function sharedIds(input: readonly Message[], from: number): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (let i = from; i < input.length; i++) {
    for (const p of input[i]!.parts) {
      if (p.type !== 'tool-call' || p.id === undefined) continue;
      if (seen.has(p.id)) shared.add(p.id);
      seen.add(p.id);
    }
  }
  return shared;
}

/** This turn's calls as the window shows them (after its last user message). */
export function rawTurnCalls(input: readonly Message[]): RawTurnCall[] {
  const lastUser = lastUserText(input);
  const results = new Map<string, unknown>();
  for (let i = lastUser + 1; i < input.length; i++) {
    for (const p of input[i]!.parts) if (p.type === 'tool-result' && p.id !== undefined && !results.has(p.id)) results.set(p.id, p.result);
  }
  const shared = sharedIds(input, lastUser + 1);
  const out: RawTurnCall[] = [];
  for (let i = lastUser + 1; i < input.length; i++) {
    for (const p of input[i]!.parts) {
      if (p.type !== 'tool-call') continue;
      const served = p.id !== undefined && results.has(p.id) && !shared.has(p.id);
      out.push({ toolName: p.name, ...(p.id !== undefined ? { callId: p.id } : {}), arguments: p.arguments, message: i, served, ...(served ? { result: results.get(p.id!) } : {}), thisTurn: true });
    }
  }
  return out;
}

/**
 * The conversation's calls up to an answer, for `unconfirmed-action`: the ledger's rows (this turn's
 * are those of the answer's trace), then the calls the window shows that no ledger row recorded
 * (an app that instruments only its LLM client), each with how its result says it ended.
 */
export function conversationCalls(req: LlmRequest, ledger: readonly LedgerRow[], traceId: string, declarationOf: (tool: string) => ToolDeclaration | undefined): ActionCall[] {
  const out: ActionCall[] = ledger.map((row) => {
    const said = row.reading.refusal ?? row.reading.absence?.notFound ?? row.errorMessage;
    return { toolName: row.toolName, ...(row.callId !== undefined ? { callId: row.callId } : {}), arguments: row.arguments, ending: endingOf(row), ...(said !== undefined ? { said } : {}), thisTurn: row.traceId === traceId };
  });
  // A call the ledger recorded (the same id and tool: an id a recorder reused for another tool's call is not that call).
  const recorded = new Set(ledger.filter((r) => r.callId !== undefined).map((r) => `${r.callId}\u0000${r.toolName}`));
  const raw = rawWindowCalls(req.input).filter((c) => c.callId === undefined || !recorded.has(`${c.callId}\u0000${c.toolName}`));
  const read = readTurnCalls(raw, req, declarationOf).calls;
  read.forEach((c, i) => out.push({ toolName: c.toolName, ...(c.callId !== undefined ? { callId: c.callId } : {}), arguments: c.arguments, ending: c.ending, ...(c.said !== undefined ? { said: c.said } : {}), thisTurn: raw[i]!.thisTurn }));
  return out;
}

/**
 * The raw calls read by the one result reader: each served one gets the ledger row a span would
 * have given it (status unset: the window records none) and the ending that row says.
 */
export function readTurnCalls(raw: readonly RawTurnCall[], req: LlmRequest, declarationOf: (tool: string) => ToolDeclaration | undefined): { calls: TurnCall[]; rows: LedgerRow[] } {
  const calls: TurnCall[] = [];
  const rows: LedgerRow[] = [];
  for (const c of raw) {
    if (!c.served) {
      calls.push({ toolName: c.toolName, ...(c.callId !== undefined ? { callId: c.callId } : {}), arguments: c.arguments, message: c.message, ending: 'unknown' });
      continue;
    }
    const execution: ToolExecution = {
      kind: 'tool-execution',
      span: req.span,
      convention: req.convention,
      tenant: req.tenant,
      callId: c.callId!,
      toolName: c.toolName,
      arguments: c.arguments,
      result: c.result,
      status: 'unset',
      startTimeUnixNano: req.startTimeUnixNano,
      endTimeUnixNano: req.startTimeUnixNano,
    };
    const row = ledgerRowOf(execution, declarationOf(c.toolName));
    rows.push(row);
    const said = row.reading.refusal ?? row.reading.absence?.notFound;
    calls.push({ toolName: c.toolName, callId: c.callId!, arguments: c.arguments, message: c.message, result: c.result, ending: endingOf(row), ...(said !== undefined ? { said } : {}) });
  }
  return { calls, rows };
}
