// Pins the OpenInference reader (src/conventions/openinference.ts): over the recorded
// openinference-openai fixtures, every LLM request's frame (served and written strings), chosen
// tool calls, conversation id and response id match expected.json; the app's GenAI spans are left
// to the genai reader; and hand-built spans pin the traps: malformed and oversized JSON become
// diagnostics (never exceptions), ids may be missing, hidden content is 'not-captured' (never an
// empty window), input.value is only a fallback, and 2,000+ flattened messages read in linear time
// within limits.maxMessagesPerRequest.
import { describe, it, expect } from 'vitest';
import { SCENARIOS, loadFixture, type Expected } from '../helpers/fixtures.js';
import { readSpan } from '../../src/conventions/registry.js';
import { openInference } from '../../src/conventions/openinference.js';
import { genAi } from '../../src/conventions/genai.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { buildFrame } from '../../src/runs/frame.js';
import type { LlmRequest, ModelEvent, ToolExecution, AgentTurn } from '../../src/model/agent.js';
import type { Attributes, SpanData } from '../../src/model/telemetry.js';

const LIB = 'openinference-openai' as const;

function readAll(spans: SpanData[], limits: Limits = DEFAULT_LIMITS) {
  const diagnostics = new DiagnosticList();
  const bySpan = new Map<string, ModelEvent[]>();
  for (const span of spans) bySpan.set(span.spanId, readSpan(span, { limits, diagnostics, tenantAttribute: 'service.name' }));
  return { diagnostics, bySpan, events: [...bySpan.values()].flat() };
}

function requestNumber(responseId: string | undefined): number | undefined {
  const m = responseId?.match(/(\d{3})$/);
  return m ? Number(m[1]) : undefined;
}

type Entry = { source: string; message: number; text: string; callId?: string };
const norm = (e: Entry): Entry => ({ source: e.source, message: e.message, text: e.text, ...(e.callId ? { callId: e.callId } : {}) });

describe('OpenInference fixtures: frames, calls and executions match expected.json', () => {
  for (const scenario of SCENARIOS) {
    describe(scenario, () => {
      const { doc, expected } = loadFixture(LIB, scenario);
      const spans = doc.spans.map((d) => d.span);
      const { diagnostics, bySpan, events } = readAll(spans);
      const requests = events.filter((e): e is LlmRequest => e.kind === 'llm-request' && e.convention === 'openinference');

      it('reads every LLM span with no diagnostics', () => {
        const llmSpans = spans.filter((s) => s.attributes['openinference.span.kind'] === 'LLM');
        expect(llmSpans.length).toBe(expected.requests.length);
        expect(requests.length).toBe(expected.requests.length);
        expect(diagnostics.items.filter((d) => d.code.startsWith('openinference.') || d.code.startsWith('attribute.'))).toEqual([]);
      });

      for (const exp of expected.requests) {
        it(`request ${exp.request}: frame, response and ids`, () => {
          const req = requests.find((r) => requestNumber(r.responseId) === exp.request);
          expect(req, `no LlmRequest with a response id ending in ${exp.request}`).toBeDefined();
          expect(req!.responseId).toBe(`chatcmpl-${scenario}-${String(exp.request).padStart(3, '0')}`);
          expect(req!.conversationId).toBe(expected.conversationId);
          expect(req!.inputContent).toBe('captured');
          expect(req!.outputContent).toBe('captured');
          expect(req!.model).toBe('gpt-4o-mini-2024-07-18');
          const frame = buildFrame(req!);
          // OpenInference keeps the wire's message list one to one (no merging), so the message
          // indices are compared exactly too, in order.
          expect(frame.served.filter((s) => s.source !== 'tool-schema').map(norm)).toEqual(exp.served.map(norm));
          expect(frame.written.map(norm)).toEqual(exp.written.map(norm));
          expect(req!.toolCalls).toEqual(exp.response.toolCalls ?? []);
          expect(req!.outputText).toEqual(exp.response.text !== undefined ? [exp.response.text] : []);
          expect(req!.toolDefinitions?.map((t) => t.name)).toEqual(['list_machines', 'backup_jobs', 'backup_status']);
          expect(req!.toolDefinitions?.[0]?.description).toMatch(/^List the customer's machines/);
          expect(req!.toolDefinitions?.[2]?.inputSchema).toMatchObject({ type: 'object', properties: { machine_id: { type: 'string' } } });
        });
      }

      it('tool executions: OpenInference TOOL spans where present; app execute_tool spans only through the genai reader', () => {
        const appToolSpans = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
        expect(appToolSpans.length).toBe(expected.toolCalls.length);
        // The app spans are GenAI semconv; OpenInference must not claim them (nor the turn spans).
        for (const s of spans.filter((x) => x.scope.name === 'fixtures-harness-app')) expect(openInference.claims(s)).toBe(false);
        const oiExecutions = events.filter((e): e is ToolExecution => e.kind === 'tool-execution' && e.convention === 'openinference');
        // This recording has no OpenInference TOOL spans (the openai instrumentation writes LLM spans only).
        expect(oiExecutions).toEqual([]);
        for (const call of expected.toolCalls) {
          const span = appToolSpans.find((s) => s.attributes['gen_ai.tool.call.id'] === call.id)!;
          expect(span).toBeDefined();
          if (!genAi.claims(span)) continue; // genai reader still a placeholder: nothing to assert
          const ex = (bySpan.get(span.spanId) ?? []).find((e): e is ToolExecution => e.kind === 'tool-execution');
          expect(ex, `execution of ${call.id}`).toBeDefined();
          expect(ex!.callId).toBe(call.id);
          expect(ex!.toolName).toBe(call.name);
          expect(ex!.arguments).toEqual(call.arguments);
          expectResult(ex!.result, call);
        }
      });
    });
  }
});

function expectResult(actual: unknown, call: Expected['toolCalls'][number]): void {
  if (typeof actual === 'string') expect(actual).toBe(call.result);
  else expect(actual).toEqual(JSON.parse(call.result));
}

// ---------------------------------------------------------------------------------------------
// Hand-built spans

let seq = 0;
function span(attributes: Attributes, over: Partial<SpanData> = {}): SpanData {
  seq++;
  return {
    traceId: 'ab971de46025cb7d8b0b22f5b48216e6',
    spanId: seq.toString(16).padStart(16, '0'),
    name: 'OpenAI Chat Completions',
    kind: 1,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes,
    events: [],
    status: { code: 1 },
    resource: { 'service.name': 'unit' },
    scope: { name: '@arizeai/openinference-instrumentation-openai', version: '4.2.7' },
    ...over,
  };
}

function llm(attributes: Attributes): Attributes {
  return { 'openinference.span.kind': 'LLM', 'llm.model_name': 'm', ...attributes };
}

function read1(s: SpanData, limits: Limits = DEFAULT_LIMITS) {
  const diagnostics = new DiagnosticList();
  const events = readSpan(s, { limits, diagnostics, tenantAttribute: 'service.name' });
  return { events, diagnostics, codes: diagnostics.items.map((d) => d.code) };
}

const basicInput: Attributes = {
  'llm.input_messages.0.message.role': 'system',
  'llm.input_messages.0.message.content': 'be brief',
  'llm.input_messages.1.message.role': 'user',
  'llm.input_messages.1.message.content': 'hi',
};
const output = (id: string) => JSON.stringify({ id, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' } }] });

describe('OpenInference unit: shapes, bounds and traps', () => {
  it('claims only LLM, TOOL and AGENT spans, by one attribute', () => {
    expect(openInference.claims(span(llm({})))).toBe(true);
    expect(openInference.claims(span({ 'openinference.span.kind': 'TOOL' }))).toBe(true);
    expect(openInference.claims(span({ 'openinference.span.kind': 'AGENT' }))).toBe(true);
    expect(openInference.claims(span({ 'openinference.span.kind': 'CHAIN' }))).toBe(false);
    expect(openInference.claims(span({ 'gen_ai.operation.name': 'execute_tool', 'session.id': 's' }))).toBe(false);
  });

  it('reads flattened messages, contents arrays, tool calls and results into the model', () => {
    const { events, codes } = read1(
      span(
        llm({
          'session.id': 'conv-1',
          'llm.input_messages.0.message.role': 'developer',
          'llm.input_messages.0.message.content': 'rules',
          'llm.input_messages.1.message.role': 'user',
          'llm.input_messages.1.message.contents.0.message_content.type': 'text',
          'llm.input_messages.1.message.contents.0.message_content.text': 'look at srv-1',
          'llm.input_messages.1.message.contents.1.message_content.type': 'image',
          'llm.input_messages.1.message.contents.1.message_content.image.image.url': 'https://x/y.png',
          'llm.input_messages.2.message.role': 'assistant',
          'llm.input_messages.2.message.tool_calls.0.tool_call.id': 'c1',
          'llm.input_messages.2.message.tool_calls.0.tool_call.function.name': 'f',
          'llm.input_messages.2.message.tool_calls.0.tool_call.function.arguments': '{"a":1}',
          'llm.input_messages.3.message.role': 'tool',
          'llm.input_messages.3.message.tool_call_id': 'c1',
          'llm.input_messages.3.message.content': '{"ok":true}',
          'output.value': output('r-1'),
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.content': 'done',
        }),
      ),
    );
    expect(codes).toEqual([]);
    const r = events[0] as LlmRequest;
    expect(r.conversationId).toBe('conv-1');
    expect(r.responseId).toBe('r-1');
    expect(r.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'rules' }] },
      { role: 'user', parts: [{ type: 'text', text: 'look at srv-1' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: { a: 1 } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c1', result: '{"ok":true}' }] },
    ]);
    expect(r.outputText).toEqual(['done']);
    expect(r.toolCalls).toEqual([]);
    expect(r.toolDefinitions).toBeUndefined(); // no llm.tools.* keys: not recorded, not "no tools"
  });

  it('malformed JSON (tool-call arguments, a tool schema, output.value) becomes diagnostics, never an exception', () => {
    const { events, codes } = read1(
      span(
        llm({
          ...basicInput,
          'llm.tools.0.tool.json_schema': '{"type":"function","function":{"name":"good","parameters":{}}}',
          'llm.tools.1.tool.json_schema': '{not json',
          'llm.tools.2.tool.json_schema': '{"type":"function"}',
          'output.value': '{"id": "r-2", broken',
          'llm.output_messages.0.message.role': 'assistant',
          'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'c9',
          'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'good',
          'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"x": ',
        }),
      ),
    );
    const r = events[0] as LlmRequest;
    expect(r.toolDefinitions).toEqual([{ name: 'good', inputSchema: {} }]);
    expect(r.toolCalls).toEqual([{ id: 'c9', name: 'good', arguments: '{"x": ' }]); // raw string kept
    expect(r.responseId).toBeUndefined();
    expect(r.outputContent).toBe('captured');
    expect(codes.filter((c) => c === 'attribute.json-invalid').length).toBe(3);
    expect(codes).toContain('openinference.tool-unnamed');
    expect(codes).toContain('openinference.response-id-missing');
  });

  it('an attribute over maxJsonAttributeBytes is not parsed: a diagnostic, and the rest is read', () => {
    const limits: Limits = { ...DEFAULT_LIMITS, maxJsonAttributeBytes: 1000 };
    const huge = JSON.stringify({ id: 'r-3', pad: 'x'.repeat(5000), choices: [] });
    const { events, codes } = read1(span(llm({ ...basicInput, 'output.value': huge, 'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.content': 'ok' })), limits);
    const r = events[0] as LlmRequest;
    expect(codes).toContain('attribute.too-large');
    expect(r.responseId).toBeUndefined();
    expect(r.input.length).toBe(2);
    expect(r.outputText).toEqual(['ok']);
  });

  it('missing ids: tool calls and results without ids, TOOL spans without tool.id', () => {
    const { events } = read1(
      span(
        llm({
          'llm.input_messages.0.message.role': 'assistant',
          'llm.input_messages.0.message.tool_calls.0.tool_call.function.name': 'f',
          'llm.input_messages.0.message.tool_calls.0.tool_call.function.arguments': '{}',
          'llm.input_messages.1.message.role': 'tool',
          'llm.input_messages.1.message.content': 'res',
        }),
      ),
    );
    const r = events[0] as LlmRequest;
    expect(r.input[0]!.parts).toEqual([{ type: 'tool-call', name: 'f', arguments: {} }]);
    expect(r.input[1]!.parts).toEqual([{ type: 'tool-result', result: 'res' }]);
    const frame = buildFrame(r);
    expect(frame.served).toEqual([{ source: 'tool-result', message: 1, text: 'res' }]);

    const tool = read1(span({ 'openinference.span.kind': 'TOOL', 'tool.name': 'lookup', 'input.value': '{"q":"a"}', 'input.mime_type': 'application/json', 'output.value': 'found a' }, { name: 'lookup' }));
    const ex = tool.events[0] as ToolExecution;
    expect(ex).toMatchObject({ kind: 'tool-execution', convention: 'openinference', toolName: 'lookup', arguments: { q: 'a' }, result: 'found a', status: 'ok' });
    expect(ex.callId).toBeUndefined();
  });

  it('TOOL spans: tool.id, errors from status and exception events; AGENT spans become turns', () => {
    const t = read1(
      span(
        { 'openinference.span.kind': 'TOOL', 'tool.name': 'f', 'tool.id': 'call_1', 'input.value': '{"a":"b"}', 'session.id': 's-1' },
        { status: { code: 2 }, events: [{ name: 'exception', timeUnixNano: 1n, attributes: { 'exception.message': 'boom' } }] },
      ),
    ).events[0] as ToolExecution;
    expect(t).toMatchObject({ callId: 'call_1', toolName: 'f', arguments: { a: 'b' }, status: 'error', errorMessage: 'boom', conversationId: 's-1' });
    expect(t.result).toBeUndefined();
    const a = read1(span({ 'openinference.span.kind': 'AGENT', 'agent.name': 'triage', 'session.id': 's-1' }, { name: 'Agent run' })).events[0] as AgentTurn;
    expect(a).toMatchObject({ kind: 'agent-turn', convention: 'openinference', agentName: 'triage', conversationId: 's-1' });
  });

  it('hidden content is not-captured, never an empty window (OPENINFERENCE_HIDE_INPUTS / _OUTPUTS / _INPUT_TEXT)', () => {
    // HIDE_INPUTS: input.value redacted, no input messages, no llm.tools.
    const hiddenIn = read1(span(llm({ 'input.value': '__REDACTED__', 'output.value': output('r-4'), 'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.content': 'x' }))).events[0] as LlmRequest;
    expect(hiddenIn.inputContent).toBe('not-captured');
    expect(hiddenIn.input).toEqual([]);
    expect(hiddenIn.toolDefinitions).toBeUndefined();
    expect(hiddenIn.outputContent).toBe('captured');
    // HIDE_OUTPUTS: output.value redacted, no output messages.
    const hiddenOut = read1(span(llm({ ...basicInput, 'output.value': '__REDACTED__' }))).events[0] as LlmRequest;
    expect(hiddenOut.inputContent).toBe('captured');
    expect(hiddenOut.outputContent).toBe('not-captured');
    expect(hiddenOut.outputText).toEqual([]);
    // HIDE_INPUT_TEXT: the messages are there, their text is "__REDACTED__".
    const redacted = read1(span(llm({ 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': '__REDACTED__' })));
    const rr = redacted.events[0] as LlmRequest;
    expect(rr.inputContent).toBe('not-captured');
    expect(buildFrame(rr).served).toEqual([]); // the placeholder is never served text
    expect(redacted.codes).toContain('openinference.input-redacted');
    // Nothing at all recorded.
    const bare = read1(span(llm({}))).events[0] as LlmRequest;
    expect(bare.inputContent).toBe('not-captured');
    expect(bare.outputContent).toBe('not-captured');
  });

  it('input.value is only a fallback: used when no llm.input_messages.* exist, ignored otherwise', () => {
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'sys from body' },
        { role: 'user', content: [{ type: 'text', text: 'user from body' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"k":"v"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'result from body' },
      ],
    });
    const fallback = read1(span(llm({ 'input.value': body, 'input.mime_type': 'application/json' }))).events[0] as LlmRequest;
    expect(fallback.inputContent).toBe('captured');
    expect(fallback.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'sys from body' }] },
      { role: 'user', parts: [{ type: 'text', text: 'user from body' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: { k: 'v' } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c1', result: 'result from body' }] },
    ]);
    const complete = { 'output.value': output('r-6'), 'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.content': 'hello' };
    const flat = read1(span(llm({ ...basicInput, 'input.value': body, 'input.mime_type': 'application/json', ...complete })));
    expect((flat.events[0] as LlmRequest).input.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'be brief' }], [{ type: 'text', text: 'hi' }]]);
    expect(flat.codes).toEqual([]);
    // Responses API body: instructions become the leading system message.
    const resp = JSON.stringify({ instructions: 'inst', input: [{ role: 'user', content: 'q' }, { type: 'function_call', call_id: 'call_9', name: 'g', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_9', output: '[]' }] });
    const r2 = read1(span(llm({ 'input.value': resp }))).events[0] as LlmRequest;
    expect(r2.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'inst' }] },
      { role: 'user', parts: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_9', name: 'g', arguments: {} }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'call_9', result: '[]' }] },
    ]);
  });

  it('a span that hit the SDK attribute count limit (128): the window is read from input.value, with a diagnostic', () => {
    // What the SDK keeps of a long conversation: session/kind/model/input.value first, then the
    // flattened messages until the 128th attribute; the output (written last) is gone.
    const n = 100;
    const wire = Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    const attrs: Attributes = llm({ 'session.id': 's', 'input.value': JSON.stringify({ messages: wire }), 'input.mime_type': 'application/json' });
    for (let i = 0; Object.keys(attrs).length < 128; i++) {
      attrs[`llm.input_messages.${i}.message.role`] = wire[i]!.role;
      if (Object.keys(attrs).length < 128) attrs[`llm.input_messages.${i}.message.content`] = wire[i]!.content;
    }
    const { events, codes } = read1(span(attrs));
    const r = events[0] as LlmRequest;
    expect(r.input.length).toBe(n);
    expect(r.input[n - 1]!.parts).toEqual([{ type: 'text', text: `m${n - 1}` }]);
    expect(r.outputContent).toBe('not-captured');
    expect(codes).toContain('openinference.attributes-dropped');
  });

  it('output.value is the fallback for the response when no llm.output_messages.* exist', () => {
    const out = JSON.stringify({ id: 'r-5', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'f', arguments: '{"a":[1]}' } }] } }] });
    const r = read1(span(llm({ ...basicInput, 'output.value': out, 'output.mime_type': 'application/json' }))).events[0] as LlmRequest;
    expect(r.responseId).toBe('r-5');
    expect(r.outputContent).toBe('captured');
    expect(r.toolCalls).toEqual([{ id: 'c2', name: 'f', arguments: { a: [1] } }]);
  });

  it('odd keys and values: bad indices, unknown roles, non-string values; no exception', () => {
    const { events, codes } = read1(
      span(
        llm({
          'llm.input_messages.x.message.role': 'user',
          'llm.input_messages.': 'x',
          'llm.input_messages.0.message.role': 'narrator',
          'llm.input_messages.0.message.content': 'ignored',
          'llm.input_messages.1.message.role': 'user',
          'llm.input_messages.1.message.content': { nested: true },
          'llm.input_messages.2.message.role': 'user',
          'llm.input_messages.2.message.content': 'kept',
          'llm.input_messages.99999999999.message.role': 'user',
        }),
      ),
    );
    const r = events[0] as LlmRequest;
    expect(r.input).toEqual([
      { role: 'user', parts: [] },
      { role: 'user', parts: [{ type: 'text', text: 'kept' }] },
    ]);
    expect(codes).toContain('openinference.message-role-unknown');
  });

  it('2,000 flattened input messages read in linear time; past maxMessagesPerRequest they are clipped with a diagnostic', () => {
    const build = (n: number): Attributes => {
      const a: Attributes = {};
      for (let i = n - 1; i >= 0; i--) {
        // Written in reverse order: the reader must group by index, not rely on key order.
        a[`llm.input_messages.${i}.message.role`] = i % 2 ? 'assistant' : 'user';
        a[`llm.input_messages.${i}.message.content`] = `message ${i}`;
        a[`llm.input_messages.${i}.message.contents.0.message_content.type`] = 'text';
        a[`llm.input_messages.${i}.message.contents.0.message_content.text`] = `part ${i}`;
      }
      return llm(a);
    };
    const s2000 = span(build(2000));
    const at = read1(s2000);
    const r = at.events[0] as LlmRequest;
    expect(r.input.length).toBe(2000);
    expect(r.input[0]!.parts).toEqual([{ type: 'text', text: 'message 0' }, { type: 'text', text: 'part 0' }]);
    expect(r.input[1999]!.role).toBe('assistant');
    expect(at.codes).not.toContain('openinference.messages-clipped');

    // 20,000 messages (80,000 keys): a quadratic reader would take minutes and time the test out;
    // this one is bounded (clipped at maxMessagesPerRequest, asserted below). No clock here.
    const s20000 = span(build(20_000));
    const big = read1(s20000);
    expect((big.events[0] as LlmRequest).input.length).toBe(DEFAULT_LIMITS.maxMessagesPerRequest);
    expect((big.events[0] as LlmRequest).input[0]!.parts[0]).toEqual({ type: 'text', text: 'message 0' });
    expect(big.codes).toContain('openinference.messages-clipped');

    const small = read1(s2000, { ...DEFAULT_LIMITS, maxMessagesPerRequest: 100 });
    expect((small.events[0] as LlmRequest).input.length).toBe(100);
    expect(small.codes).toContain('openinference.messages-clipped');
  });
});
