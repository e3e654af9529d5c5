// Live: LangGraph.js + @traceloop/instrumentation-langchain@0.27.0, each turn inside the app's own
// root span (`POST /chat` with gen_ai.conversation.id, as an HTTP handler's span is), so the
// instrumentation's spans share the turn's trace. What it records is pinned here: chat spans whose
// messages are text parts only (no tool calls in input or output, tool results without ids, no
// tool definitions), execute_tool spans named after the tool's class (`DynamicStructuredTool`)
// with the ToolMessage (name, tool_call_id, status, content) in traceloop.entity.output and the
// arguments in traceloop.entity.input. footprint reads the calls from those ToolMessages and
// rebuilds each window from them (src/conventions/traceloop-langchain.ts); the model's choice is
// read from the next request's window, so request 4's unsupported-argument is judged when request
// 5 is read and, in process, rides a carrier span to request 4's chat span. Without any active span
// every span is the root of its own trace: live-traceloop-langchain-calls.test.ts.
import { expect } from 'vitest';
import { LangChainInstrumentation } from '@traceloop/instrumentation-langchain';
import { liveLangChainSuite } from './live-langchain-suite.js';
import { findingEvents } from '../processor/scenario.js';
import { ATTR_FINDING_KIND, ATTR_FINDING_PREDICATE, ATTR_TOOL_CALL_ID, ATTR_TOOL_NAME } from '../../src/findings/names.js';

const instrumentation = new LangChainInstrumentation({ traceContent: true });
const chat = (s: { attributes: Record<string, unknown> }) => s.attributes['gen_ai.operation.name'] === 'chat';

liveLangChainSuite({
  library: 'traceloop-langchain',
  instrumentation,
  appSpan: true,
  backupTriageCarriers: 1,
  instrument: (m) => instrumentation.manuallyInstrument({ callbackManagerModule: m }),
  llm: (received) => received.filter(chat),
  backupTriage(p) {
    const all = p.next.received.flatMap((s) => findingEvents(s).map((e) => ({ s, e })));
    expect(all.map((x) => [x.e.attributes?.[ATTR_FINDING_KIND], x.e.attributes?.[ATTR_TOOL_NAME], x.e.attributes?.[ATTR_TOOL_CALL_ID], x.e.attributes?.[ATTR_FINDING_PREDICATE]]).sort()).toEqual([
      ['empty-lookup', 'backup_status', 'call_bt_003', 'args.machine_id'],
      ['unsupported-argument', 'backup_status', 'call_bt_003', 'args.machine_id'],
    ]);
    // The choice is judged when the next window shows it: on a carrier naming request 4's chat span.
    const ua = all.find((x) => x.e.attributes?.[ATTR_FINDING_KIND] === 'unsupported-argument')!;
    const request4 = p.next.received.filter(chat)[3]!;
    expect(ua.s.attributes['footprint.subject.span_id']).toBe(request4.spanContext().spanId);
    expect(ua.s.spanContext().traceId).toBe(request4.spanContext().traceId);
  },
  recorded(p) {
    const llm = p.next.received.filter(chat);
    const tools = p.next.received.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
    expect(tools.map((s) => s.name)).toEqual(Array(3).fill('execute_tool DynamicStructuredTool'));
    const messages = tools.map((s) => JSON.parse(String(s.attributes['traceloop.entity.output'])).kwargs as { tool_call_id: string; name: string; status: string });
    expect(messages.map((m) => [m.tool_call_id, m.name, m.status])).toEqual([['call_bt_001', 'list_machines', 'success'], ['call_bt_002', 'backup_jobs', 'success'], ['call_bt_003', 'backup_status', 'success']]);
    expect(JSON.parse(String(tools[2]!.attributes['traceloop.entity.input']))).toEqual({ args: ['{"machine_id":"db-primary-full"}'] });
    // Under the app's span: one trace per turn, every instrumentation span a child of the turn's root.
    for (const s of p.next.received) if (s.name !== 'POST /chat') expect(s.parentSpanContext?.spanId, `${s.name} has the app span as parent`).toBeDefined();
    for (const s of llm) {
      const parts = [...JSON.parse(String(s.attributes['gen_ai.input.messages'])), ...JSON.parse(String(s.attributes['gen_ai.output.messages']))].flatMap((m: { parts: { type: string }[] }) => m.parts.map((x) => x.type));
      expect(new Set(parts)).toEqual(new Set(['text']));
      expect(s.attributes['gen_ai.tool.definitions']).toBeUndefined();
    }
  },
});
