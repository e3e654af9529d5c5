// One negative-ledger row from one tool execution: what was read, how it ended (from the span's
// status and the result's own refusal), and the result reader's reading of what came back.
// Pure: no I/O, no clocks, no globals. Must never guess an outcome the telemetry did not record:
// no result and no status reads `unknown`, not `ran`.

import type { ToolDeclaration } from '../declarations/types.js';
import type { ToolExecution } from '../model/agent.js';
import type { LedgerRow, LedgerSource, ReadOutcome, ResultReading } from '../model/ledger.js';
import { readToolResult, type ResultReaderOptions } from './result-reader.js';

/**
 * A not-found → ran (the tool looked: an absence, never a refusal, whatever the span's status);
 * status error → failed; a result that states its own refusal → refused; nothing recorded →
 * unknown; else ran.
 */
export function outcomeOf(status: ToolExecution['status'], result: unknown, reading: ResultReading): ReadOutcome {
  if (reading.absence?.notFound !== undefined) return 'ran';
  if (status === 'error') return 'failed';
  if (reading.refusal !== undefined) return 'refused';
  if (result === undefined && status === 'unset') return 'unknown';
  return 'ran';
}

/**
 * The ledger row of one execution. `request` is the 1-based order, within the conversation, of
 * the request that chose the call, when the caller knows it. `source` says where the execution
 * was read from (its own span, or the windows: window-reads.ts).
 */
export function ledgerRowOf(execution: ToolExecution, declaration: ToolDeclaration | undefined, request?: number, options?: ResultReaderOptions, source: LedgerSource = 'span'): LedgerRow {
  const reading = readToolResult(execution.result, declaration, {
    ...options,
    arguments: execution.arguments,
    ...(execution.status === 'error' && execution.errorMessage !== undefined ? { spanError: execution.errorMessage } : {}),
  });
  return {
    span: execution.span,
    traceId: execution.span.traceId,
    ...(request !== undefined ? { request } : {}),
    toolName: execution.toolName,
    ...(execution.callId !== undefined ? { callId: execution.callId } : {}),
    arguments: execution.arguments,
    result: execution.result,
    outcome: outcomeOf(execution.status, execution.result, reading),
    ...(execution.errorMessage !== undefined ? { errorMessage: execution.errorMessage } : {}),
    reading,
    startTimeUnixNano: execution.startTimeUnixNano,
    source,
  };
}
