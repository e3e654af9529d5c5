// The tool results a conversation served up to an answer, as the answer checks that read rows take
// them (count-mismatch, status-contradiction): the answering request's window first-hand (each
// result with the arguments of the call it answers, and whether it came after the window's last
// user message), and the conversation's ledger rows the window no longer holds (an app that trims
// its history still read them). Pure: no I/O, no clocks. Never makes up a result: a result is
// what a window or an execute_tool span recorded.

import type { LlmRequest } from '../model/agent.js';
import type { LedgerRow } from '../model/ledger.js';
import type { ServedResult } from '../checks/served-rows.js';
import { lastUserText } from './turn-calls.js';
import { parsedResult } from '../checks/served-rows.js';

/**
 * Each result parsed once: a conversation's requests share the message parts of the history their
 * windows repeat (and the ledger keeps its rows), so the same result is not re-parsed per answer.
 * Text that is not JSON is kept as it is.
 */
const parsedOf = new WeakMap<object, unknown>();
function parsedOnce(holder: object, result: unknown): unknown {
  if (typeof result !== 'string') return result;
  if (parsedOf.has(holder)) return parsedOf.get(holder);
  const v = parsedResult(result);
  const kept = v === undefined ? result : v;
  parsedOf.set(holder, kept);
  return kept;
}

/** The window's results (in order), after the ledger rows of calls the window does not show. */
export function servedResults(req: LlmRequest, ledger: readonly LedgerRow[], traceId: string): ServedResult[] {
  const input = req.input;
  const lastUser = lastUserText(input);
  const args = new Map<string, unknown>();
  for (const m of input) for (const p of m.parts) if (p.type === 'tool-call' && p.id !== undefined && !args.has(p.id)) args.set(p.id, p.arguments);
  const names = new Map<string, string>();
  for (const m of input) for (const p of m.parts) if (p.type === 'tool-call' && p.id !== undefined && !names.has(p.id)) names.set(p.id, p.name);
  const fromWindow: ServedResult[] = [];
  const inWindow = new Set<string>();
  input.forEach((m, i) => {
    for (const p of m.parts) {
      if (p.type !== 'tool-result') continue;
      if (p.id !== undefined) inWindow.add(p.id);
      const toolName = p.name ?? (p.id !== undefined ? names.get(p.id) : undefined);
      fromWindow.push({
        ...(toolName !== undefined ? { toolName } : {}),
        ...(p.id !== undefined ? { callId: p.id } : {}),
        ...(p.id !== undefined && args.has(p.id) ? { arguments: args.get(p.id) } : {}),
        result: parsedOnce(p, p.result),
        order: 0,
        thisTurn: i > lastUser,
      });
    }
  });
  const fromLedger: ServedResult[] = ledger
    .filter((r) => r.result !== undefined && (r.callId === undefined || !inWindow.has(r.callId)))
    .map((r) => ({ toolName: r.toolName, ...(r.callId !== undefined ? { callId: r.callId } : {}), arguments: r.arguments, result: parsedOnce(r, r.result), order: 0, thisTurn: r.traceId === traceId }));
  const all = [...fromLedger, ...fromWindow];
  all.forEach((r, i) => (r.order = i));
  return all;
}
