// Writes a case in the Vercel AI SDK 6 layout (`experimental_telemetry`): an `ai.generateText`
// root per turn, one `ai.generateText.doGenerate` per request with `ai.prompt.messages` /
// `ai.prompt.tools`, and `ai.toolCall` spans, using test/fixtures/vercel-ai/clean-control as the
// template. A failed tool is an ERROR span without a result, served as an `error-text` output.

import type { CaseSpec } from './spec.js';
import { approxTokens, windowText, type Message, type PlacedTurn } from './conversation.js';
import { loadJson, spanLike, substitute, findSpan, attrOf, type OtlpSpan } from './otlp-template.js';

const TEMPLATE = 'test/fixtures/vercel-ai/clean-control.otlp.json';

function output(c: { text: string; result: unknown; error?: { message: string } }): unknown {
  if (c.error) return { type: 'error-text', value: c.error.message };
  return typeof c.result === 'string' ? { type: 'text', value: c.result } : { type: 'json', value: c.result };
}

function promptMessage(m: Message): unknown {
  if (m.role === 'system') return { role: 'system', content: m.text };
  if (m.role === 'tool') return { role: 'tool', content: m.results.map((r) => ({ type: 'tool-result', toolCallId: r.id, toolName: r.name, output: output(r) })) };
  if ('calls' in m) return { role: 'assistant', content: m.calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.args })) };
  return { role: m.role, content: [{ type: 'text', text: m.text }] };
}

/** The root span's `ai.prompt`: the call's own system and messages (plain text where it can be). */
function rootPrompt(turn: PlacedTurn): string {
  const [system, ...rest] = turn.history;
  const messages = rest.map((m) => ('text' in m ? { role: m.role, content: m.text } : promptMessage(m)));
  return JSON.stringify({ system: system && 'text' in system ? system.text : '', messages: [...messages, { role: 'user', content: turn.user }] });
}

export function writeVercel(spec: CaseSpec, turns: PlacedTurn[]): { trace: unknown } {
  const tpl = loadJson(TEMPLATE);
  const rs = tpl.resourceSpans[0];
  const spans: OtlpSpan[] = rs.scopeSpans[0].spans;
  const genCalls = findSpan(spans, (s) => s.name === 'ai.generateText.doGenerate' && attrOf(s, 'ai.response.finishReason') === 'tool-calls', 'tool-calls doGenerate');
  const genStop = findSpan(spans, (s) => s.name === 'ai.generateText.doGenerate' && attrOf(s, 'ai.response.finishReason') === 'stop', 'stop doGenerate');
  const toolT = findSpan(spans, (s) => s.name === 'ai.toolCall', 'ai.toolCall span');
  const rootT = findSpan(spans, (s) => s.name === 'ai.generateText', 'ai.generateText span');
  const conversationId = `conv-${spec.name}`;
  const tools = Object.entries(spec.tools).map(([name, t]) => JSON.stringify({ type: 'function', name, description: t.description, inputSchema: t.parameters }));
  const out: OtlpSpan[] = [];
  for (const turn of turns) {
    let totalIn = 0;
    let totalOut = 0;
    for (const r of turn.requests) {
      const isCalls = 'calls' in r.response;
      const input = approxTokens(windowText(r.window));
      const outTokens = approxTokens('calls' in r.response ? JSON.stringify(r.response.calls.map((c) => c.args)) : r.response.text);
      totalIn += input;
      totalOut += outTokens;
      const attrs = substitute(isCalls ? genCalls.attributes : genStop.attributes, {
        'ai.telemetry.metadata.conversationId': conversationId,
        'ai.prompt.messages': JSON.stringify(r.window.map(promptMessage)),
        'ai.prompt.tools': tools,
        'ai.response.toolCalls': 'calls' in r.response ? JSON.stringify(r.response.calls.map((c) => ({ toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.args) }))) : undefined,
        'ai.response.text': 'text' in r.response ? r.response.text : undefined,
        'ai.response.id': r.responseId,
        'gen_ai.response.id': r.responseId,
        'ai.usage.inputTokens': input,
        'ai.usage.inputTokenDetails.noCacheTokens': input,
        'ai.usage.outputTokens': outTokens,
        'ai.usage.outputTokenDetails.textTokens': outTokens,
        'ai.usage.totalTokens': input + outTokens,
        'gen_ai.usage.input_tokens': input,
        'gen_ai.usage.output_tokens': outTokens,
      });
      out.push(spanLike(isCalls ? genCalls : genStop, { traceId: turn.traceId, spanId: r.spanId, parentSpanId: turn.rootSpanId, start: r.start, end: r.end }, attrs));
      if ('calls' in r.response) {
        for (const c of r.response.calls) {
          const tAttrs = substitute(toolT.attributes, {
            'ai.telemetry.metadata.conversationId': conversationId,
            'ai.toolCall.name': c.name,
            'ai.toolCall.id': c.id,
            'ai.toolCall.args': JSON.stringify(c.args),
            // The SDK records JSON.stringify(output): a string result arrives JSON-quoted.
            'ai.toolCall.result': c.error ? undefined : JSON.stringify(c.result),
          });
          out.push(spanLike(toolT, { traceId: turn.traceId, spanId: c.spanId, parentSpanId: turn.rootSpanId, start: c.start, end: c.end, ...(c.error ? { error: c.error } : {}) }, tAttrs));
        }
      }
    }
    const rootAttrs = substitute(rootT.attributes, {
      'ai.telemetry.metadata.conversationId': conversationId,
      'ai.prompt': rootPrompt(turn),
      'ai.response.text': turn.answer,
      'ai.usage.inputTokens': totalIn,
      'ai.usage.inputTokenDetails.noCacheTokens': totalIn,
      'ai.usage.outputTokens': totalOut,
      'ai.usage.outputTokenDetails.textTokens': totalOut,
      'ai.usage.totalTokens': totalIn + totalOut,
    });
    out.push(spanLike(rootT, { traceId: turn.traceId, spanId: turn.rootSpanId, start: turn.start, end: turn.end }, rootAttrs));
  }
  return { trace: { resourceSpans: [{ ...rs, scopeSpans: [{ ...rs.scopeSpans[0], spans: out }] }] } };
}
