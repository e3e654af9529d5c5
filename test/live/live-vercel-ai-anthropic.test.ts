// Live: the Vercel AI SDK with its Anthropic provider (ai@6 + @ai-sdk/anthropic@3, Messages API,
// experimental_telemetry: the SDK writes every span itself) against the Anthropic stub on
// loopback, through FootprintSpanProcessor. The same four conversations as the Anthropic
// instrumentations: backup-triage (one unsupported-argument), clean-control (parallel tool use, no
// finding), refused-read (a tool that throws: the provider sends `is_error: true`; one
// refusal-asserts-absence) and its admitted control. FP_RECORD=1 rewrites
// test/fixtures/vercel-ai-anthropic/ from pass-through runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { makePipeline, assertPassedThrough, type Pipeline } from '../processor/harness.js';
import { startStubAnthropic, ANTHROPIC_MODEL, type StubAnthropic } from './stub-anthropic.js';
import { anthropicScriptOf, refusedScriptOf, REFUSED_CONVERSATION_ID, REFUSED_ERROR, REFUSED_RESULTS, REFUSED_USER, type RefusedScenario } from './scenario-anthropic.js';
import { assertNoFindings, declarations, expectedOf, findingEvents, TOOLS, toolResult, type ScenarioName } from '../processor/scenario.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { ATTR_FINDING_KIND, ATTR_FINDING_MESSAGE, ATTR_FINDING_PREDICATE, ATTR_TOOL_NAME } from '../../src/findings/names.js';

const LIBRARY = 'vercel-ai-anthropic';
let pipe: Pipeline | undefined;
let stub: StubAnthropic | undefined;
afterEach(async () => {
  await pipe?.shutdown();
  await stub?.close();
  pipe = stub = undefined;
});

type Scenario = ScenarioName | RefusedScenario;
const isRefused = (s: Scenario): s is RefusedScenario => s.startsWith('refused-read');

async function run(scenario: Scenario, checks = true): Promise<Pipeline> {
  pipe = makePipeline(checks ? { declarations: declarations() } : { checks: false });
  stub = await startStubAnthropic(isRefused(scenario) ? refusedScriptOf(scenario) : anthropicScriptOf(scenario));
  const anthropic = createAnthropic({ apiKey: 'sk-ant-stub', baseURL: `${stub.baseURL}/v1` });
  const exp = expectedOf('backup-triage');
  const system = (exp.requests[0]!.window[0] as { content: string }).content;
  const resultOf = (callId: string): string => {
    if (!isRefused(scenario)) return toolResult(scenario, callId);
    const r = REFUSED_RESULTS[callId];
    if (r === undefined) throw new Error(REFUSED_ERROR);
    return r;
  };
  const tools = Object.fromEntries(
    TOOLS.map((t) => [
      t.function.name,
      tool({
        description: t.function.description,
        inputSchema: jsonSchema(t.function.parameters as unknown as Parameters<typeof jsonSchema>[0]),
        execute: async (_input: unknown, { toolCallId }: { toolCallId: string }) => JSON.parse(resultOf(toolCallId)) as unknown,
      }),
    ]),
  );
  const turns = isRefused(scenario) ? [{ user: REFUSED_USER }] : expectedOf(scenario).turns;
  const conversationId = isRefused(scenario) ? REFUSED_CONVERSATION_ID : exp.conversationId;
  const memory: ModelMessage[] = [];
  for (const turn of turns) {
    const r = await generateText({
      model: anthropic(ANTHROPIC_MODEL),
      system,
      messages: [...memory, { role: 'user', content: turn.user }],
      tools,
      stopWhen: stepCountIs(8),
      maxRetries: 0,
      experimental_telemetry: { isEnabled: true, recordInputs: true, recordOutputs: true, functionId: exp.agentName, metadata: { conversationId } },
    });
    // The Messages API wants a user message first: the app keeps the question beside the answer.
    memory.push({ role: 'user', content: turn.user }, { role: 'assistant', content: r.text });
  }
  expect(stub.remaining()).toBe(0);
  await pipe.provider.forceFlush();
  return pipe;
}

function record(scenario: Scenario, spans: readonly ReadableSpan[]): void {
  const dir = join(FIXTURES_DIR, LIBRARY);
  mkdirSync(dir, { recursive: true });
  const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans as ReadableSpan[])!));
  writeFileSync(join(dir, `${scenario}.otlp.json`), `${JSON.stringify(json, null, 2)}\n`);
}

const doGenerate = (p: Pipeline) => p.next.received.filter((s) => s.name === 'ai.generateText.doGenerate');
const findings = (p: Pipeline) => p.next.received.flatMap((s) => findingEvents(s).map((e) => ({ s, e })));

describe('live: ai@6 + @ai-sdk/anthropic@3 (experimental_telemetry)', () => {
  if (process.env.FP_RECORD === '1')
    it('records the fixtures (pass-through runs)', async () => {
      for (const scenario of ['backup-triage', 'clean-control', 'refused-read', 'refused-read-admitted'] as const) {
        const p = await run(scenario, false);
        record(scenario, p.next.received);
        await p.shutdown();
        await stub?.close();
        pipe = stub = undefined;
      }
    });

  it('backup-triage: passes through; one unsupported-argument on the doGenerate span that chose backup_status', async () => {
    const p = await run('backup-triage');
    expect(doGenerate(p).length).toBe(5);
    expect(assertPassedThrough(p).carriers).toEqual([]);
    expect(p.fp.stats().errors).toBe(0);
    for (const s of doGenerate(p)) {
      expect(s.attributes['ai.model.provider']).toBe('anthropic.messages');
      expect(typeof s.attributes['ai.prompt.messages']).toBe('string');
      expect(Array.isArray(s.attributes['ai.prompt.tools'])).toBe(true);
      expect(s.attributes['ai.telemetry.metadata.conversationId']).toBe('conv-backup-triage-0001');
    }
    // The provider sent Anthropic's wire: system top-level, tool_result blocks in a user message.
    const body = stub!.requests[1]!.body as { system: unknown; messages: { role: string; content: { type: string }[] }[] };
    expect(JSON.stringify(body.system)).toContain('backup triage assistant');
    expect(body.messages.at(-1)!.content.map((b) => b.type)).toEqual(['tool_result']);
    const chooser = doGenerate(p).find((s) => String(s.attributes['ai.response.toolCalls'] ?? '').includes('call_bt_003'));
    const ua = findings(p).filter((x) => x.e.attributes?.[ATTR_FINDING_KIND] === 'unsupported-argument');
    expect(ua.map((x) => x.s)).toEqual([chooser]);
    expect(ua[0]!.e.attributes).toMatchObject({ [ATTR_FINDING_PREDICATE]: 'args.machine_id', [ATTR_TOOL_NAME]: 'backup_status' });
  });

  it('clean-control (parallel tool use): both tool_use blocks answered in one user message; no finding', async () => {
    const p = await run('clean-control');
    expect(doGenerate(p).length).toBe(3);
    const last = (stub!.requests[2]!.body as { messages: { role: string; content: { type: string; tool_use_id: string }[] }[] }).messages.at(-1)!;
    expect(last.content.map((b) => [b.type, b.tool_use_id])).toEqual([['tool_result', 'call_cc_002'], ['tool_result', 'call_cc_003']]);
    assertPassedThrough(p);
    assertNoFindings(p.next.received);
  });

  it('refused-read: the thrown tool goes back as is_error: true; refusal-asserts-absence on backup_jobs', async () => {
    const p = await run('refused-read');
    const sent = (stub!.requests[2]!.body as { messages: { content: { tool_use_id: string; is_error?: boolean }[] }[] }).messages.at(-1)!.content;
    expect(sent.map((b) => [b.tool_use_id, b.is_error === true])).toEqual([['call_rr_002', false], ['call_rr_003', true]]);
    assertPassedThrough(p);
    const all = findings(p);
    expect(all.map((x) => [x.e.attributes?.[ATTR_FINDING_KIND], x.e.attributes?.[ATTR_TOOL_NAME]])).toEqual([['refusal-asserts-absence', 'backup_jobs']]);
    expect(String(all[0]!.e.attributes?.[ATTR_FINDING_MESSAGE])).toContain('locked by a maintenance window');
  });

  it('refused-read-admitted: no finding', async () => {
    const p = await run('refused-read-admitted');
    assertPassedThrough(p);
    assertNoFindings(p.next.received);
  });
});
