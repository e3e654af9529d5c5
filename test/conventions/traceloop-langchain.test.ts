// OpenLLMetry LangChain (src/conventions/traceloop-langchain.ts) over its live recordings
// (test/fixtures/traceloop-langchain/, createReactAgent under the app's span): the calls read from
// the execute_tool spans' ToolMessages and, for a tool that threw, from the ToolNode's output; a
// chat window rebuilt from them by exact content; a run of tool messages with one that matches no
// call (or several) left as recorded; and the tenant's pool of parentless calls joined only on a
// text unique there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { resolveLimits } from '../../src/limits.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { choiceNotRecorded, isLcChatSpan, lcCallsOf, rebuildLcWindow, recordsLcCalls, type LcCall } from '../../src/conventions/traceloop-langchain.js';
import { LangChainCalls } from '../../src/runs/langchain-calls.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

const limits = resolveLimits({});
const spansOf = (scenario: string): SpanData[] => {
  const p = join(FIXTURES_DIR, 'traceloop-langchain', `${scenario}.otlp.json`);
  return decodeOtlpJsonText(readFileSync(p, 'utf8'), p).spans.map((d) => d.span);
};
const windowOf = (s: SpanData) => JSON.parse(String(s.attributes['gen_ai.input.messages'])) as { role: string; parts: Record<string, unknown>[] }[];

describe('OpenLLMetry LangChain: the calls', () => {
  it("refund: get_order from its tool span's ToolMessage; issue_refund (it threw) from the ToolNode's error ToolMessage, with the model's arguments", () => {
    const spans = spansOf('refund');
    const calls = spans.filter(recordsLcCalls).flatMap((s) => lcCallsOf(s, limits).map((c) => ({ span: s.name, ...c })));
    expect(calls.map((c) => [c.span, c.callId, c.name, c.error])).toEqual([
      ['execute_tool DynamicStructuredTool', 'call_rf_001', 'get_order', false],
      ['workflow RunnableSequence', 'call_rf_002', 'issue_refund', true],
    ]);
    expect(calls[0]!.arguments).toEqual({ order_id: 'ORD-77812' });
    expect(calls[1]!.arguments).toEqual({ order_id: 'ORD-77812', amount: 42.1 });
    expect(calls[1]!.shown).toMatch(/^Error: payment provider refused the refund/);
    // The thrown tool's own span: ERROR, no ToolMessage, so nothing read from it (its call is the ToolNode's).
    const thrown = spans.find((s) => s.name === 'execute_tool DynamicStructuredTool' && s.status.code === 2)!;
    expect(lcCallsOf(thrown, limits)).toEqual([]);
  });

  it('the last request chose nothing; every earlier one chose calls its span does not record', () => {
    const chats = spansOf('refund').filter(isLcChatSpan);
    expect(chats.map(choiceNotRecorded)).toEqual([true, true, false]);
  });
});

describe('OpenLLMetry LangChain: the window, rebuilt', () => {
  const spans = spansOf('refund');
  const calls = spans.flatMap((s) => lcCallsOf(s, limits));
  const last = spans.filter(isLcChatSpan).at(-1)!;
  const first = (list: readonly LcCall[]) => (shown: string, used: ReadonlySet<LcCall>) => list.find((c) => c.shown === shown && !used.has(c));

  it('each tool message becomes the result of the call with exactly its text, the empty assistant message before it that call', () => {
    const w = windowOf(rebuildLcWindow(last, first(calls), limits));
    expect(w.map((m) => [m.role, m.parts.map((p) => p.type).join('+')])).toEqual([
      ['system', 'text'],
      ['user', 'text'],
      ['assistant', 'tool_call'],
      ['tool', 'tool_call_response'],
      ['assistant', 'tool_call'],
      ['tool', 'tool_call_response'],
    ]);
    expect(w[2]!.parts[0]).toEqual({ type: 'tool_call', id: 'call_rf_001', name: 'get_order', arguments: { order_id: 'ORD-77812' } });
    expect(w[5]!.parts[0]).toMatchObject({ type: 'tool_call_response', id: 'call_rf_002', name: 'issue_refund' });
    // The recorded span is not changed.
    expect(String(last.attributes['gen_ai.input.messages'])).not.toContain('tool_call_response');
  });

  it('a tool message no call has the text of stays text, and so does its assistant message', () => {
    const w = windowOf(rebuildLcWindow(last, first(calls.filter((c) => c.callId !== 'call_rf_002')), limits));
    expect(w.map((m) => m.parts.map((p) => p.type).join('+'))).toEqual(['text', 'text', 'tool_call', 'tool_call_response', 'text', 'text']);
  });

  it("a parentless chat span joins its tenant's pool only on a text one call there has: two calls with the same text join neither", () => {
    const pool = new LangChainCalls(100, 60_000, () => 0);
    const root = (s: SpanData): SpanData => ({ ...s, parentSpanId: undefined }) as SpanData;
    const tool = spans.find((s) => s.name === 'execute_tool DynamicStructuredTool' && s.status.code !== 2)!;
    pool.add('acme', root(tool), lcCallsOf(tool, limits));
    const once = windowOf(rebuildLcWindow(root(last), pool.finder('acme', root(last)), limits));
    expect(once[2]!.parts[0]).toMatchObject({ type: 'tool_call', id: 'call_rf_001' });
    // Another tenant's pool holds nothing of acme's.
    expect(windowOf(rebuildLcWindow(root(last), pool.finder('globex', root(last)), limits))[2]!.parts[0]!.type).toBe('text');
    // Another conversation's call with the same result text: ambiguous, not joined.
    pool.add('acme', root({ ...tool, spanId: 'ffffffffffffffff' }), lcCallsOf(tool, limits).map((c) => ({ ...c, callId: 'call_other_001' })));
    expect(windowOf(rebuildLcWindow(root(last), pool.finder('acme', root(last)), limits))[2]!.parts[0]!.type).toBe('text');
  });
});
