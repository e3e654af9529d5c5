// Pins the first-character table of src/processor/recognize.ts (keySet/hasAnyKey and
// looksLikeAgentSpan's walk): a key passes only when it is in the set, whatever its first
// character shares with the set's keys; non-ASCII first characters go on to the set; the two
// agent scopes are recognised by name alone.
import { describe, it, expect } from 'vitest';
import { hasAnyKey, keySet, looksLikeAgentSpan } from '../../src/processor/recognize.js';
import { CONVERSATION_ID_KEYS } from '../../src/conventions/conversation-keys.js';

describe('keySet / hasAnyKey', () => {
  const conv = keySet(CONVERSATION_ID_KEYS);
  it('finds a conversation key among ordinary HTTP keys, and none when only first characters match', () => {
    expect(hasAnyKey({ 'http.request.method': 'GET', 'server.address': 'shop', 'session.id': 's-1' }, conv)).toBe(true);
    // `server.*` and `gen_ai.request.model` share first characters with conversation keys, but are not ones.
    expect(hasAnyKey({ 'server.address': 'shop', 'gen_ai.request.model': 'gpt-4o', 'traceloop.workflow.name': 'w' }, conv)).toBe(false);
  });
  it('passes non-ASCII first characters on to the set', () => {
    const ks = keySet(['ümlaut.key', 'plain']);
    expect(hasAnyKey({ 'ümlaut.key': 1 }, ks)).toBe(true);
    expect(hasAnyKey({ 'ümlaut.other': 1 }, ks)).toBe(false);
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
