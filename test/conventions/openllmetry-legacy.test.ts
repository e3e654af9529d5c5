// Pins the OpenLLMetry (Traceloop) before-0.23 reader on hand-built spans (no recording exists):
// indexed `gen_ai.prompt.{i}.*` / `gen_ai.completion.{i}.*` / `llm.request.functions.{k}.*` keys
// become the same LlmRequest as the JSON form, with no invented ids and `idsMatchedByOrder: true`;
// gaps end a list, bounds hold, and bad values are diagnostics.
import { describe, it, expect } from 'vitest';
import { genAi } from '../../src/conventions/genai.js';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import type { Attributes, SpanData } from '../../src/model/telemetry.js';
import type { LlmRequest } from '../../src/model/agent.js';
import { buildFrame } from '../../src/runs/frame.js';

function legacySpan(attributes: Attributes): SpanData {
  return {
    traceId: 'ab971de46025cb7d8b0b22f5b48216e6',
    spanId: 'a9b04d13ac76df2a',
    name: 'openai.chat',
    kind: 3,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes: { 'gen_ai.system': 'OpenAI', 'llm.request.type': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', ...attributes },
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'svc' },
    scope: { name: '@traceloop/instrumentation-openai', version: '0.22.2' },
  };
}

function read(s: SpanData, limits: Limits = DEFAULT_LIMITS): { req: LlmRequest; diagnostics: DiagnosticList } {
  const diagnostics = new DiagnosticList();
  expect(genAi.claims(s)).toBe(true);
  const events = genAi.read(s, { tenant: 'svc', logs: [], limits, diagnostics });
  expect(events).toHaveLength(1);
  return { req: events[0] as LlmRequest, diagnostics };
}

const SECOND_REQUEST: Attributes = {
  'gen_ai.prompt.0.role': 'system',
  'gen_ai.prompt.0.content': 'You are a backup triage assistant.',
  'gen_ai.prompt.1.role': 'user',
  'gen_ai.prompt.1.content': 'Is srv-db-04 protected?',
  'gen_ai.prompt.2.role': 'assistant',
  'gen_ai.prompt.2.content': 'null',
  'gen_ai.prompt.3.role': 'tool',
  'gen_ai.prompt.3.content': '[{"machine_id":"srv-db-04"}]',
  'llm.request.functions.0.name': 'list_machines',
  'llm.request.functions.0.description': 'List machines.',
  'llm.request.functions.0.arguments': '{"type":"object","properties":{"customer":{"type":"string"}}}',
  'llm.request.functions.1.name': 'backup_jobs',
  'gen_ai.response.id': 'chatcmpl-002',
  'gen_ai.completion.0.finish_reason': 'tool_calls',
  'gen_ai.completion.0.role': 'assistant',
  'gen_ai.completion.0.content': '',
  'gen_ai.completion.0.tool_calls.0.name': 'backup_jobs',
  'gen_ai.completion.0.tool_calls.0.arguments': '{"machine_id":"srv-db-04"}',
  'gen_ai.completion.0.tool_calls.1.name': 'backup_status',
  'gen_ai.completion.0.tool_calls.1.arguments': 'not json',
  'traceloop.association.properties.session_id': 'sess-9',
};

describe('unit: OpenLLMetry legacy indexed keys', () => {
  it('reads the window, the chosen calls and the functions; no ids; idsMatchedByOrder', () => {
    const { req, diagnostics } = read(legacySpan(SECOND_REQUEST));
    expect(diagnostics.items).toEqual([]);
    expect(req.convention).toBe('openllmetry-legacy');
    expect(req.idsMatchedByOrder).toBe(true);
    expect(req.inputContent).toBe('captured');
    expect(req.outputContent).toBe('captured');
    expect(req.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'You are a backup triage assistant.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Is srv-db-04 protected?' }] },
      // "null" is the library's spelling of an assistant message that only called tools (not captured).
      { role: 'assistant', parts: [] },
      { role: 'tool', parts: [{ type: 'tool-result', result: '[{"machine_id":"srv-db-04"}]' }] },
    ]);
    expect(req.toolCalls).toEqual([
      { name: 'backup_jobs', arguments: { machine_id: 'srv-db-04' } },
      { name: 'backup_status', arguments: 'not json' },
    ]);
    expect(req.outputText).toEqual([]);
    expect(req.toolDefinitions).toEqual([
      { name: 'list_machines', description: 'List machines.', inputSchema: { type: 'object', properties: { customer: { type: 'string' } } } },
      { name: 'backup_jobs' },
    ]);
    expect(req.responseId).toBe('chatcmpl-002');
    expect(req.conversationId).toBe('sess-9');
    const frame = buildFrame(req);
    expect(frame.served.filter((s) => s.source !== 'tool-schema').map((s) => [s.source, s.text, s.callId])).toEqual([
      ['system', 'You are a backup triage assistant.', undefined],
      ['user', 'Is srv-db-04 protected?', undefined],
      ['tool-result', '[{"machine_id":"srv-db-04"}]', undefined],
    ]);
    expect(frame.written).toEqual([]);
  });
  it('a final text answer, history tool calls and function_call when present', () => {
    const { req } = read(
      legacySpan({
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': 'q',
        'gen_ai.prompt.1.role': 'assistant',
        'gen_ai.prompt.1.tool_calls.0.name': 'lookup',
        'gen_ai.prompt.1.tool_calls.0.arguments': '{"k":1}',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.content': 'The answer.',
        'gen_ai.completion.1.function_call.name': 'legacy_fn',
        'gen_ai.completion.1.function_call.arguments': '{"z":true}',
      }),
    );
    expect(req.input[1]).toEqual({ role: 'assistant', parts: [{ type: 'tool-call', name: 'lookup', arguments: { k: 1 } }] });
    expect(req.outputText).toEqual(['The answer.']);
    expect(req.toolCalls).toEqual([{ name: 'legacy_fn', arguments: { z: true } }]);
  });
  it('content given as JSON text parts becomes its texts; other JSON stays the string', () => {
    const { req } = read(
      legacySpan({
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': '[{"type":"text","text":"part one"},{"type":"text","text":"part two"}]',
        'gen_ai.prompt.1.role': 'user',
        'gen_ai.prompt.1.content': '{"free":"form"}',
      }),
    );
    expect(req.input[0]!.parts).toEqual([
      { type: 'text', text: 'part one' },
      { type: 'text', text: 'part two' },
    ]);
    expect(req.input[1]!.parts).toEqual([{ type: 'text', text: '{"free":"form"}' }]);
  });
  it('a gap ends the list; a role missing defaults (prompt user, completion assistant); unknown roles are skipped with a diagnostic', () => {
    const { req, diagnostics } = read(
      legacySpan({
        'gen_ai.prompt.0.content': 'no role',
        'gen_ai.prompt.1.role': 'wizard',
        'gen_ai.prompt.1.content': 'x',
        'gen_ai.prompt.3.role': 'user',
        'gen_ai.prompt.3.content': 'after the gap',
        'gen_ai.completion.0.content': 'done',
      }),
    );
    expect(req.input).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'no role' }] }]);
    expect(req.outputText).toEqual(['done']);
    expect(diagnostics.items.map((d) => d.code)).toEqual(['message.shape-invalid']);
  });
  it('holds the message bound', () => {
    const attrs: Attributes = {};
    for (let i = 0; i < 10; i++) {
      attrs[`gen_ai.prompt.${i}.role`] = 'user';
      attrs[`gen_ai.prompt.${i}.content`] = `m${i}`;
    }
    const { req, diagnostics } = read(legacySpan(attrs), resolveLimits({ maxMessagesPerRequest: 4 }));
    expect(req.input).toHaveLength(4);
    expect(diagnostics.items.map((d) => d.code)).toEqual(['messages.over-bound']);
  });
  it('capture off (only the request type and model): not captured, no fake window', () => {
    const { req } = read(legacySpan({}));
    expect(req.inputContent).toBe('not-captured');
    expect(req.outputContent).toBe('not-captured');
    expect(req.input).toEqual([]);
    expect(req.idsMatchedByOrder).toBeUndefined();
  });
  it('llm.request.type embedding is not an LLM request', () => {
    const s = legacySpan({ 'llm.request.type': 'embedding' });
    expect(genAi.claims(s)).toBe(false);
  });
});
