// The shared live suite for `@anthropic-ai/sdk` (Messages: tool_use / tool_result blocks) under OpenLLMetry's
// `@traceloop/instrumentation-anthropic` and OpenInference's
// `@arizeai/openinference-instrumentation-anthropic`, against a stub Messages server on loopback,
// through a real NodeTracerProvider with the processor: every span reaches `next` once, in order;
// backup-triage gives the one unsupported-argument finding on the message span that chose
// backup_status in turn 2, clean-control none. FP_RECORD=1 rewrites the fixtures under
// test/fixtures/<library>/ from a pass-through run (the spans as the instrumentation wrote them).
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { makePipeline, assertPassedThrough, type Pipeline } from '../processor/harness.js';
import { startStubAnthropic, type StubAnthropic } from './stub-anthropic.js';
import { anthropicScriptOf, refusedScriptOf, runAnthropicConversation, runRefusedConversation, REFUSED_ERROR, type MessagesClient, type RefusedScenario } from './scenario-anthropic.js';
import { assertNoFindings, declarations, findingEvents, type ScenarioName } from '../processor/scenario.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { ATTR_FINDING_KIND, ATTR_FINDING_MESSAGE, ATTR_FINDING_PREDICATE, ATTR_TOOL_NAME } from '../../src/findings/names.js';

export interface AnthropicStack {
  library: string;
  instrumentation: Instrumentation;
  scope: string;
  /** The attribute holding the response as recorded (its text names the tool_use ids chosen). */
  outputKey: string;
  /** Extra checks on what the instrumentation recorded. */
  recorded?: (llmSpans: ReadableSpan[]) => void;
}

export function liveAnthropicSuite(stack: AnthropicStack): void {
let Anthropic: new (opts: { apiKey: string; baseURL: string; maxRetries?: number }) => MessagesClient;
let unregister: () => void;
beforeAll(() => {
  // @anthropic-ai/sdk >= 0.13x traces itself (scope com.anthropic.sdk.typescript, metadata only by
  // default): with an instrumentation that doubles every request's chat span. Off here, as a user
  // running one of these instrumentations should set it.
  process.env.ANTHROPIC_OPEN_TELEMETRY = 'false';
  unregister = registerInstrumentations({ instrumentations: [stack.instrumentation] });
  Anthropic = createRequire(import.meta.url)('@anthropic-ai/sdk').Anthropic;
});
afterAll(() => {
  unregister();
  delete process.env.ANTHROPIC_OPEN_TELEMETRY;
});

let pipe: Pipeline | undefined;
let stub: StubAnthropic | undefined;
afterEach(async () => {
  await pipe?.shutdown();
  await stub?.close();
  pipe = stub = undefined;
});

async function run(scenario: ScenarioName, checks = true): Promise<Pipeline> {
  pipe = makePipeline(checks ? { declarations: declarations() } : { checks: false });
  stack.instrumentation.setTracerProvider(pipe.provider);
  stub = await startStubAnthropic(anthropicScriptOf(scenario));
  const client = new Anthropic({ apiKey: 'sk-ant-stub', baseURL: stub.baseURL, maxRetries: 0 });
  await runAnthropicConversation(client, scenario);
  expect(stub.remaining()).toBe(0);
  await pipe.provider.forceFlush();
  return pipe;
}

async function runRefused(scenario: RefusedScenario, checks = true): Promise<Pipeline> {
  pipe = makePipeline(checks ? { declarations: declarations() } : { checks: false });
  stack.instrumentation.setTracerProvider(pipe.provider);
  stub = await startStubAnthropic(refusedScriptOf(scenario));
  const client = new Anthropic({ apiKey: 'sk-ant-stub', baseURL: stub.baseURL, maxRetries: 0 });
  await runRefusedConversation(client, scenario);
  expect(stub.remaining()).toBe(0);
  await pipe.provider.forceFlush();
  return pipe;
}

function record(scenario: ScenarioName | RefusedScenario, spans: readonly ReadableSpan[]): void {
  const dir = join(FIXTURES_DIR, stack.library);
  mkdirSync(dir, { recursive: true });
  const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans as ReadableSpan[])!));
  writeFileSync(join(dir, `${scenario}.otlp.json`), `${JSON.stringify(json, null, 2)}\n`);
}

  describe(`live: @anthropic-ai/sdk + ${stack.scope}`, () => {
    const llm = (p: Pipeline) => p.next.received.filter((x) => x.instrumentationScope.name === stack.scope);

    if (process.env.FP_RECORD === '1')
      it('records the fixtures (pass-through run)', async () => {
        for (const scenario of ['backup-triage', 'clean-control'] as const) {
          const p = await run(scenario, false);
          record(scenario, p.next.received);
          await p.shutdown();
          await stub?.close();
          pipe = stub = undefined;
        }
        for (const scenario of ['refused-read', 'refused-read-admitted'] as const) {
          const p = await runRefused(scenario, false);
          record(scenario, p.next.received);
          await p.shutdown();
          await stub?.close();
          pipe = stub = undefined;
        }
      });

    it('backup-triage: every span reaches next once, in order; the finding lands on the message span that chose backup_status', async () => {
      const p = await run('backup-triage');
      expect(llm(p).length, 'one span per Messages request').toBe(5);
      expect(assertPassedThrough(p).carriers).toEqual([]);
      expect(p.fp.stats().errors).toBe(0);
      const chooser = llm(p).find((s) => String(s.attributes[stack.outputKey] ?? '').includes('call_bt_003'));
      expect(chooser, 'the span of request 4 reached next').toBeDefined();
      const unsupported = p.next.received.flatMap((s) => findingEvents(s).filter((e) => e.attributes?.[ATTR_FINDING_KIND] === 'unsupported-argument').map((e) => ({ s, e })));
      expect(unsupported.map((u) => `${u.s.name} ${u.s.spanContext().spanId}`)).toEqual([`${chooser!.name} ${chooser!.spanContext().spanId}`]);
      expect(unsupported[0]!.e.attributes).toMatchObject({ [ATTR_FINDING_PREDICATE]: 'args.machine_id', [ATTR_TOOL_NAME]: 'backup_status' });
    });

    it('clean-control: passes through, and no finding', async () => {
      const p = await run('clean-control');
      expect(llm(p).length).toBe(3);
      assertPassedThrough(p);
      assertNoFindings(p.next.received);
    });

    it('parallel tool use: two tool_use blocks in one message, both results sent back in one user message', async () => {
      const p = await run('clean-control');
      const bodies = stub!.requests.map((r) => r.body as { messages: { role: string; content: unknown }[] });
      const third = bodies[2]!.messages;
      const last = third.at(-1) as { role: string; content: { type: string; tool_use_id: string }[] };
      expect(last.role).toBe('user');
      expect(last.content.map((b) => [b.type, b.tool_use_id])).toEqual([['tool_result', 'call_cc_002'], ['tool_result', 'call_cc_003']]);
      expect(llm(p).length).toBe(3);
    });

    it('is_error: a failed read beside a successful one, then an answer that calls the jobs list empty: refusal-asserts-absence on backup_jobs', async () => {
      const p = await runRefused('refused-read');
      expect(assertPassedThrough(p).carriers).toEqual([]);
      const sent = (stub!.requests[2]!.body as { messages: { content: unknown }[] }).messages.at(-1)!.content as { tool_use_id: string; is_error?: boolean }[];
      expect(sent.map((b) => [b.tool_use_id, b.is_error === true])).toEqual([['call_rr_002', false], ['call_rr_003', true]]);
      const all = p.next.received.flatMap((s) => findingEvents(s).map((e) => ({ s, e })));
      expect(all.map((x) => [x.e.attributes?.[ATTR_FINDING_KIND], x.e.attributes?.[ATTR_TOOL_NAME]])).toEqual([['refusal-asserts-absence', 'backup_jobs']]);
      expect(all[0]!.s).toBe(llm(p).at(-1));
      expect(String(all[0]!.e.attributes?.[ATTR_FINDING_MESSAGE])).toContain(REFUSED_ERROR.slice(0, 30));
    });

    it('is_error control: the answer admits the failure, no finding', async () => {
      const p = await runRefused('refused-read-admitted');
      assertPassedThrough(p);
      assertNoFindings(p.next.received);
    });

    it('records what its convention says it records', async () => {
      const p = await run('backup-triage');
      expect(p.next.received.filter((s) => s.instrumentationScope.name === 'com.anthropic.sdk.typescript'), 'the SDK\'s own spans are off').toEqual([]);
      stack.recorded?.(llm(p));
    });
  });
}
