// Live: a Mastra agent (@mastra/core 0.24.9, the newest that runs on Node 20) with its AI tracing
// exported by @mastra/otel-exporter 0.3.3 (`exporter:` = our in-process SpanExporter, which hands
// each converted span to FootprintSpanProcessor), the model via @ai-sdk/openai 2 (`openai.chat`)
// on the OpenAI stub on 127.0.0.1. Pins what Mastra's spans hold and that footprint does NOT read
// them (no convention matches); it must never claim a finding on Mastra spans. FP_RECORD=1
// rewrites test/fixtures/mastra/*.otlp.json.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core';
import { createTool } from '@mastra/core/tools';
import { OtelExporter } from '@mastra/otel-exporter';
import { createOpenAI } from '@ai-sdk/openai-v2';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { readSpan } from '../../src/conventions/registry.js';
import { toSpanData } from '../../src/processor/sdk-span.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { MASTRA_0X_NOT_READ } from '../../src/conventions/mastra-export.js';
import { makePipeline, assertPassedThrough, type Pipeline } from './harness.js';
import { startStubOpenAI, type StubOpenAI } from './stub-openai.js';
import { assertNoFindings, declarations, expectedOf, MODEL, scriptOf, TOOLS, toolResult, type ScenarioName } from './scenario.js';

/** Mastra's exporter hands finished spans here; each goes through the tap and footprint, in order. */
class ForwardExporter implements SpanExporter {
  constructor(private readonly pipe: Pipeline) {}
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    for (const s of spans) {
      this.pipe.tap.onEnd(s);
      this.pipe.fp.onEnd(s);
    }
    done({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

let pipe: Pipeline | undefined;
let stub: StubOpenAI | undefined;
afterEach(async () => {
  await pipe?.shutdown();
  await stub?.close();
  pipe = stub = undefined;
});

const desc = (name: string) => TOOLS.find((t) => t.function.name === name)!.function.description;

async function run(scenario: ScenarioName, withFootprint = true): Promise<Pipeline> {
  pipe = makePipeline(withFootprint ? { declarations: declarations() } : { checks: false });
  stub = await startStubOpenAI(scriptOf(scenario));
  const openai = createOpenAI({ apiKey: 'sk-stub', baseURL: stub.baseURL });
  const exp = expectedOf(scenario);
  const system = (exp.requests[0]!.window[0] as { content: string }).content;
  const mk = (id: string, schema: z.ZodTypeAny) =>
    createTool({ id, description: desc(id), inputSchema: schema, execute: async (_c, opts) => JSON.parse(toolResult(scenario, (opts as { toolCallId: string }).toolCallId)) as unknown });
  const tools = {
    list_machines: mk('list_machines', z.object({ customer: z.string().describe('Customer account name.') })),
    backup_jobs: mk('backup_jobs', z.object({ machine_id: z.string(), statuses: z.array(z.enum(['ok', 'failed', 'running'])).optional() })),
    backup_status: mk('backup_status', z.object({ machine_id: z.string(), window: z.object({ days: z.number().int().min(1).max(90) }).optional() })),
  };
  const agent = new Agent({ name: exp.agentName, instructions: system, model: openai.chat(MODEL), tools });
  const otel = new OtelExporter({ exporter: new ForwardExporter(pipe), provider: { custom: { endpoint: 'http://127.0.0.1:9/v1/traces', protocol: 'http/json' } } });
  const mastra = new Mastra({ agents: { triage: agent }, telemetry: { enabled: false }, observability: { configs: { otel: { serviceName: exp.agentName, exporters: [otel] } } }, logger: false });
  const memory: ({ role: 'user'; content: string } | { role: 'assistant'; content: string })[] = [];
  for (const turn of exp.turns) {
    const r = await mastra.getAgent('triage').generate([...memory, { role: 'user' as const, content: turn.user }], { maxSteps: 8, threadId: exp.conversationId, resourceId: 'acme' });
    memory.push({ role: 'user', content: turn.user }, { role: 'assistant', content: r.text });
  }
  expect(stub.remaining()).toBe(0);
  await mastra.shutdown(); // flushes the exporter's BatchSpanProcessor
  await pipe.fp.forceFlush();
  return pipe;
}

function record(scenario: ScenarioName, spans: readonly ReadableSpan[]): void {
  const dir = join(FIXTURES_DIR, 'mastra');
  mkdirSync(dir, { recursive: true });
  const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans as ReadableSpan[])!)) as unknown;
  writeFileSync(join(dir, `${scenario}.otlp.json`), `${JSON.stringify(json, null, 2)}\n`);
}

const ofType = (p: Pipeline, t: string) => p.next.received.filter((s) => s.attributes['mastra.span.type'] === t);

describe('live: @mastra/core 0.24.9 + @mastra/otel-exporter 0.3.3 (AI tracing)', () => {
  if (process.env.FP_RECORD === '1')
    it('records the fixtures (pass-through runs)', async () => {
      for (const scenario of ['backup-triage', 'clean-control'] as const) {
        const p = await run(scenario, false);
        record(scenario, p.next.received.filter((s) => s.instrumentationScope.name === '@mastra/otel'));
        await p.shutdown();
        await stub?.close();
        pipe = stub = undefined;
      }
    });

  it('backup-triage: what the spans hold (scope @mastra/otel; one trace per turn; content as Mastra JSON, not GenAI messages)', async () => {
    const p = await run('backup-triage');
    const { carriers } = assertPassedThrough(p);
    expect(carriers).toEqual([]);
    expect(p.fp.stats().errors).toBe(0);
    // @mastra/core's legacy telemetry decorators still write `agent.*` / `mastra.*` / `workflow.*`
    // spans through the global tracer (scope default-tracer) with telemetry disabled; the AI
    // tracing export is the `@mastra/otel` scope, one trace per turn.
    const legacy = p.next.received.filter((s) => s.instrumentationScope.name !== '@mastra/otel');
    expect(legacy.length).toBeGreaterThan(0);
    for (const s of legacy) expect(s.name).toMatch(/^(agent|mastra|workflow)\./);
    const ai = p.next.received.filter((s) => s.instrumentationScope.name === '@mastra/otel');
    expect(new Set(ai.map((s) => s.spanContext().traceId)).size).toBe(2);
    // agent_run per turn: the conversation id is Mastra's threadId
    const runs = ofType(p, 'agent_run');
    expect(runs.map((s) => [s.name, s.attributes['gen_ai.agent.id'], s.attributes['threadId']])).toEqual([
      ['agent.backup-triage', 'backup-triage', 'conv-backup-triage-0001'],
      ['agent.backup-triage', 'backup-triage', 'conv-backup-triage-0001'],
    ]);
    // model_generation per turn (not per request): gen_ai.prompt = the turn's input messages as one JSON string
    const gens = ofType(p, 'model_generation');
    expect(gens.length).toBe(2);
    for (const g of gens) {
      expect(g.name).toBe(`chat ${MODEL}`);
      const prompt = JSON.parse(g.attributes['gen_ai.prompt'] as string) as { messages: { role: string }[] };
      expect(prompt.messages[0]!.role).toBe('system');
      expect(g.attributes['gen_ai.input.messages']).toBeUndefined();
      expect(g.attributes['gen_ai.response.id']).toBeUndefined();
    }
    // model_step per Chat Completions request: the request body is in `input`, with nested values cut to "[MaxDepth]"
    const steps = ofType(p, 'model_step');
    expect(steps.map((s) => s.attributes['id'])).toEqual(['001', '002', '003', '004', '005'].map((n) => `chatcmpl-backup-triage-${n}`));
    const body = (JSON.parse(steps[0]!.attributes['input'] as string) as { body: { messages: unknown[]; tools: unknown[] } }).body;
    expect(body.messages.length).toBe(2);
    expect(JSON.stringify(body.tools)).toContain('[MaxDepth]');
    // tool_call spans: name, description, input and output, but no call id
    const toolSpans = ofType(p, 'tool_call');
    for (const t of toolSpans) {
      expect(typeof t.attributes['gen_ai.tool.name']).toBe('string');
      expect(JSON.stringify(t.attributes)).not.toContain('call_bt_');
    }
    // nothing footprint reads: no finding anywhere
    assertNoFindings(p.next.received);
    // and the reader says why, in words true for Mastra: the content is there but holds no
    // request window (not "message content was not captured"); check's summary carries it
    // (live-stacks-check.test.ts)
    for (const g of gens) {
      const evs = readSpan(toSpanData(g), { limits: DEFAULT_LIMITS, diagnostics: new DiagnosticList(8), tenantAttribute: 'service.name' });
      expect(evs.map((e) => (e.kind === 'llm-request' ? [e.inputContent, e.contentNote] : e.kind))).toEqual([['not-captured', MASTRA_0X_NOT_READ]]);
    }
  });

  it("backup-triage: Mastra's OpenAI schema-compat rejects a call that omits an optional argument (the model gets a validation error, not the tool's result)", async () => {
    const p = await run('backup-triage');
    const toolMsgs = stub!.requests[2]!.body.messages as { role: string; tool_call_id?: string; content: string }[];
    const jobs = toolMsgs.find((m) => m.role === 'tool' && m.tool_call_id === 'call_bt_002')!;
    expect(jobs.content).toContain('Tool validation failed for backup_jobs');
    // so only list_machines runs in turn 1 (backup_jobs and turn 2's backup_status never execute)
    expect(ofType(p, 'tool_call').map((s) => s.attributes['gen_ai.tool.name'])).toEqual(['list_machines']);
  });

  it('clean-control: passes through, no finding', async () => {
    const p = await run('clean-control');
    assertPassedThrough(p);
    assertNoFindings(p.next.received);
  });

  it('each turn (one trace) gets one disposition, on the span that ends it, though nothing in it is read', async () => {
    const p = await run('backup-triage');
    const ai = p.next.received.filter((s) => s.instrumentationScope.name === '@mastra/otel');
    for (const traceId of new Set(ai.map((s) => s.spanContext().traceId))) {
      const d = p.next.received.filter((s) => s.spanContext().traceId === traceId && s.events.some((e) => e.name === 'footprint.disposition'));
      expect(d, `trace ${traceId}`).toHaveLength(1);
      expect(String(d[0]!.events.find((e) => e.name === 'footprint.disposition')!.attributes?.['footprint.disposition.summary'])).toContain(MASTRA_0X_NOT_READ);
    }
  });
});
