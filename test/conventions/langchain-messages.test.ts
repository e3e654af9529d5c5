// Pins the LangChain.js serialisation reader (src/conventions/langchain-messages.ts) on the
// recorded openinference-langchain fixture and hand-built messages: the window keeps every
// tool-call id the flattened OpenInference keys drop, the answer's calls carry their ids and the
// provider's response id, a TOOL span's ToolMessage names its call; unknown classes are skipped and
// counted, the bound holds, and nothing throws on malformed input.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { readSpan } from '../../src/conventions/registry.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { LcLlmInputJson, LcToolOutputJson, lcToolOutputOf, lcWindowOf, readLcMessage } from '../../src/conventions/langchain-messages.js';
import type { LlmRequest, ToolExecution } from '../../src/model/agent.js';

const lc = (cls: string, kwargs: Record<string, unknown>) => ({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs });

describe('openinference-langchain fixture, read through the registry', () => {
  const path = join(FIXTURES_DIR, 'openinference-langchain', 'backup-triage.otlp.json');
  const spans = decodeOtlpJsonText(readFileSync(path, 'utf8'), path).spans.map((d) => d.span);
  const diagnostics = new DiagnosticList();
  const events = spans.flatMap((s) => readSpan(s, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute: 'service.name' }));
  const requests = events.filter((e): e is LlmRequest => e.kind === 'llm-request');
  const executions = events.filter((e): e is ToolExecution => e.kind === 'tool-execution');
  it('five requests with response ids, chosen calls with ids, windows with result ids', () => {
    expect(requests.map((r) => r.responseId)).toEqual([1, 2, 3, 4, 5].map((n) => `chatcmpl-backup-triage-00${n}`));
    expect(requests.flatMap((r) => r.toolCalls.map((c) => `${c.id} ${c.name} ${JSON.stringify(c.arguments)}`))).toEqual([
      'call_bt_001 list_machines {"customer":"acme"}',
      'call_bt_002 backup_jobs {"machine_id":"srv-db-04"}',
      'call_bt_003 backup_status {"machine_id":"db-primary-full"}',
    ]);
    const third = requests[2]!.input;
    expect(third.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(third.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool-result' || p.type === 'tool-call' ? [p.id] : [])))).toEqual(['call_bt_001', 'call_bt_001', 'call_bt_002', 'call_bt_002']);
    expect(requests.every((r) => r.conversationId === 'conv-backup-triage-0001')).toBe(true);
  });
  it('TOOL spans: call id and result from the ToolMessage', () => {
    expect(executions.map((e) => [e.toolName, e.callId, e.result])).toEqual([
      ['list_machines', 'call_bt_001', expect.stringContaining('"machine_id":"srv-db-04"')],
      ['backup_jobs', 'call_bt_002', expect.stringContaining('nightly-db-primary-full')],
      ['backup_status', 'call_bt_003', '[]'],
    ]);
  });
});

describe('langchain-messages (hand-built)', () => {
  it('reads the four classes; skips unknown classes and non-messages, counting them', () => {
    const w = lcWindowOf(
      LcLlmInputJson.parse({
        messages: [[
          lc('SystemMessage', { content: 'S' }),
          lc('HumanMessage', { content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: 'x' }] }),
          lc('AIMessage', { content: '', tool_calls: [{ name: 't', args: { a: 1 }, id: 'c1' }, { name: 'u', args: {} }] }),
          lc('ToolMessage', { content: 'r', tool_call_id: 'c1', name: 't' }),
          lc('FunkyMessage', { content: 'x' }),
          { not: 'a message' },
        ]],
      }),
      100,
    );
    expect(w.messages).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'S' }] },
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 't', arguments: { a: 1 } }, { type: 'tool-call', name: 'u', arguments: {} }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c1', name: 't', result: 'r' }] },
    ]);
    expect(w.skipped).toBe(2);
  });
  it('bounded, and a ToolMessage marked error is said to be one', () => {
    const many = Array.from({ length: 9 }, (_, i) => lc('HumanMessage', { content: `m${i}` }));
    expect(lcWindowOf(LcLlmInputJson.parse({ messages: [many] }), 3)).toMatchObject({ clipped: 6, messages: { length: 3 } });
    expect(lcToolOutputOf(LcToolOutputJson.parse({ output: lc('ToolMessage', { content: 'boom', tool_call_id: 'c9', status: 'error' }) }))).toEqual({ callId: 'c9', result: 'boom', error: true });
    expect(lcToolOutputOf(LcToolOutputJson.parse({ output: 'plain' }))).toBeUndefined();
    expect(readLcMessage({ lc: 1, type: 'constructor', id: [], kwargs: {} })).toBeUndefined();
  });
});
