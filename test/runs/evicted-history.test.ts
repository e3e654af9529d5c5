// An evicted conversation's served history gives its stores back at the end of the batch that
// evicted it (issue 36), never while a request may still read it: until releaseEvicted() the
// evicted state reads as it did; after it, its history is empty (nothing held); a conversation put
// back meanwhile (a state read from the shared store) keeps its own.

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
