// Live: tools served over MCP (`@modelcontextprotocol/sdk` Server + Client over Streamable HTTP on
// 127.0.0.1) under `@traceloop/instrumentation-mcp@0.27.0` (a `{tool}.tool` CLIENT span per
// tools/call, traceloop.entity.input/output) and `@arizeai/openinference-instrumentation-mcp@0.2.33`
// (context propagation in the request's `_meta`: it writes no spans), with the model behind
// `openai@6` + `@traceloop/instrumentation-openai` against the OpenAI stub. Measured: traceloop-mcp
// parents every tools/call span under the `mcp.client.session` span it opened at connect(), so
// the calls sit in the session's trace, not in the turn that made them; openinference-mcp does
// carry the caller's context to the server over HTTP, and that context is traceloop's tool span (the
// server's handler runs in the session's trace too). The MCP call is joined to the model's tool call through the app's execute_tool
// span (traceTool with the call id) around it, which is what footprint reads. Then the same
// recording as the collector's genainormalizer would forward it (test/fixtures/standards-build.mjs):
// the turns' findings are unchanged, and the session's MCP spans are read in their own trace.
// No JavaScript MCP instrumentation writes the MCP semantic conventions' `tools/call {tool}` spans
// yet: that form is read from test/fixtures/mcp-semconv (test/conventions/standards-fixtures.test.ts).
// backup-triage: the one unsupported-argument; clean-control: none. FP_RECORD=1 rewrites test/fixtures/traceloop-mcp/.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { McpInstrumentation } from '@traceloop/instrumentation-mcp';
import { MCPInstrumentation } from '@arizeai/openinference-instrumentation-mcp';
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as clientStreamableHTTPModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as serverStreamableHTTPModule from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { makePipeline, assertPassedThrough, type Pipeline } from '../processor/harness.js';
import { startStubOpenAI, type StubOpenAI } from '../processor/stub-openai.js';
import { assertBackupTriageFinding, assertNoFindings, declarations, scriptOf, type ChatClient, type ScenarioName } from '../processor/scenario.js';
import { runMcpConversation, startMcp, type ServedCall } from './scenario-mcp.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { FootprintCore } from '../../src/runs/footprint.js';
// @ts-expect-error: a plain .mjs build script without types
import { genaiNormalizer } from '../fixtures/standards-build.mjs';

const LIBRARY = 'traceloop-mcp';
const mcpInstrumentation = new McpInstrumentation({ traceContent: true });
const oiMcp = new MCPInstrumentation();
const openaiInstrumentation = new OpenAIInstrumentation({ traceContent: true });
let OpenAI: new (opts: { apiKey: string; baseURL: string; maxRetries?: number }) => ChatClient;
let unregister: () => void;
beforeAll(() => {
  // What NodeTracerProvider.register() or the NodeSDK set up in an app: openinference-mcp injects
  // the caller's context into params._meta with the global propagator.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  unregister = registerInstrumentations({ instrumentations: [openaiInstrumentation, mcpInstrumentation, oiMcp] });
  mcpInstrumentation.manuallyInstrument({ Client });
  oiMcp.manuallyInstrument({ clientStreamableHTTPModule, serverStreamableHTTPModule });
  OpenAI = createRequire(import.meta.url)('openai').OpenAI;
});
afterAll(() => {
  unregister();
  propagation.disable();
});

let pipe: Pipeline | undefined;
let stub: StubOpenAI | undefined;
let mcp: Awaited<ReturnType<typeof startMcp>> | undefined;
afterEach(async () => {
  await mcp?.close();
  await pipe?.shutdown();
  await stub?.close();
  pipe = stub = mcp = undefined;
});

async function run(scenario: ScenarioName, checks = true): Promise<{ p: Pipeline; served: ServedCall[]; sessionId: string | undefined }> {
  pipe = makePipeline(checks ? { declarations: declarations() } : { checks: false });
  for (const i of [openaiInstrumentation, mcpInstrumentation, oiMcp]) i.setTracerProvider(pipe.provider);
  stub = await startStubOpenAI(scriptOf(scenario));
  mcp = await startMcp(scenario);
  expect(mcp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  await runMcpConversation(new OpenAI({ apiKey: 'sk-stub', baseURL: stub.baseURL, maxRetries: 0 }), mcp.client, scenario);
  expect(stub.remaining()).toBe(0);
  const { served } = mcp;
  const sessionId = mcp.sessionId();
  await mcp.close();
  mcp = undefined;
  await pipe.provider.forceFlush();
  return { p: pipe, served, sessionId };
}

const toolSpans = (p: Pipeline) => p.next.received.filter((s) => s.name.endsWith('.tool'));
const otlpJson = (spans: readonly ReadableSpan[]) => JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans as ReadableSpan[])!)) as unknown;

describe('live: MCP tools over Streamable HTTP on 127.0.0.1 (traceloop-mcp, openinference-mcp) + openai@6 + traceloop-openai', () => {
  if (process.env.FP_RECORD === '1')
    it('records the fixtures (pass-through runs)', async () => {
      for (const scenario of ['backup-triage', 'clean-control'] as const) {
        const { p } = await run(scenario, false);
        const dir = join(FIXTURES_DIR, LIBRARY);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${scenario}.otlp.json`), `${JSON.stringify(otlpJson(p.next.received), null, 2)}\n`);
        await p.shutdown();
        await stub?.close();
        pipe = stub = undefined;
      }
    });

  it('backup-triage: MCP calls sit under the session span, not the turn, on both sides of the HTTP hop; the one finding', async () => {
    const { p, served, sessionId } = await run('backup-triage');
    expect(assertPassedThrough(p).carriers).toEqual([]);
    expect(sessionId, 'a Streamable HTTP session').toMatch(/^[0-9a-f-]{36}$/);
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
    // openinference-mcp carried the caller's context across the HTTP hop (params._meta), and that
    // context is traceloop-mcp's own tool span: each call ran, on the server, inside the `{tool}.tool`
    // span in the session's trace, so a server-side span would join the session, not the turn.
    expect(served.map((c) => c.name)).toEqual(['list_machines', 'backup_jobs', 'backup_status']);
    expect(served.map((c) => [c.traceId, c.spanId])).toEqual(calls.map((s) => [s.spanContext().traceId, s.spanContext().spanId]));
    assertBackupTriageFinding(p.next.received);
  });

  it('the same recording as a genainormalizer forwards it: the turns\' findings unchanged, the session\'s MCP spans read in their own trace', async () => {
    const { p } = await run('backup-triage', false);
    const recorded = decodeOtlpJsonText(JSON.stringify(otlpJson(p.next.received)), 'recorded').spans.map((s) => s.span);
    const normalised = decodeOtlpJsonText(JSON.stringify(genaiNormalizer(otlpJson(p.next.received), { removeOriginals: true })), 'normalised').spans.map((s) => s.span);
    const findings = (spans: typeof recorded) => new FootprintCore({ declarations: declarations() }).process({ spans }).findings;
    const before = findings(recorded);
    const after = findings(normalised);
    const turnTraces = new Set(p.next.received.filter((s) => s.name.startsWith('invoke_agent')).map((s) => s.spanContext().traceId));
    const key = (f: (typeof before)[number]) => `${f.kind} ${f.span.spanId} ${f.toolCallId ?? '-'} ${f.predicate}`;
    expect(after.filter((f) => turnTraces.has(f.span.traceId)).map(key).sort()).toEqual(before.map(key).sort());
    expect(before.map((f) => f.kind)).toContain('unsupported-argument');
    // The normaliser makes traceloop's tool spans execute_tool spans; in the session's trace they
    // are read as tool calls of their own (the empty lookup is found there too, on the MCP span).
    const session = after.filter((f) => !turnTraces.has(f.span.traceId));
    expect(session.map((f) => [f.kind, f.toolName])).toEqual([['empty-lookup', 'backup_status']]);
    expect(normalised.find((s) => s.spanId === session[0]!.span.spanId)?.name).toBe('backup_status.tool');
  });

  it('clean-control: passes through, and no finding', async () => {
    const { p } = await run('clean-control');
    expect(toolSpans(p)).toHaveLength(3);
    assertPassedThrough(p);
    assertNoFindings(p.next.received);
  });
});
