// Pins the ledger row of one tool execution: the outcome from span status and result (status error
// → failed, before anything the result says; a result stating its own refusal → refused; no result
// and no status → unknown, never ran; otherwise ran), the result read by the one reader with the
// tool's declaration, and the execution's identity carried over unchanged.
import { describe, it, expect } from 'vitest';
import { ledgerRowOf, outcomeOf } from '../../src/runs/ledger-row.js';
import type { ToolExecution } from '../../src/model/agent.js';

const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

function execution(over: Partial<ToolExecution> = {}): ToolExecution {
  return {
    kind: 'tool-execution',
    span,
    convention: 'genai-semconv',
    tenant: 'acme',
    conversationId: 'conv_7f3a',
    callId: 'call_bs_004',
    toolName: 'backup_status',
    arguments: { machine_id: 'srv-db-04' },
    result: '[{"machine_id":"srv-db-04","last_backup":"2026-09-25T23:10:00Z","status":"ok"}]',
    status: 'ok',
    startTimeUnixNano: 1_790_000_000_000_000_000n,
    endTimeUnixNano: 1_790_000_000_400_000_000n,
    ...over,
  };
}

describe('unit: ledgerRowOf', () => {
  it('a successful read: ran, read and counted, identity carried over', () => {
    const row = ledgerRowOf(execution(), undefined, 3);
    expect(row).toMatchObject({
      span,
      traceId: span.traceId,
      request: 3,
      toolName: 'backup_status',
      callId: 'call_bs_004',
      arguments: { machine_id: 'srv-db-04' },
      outcome: 'ran',
      startTimeUnixNano: 1_790_000_000_000_000_000n,
    });
    expect(row.reading).toMatchObject({ emptiness: 'non-empty', rows: 1, shape: 'array' });
    expect(row.result).toBe(execution().result);
  });

  it('status error → failed, whatever the result says, with the error message', () => {
    const row = ledgerRowOf(execution({ status: 'error', errorMessage: 'backup API timed out', result: '[]' }), undefined);
    expect(row.outcome).toBe('failed');
    expect(row.errorMessage).toBe('backup API timed out');
    expect(ledgerRowOf(execution({ status: 'error', result: undefined }), undefined).outcome).toBe('failed');
    expect(ledgerRowOf(execution({ status: 'error', result: { status: 'denied' } }), undefined).outcome).toBe('failed');
  });

  it('a result stating its own refusal → refused, with status ok or unset', () => {
    expect(ledgerRowOf(execution({ result: { status: 'denied', message: 'tenant acme may not read ams-2' } }), undefined).outcome).toBe('refused');
    expect(ledgerRowOf(execution({ status: 'unset', result: 'Error: machine srv-db-99 not in inventory' }), undefined).outcome).toBe('refused');
    expect(ledgerRowOf(execution({ result: 'refused: machine_id is required' }), undefined).reading.refusal).toBe('refused: machine_id is required');
  });

  it('no result and no status → unknown, never ran', () => {
    const row = ledgerRowOf(execution({ status: 'unset', result: undefined }), undefined);
    expect(row.outcome).toBe('unknown');
    expect(row.reading).toEqual({ emptiness: 'unknown', shape: 'none' });
  });

  it('no result but status ok → ran (its result was not captured)', () => {
    expect(ledgerRowOf(execution({ result: undefined }), undefined).outcome).toBe('ran');
  });

  it('a result but status unset → ran', () => {
    expect(ledgerRowOf(execution({ status: 'unset' }), undefined).outcome).toBe('ran');
  });

  it('reads with the declaration (rowsAt)', () => {
    const result = { machine_id: 'srv-db-04', jobs: [] };
    expect(ledgerRowOf(execution({ toolName: 'backup_jobs', result }), { rowsAt: 'jobs' }).reading.emptiness).toBe('undeclared-empty');
    expect(ledgerRowOf(execution({ toolName: 'backup_jobs', result }), undefined).reading.emptiness).toBe('unknown');
  });

  it('optional fields stay absent when the execution has none', () => {
    const row = ledgerRowOf(execution({ callId: undefined }), undefined);
    expect('callId' in row).toBe(false);
    expect('request' in row).toBe(false);
    expect('errorMessage' in row).toBe(false);
  });

  it('passes the parse bound on', () => {
    expect(ledgerRowOf(execution(), undefined, 1, { maxParsedBytes: 10 }).reading).toEqual({ emptiness: 'unknown', shape: 'text' });
  });
});

describe('unit: outcomeOf precedence', () => {
  it('failed > refused > unknown > ran', () => {
    expect(outcomeOf('error', undefined, { emptiness: 'unknown', shape: 'none', refusal: 'x' })).toBe('failed');
    expect(outcomeOf('unset', undefined, { emptiness: 'unknown', shape: 'none', refusal: 'x' })).toBe('refused');
    expect(outcomeOf('unset', undefined, { emptiness: 'unknown', shape: 'none' })).toBe('unknown');
    expect(outcomeOf('ok', '[]', { emptiness: 'undeclared-empty', shape: 'array', rows: 0 })).toBe('ran');
  });
});
