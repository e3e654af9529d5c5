// Pins the GenAI semconv reader against the recorded fixtures of every library that speaks it
// (contrib OpenAI Chat Completions logs, contrib Responses details logs, Traceloop ≥0.23 JSON
// attributes, AI SDK 7 + @ai-sdk/otel): through readSpan, each expected request's frame holds
// exactly the expected served and written strings, its chosen tool calls match, every tool call
// has its ToolExecution, and every turn its AgentTurn with the conversation id.
import { describe, it, expect } from 'vitest';
import { loadFixture, SCENARIOS, type Library, type Expected } from '../helpers/fixtures.js';
import { readSpan } from '../../src/conventions/registry.js';
import { groupLogsBySpan } from '../../src/conventions/log-join.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { spanKey } from '../../src/model/telemetry.js';
import { buildFrame } from '../../src/runs/frame.js';
import type { AgentTurn, LlmRequest, ModelEvent, ToolExecution } from '../../src/model/agent.js';

const GENAI_LIBRARIES: readonly Library[] = ['otel-instrumentation-openai', 'otel-instrumentation-openai-responses', 'traceloop-openai', 'vercel-ai-v7-otel'];

function readAll(lib: Library, scenario: (typeof SCENARIOS)[number]): { events: ModelEvent[]; expected: Expected; diagnostics: DiagnosticList } {
  const { doc, expected } = loadFixture(lib, scenario);
  const diagnostics = new DiagnosticList();
  const byspan = groupLogsBySpan(doc.logs, DEFAULT_LIMITS, diagnostics);
  const events: ModelEvent[] = [];
  for (const { span } of doc.spans) {
    events.push(...readSpan(span, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute: 'service.name', logs: byspan.get(spanKey(span)) ?? [] }));
  }
  return { events, expected, diagnostics };
}

function requestNumber(responseId: string | undefined): number | undefined {
  const m = responseId?.match(/(\d+)$/);
  return m ? Number(m[1]) : undefined;
}

function parseIfJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

for (const lib of GENAI_LIBRARIES)
  for (const scenario of SCENARIOS)
    describe(`fixture: ${lib} ${scenario}`, () => {
      const { events, expected, diagnostics } = readAll(lib, scenario);
      const requests = events.filter((e): e is LlmRequest => e.kind === 'llm-request');
      const tools = events.filter((e): e is ToolExecution => e.kind === 'tool-execution');
      const turns = events.filter((e): e is AgentTurn => e.kind === 'agent-turn');

      it('reads without diagnostics, one LlmRequest per expected request, all captured', () => {
        expect(diagnostics.items).toEqual([]);
        expect(requests.map((r) => requestNumber(r.responseId)).sort()).toEqual(expected.requests.map((r) => r.request).sort());
        for (const r of requests) {
          expect(r.inputContent).toBe('captured');
          expect(r.outputContent).toBe('captured');
          expect(r.convention).toBe(lib.startsWith('otel-instrumentation') ? 'genai-logs' : 'genai-semconv');
          expect(r.idsMatchedByOrder).toBeUndefined();
        }
      });

      for (const exp of expected.requests)
        it(`request ${exp.request}: frame served/written and chosen tool calls`, () => {
          const req = requests.find((r) => requestNumber(r.responseId) === exp.request);
          expect(req).toBeDefined();
          const frame = buildFrame(req!);
          // Compared as ORDERED lists of (source, text): every library keeps the wire order. Message
          // indices are not compared (Responses splits parallel calls and results into one message each).
          const served = frame.served.filter((s) => s.source !== 'tool-schema').map((s) => ({ source: s.source, text: s.text }));
          expect(served).toEqual(exp.served.map((s) => ({ source: s.source, text: s.text })));
          const written = frame.written.map((w) => ({ source: w.source, text: w.text }));
          expect(written).toEqual(exp.written.map((w) => ({ source: w.source, text: w.text })));
          // Tool results keep the call id they answer (Responses: `call_id`, not the `fc_` item id).
          const servedIds = frame.served.filter((s) => s.source === 'tool-result').map((s) => s.callId);
          expect(servedIds).toEqual(exp.served.filter((s) => s.source === 'tool-result').map((s) => s.callId));
          expect(req!.toolCalls).toEqual(exp.response.toolCalls ?? []);
          if (exp.response.text !== undefined) expect(req!.outputText).toEqual([exp.response.text]);
          else expect(req!.outputText.filter((t) => t !== '')).toEqual([]);
        });

      it('every expected tool call has its ToolExecution (id, name, arguments, result)', () => {
        expect(tools).toHaveLength(expected.toolCalls.length);
        for (const call of expected.toolCalls) {
          const t = tools.find((x) => x.callId === call.id);
          expect(t, call.id).toBeDefined();
          expect(t!.toolName).toBe(call.name);
          expect(t!.arguments).toEqual(call.arguments);
          expect(t!.result).toEqual(parseIfJson(call.result));
          expect(t!.status).not.toBe('error');
        }
      });

      it('every turn yields an AgentTurn with the conversation id, and never an LlmRequest', () => {
        const expectedTurns = new Set(expected.requests.map((r) => r.turn)).size;
        expect(turns).toHaveLength(expectedTurns);
        for (const t of turns) {
          expect(t.conversationId).toBe(expected.conversationId);
          expect(t.agentName).toBe('backup-triage');
        }
        const turnSpans = new Set(turns.map((t) => spanKey(t.span)));
        expect(requests.some((r) => turnSpans.has(spanKey(r.span)))).toBe(false);
      });

      it('tool definitions: recorded where the library records them, undefined elsewhere', () => {
        for (const r of requests) {
          if (lib === 'traceloop-openai' || lib === 'vercel-ai-v7-otel') {
            expect(r.toolDefinitions?.map((d) => d.name)).toEqual(['list_machines', 'backup_jobs', 'backup_status']);
            expect(r.toolDefinitions?.[1]?.description).toBe('List the backup jobs configured for one machine.');
            expect(r.toolDefinitions?.[0]?.inputSchema).toMatchObject({ type: 'object', required: ['customer'] });
          } else {
            expect(r.toolDefinitions).toBeUndefined();
          }
        }
      });
    });

describe('fixture: AI SDK 7 specifics', () => {
  it('step spans yield nothing; chat spans carry no conversation id of their own', () => {
    const { doc } = loadFixture('vercel-ai-v7-otel', 'backup-triage');
    const diagnostics = new DiagnosticList();
    const steps = doc.spans.filter(({ span }) => span.name.startsWith('step '));
    expect(steps.length).toBeGreaterThan(0);
    for (const { span } of steps) expect(readSpan(span, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute: 'service.name' })).toEqual([]);
    const { events } = readAll('vercel-ai-v7-otel', 'backup-triage');
    for (const e of events) if (e.kind === 'llm-request') expect(e.conversationId).toBeUndefined();
  });
  it('the system prompt, only in gen_ai.system_instructions, leads the window', () => {
    const { events, expected } = readAll('vercel-ai-v7-otel', 'backup-triage');
    const first = events.find((e): e is LlmRequest => e.kind === 'llm-request')!;
    expect(first.input[0]).toEqual({ role: 'system', parts: [{ type: 'text', text: (expected.requests[0]!.window[0] as { content: string }).content }] });
  });
});
