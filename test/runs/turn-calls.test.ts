// The window's calls as the turn checks read them (src/runs/turn-calls.ts): a call is paired with
// its result by id only, and an id a recorder gave to two calls pairs neither (AgentDojo's runs
// reuse ids across tools): such a call is listed with an unknown ending, never with another call's
// result, and the ledger's row of one tool never hides the other tool's call.

import { describe, expect, it } from 'vitest';
import type { LlmRequest, Message } from '../../src/model/agent.js';
import type { LedgerRow } from '../../src/model/ledger.js';
import { conversationCalls, rawWindowCalls } from '../../src/runs/turn-calls.js';

const span = { traceId: '6a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d', spanId: '0a1b2c3d4e5f6a7b' };

const WINDOW: Message[] = [
  { role: 'user', parts: [{ type: 'text', text: 'Add the shopping items to my pantry list.' }] },
  { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_7', name: 'list_documents', arguments: {} }] },
  { role: 'tool', parts: [{ type: 'tool-result', id: 'call_7', result: '- id: D-3\n  name: pantry-list.txt\n' }] },
  { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_7', name: 'append_document', arguments: { document_id: 'D-3', text: 'oat milk' } }] },
  { role: 'tool', parts: [{ type: 'tool-result', id: 'call_7', result: 'name: pantry-list.txt\ntext: eggs, oat milk\n' }] },
] as Message[];

describe('calls of a window whose recorder reused an id', () => {
  it('pairs neither call of a shared id with a result', () => {
    const calls = rawWindowCalls(WINDOW);
    expect(calls.map((c) => [c.toolName, c.served])).toEqual([
      ['list_documents', false],
      ['append_document', false],
    ]);
  });

  it('lists the other tool\'s call beside the ledger row of the first, its ending unknown', () => {
    const req = { kind: 'llm-request', span, convention: 'genai', tenant: 'default', startTimeUnixNano: 1n, endTimeUnixNano: 2n, inputContent: 'captured', outputContent: 'captured', input: WINDOW, outputText: [], toolCalls: [] } as unknown as LlmRequest;
    const row = { span, traceId: span.traceId, toolName: 'list_documents', callId: 'call_7', arguments: {}, result: '- id: D-3', outcome: 'ran', reading: { emptiness: 'non-empty', shape: 'array', rows: 1 }, startTimeUnixNano: 1n, source: 'span' } as LedgerRow;
    const calls = conversationCalls(req, [row], span.traceId, () => undefined);
    expect(calls.map((c) => [c.toolName, c.ending])).toEqual([
      ['list_documents', 'ok'],
      ['append_document', 'unknown'],
    ]);
  });
});
