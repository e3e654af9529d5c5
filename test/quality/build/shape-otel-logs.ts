// Writes a case in the official @opentelemetry/instrumentation-openai layout: content-free `chat`
// spans plus one log record per message (gen_ai.system/user/assistant/tool.message, gen_ai.choice),
// using test/fixtures/otel-instrumentation-openai/clean-control (.otlp.json and .logs.otlp.json)
// as the template. This instrumentation records no tool definitions.

import type { CaseSpec } from './spec.js';
import { approxTokens, windowText, type Message, type PlacedCall, type PlacedRequest, type PlacedTurn } from './conversation.js';
import { loadJson, spanLike, substitute, findSpan, attrOf, anyValue, type OtlpSpan } from './otlp-template.js';
import { appSpans } from './shape-genai-app.js';

const TEMPLATE = 'test/fixtures/otel-instrumentation-openai/clean-control.otlp.json';
const LOG_TEMPLATE = 'test/fixtures/otel-instrumentation-openai/clean-control.logs.otlp.json';

const toolCalls = (calls: PlacedCall[]) => calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));

function records(m: Message): { event: string; body: Record<string, unknown> }[] {
  if (m.role === 'tool') return m.results.map((r) => ({ event: 'gen_ai.tool.message', body: { id: r.id, content: r.text } }));
  if ('calls' in m) return [{ event: 'gen_ai.assistant.message', body: { tool_calls: toolCalls(m.calls) } }];
  if (m.role === 'assistant') return [{ event: 'gen_ai.assistant.message', body: { content: m.text, tool_calls: null } }];
  return [{ event: `gen_ai.${m.role}.message`, body: { content: m.text } }];
}

export function writeOtelLogs(spec: CaseSpec, turns: PlacedTurn[]): { trace: unknown; logs: unknown } {
  const tpl = loadJson(TEMPLATE);
  const logTpl = loadJson(LOG_TEMPLATE);
  const rs = tpl.resourceSpans[0];
  const llmSpans: OtlpSpan[] = rs.scopeSpans[0].spans;
  const appTemplate: OtlpSpan[] = rs.scopeSpans[1].spans;
  const chatCalls = findSpan(llmSpans, (s) => JSON.stringify(attrOf(s, 'gen_ai.response.finish_reasons')).includes('tool_calls'), 'tool-call chat span');
  const chatStop = findSpan(llmSpans, (s) => JSON.stringify(attrOf(s, 'gen_ai.response.finish_reasons')).includes('stop'), 'stop chat span');
  const rl = logTpl.resourceLogs[0];
  const recordT = rl.scopeLogs[0].logRecords[0];
  const system = recordT.attributes.find((a: { key: string }) => a.key === 'gen_ai.system').value;
  const logRecord = (r: PlacedRequest, traceId: string, at: bigint, event: string, body: Record<string, unknown>) => ({
    ...recordT,
    timeUnixNano: at.toString(),
    observedTimeUnixNano: at.toString(),
    body: anyValue(body),
    attributes: [
      { key: 'event.name', value: { stringValue: event } },
      { key: 'gen_ai.system', value: system },
    ],
    traceId,
    spanId: r.spanId,
  });
  const chat: OtlpSpan[] = [];
  const app: OtlpSpan[] = [];
  const logs: unknown[] = [];
  for (const turn of turns) {
    for (const r of turn.requests) {
      const isCalls = 'calls' in r.response;
      const t = isCalls ? chatCalls : chatStop;
      const message = 'calls' in r.response ? { tool_calls: toolCalls(r.response.calls) } : { content: r.response.text };
      const input = approxTokens(windowText(r.window));
      const attrs = substitute(t.attributes, {
        'gen_ai.response.finish_reasons': [isCalls ? 'tool_calls' : 'stop'],
        'gen_ai.response.id': r.responseId,
        'gen_ai.usage.input_tokens': input,
        'gen_ai.usage.output_tokens': approxTokens(JSON.stringify(message)),
      });
      chat.push(spanLike(t, { traceId: turn.traceId, spanId: r.spanId, parentSpanId: turn.rootSpanId, start: r.start, end: r.end }, attrs));
      for (const m of r.window) for (const rec of records(m)) logs.push(logRecord(r, turn.traceId, r.start, rec.event, rec.body));
      logs.push(logRecord(r, turn.traceId, r.end - 1_000_000n, 'gen_ai.choice', { finish_reason: isCalls ? 'tool_calls' : 'stop', index: 0, message }));
    }
    app.push(...appSpans(appTemplate, turn, `conv-${spec.name}`));
  }
  return {
    trace: { resourceSpans: [{ ...rs, scopeSpans: [{ ...rs.scopeSpans[0], spans: chat }, { ...rs.scopeSpans[1], spans: app }] }] },
    logs: { resourceLogs: [{ ...rl, scopeLogs: [{ ...rl.scopeLogs[0], logRecords: logs }] }] },
  };
}
