// Live: LangGraph.js + @traceloop/instrumentation-langchain@0.27.0. What it records is measured
// here, because it is too little for any check: chat spans whose messages are text parts only (no
// tool calls in the input or the output, tool results without ids), execute_tool spans named after
// the tool's class (`DynamicStructuredTool`) with the ToolMessage in traceloop.entity.output, and
// every span a root of its own trace (the callback handler starts spans without their parent). So
// no check can place a finding: backup-triage gives none, and the summary says so.
import { expect } from 'vitest';
import { LangChainInstrumentation } from '@traceloop/instrumentation-langchain';
import { liveLangChainSuite } from './live-langchain-suite.js';
import { assertNoFindings } from '../processor/scenario.js';

const instrumentation = new LangChainInstrumentation({ traceContent: true });
const chat = (s: { attributes: Record<string, unknown> }) => s.attributes['gen_ai.operation.name'] === 'chat';

liveLangChainSuite({
  library: 'traceloop-langchain',
  instrumentation,
  instrument: (m) => instrumentation.manuallyInstrument({ callbackManagerModule: m }),
  llm: (received) => received.filter(chat),
  backupTriage(p) {
    // The defect is in the conversation, but nothing recorded shows the model's choice of arguments.
    assertNoFindings(p.next.received);
  },
  recorded(p) {
    const llm = p.next.received.filter(chat);
    const tools = p.next.received.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
    expect(tools.map((s) => s.name)).toEqual(Array(3).fill('execute_tool DynamicStructuredTool'));
    expect(tools.map((s) => JSON.parse(String(s.attributes['traceloop.entity.output'])).kwargs.tool_call_id)).toEqual(['call_bt_001', 'call_bt_002', 'call_bt_003']);
    for (const s of p.next.received) expect(s.parentSpanContext, `${s.name} has a parent`).toBeUndefined();
    for (const s of llm) {
      const parts = [...JSON.parse(String(s.attributes['gen_ai.input.messages'])), ...JSON.parse(String(s.attributes['gen_ai.output.messages']))].flatMap((m: { parts: { type: string }[] }) => m.parts.map((x) => x.type));
      expect(new Set(parts)).toEqual(new Set(['text']));
      expect(s.attributes['gen_ai.tool.definitions']).toBeUndefined();
    }
  },
});
