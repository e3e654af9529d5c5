// The shared live suite for the three `openai`-client instrumentations: the app loop through the
// stub, the processor in real providers, the pass-through and finding assertions.
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { makePipeline, assertPassedThrough, type Pipeline } from './harness.js';
import { startStubOpenAI, type StubOpenAI } from './stub-openai.js';
import { assertBackupTriageFinding, assertNoFindings, coreReady, declarations, runOpenAIConversation, scriptOf, type ChatClient, type ScenarioName } from './scenario.js';

export interface LiveOpenAISuite {
  title: string;
  instrumentation: Instrumentation;
  /** Scope name of the LLM spans the instrumentation writes. */
  scope: string;
  /** Wraps each turn (e.g. OpenInference's setSession). */
  wrapTurn?: <T>(conversationId: string, fn: () => Promise<T>) => Promise<T>;
  /** Extra checks on what the instrumentation recorded (content capture, conversation id). */
  recorded?: (llmSpans: ReadableSpan[], p: Pipeline) => void;
  /** More tests for this instrumentation, with the same runner. */
  extra?: (run: (scenario: ScenarioName, opts?: RunOptions) => Promise<Pipeline>) => void;
}

export interface RunOptions {
  /** `file` (default): declarations.yaml to the processor; `helpers`: none there, carried on execute_tool spans by traceTool. */
  declarationsVia?: 'file' | 'helpers';
}

export function liveOpenAISuite(s: LiveOpenAISuite): void {
  let OpenAI: new (opts: { apiKey: string; baseURL: string; maxRetries?: number }) => ChatClient;
  let unregister: () => void;

  beforeAll(() => {
    // Patches `openai` at require time: register first, then require the CommonJS build.
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

  async function run(scenario: ScenarioName, opts: RunOptions = {}): Promise<Pipeline> {
    const viaHelpers = opts.declarationsVia === 'helpers';
    // Declarations only on the helpers' spans: inference off, so what arms a check is the late declaration alone.
    pipe = makePipeline(viaHelpers ? { declarations: { tools: {}, inference: false } } : { declarations: declarations() });
    s.instrumentation.setTracerProvider(pipe.provider);
    (s.instrumentation as Instrumentation & { setLoggerProvider?: (lp: unknown) => void }).setLoggerProvider?.(pipe.loggerProvider);
    stub = await startStubOpenAI(scriptOf(scenario));
    const client = new OpenAI({ apiKey: 'sk-stub', baseURL: stub.baseURL, maxRetries: 0 });
    const conv = scenario === 'backup-triage' ? 'conv-backup-triage-0001' : 'conv-clean-control-0001';
    await runOpenAIConversation(client, scenario, s.wrapTurn ? (_t, fn) => s.wrapTurn!(conv, fn) : undefined, viaHelpers ? declarations() : undefined);
    expect(stub.remaining()).toBe(0);
    await pipe.provider.forceFlush();
    return pipe;
  }

  const llm = (p: Pipeline) => p.next.received.filter((x) => x.instrumentationScope.name === s.scope);

  describe(s.title, () => {
    it('backup-triage: every span reaches next once, in order, unchanged but for footprint events', async () => {
      const p = await run('backup-triage');
      expect(llm(p).length, 'the instrumentation wrote one span per LLM request').toBe(5);
      const { carriers } = assertPassedThrough(p);
      expect(carriers).toEqual([]);
      expect(p.next.exporter.getFinishedSpans().length).toBe(p.next.received.length);
      expect(p.next.received.filter((x) => x.name.startsWith('execute_tool')).length).toBe(3);
      expect(p.next.received.filter((x) => x.name.startsWith('invoke_agent')).length).toBe(2);
      // turn 2's window: system prompt, the turn-1 answer, the new user message
      expect(stub!.requests[3]!.body.messages).toEqual([
        { role: 'system', content: expect.stringContaining('backup triage assistant') },
        { role: 'assistant', content: expect.stringContaining('nightly-db-primary-full') },
        { role: 'user', content: "What's the backup status of that machine?" },
      ]);
      expect(p.fp.stats().errors).toBe(0);
      s.recorded?.(llm(p), p);
    });

    it.skipIf(!coreReady)('backup-triage: the unsupported-argument finding lands on the chat span that chose backup_status in turn 2', async () => {
      const p = await run('backup-triage');
      assertBackupTriageFinding(p.next.received);
    });

    it('clean-control: passes through, and no finding', async () => {
      const p = await run('clean-control');
      expect(llm(p).length).toBe(3);
      assertPassedThrough(p);
      assertNoFindings(p.next.received);
    });

    s.extra?.(run);
  });
}
