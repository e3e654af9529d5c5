// What a held conversation costs (issue 36). An evicted conversation's served history gives its
// stores back at the end of the batch that evicted it, never while a request may still read it:
// until releaseEvicted() the evicted state reads as it did; after it, its history is empty
// (nothing held); a conversation put back meanwhile (a state read from the shared store) keeps its
// own. Kept rows share equal readings and tool names: the same values in the same order only.

import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/runs/conversations.js';
import { ServedHistory } from '../../src/runs/served-history.js';
import { servedKey } from '../../src/runs/conversations.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';

const served = (text: string) => ({ source: 'tool-result' as const, message: 1, text, callId: 'call_1', toolName: 'list_machines' });
const result = (n: number) => JSON.stringify(Array.from({ length: 8 }, (_, k) => ({ machine_id: `srv-${n}-${k}`, hostname: `host-${k}.acme.internal` })));

describe('unit: an evicted conversation gives its history back', () => {
  it('ServedHistory.release empties the history: no records, no bytes, and it reads and grows as a new one', () => {
    const h = ServedHistory.of([{ ...served(result(1)), request: 1 }, { ...served(result(2)), request: 2 }], servedKey);
    expect(h.length).toBe(2);
    h.release();
    expect(h.length).toBe(0);
    expect(h.bytes).toBe(0);
    expect(h.has(servedKey(result(1)))).toBe(false);
    expect(h.all()).toEqual([]);
    expect(h.textsHolding(Buffer.from('srv-1'))).toEqual(new Uint8Array(0));
    h.add([{ key: servedKey(result(3)), request: 3, served: served(result(3)) }]);
    expect(h.all().map((r) => r.text)).toEqual([result(3)]);
  });

  it('keeps an evicted state readable until releaseEvicted, then releases it; a state put back is kept', () => {
    const store = new ConversationStore({ ...DEFAULT_LIMITS, maxConversations: 2 }, () => 0);
    const a = store.get('a');
    store.recordServed(a, 1, [served(result(1))], ['list_machines']);
    const b = store.get('b');
    store.recordServed(b, 1, [served(result(2))], ['list_machines']);
    store.get('c'); // past maxConversations: a goes
    expect(store.peek('a')).toBeUndefined();
    // The request that evicted it may still be reading it: nothing is released yet.
    expect(a.served.all().map((r) => r.text)).toEqual([result(1)]);
    store.get('d'); // b goes
    expect(store.peek('b')).toBeUndefined();
    // b comes back from the shared store before the batch ends (the same object: it stays held).
    store.replace('b', b);
    store.releaseEvicted();
    expect(a.served.length).toBe(0);
    expect(a.served.bytes).toBe(0);
    expect(store.peek('b')).toBe(b);
    expect(b.served.all().map((r) => r.text)).toEqual([result(2)]);
    // Released once: a second call has nothing left to do.
    store.releaseEvicted();
    expect(b.served.length).toBe(1);
  });

  it('a conversation evicted by the growth of another in the same request reads as it was until the batch ends', () => {
    // Room for about one conversation: recording b's strings evicts a (past maxStateBytes).
    const store = new ConversationStore({ ...DEFAULT_LIMITS, maxStateBytes: 4096 }, () => 0);
    const a = store.get('a');
    store.recordServed(a, 1, [served(result(1))], []);
    const b = store.get('b');
    expect(store.evicted).toBe(0);
    store.recordServed(b, 1, [served(result(2)), served(result(3))], []);
    expect(store.evicted).toBe(1);
    expect(store.peek('a')).toBeUndefined();
    expect(store.peek('b')).toBe(b);
    expect(a.served.all().map((r) => r.text)).toEqual([result(1)]);
    store.releaseEvicted();
    expect(a.served.length).toBe(0);
    expect(b.served.all().map((r) => r.text)).toEqual([result(2), result(3)]);
  });
});

describe('unit: kept rows share equal readings and tool names', () => {
  const row = (callId: string, reading: Record<string, unknown>, toolName = `list_${'machines'}`) => ({
    span: { traceId: 'a'.repeat(32), spanId: callId.padStart(16, '0') },
    traceId: 'a'.repeat(32),
    toolName,
    callId,
    arguments: { customer: 'acme' },
    result: '[]',
    outcome: 'ran' as const,
    reading: reading as never,
    startTimeUnixNano: 1n,
    source: 'span' as const,
  });

  it('shares a reading of the same values in the same order, never one in another order or with an object part', () => {
    const store = new ConversationStore(DEFAULT_LIMITS, () => 0);
    const a = store.get('a');
    const b = store.get('b');
    const first = row('c1', { emptiness: 'non-empty', rows: 8, shape: 'array' });
    const same = row('c2', { emptiness: 'non-empty', rows: 8, shape: 'array' });
    const otherOrder = row('c3', { emptiness: 'non-empty', shape: 'array', rows: 8 });
    const otherRows = row('c4', { emptiness: 'non-empty', rows: 7, shape: 'array' });
    const absence = { lookedFor: 'srv-9', notFound: '404' };
    const withAbsence = row('c5', { emptiness: 'declared-absent', shape: 'object', absence });
    const withAbsenceToo = row('c6', { emptiness: 'declared-absent', shape: 'object', absence: { ...absence } });
    for (const r of [first, same, otherOrder]) expect(store.recordRead(a, r)).toBe(true);
    for (const r of [otherRows, withAbsence, withAbsenceToo]) expect(store.recordRead(b, r)).toBe(true);
    expect(same.reading).toBe(first.reading);
    expect(otherOrder.reading).not.toBe(first.reading);
    expect(Object.keys(otherOrder.reading)).toEqual(['emptiness', 'shape', 'rows']);
    expect(otherRows.reading).not.toBe(first.reading);
    expect(otherRows.reading).toEqual({ emptiness: 'non-empty', rows: 7, shape: 'array' });
    expect(withAbsenceToo.reading).not.toBe(withAbsence.reading);
    // Tool names: one string for every row (equal values, so nothing a reader can see changes).
    expect(a.ledger.map((r) => r.toolName)).toEqual(['list_machines', 'list_machines', 'list_machines']);
    expect(JSON.stringify(a.ledger.map((r) => r.reading))).toBe('[{"emptiness":"non-empty","rows":8,"shape":"array"},{"emptiness":"non-empty","rows":8,"shape":"array"},{"emptiness":"non-empty","shape":"array","rows":8}]');
  });
});
