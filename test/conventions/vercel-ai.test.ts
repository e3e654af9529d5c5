// Pins the Vercel AI SDK 4–6 reader (src/conventions/vercel-ai.ts): over the recorded vercel-ai
// fixtures, every doGenerate span's frame (served and written strings), chosen tool calls
// (double-encoded `input`), response and conversation ids match expected.json; every ai.toolCall
// (a sibling of doGenerate, not its child) is a ToolExecution with the expected id, name, arguments
// and result; ai.generateText is the turn. Hand-built spans pin the traps: malformed and oversized
// JSON become diagnostics, v4 shapes (args/result), every tool-result output type, missing ids,
// recordInputs/recordOutputs false as 'not-captured', errors, and an O(1) `claims`.
import { describe, it, expect } from 'vitest';
import { SCENARIOS, loadFixture } from '../helpers/fixtures.js';
import { readSpan } from '../../src/conventions/registry.js';
import { vercelAi } from '../../src/conventions/vercel-ai.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { buildFrame } from '../../src/runs/frame.js';
import type { AgentTurn, LlmRequest, ModelEvent, ToolExecution } from '../../src/model/agent.js';
import type { Attributes, SpanData } from '../../src/model/telemetry.js';

const LIB = 'vercel-ai' as const;

function requestNumber(responseId: string | undefined): number | undefined {
  const m = responseId?.match(/(\d{3})$/);
  return m ? Number(m[1]) : undefined;
}

type Entry = { source: string; text: string; callId?: string };
/** Multiset form: the AI SDK merges parallel tool results into one `tool` message with two parts
 * (the wire request had two messages), so message indices differ from expected.json after such a
 * merge; entries are compared as sorted (source, text, callId) multisets instead. */
const multiset = (xs: Entry[]): string[] => xs.map((e) => JSON.stringify([e.source, e.text, e.callId ?? null])).sort();

describe('Vercel AI SDK fixtures: frames, calls and executions match expected.json', () => {
  for (const scenario of SCENARIOS) {
    describe(scenario, () => {
      const { doc, expected } = loadFixture(LIB, scenario);
      const spans = doc.spans.map((d) => d.span);
      const diagnostics = new DiagnosticList();
      const events: ModelEvent[] = spans.flatMap((s) => readSpan(s, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute: 'service.name' }));
      const requests = events.filter((e): e is LlmRequest => e.kind === 'llm-request');
      const executions = events.filter((e): e is ToolExecution => e.kind === 'tool-execution');
      const turns = events.filter((e): e is AgentTurn => e.kind === 'agent-turn');

      it('claims every span, reads them with no diagnostics', () => {
        for (const s of spans) expect(vercelAi.claims(s), s.name).toBe(true);
        expect(diagnostics.items).toEqual([]);
        expect(events.every((e) => e.convention === 'vercel-ai' && e.tenant === 'backup-triage-agent')).toBe(true);
        expect(requests.length).toBe(expected.requests.length);
        expect(executions.length).toBe(expected.toolCalls.length);
        expect(turns.length).toBe(new Set(expected.requests.map((r) => r.turn)).size);
        for (const t of turns) expect(t).toMatchObject({ conversationId: expected.conversationId, agentName: 'backup-triage' });
      });

      for (const exp of expected.requests) {
        it(`request ${exp.request}: frame, response and ids`, () => {
          const req = requests.find((r) => requestNumber(r.responseId) === exp.request);
          expect(req, `no LlmRequest with a response id ending in ${exp.request}`).toBeDefined();
          expect(req!.responseId).toBe(`chatcmpl-${scenario}-${String(exp.request).padStart(3, '0')}`);
          expect(req!.conversationId).toBe(expected.conversationId);
          expect(req!.model).toBe('gpt-4o-mini-2024-07-18');
          expect(req!.inputContent).toBe('captured');
          expect(req!.outputContent).toBe('captured');
          const frame = buildFrame(req!);
          expect(multiset(frame.served.filter((s) => s.source !== 'tool-schema'))).toEqual(multiset(exp.served));
          expect(multiset(frame.written)).toEqual(multiset(exp.written));
          // ai.response.toolCalls[].input is a JSON string inside the JSON string: parsed twice.
          expect(req!.toolCalls).toEqual(exp.response.toolCalls ?? []);
          expect(req!.outputText).toEqual(exp.response.text !== undefined ? [exp.response.text] : []);
          expect(req!.toolDefinitions?.map((t) => t.name)).toEqual(['list_machines', 'backup_jobs', 'backup_status']);
          expect(req!.toolDefinitions?.[0]?.description).toMatch(/^List the customer's machines/);
          expect(req!.toolDefinitions?.[2]?.inputSchema).toMatchObject({ type: 'object', properties: { machine_id: { type: 'string' } } });
        });
      }

      it('every expected tool call has its ai.toolCall execution (a sibling of doGenerate, read on its own)', () => {
        for (const call of expected.toolCalls) {
          const ex = executions.find((e) => e.callId === call.id);
          expect(ex, `execution of ${call.id}`).toBeDefined();
          expect(ex!.toolName).toBe(call.name);
          expect(ex!.arguments).toEqual(call.arguments);
          if (typeof ex!.result === 'string') expect(ex!.result).toBe(call.result);
          else expect(ex!.result).toEqual(JSON.parse(call.result));
          expect(ex!.conversationId).toBe(expected.conversationId);
          expect(ex!.status).toBe('unset'); // the SDK sets no status on success
          // The parent is the turn span, not the request that chose the call.
          const s = spans.find((x) => x.spanId === ex!.span.spanId)!;
          expect(spans.find((x) => x.spanId === s.parentSpanId)?.name).toBe('ai.generateText');
        }
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Hand-built spans

let seq = 0;
function span(name: string, attributes: Attributes, over: Partial<SpanData> = {}): SpanData {
  seq++;
  return {
    traceId: 'ab971de46025cb7d8b0b22f5b48216e6',
    spanId: seq.toString(16).padStart(16, '0'),
    name,
    kind: 1,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes,
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'unit' },
    scope: { name: 'ai' },
    ...over,
  };
}

function read1(s: SpanData, limits: Limits = DEFAULT_LIMITS) {
  const diagnostics = new DiagnosticList();
  const events = readSpan(s, { limits, diagnostics, tenantAttribute: 'service.name' });
  return { events, codes: diagnostics.items.map((d) => d.code) };
}

const sys = { role: 'system', content: 'be brief' };
const user = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
const doGen = (attrs: Attributes) => span('ai.generateText.doGenerate', { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.response.id': 'r-1', ...attrs });

describe('Vercel AI SDK unit: shapes, bounds and traps', () => {
  it('claims by span name + scope, or ai.operationId, touching at most one attribute and parsing nothing', () => {
    let reads = 0;
    const watched = (attrs: Attributes): Attributes =>
      new Proxy(attrs, {
        get(t, k) {
          reads++;
          return Reflect.get(t, k);
        },
      });
    expect(vercelAi.claims(span('ai.generateText', watched({ 'ai.prompt.messages': '{not json' })))).toBe(true);
    expect(vercelAi.claims(span('ai.streamText.doStream', watched({})))).toBe(true);
    expect(vercelAi.claims(span('ai.toolCall', watched({})))).toBe(true);
    expect(reads).toBe(0);
    expect(vercelAi.claims(span('ai.generateText', watched({}), { scope: { name: 'other' } }))).toBe(false);
    expect(vercelAi.claims(span('renamed', watched({ 'ai.operationId': 'ai.toolCall' }), { scope: { name: 'collector' } }))).toBe(true);
    expect(reads).toBe(2);
    expect(vercelAi.claims(span('ai.embed', {}))).toBe(false);
    expect(vercelAi.claims(span('ai.generateObject', {}))).toBe(false);
  });

  it('malformed ai.prompt.messages: a diagnostic, input not-captured, the response still read', () => {
    const { events, codes } = read1(doGen({ 'ai.prompt.messages': '[{"role":"user",', 'ai.response.text': 'answer' }));
    const r = events[0] as LlmRequest;
    expect(codes).toContain('attribute.json-invalid');
    expect(r.inputContent).toBe('not-captured');
    expect(r.input).toEqual([]);
    expect(r.outputText).toEqual(['answer']);
    expect(r.outputContent).toBe('captured');
  });

  it('broken parts, messages and tool calls are skipped with diagnostics; good ones kept', () => {
    const msgs = [sys, { role: 'narrator', content: 'x' }, { role: 'user', content: [{ type: 'text' }, { text: 'no type' }, { type: 'text', text: 'ok' }] }];
    const calls = [{ toolCallId: 'c1', toolName: 'f', input: '{"a":' }, { toolCallId: 'c2' }];
    const { events, codes } = read1(doGen({ 'ai.prompt.messages': JSON.stringify(msgs), 'ai.response.toolCalls': JSON.stringify(calls), 'ai.prompt.tools': ['{"type":"function","name":"f"}', '{bad', 42] }));
    const r = events[0] as LlmRequest;
    expect(r.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'be brief' }] },
      { role: 'user', parts: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(r.toolCalls).toEqual([{ id: 'c1', name: 'f', arguments: '{"a":' }]);
    expect(r.toolDefinitions).toEqual([{ name: 'f' }]);
    expect(codes).toEqual(expect.arrayContaining(['vercel-ai.message-shape', 'vercel-ai.part-shape', 'vercel-ai.tool-call-shape', 'attribute.json-invalid', 'attribute.shape-invalid']));
  });

  it('a huge attribute is not parsed: a diagnostic, not-captured, no exception', () => {
    const limits: Limits = { ...DEFAULT_LIMITS, maxJsonAttributeBytes: 500 };
    const big = JSON.stringify([sys, { role: 'user', content: [{ type: 'text', text: 'x'.repeat(2000) }] }]);
    const { events, codes } = read1(doGen({ 'ai.prompt.messages': big, 'ai.response.toolCalls': JSON.stringify([{ toolCallId: 'c', toolName: 'f', input: '{}' }]) }), limits);
    const r = events[0] as LlmRequest;
    expect(codes).toContain('attribute.too-large');
    expect(r.inputContent).toBe('not-captured');
    expect(r.toolCalls).toEqual([{ id: 'c', name: 'f', arguments: {} }]);
  });

  it('clips ai.prompt.messages at maxMessagesPerRequest with a diagnostic', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: [{ type: 'text', text: `m${i}` }] }));
    const { events, codes } = read1(doGen({ 'ai.prompt.messages': JSON.stringify(many) }), { ...DEFAULT_LIMITS, maxMessagesPerRequest: 10 });
    expect((events[0] as LlmRequest).input.length).toBe(10);
    expect(codes).toContain('vercel-ai.messages-clipped');
  });

  it('v4 shapes: tool-call `args` objects, tool-result `result`, response toolCalls with `args` (string or object), tools with `parameters`', () => {
    const msgs = [
      sys,
      user,
      { role: 'assistant', content: [{ type: 'text', text: 'checking' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'f', args: { id: 'srv-1' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', result: { rows: ['a'] } }] },
    ];
    const calls = [
      { type: 'tool-call', toolCallType: 'function', toolCallId: 'c2', toolName: 'g', args: '{"x":1}' },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'h', args: { y: 'z' } },
    ];
    const { events, codes } = read1(
      doGen({
        'ai.prompt.messages': JSON.stringify(msgs),
        'ai.prompt.tools': [JSON.stringify({ type: 'function', name: 'f', description: 'finds', parameters: { type: 'object' } })],
        'ai.response.toolCalls': JSON.stringify(calls),
      }),
    );
    expect(codes).toEqual([]);
    const r = events[0] as LlmRequest;
    expect(r.toolCalls).toEqual([
      { id: 'c2', name: 'g', arguments: { x: 1 } },
      { id: 'c3', name: 'h', arguments: { y: 'z' } },
    ]);
    expect(r.toolDefinitions).toEqual([{ name: 'f', description: 'finds', inputSchema: { type: 'object' } }]);
    const f = buildFrame(r);
    expect(f.served.filter((s) => s.source !== 'tool-schema')).toEqual([
      { source: 'system', message: 0, text: 'be brief' },
      { source: 'user', message: 1, text: 'hi' },
      { source: 'tool-result', message: 3, text: '{"rows":["a"]}', callId: 'c1', toolName: 'f' },
    ]);
    expect(f.written).toEqual([
      { source: 'assistant-text', message: 2, text: 'checking' },
      { source: 'assistant-tool-call', message: 2, text: '{"id":"srv-1"}', callId: 'c1' },
    ]);
  });

  it('doStream: ai.response.toolCalls carries parsed `input` objects (doGenerate double-encodes them); empty text is no answer', () => {
    const calls = [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: { machine_id: 'srv-1' } }];
    const { events, codes } = read1(span('ai.streamText.doStream', { 'ai.response.id': 's-1', 'ai.response.toolCalls': JSON.stringify(calls), 'ai.response.text': '', 'ai.prompt.messages': JSON.stringify([sys, user]) }));
    expect(codes).toEqual([]);
    const r = events[0] as LlmRequest;
    expect(r.toolCalls).toEqual([{ id: 'c1', name: 'f', arguments: { machine_id: 'srv-1' } }]);
    expect(r.outputText).toEqual([]);
    expect(r.outputContent).toBe('captured');
  });

  it('every v5/v6 tool-result output type becomes the text the provider shows the model; parallel results share one message', () => {
    const part = (id: string, output: unknown) => ({ type: 'tool-result', toolCallId: id, toolName: 't', output });
    const msgs = [
      {
        role: 'tool',
        content: [
          part('a', { type: 'text', value: 'plain' }),
          part('b', { type: 'json', value: { k: [1] } }),
          part('c', { type: 'error-text', value: 'it failed' }),
          part('d', { type: 'error-json', value: { error: 'E42' } }),
          part('e', { type: 'execution-denied', reason: 'user said no' }),
          part('f', { type: 'execution-denied' }),
          part('g', { type: 'content', value: [{ type: 'text', text: 'in content' }] }),
        ],
      },
    ];
    const r = read1(doGen({ 'ai.prompt.messages': JSON.stringify(msgs) })).events[0] as LlmRequest;
    expect(buildFrame(r).served.map((s) => [s.callId, s.message, s.text])).toEqual([
      ['a', 0, 'plain'],
      ['b', 0, '{"k":[1]}'],
      ['c', 0, 'it failed'],
      ['d', 0, '{"error":"E42"}'],
      ['e', 0, 'user said no'],
      ['f', 0, 'Tool call execution denied.'],
      ['g', 0, '[{"type":"text","text":"in content"}]'],
    ]);
  });

  it('recordInputs / recordOutputs false: not-captured, never an empty window; tool definitions unknown', () => {
    const noIn = read1(doGen({ 'ai.response.text': 'x', 'ai.response.providerMetadata': '{}' })).events[0] as LlmRequest;
    expect(noIn.inputContent).toBe('not-captured');
    expect(noIn.input).toEqual([]);
    expect(noIn.toolDefinitions).toBeUndefined();
    expect(noIn.outputContent).toBe('captured');
    const noOut = read1(doGen({ 'ai.prompt.messages': JSON.stringify([sys, user]), 'ai.response.finishReason': 'stop' })).events[0] as LlmRequest;
    expect(noOut.inputContent).toBe('captured');
    expect(noOut.outputContent).toBe('not-captured');
    expect(noOut.outputText).toEqual([]);
    expect(noOut.toolCalls).toEqual([]);
    // recordOutputs false also drops ai.toolCall.args and .result.
    const tool = read1(span('ai.toolCall', { 'ai.toolCall.name': 'f', 'ai.toolCall.id': 'c1' })).events[0] as ToolExecution;
    expect(tool.arguments).toBeUndefined();
    expect(tool.result).toBeUndefined();
  });

  it('missing ids: gen_ai.response.id fallback, none at all, tool call without id, tool span without id or name', () => {
    const viaGenAi = read1(span('ai.streamText.doStream', { 'gen_ai.response.id': 'g-7', 'ai.response.text': 't' })).events[0] as LlmRequest;
    expect(viaGenAi.responseId).toBe('g-7');
    const none = read1(span('ai.generateText.doGenerate', { 'ai.response.text': 't' }));
    expect((none.events[0] as LlmRequest).responseId).toBeUndefined();
    expect(none.codes).toContain('vercel-ai.response-id-missing');
    const calls = read1(doGen({ 'ai.response.toolCalls': JSON.stringify([{ toolName: 'f', input: '{}' }]) })).events[0] as LlmRequest;
    expect(calls.toolCalls).toEqual([{ name: 'f', arguments: {} }]);
    const noId = read1(span('ai.toolCall', { 'ai.toolCall.name': 'f', 'ai.toolCall.args': '{}', 'ai.toolCall.result': '[]' }));
    expect(noId.events[0]).toMatchObject({ toolName: 'f', arguments: {}, result: [] });
    expect((noId.events[0] as ToolExecution).callId).toBeUndefined();
    expect(noId.codes).toContain('vercel-ai.tool-call-id-missing');
    const noName = read1(span('ai.toolCall', { 'ai.toolCall.id': 'c' }));
    expect(noName.events).toEqual([]);
    expect(noName.codes).toContain('vercel-ai.tool-name-missing');
  });

  it('ai.toolCall: errors from status and exception events; newer .input/.output keys; string results unwrapped; bad JSON kept raw', () => {
    const err = read1(
      span('ai.toolCall', { 'ai.toolCall.name': 'f', 'ai.toolCall.id': 'c1', 'ai.toolCall.args': '{"a":1}' }, { status: { code: 2, message: 'timeout' }, events: [{ name: 'exception', timeUnixNano: 1n, attributes: { 'exception.message': 'timeout' } }] }),
    ).events[0] as ToolExecution;
    expect(err).toMatchObject({ status: 'error', errorMessage: 'timeout', arguments: { a: 1 } });
    expect(err.result).toBeUndefined();
    const evOnly = read1(span('ai.toolCall', { 'ai.toolCall.name': 'f' }, { status: { code: 2 }, events: [{ name: 'exception', timeUnixNano: 1n, attributes: { 'exception.message': 'nope' } }] })).events[0] as ToolExecution;
    expect(evOnly.errorMessage).toBe('nope');
    const newer = read1(span('ai.toolCall', { 'ai.toolCall.name': 'f', 'ai.toolCall.id': 'c2', 'ai.toolCall.input': '{"q":"x"}', 'ai.toolCall.output': '"plain text"' })).events[0] as ToolExecution;
    expect(newer).toMatchObject({ callId: 'c2', arguments: { q: 'x' }, result: 'plain text' });
    const bad = read1(span('ai.toolCall', { 'ai.toolCall.name': 'f', 'ai.toolCall.args': '{oops' }));
    expect((bad.events[0] as ToolExecution).arguments).toBe('{oops');
    expect(bad.codes).toContain('attribute.json-invalid');
  });

  it('conversation ids only from the span itself: conversationId, else sessionId; turns carry the functionId', () => {
    const t = read1(span('ai.streamText', { 'ai.telemetry.metadata.sessionId': 'sess-9', 'ai.telemetry.functionId': 'agent-x' })).events[0] as AgentTurn;
    expect(t).toMatchObject({ kind: 'agent-turn', conversationId: 'sess-9', agentName: 'agent-x' });
    const both = read1(span('ai.generateText', { 'ai.telemetry.metadata.sessionId': 's', 'ai.telemetry.metadata.conversationId': 'c' })).events[0] as AgentTurn;
    expect(both.conversationId).toBe('c');
    const none = read1(doGen({})).events[0] as LlmRequest;
    expect(none.conversationId).toBeUndefined();
  });

  it('ai.prompt.tools given as one JSON string (a flattening collector) is still read; a non-array is a diagnostic', () => {
    const r = read1(doGen({ 'ai.prompt.tools': JSON.stringify([{ type: 'function', name: 'f', inputSchema: {} }]) })).events[0] as LlmRequest;
    expect(r.toolDefinitions).toEqual([{ name: 'f', inputSchema: {} }]);
    const bad = read1(doGen({ 'ai.prompt.tools': 7 }));
    expect((bad.events[0] as LlmRequest).toolDefinitions).toBeUndefined();
    expect(bad.codes).toContain('vercel-ai.tools-shape');
  });
});
