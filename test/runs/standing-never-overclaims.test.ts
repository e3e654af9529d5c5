// A standing that never overclaims (issue 27): `consistent` only when the turn's calls ran and were
// seen. A refused call of a tool declared with argumentsFrom only cannot back "the user has no …"
// (a finding, and not-sure), with or without the app's execute_tool span; a call no record shows
// the result of, and a turn with no call whose answer states values, are not-sure too. And a call
// whose LLM span lost its arguments (`{}`, Traceloop's Anthropic streaming) is judged with the ones
// its execute_tool span, or a later window, recorded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FootprintCore } from '../../src/runs/footprint.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { declarations } from '../processor/scenario.js';
import type { SpanData } from '../../src/model/telemetry.js';
import type { Declarations } from '../../src/declarations/types.js';
import { ATTR_ANSWER_REASONS, ATTR_ANSWER_STANDING, ATTR_ANSWER_STATEMENT, EVENT_ANSWER_STANDING } from '../../src/findings/names.js';

const TRACE = 'b'.repeat(32);
let clock = 1_764_000_000_000_000_000n;
let ids = 0;
const spanId = () => (++ids).toString(16).padStart(16, '0');
const base = (name: string, attributes: Record<string, unknown>): SpanData => {
  const start = (clock += 1_000_000n);
  return {
    traceId: TRACE,
    spanId: spanId(),
    name,
    kind: 3,
    startTimeUnixNano: start,
    endTimeUnixNano: start + 500_000n,
    attributes: { 'gen_ai.conversation.id': 'conv-standing', ...attributes } as SpanData['attributes'],
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'support-agent' },
    scope: { name: 'test-genai' },
  };
};

type Part = Record<string, unknown>;
const text = (content: string): Part => ({ type: 'text', content });
const toolCall = (id: string, name: string, args: unknown): Part => ({ type: 'tool_call', id, name, arguments: args });
const toolResult = (id: string, response: unknown): Part => ({ type: 'tool_call_response', id, response });

function chat(window: { role: string; parts: Part[] }[], output: Part[]): SpanData {
  return base('chat gpt-4o', {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o',
    'gen_ai.input.messages': JSON.stringify(window),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: output, finish_reason: output.some((p) => p.type === 'tool_call') ? 'tool_call' : 'stop' }]),
  });
}

function executeTool(id: string, name: string, args: unknown, result: unknown): SpanData {
  return base(`execute_tool ${name}`, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    'gen_ai.tool.call.id': id,
    'gen_ai.tool.call.arguments': JSON.stringify(args),
    'gen_ai.tool.call.result': typeof result === 'string' ? result : JSON.stringify(result),
  });
}

const DECLARED: Declarations = {
  tools: {
    find_user: { readOnly: true },
    // argumentsFrom only: never said to be a read, never said to be a write.
    list_subscriptions: { argumentsFrom: ['find_user'] },
  },
  answers: { checkValues: true },
};

const SYSTEM = { role: 'system', parts: [text('You are a billing support agent.')] };
const USER = { role: 'user', parts: [text('Does alice have any active subscriptions?')] };
const FOUND = '[{"user_id":"u-1042","name":"alice"}]';
const DENIED = 'permission denied: reading subscriptions of u-1042 needs the billing scope';

/** One turn: find_user, then list_subscriptions (refused), then the answer; with or without the app's tool spans. */
function refusedTurn(answer: string, toolSpans: boolean): SpanData[] {
  const w1 = [SYSTEM, USER];
  const c1 = { role: 'assistant', parts: [toolCall('call_1', 'find_user', { name: 'alice' })] };
  const r1 = { role: 'tool', parts: [toolResult('call_1', FOUND)] };
  const c2 = { role: 'assistant', parts: [toolCall('call_2', 'list_subscriptions', { user_id: 'u-1042' })] };
  const r2 = { role: 'tool', parts: [toolResult('call_2', DENIED)] };
  const spans = [
    chat(w1, [toolCall('call_1', 'find_user', { name: 'alice' })]),
    ...(toolSpans ? [executeTool('call_1', 'find_user', { name: 'alice' }, FOUND)] : []),
    chat([...w1, c1, r1], [toolCall('call_2', 'list_subscriptions', { user_id: 'u-1042' })]),
    ...(toolSpans ? [executeTool('call_2', 'list_subscriptions', { user_id: 'u-1042' }, DENIED)] : []),
    chat([...w1, c1, r1, c2, r2], [text(answer)]),
  ];
  return spans;
}

function standingOf(spans: SpanData[], decl: Declarations) {
  const core = new FootprintCore({ declarations: decl });
  const r = core.process({ spans });
  const ev = [...r.annotations.values()].flatMap((a) => a.events).find((e) => e.name === EVENT_ANSWER_STANDING);
  return { findings: r.findings, standing: ev?.attributes[ATTR_ANSWER_STANDING], reasons: ev?.attributes[ATTR_ANSWER_REASONS], statement: String(ev?.attributes[ATTR_ANSWER_STATEMENT] ?? '') };
}

describe('a refused call of a tool declared with argumentsFrom only', () => {
  for (const toolSpans of [true, false]) {
    it(`"the user has no …" after "permission denied" draws refusal-asserts-absence and stands not-sure (${toolSpans ? 'app execute_tool spans' : 'LLM spans only: rows from the windows'})`, () => {
      const s = standingOf(refusedTurn('The user has no active subscriptions.', toolSpans), DECLARED);
      expect(s.findings.map((f) => [f.kind, f.toolName, f.toolCallId])).toEqual([['refusal-asserts-absence', 'list_subscriptions', 'call_2']]);
      expect(s.findings[0]!.message).toContain('permission denied');
      expect(s.standing).toBe('not-sure');
      expect(s.reasons).toEqual(['refused-read', 'answer-check-failed']);
      expect(s.statement).toContain(`'list_subscriptions' (call call_2) was called with "{"user_id":"u-1042"}" as sent by the model and was refused: "${DENIED}", as the tool's result says.`);
    });
    it(`the answer that admits the refusal draws no finding, and still stands not-sure (${toolSpans ? 'spans' : 'windows'})`, () => {
      const s = standingOf(refusedTurn("I could not read alice's subscriptions: permission was denied for the billing scope.", toolSpans), DECLARED);
      expect(s.findings).toEqual([]);
      expect(s.standing).toBe('not-sure');
      expect(s.reasons).toEqual(['refused-read']);
    });
  }

  it('declared a write (readOnly: false), the refusal is no read: no finding, and the standing says refused-write', () => {
    const decl: Declarations = { ...DECLARED, tools: { ...DECLARED.tools, list_subscriptions: { argumentsFrom: ['find_user'], readOnly: false } } };
    const s = standingOf(refusedTurn('The user has no active subscriptions.', false), decl);
    expect(s.findings).toEqual([]);
    expect(s.standing).toBe('not-sure');
    expect(s.reasons).toEqual(['refused-write']);
  });
});

describe('no overclaiming from silence', () => {
  it('a call whose result no span and no later window recorded: result-not-recorded', () => {
    const w1 = [SYSTEM, USER];
    const c1 = { role: 'assistant', parts: [toolCall('call_1', 'find_user', { name: 'alice' })] };
    // The app sent the model's call back, but not its result (a trimmed window), and exported no tool span.
    const spans = [chat(w1, [toolCall('call_1', 'find_user', { name: 'alice' })]), chat([...w1, c1], [text('alice has no active subscriptions.')])];
    const s = standingOf(spans, DECLARED);
    expect(s.standing).toBe('not-sure');
    expect(s.reasons).toEqual(['result-not-recorded']);
    expect(s.statement).toContain(`'find_user' (call call_1) was called with "{"name":"alice"}" as sent by the model, but no record of its result was seen`);
  });

  it('no call this turn, and the answer states a value the user did not give: no-read; restating the user\'s own value: consistent', () => {
    const states = standingOf([chat([SYSTEM, USER], [text('alice (u-1042) has subscription SUB-77120, active.')])], DECLARED);
    expect(states.standing).toBe('not-sure');
    expect(states.reasons).toEqual(expect.arrayContaining(['no-read']));
    expect(states.statement).toContain('No tool was called this turn');
    const asks = standingOf([chat([SYSTEM, { role: 'user', parts: [text('My user id is u-1042.')] }], [text('Thanks: which subscription of u-1042 do you mean?')])], DECLARED);
    expect(asks.reasons).toEqual([]);
    expect(asks.standing).toBe('consistent');
  });
});

describe('arguments lost on the LLM span ({}: Traceloop Anthropic streaming)', () => {
  /** The recorded traceloop-anthropic conversation with every tool_use in the responses recorded as `{}`. */
  function streamed(keepToolSpans: boolean): SpanData[] {
    const path = join(FIXTURES_DIR, 'traceloop-anthropic', 'backup-triage.otlp.json');
    const spans = decodeOtlpJsonText(readFileSync(path, 'utf8'), path).spans.map((d) => d.span);
    return spans
      .filter((s) => keepToolSpans || !s.name.startsWith('execute_tool'))
      .map((s) => {
        const out = s.attributes['gen_ai.output.messages'];
        if (typeof out !== 'string') return s;
        const msgs = JSON.parse(out) as { parts: { type: string; arguments?: unknown }[] }[];
        for (const m of msgs) for (const p of m.parts) if (p.type === 'tool_call') p.arguments = {};
        return { ...s, attributes: { ...s.attributes, 'gen_ai.output.messages': JSON.stringify(msgs) } };
      });
  }
  const ua = (spans: SpanData[]) => new FootprintCore({ declarations: declarations() }).process({ spans }).findings.filter((f) => f.kind === 'unsupported-argument');

  it('recorded as {}, the choice is still judged: with the execute_tool spans, by their arguments; without them, by the next window\'s', () => {
    const full = (() => {
      const path = join(FIXTURES_DIR, 'traceloop-anthropic', 'backup-triage.otlp.json');
      return decodeOtlpJsonText(readFileSync(path, 'utf8'), path).spans.map((d) => d.span);
    })();
    const expected = ua(full).map((f) => [f.span.spanId, f.toolName, f.toolCallId, f.predicate, f.value]);
    expect(expected).toEqual([[expect.any(String), 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full']]);
    for (const keep of [true, false]) expect(ua(streamed(keep)).map((f) => [f.span.spanId, f.toolName, f.toolCallId, f.predicate, f.value])).toEqual(expected);
  });
});
