// Window ledger rows whose results are read from the served history (issue 36): the row reads as
// it did (same properties, same order, same JSON), its bytes are counted once (the history's), a
// record whose key matches but whose text differs is never linked, and a row moved to another
// state (adopt, merge) takes its own copy.

import { describe, expect, it } from 'vitest';
import { ConversationStore, ledgerRowBytes, servedKey } from '../../src/runs/conversations.js';
import { isLinkedRow } from '../../src/runs/history-result.js';
import { mergeConversation } from '../../src/state/merge.js';
import { decodeConversation, encodeConversation } from '../../src/state/conversation-codec.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import type { LedgerRow } from '../../src/model/ledger.js';

const result = JSON.stringify(Array.from({ length: 8 }, (_, k) => ({ machine_id: `srv-1-${k}`, hostname: `host-${k}.acme.internal`, protected: k % 2 === 0 })));

function windowRow(text: unknown, callId = 'c1'): LedgerRow {
  return {
    span: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) },
    traceId: 'a'.repeat(32),
    toolName: 'list_machines',
    callId,
    arguments: { customer: 'acme' },
    result: text,
    outcome: 'ran',
    reading: { emptiness: 'non-empty', rows: 8, shape: 'array' },
    startTimeUnixNano: 1_000_000n,
    source: 'window',
  };
}

const toolResult = (text: string, callId = 'c1') => ({ source: 'tool-result' as const, message: 3, text, callId, toolName: 'list_machines' });

describe('unit: window rows reading their results from the served history', () => {
  it('reads as the row did, and counts the result once (in the history)', () => {
    const store = new ConversationStore(DEFAULT_LIMITS, () => 0);
    const s = store.get('k');
    const row = windowRow(result);
    store.recordRead(s, row);
    store.recordServed(s, 1, [toolResult(result)], []);
    const before = s.bytes;
    store.linkResults(s, 0, 1);
    const linked = s.ledger[0]!;
    expect(isLinkedRow(linked)).toBe(true);
    expect(linked.result).toBe(result);
    expect(Object.keys(linked)).toEqual(Object.keys(row));
    expect(JSON.stringify(linked, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).toBe(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
    expect(linked).toEqual(row);
    expect(before - s.bytes).toBe(ledgerRowBytes(row) - ledgerRowBytes(linked));
    expect(ledgerRowBytes(row) - ledgerRowBytes(linked)).toBeGreaterThan(result.length - 64);
    expect(store.bytes).toBe(s.bytes + 896);
  });

  it('never links a record whose key matches but whose text differs, nor a non-string result', () => {
    const store = new ConversationStore(DEFAULT_LIMITS, () => 0);
    const s = store.get('k');
    // Same length and both ends (past 160 characters only the ends are hashed): the same key.
    const a = `${'x'.repeat(100)}A${'y'.repeat(100)}`;
    const b = `${'x'.repeat(100)}B${'y'.repeat(100)}`;
    expect(servedKey(a)).toBe(servedKey(b));
    store.recordServed(s, 1, [toolResult(a)], []);
    store.recordRead(s, windowRow(b));
    store.recordRead(s, windowRow({ parsed: true }, 'c2'));
    store.linkResults(s, 0, 2);
    expect(isLinkedRow(s.ledger[0]!)).toBe(false);
    expect(s.ledger[0]!.result).toBe(b);
    expect(isLinkedRow(s.ledger[1]!)).toBe(false);
  });

  it('survives the shared-state codec, adopt and merge as rows of their own', () => {
    const store = new ConversationStore(DEFAULT_LIMITS, () => 0);
    const orphan = store.get('trace-key');
    store.recordRead(orphan, windowRow(result));
    store.recordServed(orphan, 1, [toolResult(result)], []);
    store.linkResults(orphan, 0, 1);
    expect(isLinkedRow(orphan.ledger[0]!)).toBe(true);
    const decoded = decodeConversation(encodeConversation(orphan))!;
    expect(decoded.ledger[0]!.result).toBe(result);
    expect(isLinkedRow(decoded.ledger[0]!)).toBe(false);
    const merged = mergeConversation(orphan, decoded);
    expect(merged.ledger.every((r) => !isLinkedRow(r) && r.result === result)).toBe(true);
    const total = store.bytes;
    store.adopt('trace-key', 'conv-key');
    const into = store.peek('conv-key')!;
    expect(into.ledger).toHaveLength(1);
    expect(isLinkedRow(into.ledger[0]!)).toBe(false);
    expect(into.ledger[0]!.result).toBe(result);
    // What the row holds again is counted: the store's total is its conversation's bytes.
    expect(store.bytes).toBe(into.bytes + 896);
    expect(store.bytes).toBeGreaterThan(total);
  });
});
