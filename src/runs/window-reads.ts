// The tool calls a request's window shows with their results: each tool message of the window
// paired, by its call id, with the assistant's tool call it answers. This is what the ledger is
// read from when the app recorded no `execute_tool` span for a call (docs/ledger-sources.md), and
// how a call whose span lost its arguments (`{}`) gets them back from a later window.
// Pure: no I/O, no clocks. Must never pair without an id (ids are never invented, names and order
// never joined) and never make up a result the window does not hold.

import type { LlmRequest, Message, ToolExecution } from '../model/agent.js';
import type { LedgerRow } from '../model/ledger.js';
import { canonical } from '../checks/absence-reads.js';

/** One tool result of a window, with the call it answers when the window still holds that call. */
export interface WindowCall {
  callId: string;
  /** The tool's name: the result's own, else its call's; undefined when the window names neither. */
  toolName?: string;
  /** The call's arguments as the window holds them; undefined when the call is not in the window. */
  arguments: unknown;
  /** The result as the model was shown it (undefined: the window holds the tool message but no content). */
  result: unknown;
  /** The window marks the result as an error (Anthropic `is_error`, AI SDK `error-*` outputs). */
  isError: boolean;
  /** The call (else its result) comes after the window's last user message: it is this turn's. */
  thisTurn: boolean;
}

/** Index of the window's last user message that says something (tool results under `user` do not count); -1 when none. */
export function lastUserMessage(input: readonly Message[]): number {
  for (let i = input.length - 1; i >= 0; i--) {
    const m = input[i]!;
    if (m.role === 'user' && m.parts.some((p) => p.type === 'text' && p.text.trim() !== '')) return i;
  }
  return -1;
}

/**
 * Every tool result of the window that carries a call id, in window order (the first result of an
 * id only); with `only`, just the results (and calls) of the ids it accepts, so a caller that
 * wants few of a long window's results pays for those alone.
 */
export function windowCalls(input: readonly Message[], only?: (callId: string) => boolean): WindowCall[] {
  const lastUser = lastUserMessage(input);
  const calls = new Map<string, { name: string; arguments: unknown; message: number }>();
  const seen = new Set<string>();
  const out: WindowCall[] = [];
  for (let i = 0; i < input.length; i++) {
    for (const p of input[i]!.parts) {
      if (p.type === 'tool-call') {
        if (p.id !== undefined && p.id !== '' && !calls.has(p.id) && (only === undefined || only(p.id))) calls.set(p.id, { name: p.name, arguments: p.arguments, message: i });
        continue;
      }
      if (p.type !== 'tool-result' || p.id === undefined || p.id === '' || seen.has(p.id) || (only !== undefined && !only(p.id))) continue;
      seen.add(p.id);
      const call = calls.get(p.id);
      const toolName = p.name ?? call?.name;
      out.push({
        callId: p.id,
        ...(toolName !== undefined && toolName !== '' ? { toolName } : {}),
        arguments: call?.arguments,
        result: p.result,
        isError: p.isError === true,
        thisTurn: (call?.message ?? i) > lastUser,
      });
    }
  }
  return out;
}

/** The arguments of every tool call the window holds, by call id (the first call of an id). */
export function windowCallArguments(input: readonly Message[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const m of input) for (const p of m.parts) if (p.type === 'tool-call' && p.id !== undefined && p.id !== '' && !out.has(p.id)) out.set(p.id, p.arguments);
  return out;
}

/**
 * Arguments that say nothing: not recorded, `{}`, or an empty string (Traceloop's Anthropic
 * instrumentation records a streamed tool_use as `{}`: its input arrives in deltas it does not read).
 * A tool that takes no argument is called with `{}` too: lost arguments are only ever replaced by
 * ones some other record of the same call holds, never guessed.
 */
export function argumentsLost(args: unknown): boolean {
  if (args === undefined || args === null) return true;
  if (typeof args === 'string') return args.trim() === '' || args.trim() === '{}';
  return typeof args === 'object' && !Array.isArray(args) && Object.keys(args).length === 0;
}

/** A ledger's rows by call id, grown as the ledger grows (rows are appended, or replaced in place). */
interface LedgerIndex {
  seen: number;
  byId: Map<string, number>;
  /** Rows recorded without a call id. */
  noId: number[];
}

const indexes = new WeakMap<readonly LedgerRow[], LedgerIndex>();

function indexOf(ledger: readonly LedgerRow[]): LedgerIndex {
  let ix = indexes.get(ledger);
  if (!ix) {
    ix = { seen: 0, byId: new Map(), noId: [] };
    indexes.set(ledger, ix);
  }
  for (; ix.seen < ledger.length; ix.seen++) {
    const id = ledger[ix.seen]!.callId;
    if (id === undefined) ix.noId.push(ix.seen);
    else if (!ix.byId.has(id)) ix.byId.set(id, ix.seen);
  }
  return ix;
}

/** A test of call ids: true for an id the ledger has no row recorded with (rowOfCall's indexed path), the index read once. */
export function withoutRow(ledger: readonly LedgerRow[]): (callId: string) => boolean {
  const byId = indexOf(ledger).byId;
  return (callId) => {
    const at = byId.get(callId);
    return at === undefined || ledger[at]!.callId !== callId;
  };
}

/**
 * Which row of the ledger is this call's: the row with its call id; else, for a row recorded with
 * no call id (an execute_tool span without `gen_ai.tool.call.id`), one of the same tool with the
 * same arguments. -1 when none. Indexed by call id (a window holds up to maxMessagesPerRequest
 * results, the ledger up to maxCallsPerConversation rows): only rows without an id are scanned.
 */
export function rowOfCall(ledger: readonly LedgerRow[], call: { callId?: string; toolName: string; arguments: unknown }): number {
  const ix = indexOf(ledger);
  let rows: Iterable<number> = ix.noId;
  if (call.callId !== undefined) {
    const at = ix.byId.get(call.callId);
    if (at !== undefined && ledger[at]!.callId === call.callId) return at;
    // A row replaced in place by one without an id: every row is looked at (rare).
    if (at !== undefined) rows = ledger.keys();
  } else rows = ledger.keys();
  let key: string | undefined;
  for (const i of rows) {
    const r = ledger[i]!;
    if (r.toolName !== call.toolName) continue;
    if (call.callId !== undefined && r.callId !== undefined && r.callId !== call.callId) continue;
    key ??= canonical(call.arguments);
    if (canonical(r.arguments) === key) return i;
  }
  return -1;
}

/** The tool execution a window shows (a call and its result, read from request `req`), as a span would have recorded it. */
export function windowExecution(req: LlmRequest, c: WindowCall, toolName: string): ToolExecution {
  return {
    kind: 'tool-execution',
    span: req.span,
    convention: req.convention,
    tenant: req.tenant,
    ...(req.conversationId !== undefined ? { conversationId: req.conversationId } : {}),
    callId: c.callId,
    toolName,
    arguments: c.arguments,
    result: c.result,
    // The window's own error mark is the call's record of failure; its words are the result's.
    status: c.isError ? 'error' : 'unset',
    ...(c.isError && typeof c.result === 'string' && c.result.trim() !== '' ? { errorMessage: c.result } : {}),
    startTimeUnixNano: req.startTimeUnixNano,
    endTimeUnixNano: req.startTimeUnixNano,
  };
}
