// Pins the (length, first character) filter of src/processor/recognize.ts (keySet/hasAnyKey and
// looksLikeAgentSpan's walk): a key passes only when it is in the set, whatever its first
// character and length share with the set's keys; non-ASCII first characters and keys past the
// table's lengths go on to the set; the conversation-key probe covers every CONVERSATION_ID_KEYS
// key; the two agent scopes are recognised by name alone.
import { describe, it, expect } from 'vitest';
import { CONVERSATION_KEYS_PROBED, hasAnyKey, hasConversationKey, keySet, looksLikeAgentSpan } from '../../src/processor/recognize.js';
import { CONVERSATION_ID_KEYS } from '../../src/conventions/conversation-keys.js';

describe('keySet / hasAnyKey', () => {
  const conv = keySet(CONVERSATION_ID_KEYS);
  it('finds a conversation key among ordinary HTTP keys, and none when only first characters match', () => {
    expect(hasAnyKey({ 'http.request.method': 'GET', 'server.address': 'shop', 'session.id': 's-1' }, conv)).toBe(true);
    // `server.*` and `gen_ai.request.model` share first characters with conversation keys, but are not ones.
    expect(hasAnyKey({ 'server.address': 'shop', 'gen_ai.request.model': 'gpt-4o', 'traceloop.workflow.name': 'w' }, conv)).toBe(false);
  });
  it('tells keys apart that share a first character and a length, and keys past the table lengths', () => {
    const ks = keySet(['session.id', 'x'.repeat(70), 'y'.repeat(63)]);
    expect(hasAnyKey({ 'server.pid': 1, 'sessionXid': 1 }, ks)).toBe(false);
    expect(hasAnyKey({ ['x'.repeat(71)]: 1, ['y'.repeat(64)]: 1 }, ks)).toBe(false);
    expect(hasAnyKey({ ['x'.repeat(70)]: 1 }, ks)).toBe(true);
    expect(hasAnyKey({ ['y'.repeat(63)]: 1 }, ks)).toBe(true);
  });
  it('passes non-ASCII first characters on to the set', () => {
    const ks = keySet(['ümlaut.key', 'plain']);
    expect(hasAnyKey({ 'ümlaut.key': 1 }, ks)).toBe(true);
    expect(hasAnyKey({ 'ümlaut.other': 1 }, ks)).toBe(false);
  });
});

describe('hasConversationKey', () => {
  it('probes (the list has the keys the probe was written for) and finds each key alone, with any value', () => {
    expect(CONVERSATION_KEYS_PROBED).toBe(true);
    for (const k of CONVERSATION_ID_KEYS) {
      expect(hasConversationKey({ 'http.route': '/x', [k]: 'c-1' }), k).toBe(true);
      expect(hasConversationKey({ [k]: 42 }), k).toBe(true);
    }
  });
  it('finds none among ordinary keys, first-character neighbours, or undefined values', () => {
    expect(hasConversationKey({ 'http.request.method': 'GET', 'server.address': 'shop', 'server.port': 8080 })).toBe(false);
    expect(hasConversationKey({ 'gen_ai.request.model': 'gpt-4o', 'session.id': undefined })).toBe(false);
    expect(hasConversationKey({})).toBe(false);
  });
});

describe('looksLikeAgentSpan', () => {
  it('reads an agent key, not its first-character neighbours, and not an undefined value', () => {
    expect(looksLikeAgentSpan({ 'http.route': '/x', 'gen_ai.operation.name': 'chat' }, undefined)).toBe(true);
    expect(looksLikeAgentSpan({ 'http.route': '/x', 'gen_ai.request.model': 'gpt-4o', 'llm.other': 1 }, undefined)).toBe(false);
    expect(looksLikeAgentSpan({ 'gen_ai.operation.name': undefined }, undefined)).toBe(false);
  });
  it('recognises the AI SDK scopes `ai` and `gen_ai` by name, and no other', () => {
    expect(looksLikeAgentSpan({}, 'ai')).toBe(true);
    expect(looksLikeAgentSpan({}, 'gen_ai')).toBe(true);
    expect(looksLikeAgentSpan({}, '@opentelemetry/instrumentation-http')).toBe(false);
    expect(looksLikeAgentSpan(undefined, undefined)).toBe(false);
  });
});
