// Pins the GenAI semconv reader on hand-built spans: recognition (O(1) claims, `step` spans not
// claimed), every part and message shape (ids vs call_id, response vs result, arguments as object /
// JSON string / raw / absent, unknown parts ignored), system-instruction folding, tool definitions
// in both forms, the log-record form (both event-name placements, null fields, capture off), v1.26
// span events, execute_tool / invoke_agent, external grounds, and that bad input only ever yields
// diagnostics: malformed, huge, deep or random values never throw.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { genAi } from '../../src/conventions/genai.js';
import type { ReadContext } from '../../src/conventions/types.js';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import type { AttrValue, Attributes, LogData, SpanData } from '../../src/model/telemetry.js';
import type { AgentTurn, LlmRequest, ModelEvent, ToolExecution } from '../../src/model/agent.js';
import { buildFrame } from '../../src/runs/frame.js';

let n = 0;
function span(attributes: Attributes, over: Partial<SpanData> = {}): SpanData {
  n++;
  return {
    traceId: 'ab971de46025cb7d8b0b22f5b48216e6',
    spanId: n.toString(16).padStart(16, '0'),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: 1000n,
    endTimeUnixNano: 2000n,
    attributes,
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'svc' },
    scope: { name: 'test' },
    ...over,
  };
}

function log(s: SpanData, body: AttrValue | undefined, attributes: Attributes, eventName?: string): LogData {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    ...(eventName ? { eventName } : {}),
    timeUnixNano: 1500n,
    body,
    attributes,
    resource: {},
    scope: { name: 'test' },
  };
}

function read(s: SpanData, opts: { logs?: LogData[]; limits?: Limits } = {}): { events: ModelEvent[]; diagnostics: DiagnosticList } {
  const diagnostics = new DiagnosticList();
  const ctx: ReadContext = { tenant: 'svc', logs: opts.logs ?? [], limits: opts.limits ?? DEFAULT_LIMITS, diagnostics };
  return { events: genAi.read(s, ctx), diagnostics };
}

function request(s: SpanData, opts: { logs?: LogData[]; limits?: Limits } = {}): { req: LlmRequest; diagnostics: DiagnosticList } {
  const { events, diagnostics } = read(s, opts);
  expect(events).toHaveLength(1);
  expect(events[0]!.kind).toBe('llm-request');
  return { req: events[0] as LlmRequest, diagnostics };
}

const chat = (extra: Attributes): Attributes => ({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', ...extra });
const codes = (d: DiagnosticList): string[] => d.items.map((x) => x.code);

describe('unit: recognition', () => {
  it('claims inference, invoke_agent and execute_tool spans; not agent_step, embeddings or plain spans', () => {
    for (const op of ['chat', 'text_completion', 'generate_content', 'invoke_agent', 'execute_tool']) expect(genAi.claims(span({ 'gen_ai.operation.name': op }))).toBe(true);
    for (const op of ['agent_step', 'embeddings', 'create_agent']) expect(genAi.claims(span({ 'gen_ai.operation.name': op }))).toBe(false);
    expect(genAi.claims(span({ 'http.method': 'GET' }))).toBe(false);
    expect(genAi.claims(span({ 'gen_ai.system': 'openai' }))).toBe(false);
  });
  it('claims OpenLLMetry legacy spans and v1.26 content-event spans that have no operation name', () => {
    expect(genAi.claims(span({ 'llm.request.type': 'chat' }))).toBe(true);
    expect(genAi.claims(span({ 'llm.request.type': 'embedding' }))).toBe(false);
    expect(genAi.claims(span({ 'gen_ai.prompt.0.role': 'user' }))).toBe(true);
    const ev = span({ 'gen_ai.system': 'openai' }, { events: [{ name: 'gen_ai.content.prompt', timeUnixNano: 1n, attributes: {} }] });
    expect(genAi.claims(ev)).toBe(true);
  });
  it('a step span read anyway yields []', () => {
    expect(read(span({ 'gen_ai.operation.name': 'agent_step', 'gen_ai.input.messages': '[]' })).events).toEqual([]);
  });
});

describe('unit: span JSON attributes', () => {
  it('reads JSON strings and structured values alike', () => {
    const msgs = [{ role: 'user', parts: [{ type: 'text', content: 'hello there' }] }];
    const a = request(span(chat({ 'gen_ai.input.messages': JSON.stringify(msgs) }))).req;
    const b = request(span(chat({ 'gen_ai.input.messages': msgs }))).req;
    expect(a.input).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'hello there' }] }]);
    expect(b.input).toEqual(a.input);
  });
  it('tool-call arguments: object, JSON string, raw non-JSON string, null, absent', () => {
    const out = [
      {
        role: 'assistant',
        finish_reason: 'tool_call',
        parts: [
          { type: 'tool_call', id: 'c1', name: 'a', arguments: { x: 1 } },
          { type: 'tool_call', id: 'c2', name: 'b', arguments: '{"y":"two"}' },
          { type: 'tool_call', id: 'c3', name: 'c', arguments: 'not json' },
          { type: 'tool_call', id: 'c4', name: 'd', arguments: null },
          { type: 'tool_call', id: 'c5', name: 'e' },
        ],
      },
    ];
    const { req, diagnostics } = request(span(chat({ 'gen_ai.output.messages': JSON.stringify(out) })));
    expect(req.toolCalls).toEqual([
      { id: 'c1', name: 'a', arguments: { x: 1 } },
      { id: 'c2', name: 'b', arguments: { y: 'two' } },
      { id: 'c3', name: 'c', arguments: 'not json' },
      { id: 'c4', name: 'd', arguments: null },
      { id: 'c5', name: 'e', arguments: undefined },
    ]);
    expect(diagnostics.items).toEqual([]);
    expect(req.inputContent).toBe('not-captured');
    expect(req.outputContent).toBe('captured');
  });
  it('prefers call_id over id (Responses), accepts `result` for `response`, keeps parsed responses', () => {
    const input = [
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'fc_1', call_id: 'call_1', name: 't', arguments: '{}' }] },
      { role: 'user', parts: [{ type: 'tool_call_response', id: null, call_id: 'call_1', response: 'r1' }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_2', result: [{ a: 1 }] }] },
    ];
    const { req } = request(span(chat({ 'gen_ai.input.messages': JSON.stringify(input) })));
    expect(req.input[0]!.parts[0]).toEqual({ type: 'tool-call', id: 'call_1', name: 't', arguments: {} });
    expect(req.input[1]!.parts[0]).toEqual({ type: 'tool-result', id: 'call_1', name: 't', result: 'r1' });
    expect(req.input[2]!.parts[0]).toEqual({ type: 'tool-result', id: 'call_2', result: [{ a: 1 }] });
    const frame = buildFrame(req);
    expect(frame.served.map((s) => [s.source, s.text, s.callId])).toEqual([
      ['tool-result', 'r1', 'call_1'],
      ['tool-result', '[{"a":1}]', 'call_2'],
    ]);
  });
  it('missing ids stay missing (no invented ids)', () => {
    const input = [
      { role: 'assistant', parts: [{ type: 'tool_call', name: 't', arguments: { q: 'x' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', response: 'done' }] },
    ];
    const out = [{ role: 'assistant', parts: [{ type: 'tool_call', id: '', name: 't', arguments: {} }] }];
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': JSON.stringify(input), 'gen_ai.output.messages': JSON.stringify(out) })));
    expect(req.input[0]!.parts[0]).toEqual({ type: 'tool-call', name: 't', arguments: { q: 'x' } });
    expect(req.input[1]!.parts[0]).toEqual({ type: 'tool-result', result: 'done' });
    expect(req.toolCalls).toEqual([{ name: 't', arguments: {} }]);
    const frame = buildFrame(req);
    expect(frame.written[0]!.callId).toBeUndefined();
    expect(frame.served[0]!.callId).toBeUndefined();
    expect(diagnostics.items).toEqual([]);
  });
  it('ignores unknown part types without a diagnostic and keeps the known ones', () => {
    const input = [
      {
        role: 'user',
        parts: [
          { type: 'blob', modality: 'image', content: 'AAAA' },
          { type: 'text', content: 'look at this' },
          { type: 'uri', modality: 'image', uri: 'https://x' },
        ],
      },
      { role: 'assistant', parts: [{ type: 'reasoning', content: 'hmm' }, { type: 'server_tool_call', name: 'web', server_tool_call: { type: 'web_search' } }] },
    ];
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': JSON.stringify(input) })));
    expect(req.input).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'look at this' }] },
      { role: 'assistant', parts: [] },
    ]);
    expect(diagnostics.items).toEqual([]);
  });
  it('bad messages and parts are skipped with one diagnostic per attribute; the rest is read', () => {
    const input = [
      { role: 'user', parts: [{ type: 'text', content: 'ok' }] },
      { role: 'narrator', parts: [{ type: 'text', content: 'who?' }] },
      'garbage',
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'x' }, { type: 'text', content: 7 }, 42] },
    ];
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': JSON.stringify(input) })));
    expect(req.input).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'ok' }] },
      { role: 'assistant', parts: [] },
    ]);
    expect(codes(diagnostics)).toEqual(['message.shape-invalid']);
    expect(diagnostics.items[0]!.message).toContain('5 item(s)');
  });
  it('malformed JSON: a diagnostic, no throw, content not captured (never an empty window)', () => {
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': '[{"role":"user",', 'gen_ai.output.messages': '{"not":"an array"}' })));
    expect(codes(diagnostics)).toEqual(['attribute.json-invalid', 'attribute.shape-invalid']);
    expect(req.inputContent).toBe('not-captured');
    expect(req.outputContent).toBe('not-captured');
    expect(req.input).toEqual([]);
  });
  it('an attribute over maxJsonAttributeBytes is not parsed: a diagnostic', () => {
    const limits = resolveLimits({ maxJsonAttributeBytes: 1000 });
    const huge = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'x'.repeat(2000) }] }]);
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': huge })), { limits });
    expect(codes(diagnostics)).toEqual(['attribute.too-large']);
    expect(req.inputContent).toBe('not-captured');
  });
  it('huge tool-call arguments inside a readable attribute stay the raw string, with a diagnostic', () => {
    const limits = resolveLimits({ maxJsonAttributeBytes: 500 });
    const out = [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c', name: 't', arguments: JSON.stringify({ v: 'y'.repeat(600) }) }] }];
    const { req, diagnostics } = request(span(chat({ 'gen_ai.output.messages': out })), { limits });
    expect(typeof req.toolCalls[0]!.arguments).toBe('string');
    expect(codes(diagnostics)).toEqual(['attribute.too-large']);
  });
  it('nesting past maxJsonDepth: a diagnostic', () => {
    let deep = '"x"';
    for (let i = 0; i < 80; i++) deep = `[${deep}]`;
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': deep })));
    expect(codes(diagnostics)).toEqual(['attribute.too-deep']);
    expect(req.inputContent).toBe('not-captured');
  });
  it('messages past maxMessagesPerRequest are dropped with a diagnostic', () => {
    const limits = resolveLimits({ maxMessagesPerRequest: 3 });
    const input = Array.from({ length: 5 }, (_, i) => ({ role: 'user', parts: [{ type: 'text', content: `m${i}` }] }));
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': input })), { limits });
    expect(req.input).toHaveLength(3);
    expect(codes(diagnostics)).toEqual(['messages.over-bound']);
  });
  it('content capture off: no messages anywhere → not-captured, empty lists, no diagnostic', () => {
    const { req, diagnostics } = request(span(chat({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.id': 'chatcmpl-1', 'gen_ai.response.finish_reasons': ['stop'] })));
    expect(req.inputContent).toBe('not-captured');
    expect(req.outputContent).toBe('not-captured');
    expect(req.input).toEqual([]);
    expect(req.toolCalls).toEqual([]);
    expect(req.toolDefinitions).toBeUndefined();
    expect(req.responseId).toBe('chatcmpl-1');
    expect(req.model).toBe('gpt-4o-mini');
    expect(diagnostics.items).toEqual([]);
  });
  it('an explicitly empty message list is captured (that is what was recorded)', () => {
    const { req } = request(span(chat({ 'gen_ai.input.messages': '[]', 'gen_ai.output.messages': '[]' })));
    expect(req.inputContent).toBe('captured');
    expect(req.outputContent).toBe('captured');
  });
});

describe('unit: message forms other than parts', () => {
  it('AI SDK prompt form (as Traceloop\'s SDK copies ai.prompt.messages into gen_ai.input.messages)', () => {
    const input = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: { a: 1 } }, { type: 'tool-call', toolCallId: 'c2', toolName: 'u', input: '{"b":2}' }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'json', value: [1] } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'u', output: { type: 'text', value: 'two' } },
        ],
      },
    ];
    const { req, diagnostics } = request(span(chat({ 'gen_ai.input.messages': JSON.stringify(input) })));
    expect(diagnostics.items).toEqual([]);
    expect(req.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'sys' }] },
      { role: 'user', parts: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'tool-call', id: 'c1', name: 't', arguments: { a: 1 } },
          { type: 'tool-call', id: 'c2', name: 'u', arguments: { b: 2 } },
        ],
      },
      {
        role: 'tool',
        parts: [
          { type: 'tool-result', id: 'c1', name: 't', result: [1] },
          { type: 'tool-result', id: 'c2', name: 'u', result: 'two' },
        ],
      },
    ]);
  });
  it('OpenAI chat form: content arrays, tool_call_id, developer role', () => {
    const input = [
      { role: 'developer', content: [{ type: 'input_text', text: 'dev' }] },
      { role: 'tool', tool_call_id: 'c9', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    ];
    const { req } = request(span(chat({ 'gen_ai.input.messages': input as AttrValue })));
    expect(req.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'dev' }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c9', result: 'ab' }] },
    ]);
  });
});

describe('unit: system instructions', () => {
  const user = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]);
  it('a plain string folds in as a leading system message', () => {
    const { req } = request(span(chat({ 'gen_ai.system_instructions': 'Be brief.', 'gen_ai.input.messages': user })));
    expect(req.input.map((m) => m.role)).toEqual(['system', 'user']);
    expect(req.input[0]!.parts).toEqual([{ type: 'text', text: 'Be brief.' }]);
  });
  it('parts (JSON string or structured) fold in; a string that only looks like JSON stays plain text', () => {
    const a = request(span(chat({ 'gen_ai.system_instructions': '[{"type":"text","content":"A"},{"type":"text","content":"B"}]', 'gen_ai.input.messages': user }))).req;
    expect(a.input[0]).toEqual({ role: 'system', parts: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }] });
    const b = request(span(chat({ 'gen_ai.system_instructions': [{ type: 'text', content: 'S' }], 'gen_ai.input.messages': user }))).req;
    expect(b.input[0]!.parts).toEqual([{ type: 'text', text: 'S' }]);
    const c = request(span(chat({ 'gen_ai.system_instructions': '[IMPORTANT] answer in French', 'gen_ai.input.messages': user })));
    expect(c.req.input[0]!.parts).toEqual([{ type: 'text', text: '[IMPORTANT] answer in French' }]);
    expect(c.diagnostics.items).toEqual([]);
    const d = request(span(chat({ 'gen_ai.system_instructions': '{"persona":"terse"}', 'gen_ai.input.messages': user })));
    expect(d.req.input[0]!.parts).toEqual([{ type: 'text', text: '{"persona":"terse"}' }]);
    expect(d.diagnostics.items).toEqual([]);
  });
  it('not folded when the input already has a system message', () => {
    const input = JSON.stringify([{ role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] }, { role: 'user', parts: [{ type: 'text', content: 'hi' }] }]);
    const { req } = request(span(chat({ 'gen_ai.system_instructions': 'Be brief.', 'gen_ai.input.messages': input })));
    expect(req.input.filter((m) => m.role === 'system')).toHaveLength(1);
  });
  it('not folded into a window that was not captured', () => {
    const { req } = request(span(chat({ 'gen_ai.system_instructions': 'Be brief.' })));
    expect(req.inputContent).toBe('not-captured');
    expect(req.input).toEqual([]);
  });
});

describe('unit: tool definitions', () => {
  it('reads the semconv flattened form and the OpenAI function form', () => {
    const defs = [
      { type: 'function', name: 'a', description: 'A tool', parameters: { type: 'object' } },
      { type: 'function', name: 'b', inputSchema: { type: 'object', properties: { q: { enum: ['x'] } } } },
      { type: 'function', function: { name: 'c', description: 'C tool', parameters: { type: 'object', required: ['z'] } } },
      JSON.stringify({ type: 'function', name: 'd', inputSchema: {} }),
      { type: 'function', description: 'nameless' },
    ];
    const { req, diagnostics } = request(span(chat({ 'gen_ai.tool.definitions': JSON.stringify(defs) })));
    expect(req.toolDefinitions).toEqual([
      { name: 'a', description: 'A tool', inputSchema: { type: 'object' } },
      { name: 'b', inputSchema: { type: 'object', properties: { q: { enum: ['x'] } } } },
      { name: 'c', description: 'C tool', inputSchema: { type: 'object', required: ['z'] } },
      { name: 'd', inputSchema: {} },
    ]);
    expect(codes(diagnostics)).toEqual(['message.shape-invalid']);
  });
});

describe('unit: log-record form', () => {
  it('per-message records (event.name attribute), null fields as {}→null, choices as output', () => {
    const s = span(chat({ 'gen_ai.system': 'openai' }));
    const ev = (name: string) => ({ 'event.name': name, 'gen_ai.system': 'openai' });
    const logs = [
      log(s, { content: 'sys' }, ev('gen_ai.system.message')),
      log(s, { content: 'question' }, ev('gen_ai.user.message')),
      log(s, { content: 'earlier answer', tool_calls: null }, ev('gen_ai.assistant.message')),
      log(s, { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{"k":"v"}' } }] }, ev('gen_ai.assistant.message')),
      log(s, { id: 'c1', content: '[1,2]' }, ev('gen_ai.tool.message')),
      log(s, { finish_reason: 'tool_calls', index: 0, message: { tool_calls: [{ id: 'c2', type: 'function', function: { name: 'u', arguments: '{"n":3}' } }] } }, ev('gen_ai.choice')),
      log(s, { unrelated: true }, ev('some.other.event')),
    ];
    const { req, diagnostics } = request(s, { logs });
    expect(diagnostics.items).toEqual([]);
    expect(req.convention).toBe('genai-logs');
    expect(req.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'sys' }] },
      { role: 'user', parts: [{ type: 'text', text: 'question' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'earlier answer' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 't', arguments: { k: 'v' } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c1', name: 't', result: '[1,2]' }] },
    ]);
    expect(req.toolCalls).toEqual([{ id: 'c2', name: 'u', arguments: { n: 3 } }]);
    expect(req.inputContent).toBe('captured');
    expect(req.outputContent).toBe('captured');
  });
  it('reads the event name from the LogRecord eventName field too', () => {
    const s = span(chat({}));
    const { req } = request(s, { logs: [log(s, { content: 'q' }, {}, 'gen_ai.user.message'), log(s, { index: 0, message: { content: 'a' } }, {}, 'gen_ai.choice')] });
    expect(req.input).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'q' }] }]);
    expect(req.outputText).toEqual(['a']);
  });
  it('the details event: structured messages, span instructions folded in when input has no system message', () => {
    const s = span(chat({ 'gen_ai.system_instructions': 'Be exact.' }));
    const input = [{ role: 'user', parts: [{ type: 'text', content: 'q' }] }];
    const output = [{ role: 'assistant', parts: [{ type: 'tool_call', id: 'fc_9', call_id: 'call_9', name: 't', arguments: '{"a":1}' }], finish_reason: 'tool_call' }];
    const logs = [
      log(s, null, { 'gen_ai.input.messages': input }, 'gen_ai.client.inference.operation.details'),
      log(s, null, { 'event.name': 'gen_ai.client.inference.operation.details', 'gen_ai.output.messages': JSON.stringify(output) }),
    ];
    const { req, diagnostics } = request(s, { logs });
    expect(diagnostics.items).toEqual([]);
    expect(req.input.map((m) => m.role)).toEqual(['system', 'user']);
    expect(req.toolCalls).toEqual([{ id: 'call_9', name: 't', arguments: { a: 1 } }]);
  });
  it('capture off: records without content → not-captured; chosen calls still named', () => {
    const s = span(chat({}));
    const ev = (name: string) => ({ 'event.name': name });
    const logs = [
      log(s, {}, ev('gen_ai.user.message')),
      log(s, { tool_calls: [{ id: 'c1', type: 'function', function: { name: 't' } }] }, ev('gen_ai.assistant.message')),
      log(s, { id: 'c1' }, ev('gen_ai.tool.message')),
      log(s, { finish_reason: 'tool_calls', index: 0, message: { tool_calls: [{ id: 'c2', type: 'function', function: { name: 'u' } }] } }, ev('gen_ai.choice')),
    ];
    const { req, diagnostics } = request(s, { logs });
    expect(req.inputContent).toBe('not-captured');
    expect(req.input).toEqual([]);
    expect(req.outputContent).toBe('not-captured');
    expect(req.toolCalls).toEqual([{ id: 'c2', name: 'u', arguments: undefined }]);
    expect(codes(diagnostics)).toEqual(['content.not-captured']);
  });
  it('capture off, Python form: a record with no body at all (body=None) is one without content, not a broken record', () => {
    // opentelemetry-instrumentation-openai-v2's message_to_event writes no body for a system, user
    // or assistant-text message when content capture is off; the event name is the eventName field.
    const s = span(chat({ 'gen_ai.system': 'openai' }));
    const attrs = { 'gen_ai.system': 'openai' };
    const logs = [
      log(s, undefined, attrs, 'gen_ai.system.message'),
      log(s, undefined, attrs, 'gen_ai.user.message'),
      log(s, null, attrs, 'gen_ai.assistant.message'),
      log(s, { tool_calls: [{ id: 'c1', type: 'function', function: { name: 't' } }] }, attrs, 'gen_ai.assistant.message'),
      log(s, { id: 'c1' }, attrs, 'gen_ai.tool.message'),
      log(s, { index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'u' } }] } }, attrs, 'gen_ai.choice'),
    ];
    const { req, diagnostics } = request(s, { logs });
    expect(req.inputContent).toBe('not-captured');
    expect(req.input).toEqual([]);
    expect(req.outputContent).toBe('not-captured');
    expect(req.toolCalls).toEqual([{ id: 'c2', name: 'u', arguments: undefined }]);
    expect(codes(diagnostics)).toEqual(['content.not-captured']);
  });
  it('a record with no body beside records with content: read as a message with nothing in it', () => {
    const s = span(chat({}));
    const logs = [log(s, { content: 'q' }, {}, 'gen_ai.user.message'), log(s, undefined, {}, 'gen_ai.assistant.message'), log(s, { index: 0, message: { content: 'a' } }, {}, 'gen_ai.choice')];
    const { req, diagnostics } = request(s, { logs });
    expect(diagnostics.items).toEqual([]);
    expect(req.input).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', parts: [] },
    ]);
  });
  it('span attributes win over logs when both carry messages', () => {
    const s = span(chat({ 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'from span' }] }]) }));
    const { req } = request(s, { logs: [log(s, { content: 'from log' }, { 'event.name': 'gen_ai.user.message' })] });
    expect(req.input[0]!.parts).toEqual([{ type: 'text', text: 'from span' }]);
    expect(req.convention).toBe('genai-semconv');
  });
  it('a record with a broken body: one diagnostic, the others read', () => {
    const s = span(chat({}));
    const { req, diagnostics } = request(s, { logs: [log(s, [1, 2], { 'event.name': 'gen_ai.user.message' }), log(s, { content: 'ok' }, { 'event.name': 'gen_ai.user.message' })] });
    expect(req.input).toEqual([{ role: 'user', parts: [{ type: 'text', text: 'ok' }] }]);
    expect(codes(diagnostics)).toEqual(['message.shape-invalid']);
  });
});

describe('unit: semconv v1.26 span events', () => {
  it('reads gen_ai.content.prompt / gen_ai.content.completion (OpenAI-form JSON)', () => {
    const prompt = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{"a":"b"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'res' },
    ];
    const completion = [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'answer' } }];
    const s = span(
      { 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4' },
      {
        events: [
          { name: 'gen_ai.content.prompt', timeUnixNano: 1n, attributes: { 'gen_ai.prompt': JSON.stringify(prompt) } },
          { name: 'gen_ai.content.completion', timeUnixNano: 2n, attributes: { 'gen_ai.completion': JSON.stringify(completion) } },
        ],
      },
    );
    expect(genAi.claims(s)).toBe(true);
    const { req, diagnostics } = request(s);
    expect(diagnostics.items).toEqual([]);
    expect(req.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'sys' }] },
      { role: 'user', parts: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 't', arguments: { a: 'b' } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c1', name: 't', result: 'res' }] },
    ]);
    expect(req.outputText).toEqual(['answer']);
    expect(req.outputContent).toBe('captured');
  });
  it('a completion written as bare messages without a role is the assistant; a non-JSON prompt is a diagnostic', () => {
    const s = span(
      { 'gen_ai.system': 'openai' },
      {
        events: [
          { name: 'gen_ai.content.prompt', timeUnixNano: 1n, attributes: { 'gen_ai.prompt': "[{'role': 'user', 'content': 'python repr'}]" } },
          { name: 'gen_ai.content.completion', timeUnixNano: 2n, attributes: { 'gen_ai.completion': '[{"content":"hi"}]' } },
        ],
      },
    );
    const { req, diagnostics } = request(s);
    expect(req.inputContent).toBe('not-captured');
    expect(req.outputText).toEqual(['hi']);
    expect(codes(diagnostics)).toEqual(['attribute.json-invalid']);
  });
});

describe('unit: execute_tool', () => {
  const tool = (extra: Attributes, over: Partial<SpanData> = {}) =>
    span({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': 'call_1', ...extra }, { name: 'execute_tool lookup', kind: 1, ...over });
  const exec = (s: SpanData) => {
    const { events, diagnostics } = read(s);
    expect(events).toHaveLength(1);
    return { t: events[0] as ToolExecution, diagnostics };
  };
  it('reads name, id, parsed arguments and result; raw strings stay raw', () => {
    const { t, diagnostics } = exec(tool({ 'gen_ai.tool.call.arguments': '{"id":"x"}', 'gen_ai.tool.call.result': 'plain text result' }));
    expect(t).toMatchObject({ kind: 'tool-execution', toolName: 'lookup', callId: 'call_1', arguments: { id: 'x' }, result: 'plain text result', status: 'unset', tenant: 'svc' });
    expect(diagnostics.items).toEqual([]);
    expect(exec(tool({ 'gen_ai.tool.call.result': '[]' })).t.result).toEqual([]);
    expect(exec(tool({ 'gen_ai.tool.call.arguments': { structured: true } })).t.arguments).toEqual({ structured: true });
  });
  it('not captured: arguments and result undefined (not empty)', () => {
    const { t } = exec(tool({}));
    expect(t.arguments).toBeUndefined();
    expect(t.result).toBeUndefined();
    expect('callId' in exec(tool({ 'gen_ai.tool.call.id': '' })).t).toBe(false);
  });
  it('status: code 2 → error with the status message, else error.type; code 1 → ok', () => {
    expect(exec(tool({}, { status: { code: 2, message: 'timed out' } })).t).toMatchObject({ status: 'error', errorMessage: 'timed out' });
    expect(exec(tool({ 'error.type': 'TimeoutError' }, { status: { code: 2 } })).t).toMatchObject({ status: 'error', errorMessage: 'TimeoutError' });
    expect(exec(tool({}, { status: { code: 1 } })).t.status).toBe('ok');
  });
  it('a missing tool name falls back to the span name, with a diagnostic', () => {
    const { t, diagnostics } = exec(span({ 'gen_ai.operation.name': 'execute_tool' }, { name: 'execute_tool fetch_page' }));
    expect(t.toolName).toBe('fetch_page');
    expect(codes(diagnostics)).toEqual(['tool.name-missing']);
  });
  it('reads footprint declarations from the span: string array or JSON string, boolean read-only', () => {
    expect(exec(tool({ 'footprint.tool.arguments_from': ['list_machines', 'backup_jobs'], 'footprint.tool.read_only': true })).t.declared).toEqual({
      argumentsFrom: ['list_machines', 'backup_jobs'],
      readOnly: true,
    });
    expect(exec(tool({ 'footprint.tool.arguments_from': '["list_machines"]' })).t.declared).toEqual({ argumentsFrom: ['list_machines'] });
    const bad = exec(tool({ 'footprint.tool.arguments_from': [1, 'x'], 'footprint.tool.read_only': 'yes' }));
    expect(bad.t.declared).toBeUndefined();
    expect(codes(bad.diagnostics)).toEqual(['declaration.shape-invalid', 'declaration.shape-invalid']);
    expect(exec(tool({})).t.declared).toBeUndefined();
  });
});

describe('unit: invoke_agent and conversation ids', () => {
  it('invoke_agent yields an AgentTurn only, even with output messages holding tool results', () => {
    const out = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'done' }, { type: 'tool_call_response', id: 'c', response: 'r' }], finish_reason: 'stop' }]);
    const { events } = read(span({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'triage', 'ai.settings.context.conversationId': 'conv-7', 'gen_ai.output.messages': out }, { name: 'invoke_agent triage' }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'agent-turn', conversationId: 'conv-7', agentName: 'triage' } satisfies Partial<AgentTurn>);
  });
  it('chat spans take a conversation id only from their own attributes, by precedence', () => {
    expect(request(span(chat({ 'session.id': 's-1', 'gen_ai.conversation.id': 'g-1' }))).req.conversationId).toBe('g-1');
    expect(request(span(chat({ 'session.id': 's-1' }))).req.conversationId).toBe('s-1');
    expect(request(span(chat({ 'traceloop.association.properties.session_id': 't-1' }))).req.conversationId).toBe('t-1');
    expect(request(span(chat({ 'traceloop.association.properties.conversation_id': 't-2' }))).req.conversationId).toBe('t-2');
    expect(request(span(chat({ 'gen_ai.conversation.id': '  ' }))).req.conversationId).toBeUndefined();
  });
});

describe('unit: external grounds', () => {
  it('keeps {value, source} items with non-blank strings and drops the rest with a diagnostic', () => {
    const grounds = [{ value: 'srv-db-04', source: 'cmdb' }, { value: '', source: 'x' }, { value: 'y' }, 'z', { value: 5, source: 's' }];
    const { req, diagnostics } = request(span(chat({ 'footprint.external_grounds': JSON.stringify(grounds) })));
    expect(req.externalGrounds).toEqual([{ value: 'srv-db-04', source: 'cmdb' }]);
    expect(codes(diagnostics)).toEqual(['external-grounds.item-invalid']);
    expect(buildFrame(req).external).toEqual([{ value: 'srv-db-04', source: 'cmdb' }]);
    expect(request(span(chat({}))).req.externalGrounds).toBeUndefined();
  });
});

describe('property: any attribute values never throw', () => {
  const json = fc.jsonValue({ maxDepth: 5 });
  const value = fc.oneof(json, json.map((v) => JSON.stringify(v)), fc.string());
  it('chat, execute_tool and invoke_agent spans with random content attributes', () => {
    fc.assert(
      fc.property(fc.constantFrom('chat', 'execute_tool', 'invoke_agent'), value, value, value, value, value, (op, a, b, c, d, e) => {
        const s = span({
          'gen_ai.operation.name': op,
          'gen_ai.input.messages': a as AttrValue,
          'gen_ai.output.messages': b as AttrValue,
          'gen_ai.system_instructions': c as AttrValue,
          'gen_ai.tool.definitions': d as AttrValue,
          'gen_ai.tool.call.arguments': e as AttrValue,
          'gen_ai.tool.call.result': a as AttrValue,
          'footprint.external_grounds': b as AttrValue,
          'footprint.tool.arguments_from': c as AttrValue,
        });
        const logs = [log(s, a as AttrValue, { 'event.name': 'gen_ai.assistant.message' }), log(s, b as AttrValue, { 'event.name': 'gen_ai.choice' }), log(s, null, { 'gen_ai.input.messages': c as AttrValue }, 'gen_ai.client.inference.operation.details')];
        expect(() => read(s, { logs })).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
