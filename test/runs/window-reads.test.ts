// Unit: which calls a window shows answered (paired by call id only), which of them are this turn's,
// when arguments count as lost, and which ledger row is a call's.
import { describe, expect, it } from 'vitest';
import { argumentsLost, lastUserMessage, rowOfCall, windowCallArguments, windowCalls } from '../../src/runs/window-reads.js';
import type { Message } from '../../src/model/agent.js';
import type { LedgerRow } from '../../src/model/ledger.js';

const sys: Message = { role: 'system', parts: [{ type: 'text', text: 'You are a support agent.' }] };
const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const call = (id: string | undefined, name: string, args: unknown): Message => ({ role: 'assistant', parts: [{ type: 'tool-call', ...(id ? { id } : {}), name, arguments: args }] });
const result = (id: string | undefined, value: unknown, extra: Record<string, unknown> = {}): Message => ({ role: 'tool', parts: [{ type: 'tool-result', ...(id ? { id } : {}), result: value, ...extra }] });

describe('windowCalls', () => {
  it('pairs each tool result with the call of its id; calls after the last user message are this turn\'s', () => {
    const w: Message[] = [
      sys,
      user('Who is alice?'),
      call('c1', 'find_user', { name: 'alice' }),
      result('c1', '[{"user_id":"u-1042"}]'),
      { role: 'assistant', parts: [{ type: 'text', text: 'alice is u-1042.' }] },
      user('And her invoices?'),
      call('c2', 'list_invoices', { user_id: 'u-1042' }),
      result('c2', '[]'),
    ];
    expect(windowCalls(w)).toEqual([
      { callId: 'c1', toolName: 'find_user', arguments: { name: 'alice' }, result: '[{"user_id":"u-1042"}]', isError: false, thisTurn: false },
      { callId: 'c2', toolName: 'list_invoices', arguments: { user_id: 'u-1042' }, result: '[]', isError: false, thisTurn: true },
    ]);
  });

  it('never pairs without an id, never by name or order; a result whose call left the window keeps its own name, or none', () => {
    const w: Message[] = [user('hi'), call(undefined, 'find_user', { name: 'alice' }), result(undefined, 'x'), { role: 'tool', parts: [{ type: 'tool-result', id: 'c9', name: 'list_invoices', result: '[]' }] }, result('c10', 'y')];
    expect(windowCalls(w)).toEqual([
      { callId: 'c9', toolName: 'list_invoices', arguments: undefined, result: '[]', isError: false, thisTurn: true },
      { callId: 'c10', arguments: undefined, result: 'y', isError: false, thisTurn: true },
    ]);
  });

  it('keeps the window\'s error mark; the first result of an id only; tool results under `user` do not end the turn', () => {
    const w: Message[] = [
      user('go'),
      call('c1', 'backup_jobs', { machine_id: 'srv-db-04' }),
      { role: 'user', parts: [{ type: 'tool-result', id: 'c1', result: 'locked by a maintenance window', isError: true }] },
      result('c1', 'again'),
    ];
    expect(lastUserMessage(w)).toBe(0);
    expect(windowCalls(w)).toEqual([{ callId: 'c1', toolName: 'backup_jobs', arguments: { machine_id: 'srv-db-04' }, result: 'locked by a maintenance window', isError: true, thisTurn: true }]);
  });

  it('windowCallArguments: each call id\'s arguments, first call wins', () => {
    expect([...windowCallArguments([call('a', 't', { x: 1 }), call('a', 't', { x: 2 }), call(undefined, 't', {})])]).toEqual([['a', { x: 1 }]]);
  });
});

describe('argumentsLost', () => {
  it('undefined, null, {}, "" and "{}" say nothing; anything else does', () => {
    expect([undefined, null, {}, '', ' {} '].map(argumentsLost)).toEqual([true, true, true, true, true]);
    expect([{ a: 1 }, '{"a":1}', [], 0, 'x'].map(argumentsLost)).toEqual([false, false, false, false, false]);
  });
});

describe('rowOfCall', () => {
  const row = (over: Partial<LedgerRow>): LedgerRow => ({
    span: { traceId: 't'.repeat(32), spanId: 's'.repeat(16) },
    traceId: 't'.repeat(32),
    toolName: 'find_user',
    arguments: { name: 'alice' },
    result: [],
    outcome: 'ran',
    reading: { emptiness: 'undeclared-empty', shape: 'array' },
    startTimeUnixNano: 0n,
    source: 'span',
    ...over,
  });
  it('by call id when both have one; else by tool and the same arguments however recorded', () => {
    const ledger = [row({ callId: 'c1' }), row({ toolName: 'list_invoices', arguments: '{"user_id":"u-1","limit":5}' })];
    expect(rowOfCall(ledger, { callId: 'c1', toolName: 'find_user', arguments: {} })).toBe(0);
    expect(rowOfCall(ledger, { callId: 'c2', toolName: 'find_user', arguments: { name: 'alice' } })).toBe(-1);
    expect(rowOfCall(ledger, { callId: 'c3', toolName: 'list_invoices', arguments: { limit: 5, user_id: 'u-1' } })).toBe(1);
    expect(rowOfCall(ledger, { callId: 'c3', toolName: 'list_invoices', arguments: { limit: 6, user_id: 'u-1' } })).toBe(-1);
    expect(rowOfCall(ledger, { toolName: 'find_user', arguments: { name: 'alice' } })).toBe(0);
  });
  it('stays right as the ledger grows and as a row is replaced in place (by a span row without an id)', () => {
    const ledger = [row({ callId: 'c1', source: 'window' })];
    expect(rowOfCall(ledger, { callId: 'c1', toolName: 'find_user', arguments: {} })).toBe(0);
    ledger.push(row({ callId: 'c2', toolName: 'list_invoices', arguments: { user_id: 'u-1' } }));
    expect(rowOfCall(ledger, { callId: 'c2', toolName: 'x', arguments: {} })).toBe(1);
    ledger[0] = row({});
    // The window pair of c1 seen again: the span row that replaced it (same tool, same arguments) is its.
    expect(rowOfCall(ledger, { callId: 'c1', toolName: 'find_user', arguments: { name: 'alice' } })).toBe(0);
    expect(rowOfCall(ledger, { callId: 'c1', toolName: 'find_user', arguments: { name: 'bob' } })).toBe(-1);
  });
});
