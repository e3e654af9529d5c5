// The shared live suite for LangGraph.js (a `createReactAgent` ReAct agent with a ToolNode over
// `@langchain/openai`'s ChatOpenAI, pointed at the OpenAI stub on loopback) under a LangChain.js
// instrumentation, through a real NodeTracerProvider with the processor: every span reaches `next`
// once, in order; each stack's findings are what its recording allows (set by the caller). The app
// writes no spans of its own. FP_RECORD=1 rewrites test/fixtures/<library>/ from pass-through runs.
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { makePipeline, assertPassedThrough, type Pipeline } from '../processor/harness.js';
import { startStubOpenAI, type StubOpenAI } from '../processor/stub-openai.js';
import { assertNoFindings, declarations, scriptOf, type ScenarioName } from '../processor/scenario.js';
import { runLangGraphConversation } from './scenario-langchain.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

export interface LangChainStack {
  library: string;
  instrumentation: Instrumentation;
  /** Patches LangChain's CallbackManager (both instrumentations need the module handed to them under ESM). */
  instrument: (callbackManagerModule: typeof CallbackManagerModule) => void;
  /** The LLM spans among what `next` received. */
  llm: (received: readonly ReadableSpan[]) => ReadableSpan[];
  /** What backup-triage gives (kind, tool, predicate), checked on what `next` received. */
  backupTriage: (p: Pipeline) => void;
  recorded: (p: Pipeline) => void;
  /** Each turn inside the app's own root span carrying the conversation id (an HTTP handler's), not bare. */
  appSpan?: boolean;
  /** Carrier spans backup-triage gives in process (a choice judged after its span went on); default 0. */
  backupTriageCarriers?: number;
}

export function liveLangChainSuite(stack: LangChainStack): void {
  let instrumented = false;
  let pipe: Pipeline | undefined;
  let stub: StubOpenAI | undefined;
  afterEach(async () => {
    await pipe?.shutdown();
    await stub?.close();
    pipe = stub = undefined;
  });

  async function run(scenario: ScenarioName, checks = true): Promise<Pipeline> {
    pipe = makePipeline(checks ? { declarations: declarations() } : { checks: false });
    stack.instrumentation.setTracerProvider(pipe.provider);
    if (!instrumented) {
      stack.instrument(CallbackManagerModule);
      instrumented = true;
    }
    stub = await startStubOpenAI(scriptOf(scenario));
    await runLangGraphConversation(stub.baseURL, scenario, stack.appSpan === true);
    expect(stub.remaining()).toBe(0);
    await pipe.provider.forceFlush();
    return pipe;
  }

  function record(scenario: ScenarioName, spans: readonly ReadableSpan[]): void {
    const dir = join(FIXTURES_DIR, stack.library);
    mkdirSync(dir, { recursive: true });
    const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans as ReadableSpan[])!));
    writeFileSync(join(dir, `${scenario}.otlp.json`), `${JSON.stringify(json, null, 2)}\n`);
  }

  describe(`live: LangGraph.js ReAct agent + ${stack.library}`, () => {
    if (process.env.FP_RECORD === '1')
      it('records the fixtures (pass-through runs)', async () => {
        for (const scenario of ['backup-triage', 'clean-control'] as const) {
          const p = await run(scenario, false);
          record(scenario, p.next.received);
          await p.shutdown();
          await stub?.close();
          pipe = stub = undefined;
        }
      });

    it('backup-triage: every span reaches next once, in order; the findings the recording allows', async () => {
      const p = await run('backup-triage');
      expect(stack.llm(p.next.received).length, 'one LLM span per chat request').toBe(5);
      expect(assertPassedThrough(p).carriers).toHaveLength(stack.backupTriageCarriers ?? 0);
      expect(p.fp.stats().errors).toBe(0);
      stack.backupTriage(p);
    });

    it('clean-control: passes through, and no finding', async () => {
      const p = await run('clean-control');
      expect(stack.llm(p.next.received).length).toBe(3);
      assertPassedThrough(p);
      assertNoFindings(p.next.received);
    });

    it('records what its convention says it records', async () => {
      const p = await run('backup-triage');
      stack.recorded(p);
    });

    it('no invoke_agent span: each trace with an LLM span gets one disposition, on its root (which ends last, alone)', async () => {
      const p = await run('backup-triage');
      const traces = new Set(stack.llm(p.next.received).map((s) => s.spanContext().traceId));
      expect(p.next.received.filter((s) => s.name.startsWith('invoke_agent'))).toEqual([]);
      for (const traceId of traces) {
        const spans = p.next.received.filter((s) => s.spanContext().traceId === traceId);
        const withDisposition = spans.filter((s) => s.events.some((e) => e.name === 'footprint.disposition'));
        expect(withDisposition.map((s) => s.name)).toEqual(spans.filter((s) => s.parentSpanContext === undefined).map((s) => s.name));
        expect(withDisposition).toHaveLength(1);
      }
    });
  });
}
