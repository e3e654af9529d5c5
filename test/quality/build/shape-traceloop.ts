// Writes a case in the OpenLLMetry (@traceloop/instrumentation-openai) layout: `chat` spans with
// GenAI parts-form `gen_ai.input.messages` / `gen_ai.output.messages` and OpenAI-form
// `gen_ai.tool.definitions`, using test/fixtures/traceloop-openai/clean-control as the template.

import type { CaseSpec } from './spec.js';
import { approxTokens, windowText, type Message, type PlacedTurn } from './conversation.js';
import { loadJson, spanLike, substitute, findSpan, attrOf, type OtlpSpan } from './otlp-template.js';
import { appSpans } from './shape-genai-app.js';

const TEMPLATE = 'test/fixtures/traceloop-openai/clean-control.otlp.json';

function parts(m: Message): unknown[] {
  if (m.role === 'tool') return m.results.map((r) => ({ role: 'tool', parts: [{ type: 'tool_call_response', id: r.id, response: r.text }] }));
  if ('calls' in m) return [{ role: 'assistant', parts: m.calls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.args })) }];
  return [{ role: m.role, parts: [{ type: 'text', content: m.text }] }];
}

export function toolDefinitions(spec: CaseSpec): unknown[] {
  return Object.entries(spec.tools).map(([name, t]) => ({ type: 'function', function: { name, description: t.description, parameters: t.parameters } }));
}

export function writeTraceloop(spec: CaseSpec, turns: PlacedTurn[]): { trace: unknown } {
  const tpl = loadJson(TEMPLATE);
  const rs = tpl.resourceSpans[0];
  const llmSpans: OtlpSpan[] = rs.scopeSpans[0].spans;
  const appTemplate: OtlpSpan[] = rs.scopeSpans[1].spans;
  const chatCalls = findSpan(llmSpans, (s) => JSON.stringify(attrOf(s, 'gen_ai.response.finish_reasons')).includes('tool_call'), 'tool-call chat span');
  const chatStop = findSpan(llmSpans, (s) => JSON.stringify(attrOf(s, 'gen_ai.response.finish_reasons')).includes('stop'), 'stop chat span');
  const conversationId = `conv-${spec.name}`;
  const chat: OtlpSpan[] = [];
  const app: OtlpSpan[] = [];
  const defs = JSON.stringify(toolDefinitions(spec));
  for (const turn of turns) {
    for (const r of turn.requests) {
      const isCalls = 'calls' in r.response;
      const t = isCalls ? chatCalls : chatStop;
      const output =
        'calls' in r.response
          ? [{ role: 'assistant', finish_reason: 'tool_call', parts: r.response.calls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.args })) }]
          : [{ role: 'assistant', finish_reason: 'stop', parts: [{ type: 'text', content: r.response.text }] }];
      const input = approxTokens(windowText(r.window));
      const outTokens = approxTokens(JSON.stringify(output));
      const attrs = substitute(t.attributes, {
        'gen_ai.input.messages': JSON.stringify(r.window.flatMap(parts)),
        'gen_ai.tool.definitions': defs,
        'gen_ai.response.id': r.responseId,
        'gen_ai.usage.total_tokens': input + outTokens,
        'gen_ai.usage.output_tokens': outTokens,
        'gen_ai.usage.input_tokens': input,
        'gen_ai.response.finish_reasons': [isCalls ? 'tool_call' : 'stop'],
        'gen_ai.output.messages': JSON.stringify(output),
      });
      chat.push(spanLike(t, { traceId: turn.traceId, spanId: r.spanId, parentSpanId: turn.rootSpanId, start: r.start, end: r.end }, attrs));
    }
    app.push(...appSpans(appTemplate, turn, conversationId));
  }
  return {
    trace: {
      resourceSpans: [{ ...rs, scopeSpans: [{ ...rs.scopeSpans[0], spans: chat }, { ...rs.scopeSpans[1], spans: app }] }],
    },
  };
}
