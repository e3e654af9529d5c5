// Pins how the two Anthropic instrumentations' recordings are read (test/fixtures/*-anthropic,
// recorded by test/processor/live-*-anthropic.test.ts): every Messages request's frame (served and
// written strings, message by message), its chosen tool_use calls and its response id match the
// conversation's expected.json, including clean-control's parallel tool use (two tool_use blocks
// in one message, two tool_result blocks in the next user message). For OpenInference that holds
// only because the window is read from input.value (src/conventions/anthropic-messages.ts): the
// flattened keys lose the system prompt and all but the last tool_result of a message, which the
// last tests pin, and without input.value a tool_result is still a tool result, not user text.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR, SCENARIOS, type Expected } from '../helpers/fixtures.js';
import { readSpan } from '../../src/conventions/registry.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { buildFrame } from '../../src/runs/frame.js';
import { anthropicWindowOf, AnthropicRequestJson } from '../../src/conventions/anthropic-messages.js';
import type { LlmRequest, ModelEvent } from '../../src/model/agent.js';
import type { SpanData } from '../../src/model/telemetry.js';

const LIBS = ['traceloop-anthropic', 'openinference-anthropic'] as const;
type Entry = { source: string; message: number; text: string; callId?: string };
const norm = (e: Entry): Entry => ({ source: e.source, message: e.message, text: e.text, ...(e.callId ? { callId: e.callId } : {}) });

function load(lib: string, scenario: string): { spans: SpanData[]; expected: Expected } {
  const path = join(FIXTURES_DIR, lib, `${scenario}.otlp.json`);
  const doc = decodeOtlpJsonText(readFileSync(path, 'utf8'), path);
  return { spans: doc.spans.map((d) => d.span), expected: JSON.parse(readFileSync(join(FIXTURES_DIR, lib, `${scenario}.expected.json`), 'utf8')) as Expected };
}

function requestsOf(spans: SpanData[]) {
  const diagnostics = new DiagnosticList();
  const events: ModelEvent[] = spans.flatMap((s) => readSpan(s, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute: 'service.name' }));
  return { diagnostics, requests: events.filter((e): e is LlmRequest => e.kind === 'llm-request') };
}

/**
 * The served strings the Anthropic app's window holds. The Messages API wants a user message
 * first, so between turns this app keeps the earlier turn's question beside its answer (the
 * OpenAI apps kept the answer alone): in turn 2 that question is message 1 and the rest move one on.
 */
function servedOf(exp: Expected['requests'][number], expected: Expected & { turns?: { user: string }[] }): Entry[] {
  const served = exp.served.map(norm);
  if (exp.turn === 1) return served;
  const first = { source: 'user', message: 1, text: expected.turns![0]!.user };
  return [served[0]!, first, ...served.slice(1).map((e) => ({ ...e, message: e.message + 1 }))];
}
/** OpenLLMetry keeps the wire's one user message of parallel tool_results: consecutive results share its index. */
function resultsShareMessage(served: Entry[]): Entry[] {
  const out: Entry[] = [];
  let shift = 0;
  for (let i = 0; i < served.length; i++) {
    const e = served[i]!;
    const prev = served[i - 1];
    if (e.source === 'tool-result' && prev?.source === 'tool-result' && prev.message === e.message - 1) shift++;
    out.push({ ...e, message: e.message - shift });
  }
  return out;
}
const writtenOf = (exp: Expected['requests'][number]): Entry[] => exp.written.map(norm).map((e) => (exp.turn === 1 ? e : { ...e, message: e.message + 1 }));

for (const lib of LIBS) {
  describe(`${lib}: frames match expected.json`, () => {
    for (const scenario of SCENARIOS) {
      const { spans, expected } = load(lib, scenario);
      const { diagnostics, requests } = requestsOf(spans);
      it(`${scenario}: one request per Messages call, no reading diagnostics`, () => {
        expect(requests.length).toBe(expected.requests.length);
        expect(diagnostics.items.filter((d) => d.level !== 'info')).toEqual([]);
      });
      for (const exp of expected.requests) {
        it(`${scenario} request ${exp.request}: served, written, chosen calls`, () => {
          // Sequential requests: the recording's span order is the request order.
          const req = requests[exp.request - 1];
          expect(req).toBeDefined();
          // OpenInference records the response id (in output.value); OpenLLMetry's Anthropic instrumentation does not.
          if (lib === 'openinference-anthropic') expect(req!.responseId).toBe(`msg_${scenario}-${String(exp.request).padStart(3, '0')}`);
          else expect(req!.responseId).toBeUndefined();
          const frame = buildFrame(req!);
          expect(frame.served.filter((s) => s.source !== 'tool-schema').map(norm)).toEqual(lib === 'traceloop-anthropic' ? resultsShareMessage(servedOf(exp, expected)) : servedOf(exp, expected));
          expect(frame.written.map(norm)).toEqual(writtenOf(exp));
          expect(req!.toolCalls).toEqual(exp.response.toolCalls ?? []);
          expect(req!.outputText).toEqual(exp.response.text !== undefined ? [exp.response.text] : []);
        });
      }
    }
  });
}

describe('openinference-anthropic: what the flattened keys alone hold', () => {
  const { spans } = load('openinference-anthropic', 'clean-control');
  const last = spans.filter((s) => s.attributes['openinference.span.kind'] === 'LLM').at(-1)!;
  it('parallel tool use: the flattened user message keeps only the last tool_result; input.value keeps both', () => {
    expect(last.attributes['llm.input_messages.4.message.tool_call_id']).toBe('call_cc_003');
    const flattened = Object.entries(last.attributes).filter(([k]) => k.startsWith('llm.input_messages.'));
    expect(flattened.some(([, v]) => String(v).includes('last_success')), "call_cc_002's result").toBe(false);
    const body = AnthropicRequestJson.parse(JSON.parse(String(last.attributes['input.value'])));
    const w = anthropicWindowOf(body, DEFAULT_LIMITS.maxMessagesPerRequest);
    expect(w.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'tool']);
    expect(w.messages.slice(-2).map((m) => (m.parts[0] as { id?: string }).id)).toEqual(['call_cc_002', 'call_cc_003']);
  });
  it('without input.value, a tool_result flattened under role user is read as a tool result', () => {
    const { ['input.value']: _dropped, ...attributes } = last.attributes;
    const { requests } = requestsOf([{ ...last, attributes }]);
    const input = requests[0]!.input;
    expect(input.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(input[4]!.parts).toEqual([{ type: 'tool-result', id: 'call_cc_003', result: expect.stringContaining('nightly-db-primary-full') }]);
  });
});

describe('anthropicWindowOf (hand-built bodies)', () => {
  const read = (body: unknown, bound = 100) => anthropicWindowOf(AnthropicRequestJson.parse(body), bound);
  it('system as text blocks, text beside tool_result stays the user\'s, is_error is kept, unknown blocks are skipped', () => {
    const w = read({
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }, { type: 'text', text: 'what is this' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: [{ type: 'text', text: '403 Forbidden' }] }, { type: 'text', text: 'and then?' }] },
      ],
    });
    expect(w.messages).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'You are terse.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'what is this' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Looking.' }, { type: 'tool-call', id: 't1', name: 'lookup', arguments: { q: 'x' } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 't1', result: '403 Forbidden', isError: true }] },
      { role: 'user', parts: [{ type: 'text', text: 'and then?' }] },
    ]);
  });
  it('bounded: messages past the bound are counted, not read; malformed messages are skipped', () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    const w = read({ system: 'S', messages: [{ role: 'robot', content: 'x' }, 42, ...many] }, 4);
    expect(w.messages.map((m) => (m.parts[0] as { text: string }).text)).toEqual(['S', 'm0', 'm1', 'm2']);
    expect(w.clipped).toBe(7);
  });
});
