// stateBytes stays an honest count (issue 11): strings are counted at the width V8 keeps them,
// every kept item adds its bytes, an eviction or a clear takes exactly what it held back out, and
// a served string seen again (same text, new request) adds nothing.

import { describe, expect, it } from 'vitest';
import { CONVERSATION_BYTES, ConversationStore, servedKey, stringBytes } from '../../src/runs/conversations.js';
import { HISTORY_FIXED_BYTES, RECORD_BYTES } from '../../src/runs/served-history.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';

const served = (text: string, source: 'user' | 'tool-result' = 'user') => ({ source, message: 0, text });

describe('unit: stateBytes of the conversation store', () => {
  it('counts a Latin-1 string at one byte a character and any other at two', () => {
    expect(stringBytes('a'.repeat(1000))).toBe(1000 + 24);
    expect(stringBytes('é'.repeat(1000))).toBe(1000 + 24);
    expect(stringBytes(`${'a'.repeat(999)}→`)).toBe(2000 + 24);
  });

  it('adds a kept string once, and gives back exactly what an evicted conversation held', () => {
    const store = new ConversationStore({ ...DEFAULT_LIMITS, maxConversations: 2 }, () => 0);
    const a = store.get('a');
    expect(store.bytes).toBe(CONVERSATION_BYTES);
    const text = `Turn 1: which machines of customer acme missed last night's backup? ${'Please be thorough. '.repeat(20)}`;
    store.recordServed(a, 1, [served(text)], []);
    store.recordServed(a, 2, [served(text), served('short one')], []);
    expect(a.served.all().map((s) => s.request)).toEqual([1, 2]);
    // The history is all the conversation holds: its texts as UTF-8, a record each, its fixed
    // part, and two stores (texts, records) each at most an eighth (plus 64 bytes) over what it uses.
    expect(a.bytes).toBe(a.served.bytes);
    const textBytes = text.length + 'short one'.length;
    const least = HISTORY_FIXED_BYTES + textBytes + 2 * RECORD_BYTES;
    expect(a.served.bytes).toBeGreaterThanOrEqual(least);
    expect(a.served.bytes).toBeLessThanOrEqual(HISTORY_FIXED_BYTES + Math.floor(textBytes * 1.125) + 64 + Math.floor(2 * RECORD_BYTES * 1.125) + 64);
    expect(store.bytes).toBe(CONVERSATION_BYTES + a.bytes);
    const b = store.get('b');
    store.recordServed(b, 1, [served('another conversation')], []);
    const withB = store.bytes;
    store.get('c'); // past maxConversations: the oldest (a) goes, with everything it held
    expect(store.evicted).toBe(1);
    expect(store.bytes).toBe(withB - a.bytes);
    store.clear();
    expect(store.bytes).toBe(0);
  });

  it('keys served strings by length and both ends as a number, so one of a long window is not copied', () => {
    const long = 'x'.repeat(300);
    expect(typeof servedKey(long)).toBe('number');
    expect(Number.isSafeInteger(servedKey(long))).toBe(true);
    expect(servedKey(long)).toBe(servedKey('x'.repeat(300)));
    expect(servedKey(long)).not.toBe(servedKey('x'.repeat(301)));
    // Up to 160 characters the whole text is hashed: texts differing in the middle differ.
    expect(servedKey(`${'a'.repeat(70)}b${'a'.repeat(70)}`)).not.toBe(servedKey('a'.repeat(141)));
  });
});
