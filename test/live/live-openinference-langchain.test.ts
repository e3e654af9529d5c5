// Live: LangGraph.js + @arizeai/openinference-instrumentation-langchain@4.1.1: CHAIN / LLM / TOOL
// spans; the window and the answer as LangChain serialises them in input.value / output.value
// (src/conventions/langchain-messages.ts keeps the tool-call ids the flattened keys drop), the
// ToolMessage in the TOOL span's output.value, session.id from the run's metadata.
import { expect } from 'vitest';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { liveLangChainSuite } from './live-langchain-suite.js';
import { findingEvents } from '../processor/scenario.js';
import { ATTR_FINDING_KIND, ATTR_FINDING_PREDICATE, ATTR_TOOL_CALL_ID, ATTR_TOOL_NAME } from '../../src/findings/names.js';

const instrumentation = new LangChainInstrumentation();
const kind = (s: { attributes: Record<string, unknown> }) => s.attributes['openinference.span.kind'];

liveLangChainSuite({
  library: 'openinference-langchain',
  instrumentation,
  instrument: (m) => instrumentation.manuallyInstrument(m),
  llm: (received) => received.filter((s) => kind(s) === 'LLM'),
  backupTriage(p) {
    const all = p.next.received.flatMap((s) => findingEvents(s).map((e) => ({ s, e })));
    const ua = all.filter((x) => x.e.attributes?.[ATTR_FINDING_KIND] === 'unsupported-argument');
    expect(ua).toHaveLength(1);
    expect(kind(ua[0]!.s)).toBe('LLM');
    expect(String(ua[0]!.s.attributes['output.value'])).toContain('call_bt_003');
    expect(ua[0]!.e.attributes).toMatchObject({ [ATTR_FINDING_PREDICATE]: 'args.machine_id', [ATTR_TOOL_NAME]: 'backup_status', [ATTR_TOOL_CALL_ID]: 'call_bt_003' });
    expect(all.map((x) => x.e.attributes?.[ATTR_FINDING_KIND]).sort()).toEqual(['dangling-reference', 'empty-lookup', 'unsupported-argument']);
  },
  recorded(p) {
    const llm = p.next.received.filter((s) => kind(s) === 'LLM');
    const tools = p.next.received.filter((s) => kind(s) === 'TOOL');
    expect(tools.map((s) => s.attributes['tool.name'])).toEqual(['list_machines', 'backup_jobs', 'backup_status']);
    for (const s of [...llm, ...tools]) expect(s.attributes['session.id']).toBe('conv-backup-triage-0001');
    // The flattened keys drop tool-call ids; the serialised messages keep them.
    const keys = llm.flatMap((s) => Object.keys(s.attributes));
    expect(keys.some((k) => k.endsWith('tool_call.id') || k.endsWith('message.tool_call_id'))).toBe(false);
    expect(String(llm[1]!.attributes['input.value'])).toContain('"tool_call_id":"call_bt_001"');
    // A one-argument tool's input is collapsed to its bare value (the key is lost).
    expect(tools[0]!.attributes['input.value']).toBe('acme');
    expect(llm[0]!.attributes['llm.tools.0.tool.json_schema']).toBeTypeOf('string');
  },
});
