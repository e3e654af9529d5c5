// The shared live suite for an `openai`-client instrumentation used alone (issue 27): the app
// records no `execute_tool` and no `invoke_agent` span, only an ordinary root span per turn (its
// HTTP handler). Through the stub and the processor in a real provider: the ledger is read from the
// windows (the same findings as the app-span recording), the disposition lands on the root and
// says the rows came from the windows, and a refused read of a tool declared with argumentsFrom
// only (backup_jobs in test/fixtures/declarations.yaml) cannot back "it has no failing jobs".
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { context, trace, SpanKind } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { makePipeline, assertPassedThrough, type Pipeline } from './harness.js';
import { startStubOpenAI, type ScriptedResponse, type StubOpenAI } from './stub-openai.js';
import { declarations, expectedOf, findingEvents, MODEL, responseIdOf, runOpenAIConversation, scriptOf, toolResult, TOOLS, type ChatClient } from './scenario.js';
import { traceTool } from '../../src/trace/index.js';
import {
  ATTR_ANSWER_REASONS,
  ATTR_ANSWER_STANDING,
  ATTR_DISPOSITION_LEDGER_SPANS,
  ATTR_DISPOSITION_LEDGER_WINDOWS,
  ATTR_DISPOSITION_SUMMARY,
  ATTR_FINDING_KIND,
  ATTR_FINDING_MESSAGE,
  ATTR_TOOL_CALL_ID,
  ATTR_TOOL_NAME,
  EVENT_ANSWER_STANDING,
  EVENT_DISPOSITION,
} from '../../src/findings/names.js';

export interface LiveWindowStack {
  title: string;
  instrumentation: Instrumentation;
  /** Scope name of the LLM spans the instrumentation writes. */
  scope: string;
  /** Wraps each turn (e.g. OpenInference's setSession). */
  wrapTurn?: <T>(conversationId: string, fn: () => Promise<T>) => Promise<T>;
  /**
   * The instrumentation records no conversation id: the app sets `gen_ai.conversation.id` on its
   * root span as it starts (the processor learns it then), or turns could not see each other.
   */
  conversationOnRoot?: boolean;
}

// The refused read: backup_jobs (argumentsFrom only) answers "permission denied".
export const DENIED = 'permission denied: backup jobs of srv-db-04 need the operator role';
const REFUSED_USER = 'Does srv-db-04 have any failing backup jobs?';
const REFUSED_RESULTS: Record<string, string> = {
  call_rf_001: '[{"machine_id":"srv-db-04","hostname":"db-primary","protected":true}]',
  call_rf_002: DENIED,
};
export const REFUSED_ANSWERS = {
  defect: 'srv-db-04 (db-primary) has no failing backup jobs.',
  admitted: `I could not list the backup jobs of srv-db-04: the call was refused (${DENIED}), so I cannot say whether any of them fail.`,
} as const;

function refusedScript(answer: keyof typeof REFUSED_ANSWERS): ScriptedResponse[] {
  return [
    { id: 'chatcmpl-refused-001', toolCalls: [{ id: 'call_rf_001', name: 'list_machines', arguments: { customer: 'acme' } }] },
    { id: 'chatcmpl-refused-002', toolCalls: [{ id: 'call_rf_002', name: 'backup_jobs', arguments: { machine_id: 'srv-db-04', statuses: ['failed'] } }] },
    { id: 'chatcmpl-refused-003', text: REFUSED_ANSWERS[answer] },
  ];
}

type Turn = { user: string };

/**
 * The app: each turn is one ordinary root span (its HTTP handler), the tools run with no span of
 * their own unless `toolSpans`; between turns it keeps the system prompt and the final answers.
 */
async function runBare(client: ChatClient, system: string, turns: Turn[], results: (callId: string) => string, wrapTurn: <T>(fn: () => Promise<T>) => Promise<T>, toolSpans: boolean, conversationId?: string): Promise<void> {
  const tracer = trace.getTracer('support-app', '1.0.0');
  const memory: Record<string, unknown>[] = [{ role: 'system', content: system }];
  for (const turn of turns) {
    const answer = await wrapTurn(() =>
      tracer.startActiveSpan('POST /chat', { kind: SpanKind.SERVER, ...(conversationId ? { attributes: { 'gen_ai.conversation.id': conversationId } } : {}) }, context.active(), async (root) => {
        try {
          const messages: Record<string, unknown>[] = [...memory, { role: 'user', content: turn.user }];
          for (let step = 0; step < 8; step++) {
            const resp = await client.chat.completions.create({ model: MODEL, messages, tools: TOOLS });
            const msg = resp.choices[0]!.message;
            if (!msg.tool_calls || msg.tool_calls.length === 0) return msg.content ?? '';
            messages.push({ role: 'assistant', content: null, tool_calls: msg.tool_calls.map((c) => ({ id: c.id, type: 'function', function: c.function })) });
            for (const c of msg.tool_calls) {
              const result = toolSpans ? await traceTool(c.function.name, c.function.arguments, async () => results(c.id), { callId: c.id }) : results(c.id);
              messages.push({ role: 'tool', tool_call_id: c.id, content: result });
            }
          }
          throw new Error('agent loop did not finish');
        } finally {
          root.end();
        }
      }),
    );
    memory.push({ role: 'assistant', content: answer });
  }
}

export function liveWindowSuite(s: LiveWindowStack): void {
  let OpenAI: new (opts: { apiKey: string; baseURL: string; maxRetries?: number }) => ChatClient;
  let unregister: () => void;
  beforeAll(() => {
    unregister = registerInstrumentations({ instrumentations: [s.instrumentation] });
    OpenAI = createRequire(import.meta.url)('openai').OpenAI;
  });
  afterAll(() => unregister());

  let pipe: Pipeline | undefined;
  let stub: StubOpenAI | undefined;
  afterEach(async () => {
    await pipe?.shutdown();
    await stub?.close();
    pipe = stub = undefined;
  });

  async function start(script: ScriptedResponse[]): Promise<{ p: Pipeline; client: ChatClient }> {
    pipe = makePipeline({ declarations: declarations() });
    s.instrumentation.setTracerProvider(pipe.provider);
    stub = await startStubOpenAI(script);
    return { p: pipe, client: new OpenAI({ apiKey: 'sk-stub', baseURL: stub.baseURL, maxRetries: 0 }) };
  }

  const wrap = (conversationId: string) => <T>(fn: () => Promise<T>) => (s.wrapTurn ? s.wrapTurn(conversationId, fn) : fn());
  const llm = (p: Pipeline) => p.next.received.filter((x) => x.instrumentationScope.name === s.scope);
  const findings = (p: Pipeline) => p.next.received.flatMap((x) => findingEvents(x).map((e) => ({ span: x, kind: e.attributes?.[ATTR_FINDING_KIND], tool: e.attributes?.[ATTR_TOOL_NAME], call: e.attributes?.[ATTR_TOOL_CALL_ID], message: String(e.attributes?.[ATTR_FINDING_MESSAGE] ?? '') })));
  const dispositions = (p: Pipeline) => p.next.received.flatMap((x) => x.events.filter((e) => e.name === EVENT_DISPOSITION).map((e) => ({ span: x, e })));
  const standings = (p: Pipeline) => p.next.received.flatMap((x) => x.events.filter((e) => e.name === EVENT_ANSWER_STANDING).map((e) => ({ standing: e.attributes?.[ATTR_ANSWER_STANDING], reasons: e.attributes?.[ATTR_ANSWER_REASONS] })));

  async function refused(answer: keyof typeof REFUSED_ANSWERS, toolSpans: boolean): Promise<Pipeline> {
    const { p, client } = await start(refusedScript(answer));
    const system = (expectedOf('backup-triage').requests[0]!.window[0] as { content: string }).content;
    await runBare(client, system, [{ user: REFUSED_USER }], (id) => REFUSED_RESULTS[id]!, wrap('conv-refused-0001'), toolSpans, s.conversationOnRoot ? 'conv-refused-0001' : undefined);
    expect(stub!.remaining()).toBe(0);
    await p.provider.forceFlush();
    return p;
  }

  describe(s.title, () => {
    it('backup-triage, no app spans: the findings the app-span recording gives, the rows read from the windows, the disposition on each turn\'s root', async () => {
      // With the app's spans first (the reference), then with the LLM client's spans only.
      let ref: ReturnType<typeof findings>;
      {
        const { p, client } = await start(scriptOf('backup-triage'));
        await runOpenAIConversation(client, 'backup-triage', s.wrapTurn ? (_t, fn) => s.wrapTurn!('conv-backup-triage-0001', fn) : undefined);
        await p.provider.forceFlush();
        ref = findings(p);
        await p.shutdown();
        await stub!.close();
        pipe = stub = undefined;
      }
      const { p, client } = await start(scriptOf('backup-triage'));
      const exp = expectedOf('backup-triage');
      const system = (exp.requests[0]!.window[0] as { content: string }).content;
      await runBare(client, system, exp.turns, (id) => toolResult('backup-triage', id), wrap('conv-backup-triage-0001'), false, s.conversationOnRoot ? 'conv-backup-triage-0001' : undefined);
      expect(stub!.remaining()).toBe(0);
      await p.provider.forceFlush();
      expect(assertPassedThrough(p).carriers).toEqual([]);
      expect(p.next.received.filter((x) => x.name.startsWith('execute_tool') || x.name.startsWith('invoke_agent'))).toEqual([]);
      expect(llm(p).length).toBe(5);
      expect(p.fp.stats().errors).toBe(0);
      const got = findings(p);
      expect(got.map((f) => [f.kind, f.tool, f.call]).sort()).toEqual(ref.map((f) => [f.kind, f.tool, f.call]).sort());
      expect(got.map((f) => f.kind)).toContain('unsupported-argument');
      const chooser = llm(p).find((x) => responseIdOf(x) === 'chatcmpl-backup-triage-004')!;
      expect(got.find((f) => f.kind === 'unsupported-argument')!.span).toBe(chooser);
      // One disposition per turn, on its root, saying where the rows came from.
      const d = dispositions(p);
      expect(d.map((x) => x.span.name)).toEqual(['POST /chat', 'POST /chat']);
      expect(d.map((x) => [x.e.attributes?.[ATTR_DISPOSITION_LEDGER_SPANS], x.e.attributes?.[ATTR_DISPOSITION_LEDGER_WINDOWS]])).toEqual([[0, 2], [0, 1]]);
      expect(String(d[1]!.e.attributes?.[ATTR_DISPOSITION_SUMMARY])).toMatch(/1 tool call read from the request windows \(no execute_tool span recorded it\)\.$/);
    });

    for (const toolSpans of [false, true]) {
      it(`a refused read of a tool declared with argumentsFrom only (${toolSpans ? 'app execute_tool spans' : 'no app spans: read from the window'}): refusal-asserts-absence, and the standing is not-sure`, async () => {
        const p = await refused('defect', toolSpans);
        assertPassedThrough(p);
        const got = findings(p);
        expect(got.map((f) => [f.kind, f.tool, f.call])).toEqual([['refusal-asserts-absence', 'backup_jobs', 'call_rf_002']]);
        expect(got[0]!.span).toBe(llm(p).at(-1));
        expect(got[0]!.message).toContain('permission denied');
        expect(standings(p)).toEqual([{ standing: 'not-sure', reasons: ['refused-read', 'answer-check-failed'] }]);
        const d = dispositions(p);
        expect(d.map((x) => x.span.name)).toEqual(['POST /chat']);
        expect(d[0]!.e.attributes?.[toolSpans ? ATTR_DISPOSITION_LEDGER_SPANS : ATTR_DISPOSITION_LEDGER_WINDOWS]).toBe(2);
      });
    }

    it('the answer that says the read was refused: no finding, still not-sure (refused-read)', async () => {
      const p = await refused('admitted', false);
      expect(findings(p)).toEqual([]);
      expect(standings(p)).toEqual([{ standing: 'not-sure', reasons: ['refused-read'] }]);
    });
  });
}

export type { ReadableSpan };
