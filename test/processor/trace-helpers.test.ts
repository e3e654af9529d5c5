// The app helpers (src/trace) write GenAI-semconv spans the GenAI reader reads back.
import { afterEach, describe, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { assertExternalGround, traceAgentTurn, traceChat, traceTool } from '../../src/trace/index.js';
import { toSpanData } from '../../src/processor/sdk-span.js';
import { readSpan } from '../../src/conventions/registry.js';
import { resolveLimits } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { ATTR_DECL_ARGUMENTS_FROM, ATTR_DECL_READ_ONLY, ATTR_EXTERNAL_GROUNDS, TRACE_HELPERS_SCOPE } from '../../src/findings/names.js';
import { makePipeline, type Pipeline } from './harness.js';

let pipe: Pipeline | undefined;
afterEach(async () => {
  await pipe?.shutdown();
  pipe = undefined;
});

const request = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Status of srv-db-04?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'backup_status', arguments: '{"machine_id":"srv-db-04"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '[]' },
  ],
  tools: [{ type: 'function', function: { name: 'backup_status', description: 'Status.', parameters: { type: 'object', properties: { machine_id: { type: 'string' } } } } }],
};
const response = {
  id: 'chatcmpl-1',
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'backup_jobs', arguments: '{"machine_id":"srv-db-04"}' } }] } }],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
};

describe('app helpers', () => {
  it('write invoke_agent / chat / execute_tool spans with GenAI attributes, parented, carrying the turn', async () => {
    pipe = makePipeline();
    const out = await traceAgentTurn({ agentName: 'triage', conversationId: 'conv-9', model: 'gpt-4o-mini', provider: 'openai' }, async () => {
      assertExternalGround('srv-db-04', 'ui:row-click');
      const r = await traceChat(request, async () => response);
      expect(r).toBe(response);
      return traceTool('backup_jobs', { machine_id: 'srv-db-04' }, async () => [{ job: 'nightly' }], { callId: 'call_2', argumentsFrom: ['list_machines'], readOnly: true });
    });
    expect(out).toEqual([{ job: 'nightly' }]);
    const spans = pipe.next.received;
    expect(spans.map((s) => s.name)).toEqual(['chat gpt-4o-mini', 'execute_tool backup_jobs', 'invoke_agent triage']);
    const [chat, tool, turn] = spans as [typeof spans[0], typeof spans[0], typeof spans[0]];
    expect(chat.instrumentationScope.name).toBe(TRACE_HELPERS_SCOPE);
    expect(chat.kind).toBe(SpanKind.CLIENT);
    expect(chat.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(tool.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(turn.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'triage', 'gen_ai.conversation.id': 'conv-9', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.provider.name': 'openai' });
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.conversation.id': 'conv-9',
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
    });
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You are terse.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'Status of srv-db-04?' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'backup_status', arguments: { machine_id: 'srv-db-04' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: '[]' }] },
    ]);
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_2', name: 'backup_jobs', arguments: { machine_id: 'srv-db-04' } }], finish_reason: 'tool_call' },
    ]);
    expect(JSON.parse(chat.attributes['gen_ai.tool.definitions'] as string)).toEqual([{ type: 'function', name: 'backup_status', description: 'Status.', parameters: { type: 'object', properties: { machine_id: { type: 'string' } } } }]);
    expect(JSON.parse(chat.attributes[ATTR_EXTERNAL_GROUNDS] as string)).toEqual([{ value: 'srv-db-04', source: 'ui:row-click' }]);
    expect(JSON.parse(turn.attributes[ATTR_EXTERNAL_GROUNDS] as string)).toEqual([{ value: 'srv-db-04', source: 'ui:row-click' }]);
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'backup_jobs',
      'gen_ai.tool.call.id': 'call_2',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.arguments': '{"machine_id":"srv-db-04"}',
      'gen_ai.tool.call.result': '[{"job":"nightly"}]',
      [ATTR_DECL_ARGUMENTS_FROM]: ['list_machines'],
      [ATTR_DECL_READ_ONLY]: true,
      'gen_ai.conversation.id': 'conv-9',
    });

    // the GenAI reader reads them back
    const diagnostics = new DiagnosticList();
    const opts = { limits: resolveLimits({}), diagnostics, tenantAttribute: 'service.name' };
    const [req] = readSpan(toSpanData(chat), opts);
    expect(req).toMatchObject({ kind: 'llm-request', conversationId: 'conv-9', responseId: 'chatcmpl-1', inputContent: 'captured', outputContent: 'captured' });
    expect((req as { toolCalls: unknown[] }).toolCalls).toEqual([{ id: 'call_2', name: 'backup_jobs', arguments: { machine_id: 'srv-db-04' } }]);
    expect((req as { externalGrounds?: unknown }).externalGrounds).toEqual([{ value: 'srv-db-04', source: 'ui:row-click' }]);
    const [exec] = readSpan(toSpanData(tool), opts);
    expect(exec).toMatchObject({ kind: 'tool-execution', callId: 'call_2' });
    const [agentTurn] = readSpan(toSpanData(turn), opts);
    expect(agentTurn).toMatchObject({ kind: 'agent-turn', conversationId: 'conv-9' });
    expect(diagnostics.items.filter((d) => d.level !== 'info')).toEqual([]);
  });

  it('rethrow the app error, with an error status, and end the span', async () => {
    pipe = makePipeline();
    await expect(traceTool('t', {}, () => {
      throw new TypeError('bad');
    })).rejects.toThrow('bad');
    const [span] = pipe.next.received;
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.attributes['error.type']).toBe('TypeError');
    expect(span!.ended).toBe(true);
  });

  it('captureContent: false records no messages, arguments or results', async () => {
    pipe = makePipeline();
    await traceChat(request, async () => response, { captureContent: false });
    await traceTool('t', { a: 1 }, async () => 'r', { captureContent: false });
    const [chat, tool] = pipe.next.received;
    expect(Object.keys(chat!.attributes).filter((k) => k.includes('messages') || k.includes('definitions'))).toEqual([]);
    expect(tool!.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(tool!.attributes['gen_ai.tool.call.result']).toBeUndefined();
  });
});
