// Live: tools served over MCP (`@modelcontextprotocol/sdk` Server + Client on the in-memory
// transport) under `@traceloop/instrumentation-mcp@0.27.0` (a `{tool}.tool` CLIENT span per
// tools/call, traceloop.entity.input/output) and `@arizeai/openinference-instrumentation-mcp@0.2.33`
// (context propagation only: it writes no spans), with the model behind `openai@6` +
// `@traceloop/instrumentation-openai` against the OpenAI stub. Measured trap: traceloop-mcp parents
// every tools/call span under the `mcp.client.session` span it opened at connect(), so the calls
// sit in the session's trace, not in the turn that made them; the MCP call is joined to the model's
// tool call only through the app's execute_tool span (traceTool with the call id) around it, which
// is what footprint reads. backup-triage: the one unsupported-argument; clean-control: none. FP_RECORD=1 rewrites test/fixtures/traceloop-mcp/.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { McpInstrumentation } from '@traceloop/instrumentation-mcp';
import { MCPInstrumentation } from '@arizeai/openinference-instrumentation-mcp';
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makePipeline, assertPassedThrough, type Pipeline } from '../processor/harness.js';
import { startStubOpenAI, type StubOpenAI } from '../processor/stub-openai.js';
import { assertBackupTriageFinding, assertNoFindings, declarations, scriptOf, type ChatClient, type ScenarioName } from '../processor/scenario.js';
import { runMcpConversation, startMcp } from './scenario-mcp.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

const LIBRARY = 'traceloop-mcp';
const mcpInstrumentation = new McpInstrumentation({ traceContent: true });
const oiMcp = new MCPInstrumentation();
const openaiInstrumentation = new OpenAIInstrumentation({ traceContent: true });
let OpenAI: new (opts: { apiKey: string; baseURL: string; maxRetries?: number }) => ChatClient;
let unregister: () => void;
beforeAll(() => {
  unregister = registerInstrumentations({ instrumentations: [openaiInstrumentation, mcpInstrumentation, oiMcp] });
  mcpInstrumentation.manuallyInstrument({ Client });
  OpenAI = createRequire(import.meta.url)('openai').OpenAI;
});
afterAll(() => unregister());

let pipe: Pipeline | undefined;
let stub: StubOpenAI | undefined;
let mcp: Awaited<ReturnType<typeof startMcp>> | undefined;
afterEach(async () => {
  await mcp?.close();
  await pipe?.shutdown();
  await stub?.close();
  pipe = stub = mcp = undefined;
});

async function run(scenario: ScenarioName, checks = true): Promise<Pipeline> {
  pipe = makePipeline(checks ? { declarations: declarations() } : { checks: false });
  for (const i of [openaiInstrumentation, mcpInstrumentation, oiMcp]) i.setTracerProvider(pipe.provider);
  stub = await startStubOpenAI(scriptOf(scenario));
  mcp = await startMcp(scenario);
  await runMcpConversation(new OpenAI({ apiKey: 'sk-stub', baseURL: stub.baseURL, maxRetries: 0 }), mcp.client, scenario);
  expect(stub.remaining()).toBe(0);
  await mcp.close();
  mcp = undefined;
  await pipe.provider.forceFlush();
  return pipe;
}

const toolSpans = (p: Pipeline) => p.next.received.filter((s) => s.name.endsWith('.tool'));

describe('live: MCP tools (traceloop-mcp, openinference-mcp) + openai@6 + traceloop-openai', () => {
  if (process.env.FP_RECORD === '1')
    it('records the fixtures (pass-through runs)', async () => {
      for (const scenario of ['backup-triage', 'clean-control'] as const) {
        const p = await run(scenario, false);
        const dir = join(FIXTURES_DIR, LIBRARY);
        mkdirSync(dir, { recursive: true });
        const json = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(p.next.received as ReadableSpan[])!));
        writeFileSync(join(dir, `${scenario}.otlp.json`), `${JSON.stringify(json, null, 2)}\n`);
        await p.shutdown();
        await stub?.close();
        pipe = stub = undefined;
      }
    });

  it('backup-triage: MCP calls sit under the session span, not the turn; the app\'s execute_tool spans carry the join; the one finding', async () => {
    const p = await run('backup-triage');
    expect(assertPassedThrough(p).carriers).toEqual([]);
    const calls = toolSpans(p);
    expect(calls.map((s) => s.name)).toEqual(['list_machines.tool', 'backup_jobs.tool', 'backup_status.tool']);
    const byId = new Map(p.next.received.map((s) => [s.spanContext().spanId, s]));
    const executions = p.next.received.filter((s) => s.name.startsWith('execute_tool '));
    expect(executions.map((s) => s.attributes['gen_ai.tool.call.id'])).toEqual(['call_bt_001', 'call_bt_002', 'call_bt_003']);
    for (const [i, s] of calls.entries()) {
      const parent = byId.get(s.parentSpanContext?.spanId ?? '');
      expect(parent?.name, `${s.name}'s parent`).toBe('mcp.client.session');
      expect(s.spanContext().traceId, 'not in the turn\'s trace').not.toBe(executions[i]!.spanContext().traceId);
      expect(JSON.parse(String(s.attributes['traceloop.entity.input']))).toMatchObject({ tool_name: s.name.replace(/\.tool$/, '') });
      // the same arguments the model chose, and nothing that names the model's call
      expect(String(s.attributes['traceloop.entity.input'])).not.toContain('call_bt_');
    }
    expect(String(calls[2]!.attributes['traceloop.entity.output'])).toContain('[]');
    expect(p.next.received.filter((s) => s.instrumentationScope.name.includes('openinference'))).toEqual([]);
    assertBackupTriageFinding(p.next.received);
  });

  it('clean-control: passes through, and no finding', async () => {
    const p = await run('clean-control');
    expect(toolSpans(p)).toHaveLength(3);
    assertPassedThrough(p);
    assertNoFindings(p.next.received);
  });
});
