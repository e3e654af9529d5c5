// Live: @anthropic-ai/sdk@0.137 streaming (`stream: true`) + @traceloop/instrumentation-anthropic@0.27
// (issue 27). The instrumentation reads a streamed tool_use from its content_block_start only, so
// every tool call is recorded with `{}` arguments (its input arrives in input_json_delta pieces
// it does not read). The choice is still judged: with the app's execute_tool spans by their
// arguments, and without them by the next request's window (the app sends the whole tool_use back).
// backup-triage: the unsupported-argument on backup_status (call_bt_003) names the message span that
// chose it, as in the non-streaming suite (live-anthropic-suite.ts); judged only once the
// arguments are known, after that span went on, it rides a carrier span parented to it.
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind, trace } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { AnthropicInstrumentation } from '@traceloop/instrumentation-anthropic';
import { makePipeline, assertPassedThrough, type Pipeline } from './harness.js';
import { startStubAnthropic, ANTHROPIC_MODEL, type StubAnthropic } from './stub-anthropic.js';
import { anthropicScriptOf, ANTHROPIC_TOOLS } from './scenario-anthropic.js';
import { declarations, expectedOf, findingEvents, toolResult } from './scenario.js';
import { traceAgentTurn, traceTool } from '../../src/trace/index.js';
import { ATTR_CARRIER_SUBJECT_SPAN_ID, ATTR_FINDING_KIND, ATTR_FINDING_PREDICATE, ATTR_FINDING_VALUE, ATTR_TOOL_CALL_ID, ATTR_TOOL_NAME } from '../../src/findings/names.js';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
type StreamEvent = { type: string; index?: number; content_block?: Block; delta?: { type: string; text?: string; partial_json?: string } };
interface StreamingClient {
  messages: { create(body: Record<string, unknown>): Promise<AsyncIterable<StreamEvent>> };
}

/** The blocks of one streamed response, as an app assembles them from the events. */
async function collect(stream: AsyncIterable<StreamEvent>): Promise<Block[]> {
  const blocks: Block[] = [];
  const json: string[] = [];
  for await (const e of stream) {
    if (e.type === 'content_block_start') {
      blocks[e.index!] = { ...e.content_block! } as Block;
      json[e.index!] = '';
    } else if (e.type === 'content_block_delta') {
      const b = blocks[e.index!]!;
      if (e.delta?.type === 'text_delta' && b.type === 'text') b.text += e.delta.text ?? '';
      if (e.delta?.type === 'input_json_delta') json[e.index!] += e.delta.partial_json ?? '';
    } else if (e.type === 'content_block_stop') {
      const b = blocks[e.index!]!;
      if (b.type === 'tool_use' && json[e.index!]) b.input = JSON.parse(json[e.index!]!);
    }
  }
  return blocks;
}

const SCOPE = '@traceloop/instrumentation-anthropic';
const instrumentation = new AnthropicInstrumentation({ traceContent: true });
let Anthropic: new (opts: { apiKey: string; baseURL: string; maxRetries?: number }) => StreamingClient;
let unregister: () => void;
beforeAll(() => {
  process.env.ANTHROPIC_OPEN_TELEMETRY = 'false';
  unregister = registerInstrumentations({ instrumentations: [instrumentation] });
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

/** backup-triage, streamed; with the app's invoke_agent / execute_tool spans or without them. */
async function run(appSpans: boolean): Promise<Pipeline> {
  pipe = makePipeline({ declarations: declarations() });
  instrumentation.setTracerProvider(pipe.provider);
  stub = await startStubAnthropic(anthropicScriptOf('backup-triage'));
  const client = new Anthropic({ apiKey: 'sk-ant-stub', baseURL: stub.baseURL, maxRetries: 0 });
  const exp = expectedOf('backup-triage');
  const system = (exp.requests[0]!.window[0] as { content: string }).content;
  const memory: Record<string, unknown>[] = [];
  for (const turn of exp.turns) {
    const loop = async () => {
      const messages: Record<string, unknown>[] = [...memory, { role: 'user', content: turn.user }];
      for (let step = 0; step < 8; step++) {
        const content = await collect(await client.messages.create({ model: ANTHROPIC_MODEL, max_tokens: 1024, system, messages, tools: ANTHROPIC_TOOLS, stream: true }));
        const uses = content.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
        if (uses.length === 0) return content.filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('');
        messages.push({ role: 'assistant', content });
        const results: Record<string, unknown>[] = [];
        for (const u of uses) {
          const result = appSpans ? await traceTool(u.name, JSON.stringify(u.input), async () => toolResult('backup-triage', u.id), { callId: u.id }) : toolResult('backup-triage', u.id);
          results.push({ type: 'tool_result', tool_use_id: u.id, content: result });
        }
        messages.push({ role: 'user', content: results });
      }
      throw new Error('agent loop did not finish');
    };
    // Without app spans, each turn still runs under the app's ordinary root span (its HTTP handler),
    // which carries the conversation id from its start.
    const answer = appSpans
      ? await traceAgentTurn({ agentName: exp.agentName, conversationId: exp.conversationId, model: ANTHROPIC_MODEL, provider: 'anthropic' }, loop)
      : await trace.getTracer('support-app').startActiveSpan('POST /chat', { kind: SpanKind.SERVER, attributes: { 'gen_ai.conversation.id': exp.conversationId } }, async (root) => {
          try {
            return await loop();
          } finally {
            root.end();
          }
        });
    memory.push({ role: 'user', content: turn.user }, { role: 'assistant', content: answer });
  }
  expect(stub.remaining()).toBe(0);
  await pipe.provider.forceFlush();
  return pipe;
}

describe('live: @anthropic-ai/sdk streaming + @traceloop/instrumentation-anthropic', () => {
  const llm = (p: Pipeline) => p.next.received.filter((x) => x.instrumentationScope.name === SCOPE);

  for (const appSpans of [true, false]) {
    it(`tool calls recorded as {}; the unsupported-argument on backup_status is still found, on a carrier of the span that chose it (${appSpans ? "arguments from the app's execute_tool span" : "no app spans: arguments from the next request's window"})`, async () => {
      const p = await run(appSpans);
      const { carriers } = assertPassedThrough(p);
      expect(llm(p).length).toBe(5);
      // The recording's defect, which this test exists for: every chosen tool call has `{}` arguments.
      const chosen = llm(p).flatMap((s) => (JSON.parse(String(s.attributes['gen_ai.output.messages'])) as { parts: { type: string; id?: string; arguments?: unknown }[] }[]).flatMap((m) => m.parts.filter((x) => x.type === 'tool_call')));
      expect(chosen.map((c) => [c.id, c.arguments])).toEqual([
        ['call_bt_001', {}],
        ['call_bt_002', {}],
        ['call_bt_003', {}],
      ]);
      const chooser = llm(p).find((s) => String(s.attributes['gen_ai.output.messages']).includes('call_bt_003'))!;
      const ua = p.next.received.flatMap((s) => findingEvents(s).filter((e) => e.attributes?.[ATTR_FINDING_KIND] === 'unsupported-argument').map((e) => ({ s, e })));
      // Judged once the arguments were known, after the choosing span had gone on: the finding is
      // on a carrier span parented to it (src/runs/carrier.ts), naming it.
      expect(ua).toHaveLength(1);
      expect(carriers).toContain(ua[0]!.s);
      expect(ua[0]!.s.parentSpanContext?.spanId).toBe(chooser.spanContext().spanId);
      expect(ua[0]!.s.attributes[ATTR_CARRIER_SUBJECT_SPAN_ID]).toBe(chooser.spanContext().spanId);
      expect(ua[0]!.e.attributes).toMatchObject({ [ATTR_TOOL_NAME]: 'backup_status', [ATTR_TOOL_CALL_ID]: 'call_bt_003', [ATTR_FINDING_PREDICATE]: 'args.machine_id', [ATTR_FINDING_VALUE]: 'db-primary-full' });
      expect(p.fp.stats().errors).toBe(0);
    });
  }
});
