// Findings as the GenAI semantic conventions' `gen_ai.evaluation.result` events, in the three
// places footprint writes spans: the core (what `serve` and the processor apply), `check --write`
// and the in-process SpanProcessor on a real SDK. Every event is checked against the convention's
// attribute table (test/fixtures/semconv/gen-ai-evaluation-result.json): the required name, the
// types, only the convention's names in its namespaces, and parented to the span it evaluates.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FootprintCore, type EvaluationEvents } from '../../src/runs/footprint.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import type { Declarations } from '../../src/declarations/types.js';
import { runCheck } from '../../src/cli/check.js';
import { CHECK_CATALOG, checkOfKind } from '../../src/checks/catalog.js';
import type { Attributes, SpanData, SpanEventData } from '../../src/model/telemetry.js';
import { spanKey } from '../../src/model/telemetry.js';
import { traceAgentTurn, traceChat, traceTool } from '../../src/trace/index.js';
import { makePipeline, type Pipeline } from '../processor/harness.js';
import { evaluationRecords } from '../../src/service/evaluation-records.js';

const ROOT = join(__dirname, '..', '..');
const DEMO = join(ROOT, 'examples', 'backup-triage');
const TABLE = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/semconv/gen-ai-evaluation-result.json'), 'utf8')) as {
  event: string;
  attributes: Record<string, { requirement: string; type: 'string' | 'double' }>;
};
/** The labels footprint documents (docs/evaluation-events.md). */
const LABELS = ['fail', 'advisory', 'pass', 'not_run'];
const CHECK_NAMES = new Set(CHECK_CATALOG.map((c) => `footprint.${c.id}`));

/** Fails on anything in an evaluation event the convention's table does not allow. */
function expectConforms(e: { name: string; attributes: Record<string, unknown> }): void {
  expect(e.name).toBe(TABLE.event);
  for (const [key, spec] of Object.entries(TABLE.attributes)) {
    const v = e.attributes[key];
    if (spec.requirement === 'required') expect(v, `${key} is required`).toBeDefined();
    if (v === undefined) continue;
    if (spec.type === 'string') expect(typeof v, key).toBe('string');
    else expect(typeof v === 'number' && Number.isFinite(v), key).toBe(true);
  }
  // In the convention's namespaces, only the table's names: nothing footprint invented there.
  for (const key of Object.keys(e.attributes)) {
    if (key.startsWith('gen_ai.') || key.startsWith('error.')) expect(Object.keys(TABLE.attributes), `${key} is not in the convention's table`).toContain(key);
  }
  expect(CHECK_NAMES.has(String(e.attributes['gen_ai.evaluation.name'])), String(e.attributes['gen_ai.evaluation.name'])).toBe(true);
  expect(LABELS).toContain(e.attributes['gen_ai.evaluation.score.label']);
  // error.type exactly when the check could not run, and then low-cardinality (a code, never a sentence).
  const notRun = e.attributes['gen_ai.evaluation.score.label'] === 'not_run';
  expect(e.attributes['error.type'] !== undefined, 'error.type iff not_run').toBe(notRun);
  if (notRun) expect(String(e.attributes['error.type'])).toMatch(/^(_OTHER|[a-z_]+)$/);
  expect(String(e.attributes['gen_ai.evaluation.explanation'] ?? '').length).toBeGreaterThan(0);
  expect(Buffer.byteLength(String(e.attributes['gen_ai.evaluation.explanation']), 'utf8')).toBeLessThanOrEqual(2000);
}

function demo(): { spans: SpanData[]; logs: ReturnType<typeof decodeOtlpJsonText>['logs']; declarations: Declarations } {
  let doc = decodeOtlpJsonText(readFileSync(join(DEMO, 'trace.otlp.json'), 'utf8'), 'trace.otlp.json');
  doc = decodeOtlpJsonText(readFileSync(join(DEMO, 'logs.otlp.json'), 'utf8'), 'logs.otlp.json', doc);
  const d = loadDeclarationsFile(join(DEMO, 'declarations.yaml'));
  if (!d.ok) throw new Error(d.errors.join('; '));
  return { spans: doc.spans.map((s) => s.span), logs: doc.logs, declarations: d.declarations };
}

/** Every evaluation event the core wrote, with the span it rides. */
function evaluationsOf(mode: EvaluationEvents) {
  const { spans, logs, declarations } = demo();
  const result = new FootprintCore({ declarations, evaluationEvents: mode }).process({ spans, logs });
  const byKey = new Map(spans.map((s) => [spanKey(s), s]));
  const out: { span: SpanData; e: SpanEventData; all: SpanEventData[] }[] = [];
  for (const [key, ann] of result.annotations) for (const e of ann.events) if (e.name === TABLE.event) out.push({ span: byKey.get(key)!, e, all: ann.events });
  expect(result.carriers).toEqual([]); // the demo's spans and logs come together: nothing rides a carrier
  return { out, result };
}

describe('gen_ai.evaluation.result from the core (what serve and the processor write)', () => {
  it('findings (the default): one per finding, on the finding\'s span, fail or advisory, the finding\'s sentence as explanation', () => {
    const { out, result } = evaluationsOf('findings');
    expect(result.findings.map((f) => f.kind).sort()).toEqual(['empty-lookup', 'unsupported-argument']);
    expect(out).toHaveLength(result.findings.length);
    for (const f of result.findings) {
      const ev = out.find((o) => o.span.spanId === f.span.spanId)!;
      expectConforms(ev.e);
      const findingEvent = ev.all.find((x) => x.name === 'footprint.finding')!;
      expect(ev.e.attributes).toMatchObject({
        'gen_ai.evaluation.name': `footprint.${checkOfKind(f.kind)}`,
        'gen_ai.evaluation.score.label': f.advisory ? 'advisory' : 'fail',
        'gen_ai.evaluation.explanation': findingEvent.attributes['footprint.finding.message'],
        'footprint.finding.id': findingEvent.attributes['footprint.finding.id'],
      });
      expect(ev.e.timeUnixNano).toBe(findingEvent.timeUnixNano);
    }
    // Parented to the GenAI operation span it evaluates: the chat span that chose the call, and
    // the tool execution whose result was empty; the chat span's response id is carried.
    const fail = out.find((o) => o.e.attributes['gen_ai.evaluation.score.label'] === 'fail')!;
    expect(fail.span.attributes['gen_ai.operation.name']).toBe('chat');
    expect(fail.e.attributes['gen_ai.response.id']).toBe(fail.span.attributes['gen_ai.response.id']);
    expect(typeof fail.e.attributes['gen_ai.response.id']).toBe('string');
    const advisory = out.find((o) => o.e.attributes['gen_ai.evaluation.score.label'] === 'advisory')!;
    expect(advisory.span.attributes['gen_ai.operation.name']).toBe('execute_tool');
    expect(advisory.e.attributes['gen_ai.evaluation.name']).toBe('footprint.empty-lookup');
  });

  it('all: also one pass or not_run per check per turn, on the turn\'s invoke_agent span', () => {
    const { out } = evaluationsOf('all');
    for (const o of out) expectConforms(o.e);
    const turnEvents = out.filter((o) => o.span.attributes['gen_ai.operation.name'] === 'invoke_agent');
    // Two turns; each its own set, every event of a turn on that turn's span.
    const turns = new Map<string, string[]>();
    for (const o of turnEvents) turns.set(o.span.spanId, [...(turns.get(o.span.spanId) ?? []), `${String(o.e.attributes['gen_ai.evaluation.name'])} ${String(o.e.attributes['gen_ai.evaluation.score.label'])}`]);
    expect([...turns.values()].map((v) => v.sort())).toEqual([
      // Turn 1: the argument, empty-lookup and answer-value checks (the last two armed by inference
      // over the answer written from tool results) and the calls' schema and repeat checks ran clean;
      // dangling-reference needs tool definitions.
      [
        'footprint.argument-schema pass',
        'footprint.dangling-reference not_run',
        'footprint.empty-lookup pass',
        'footprint.prior-turn-evidence pass',
        'footprint.repeated-call pass',
        'footprint.unsupported-argument pass',
        'footprint.unsupported-value pass',
      ],
      // Turn 2: the argument and empty-lookup checks found something (their fail/advisory events are
      // on their spans), so no pass for them; the call's schema and repeat checks ran clean.
      ['footprint.argument-schema pass', 'footprint.dangling-reference not_run', 'footprint.repeated-call pass'],
    ]);
    const notRun = turnEvents.find((o) => o.e.attributes['gen_ai.evaluation.score.label'] === 'not_run')!;
    expect(notRun.e.attributes['error.type']).toBe('tool_definitions_not_recorded');
    expect(notRun.e.attributes['gen_ai.evaluation.explanation']).toBe('dangling-reference could not run on this turn: tool definitions were not recorded.');
    // The unarmed checks (nothing declared for them) say nothing: they evaluated nothing.
    expect(out.some((o) => o.e.attributes['gen_ai.evaluation.name'] === 'footprint.unsupported-claim')).toBe(false);
  });

  it('off: no evaluation event at all, and the footprint.* events are the same as with them', () => {
    const off = evaluationsOf('off');
    const all = evaluationsOf('all');
    expect(off.out).toEqual([]);
    const own = (r: typeof off.result) => [...r.annotations.values()].flatMap((a) => a.events.filter((e) => e.name !== TABLE.event));
    expect(own(off.result)).toEqual(own(all.result));
  });

  it('message content not captured (the logs left out): every check reading requests is not_run, error.type content_not_captured', () => {
    const { spans, declarations } = demo();
    const result = new FootprintCore({ declarations, evaluationEvents: 'all' }).process({ spans });
    const evs = [...result.annotations.values()].flatMap((a) => a.events.filter((e) => e.name === TABLE.event));
    for (const e of evs) expectConforms(e);
    const requestChecks = CHECK_CATALOG.filter((c) => c.seam !== 'write').map((c) => `footprint.${c.id}`);
    const ofRequests = evs.filter((e) => requestChecks.includes(String(e.attributes['gen_ai.evaluation.name'])));
    expect(ofRequests).toHaveLength(2 * requestChecks.length); // every one, on both turns
    for (const e of ofRequests) expect(e.attributes).toMatchObject({ 'gen_ai.evaluation.score.label': 'not_run', 'error.type': 'content_not_captured' });
    // The tool executions are the app's own spans, with their results: the write seam still ran.
    expect(evs.filter((e) => e.attributes['gen_ai.evaluation.name'] === 'footprint.empty-lookup').map((e) => e.attributes['gen_ai.evaluation.score.label'])).toEqual(['pass', 'advisory']);
  });
});

describe('gen_ai.evaluation.result as log records (serve, with a logs downstream)', () => {
  it('one record per span event, with the evaluated span\'s trace and span ids, even when the event rides a carrier', () => {
    const { spans, logs, declarations } = demo();
    const core = new FootprintCore({ declarations, evaluationEvents: 'all' });
    const first = core.process({ spans });
    const late = core.process({ spans: [], logs }); // the content came after its spans went on
    expect(late.carriers.length).toBeGreaterThan(0);
    const t = 1_700_000_000_000_000_000n;
    for (const [result, input] of [[first, spans], [late, []]] as const) {
      const records = evaluationRecords(result, input.map((span) => ({ span })), t);
      const events = [...[...result.annotations].flatMap(([key, a]) => a.events.filter((e) => e.name === TABLE.event).map((e) => ({ key, e }))), ...result.carriers.flatMap((c) => c.events.filter((e) => e.name === TABLE.event).map((e) => ({ key: spanKey({ traceId: c.traceId, spanId: c.parentSpanId! }), e })))];
      expect(records).toHaveLength(events.length);
      records.forEach((r, i) => {
        expect(r.eventName).toBe(TABLE.event);
        expect(r.attributes['event.name']).toBe(TABLE.event);
        expect(spanKey({ traceId: r.traceId!, spanId: r.spanId! })).toBe(events[i]!.key);
        const { 'event.name': _n, ...rest } = r.attributes;
        expect(rest).toEqual(events[i]!.e.attributes);
        expectConforms({ name: r.eventName!, attributes: rest });
        expect(r.timeUnixNano).toBe(t);
      });
    }
    // The late findings' evaluation rides the carrier, and its record names the chat span itself.
    const lateRecords = evaluationRecords(late, [], t);
    expect(lateRecords.map((r) => r.attributes['gen_ai.evaluation.score.label'])).toContain('fail');
    expect(lateRecords.every((r) => spans.some((s) => s.spanId === r.spanId))).toBe(true);
  });
});

describe('gen_ai.evaluation.result from check --write', () => {
  it('the written export carries them on the evaluated spans; --evaluation-events all adds the per-turn ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fp-eval-'));
    try {
      for (const [mode, expected] of [['findings', 2], ['all', 12]] as const) {
        const out = join(dir, `${mode}.json`);
        const r = runCheck([join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json'), '--declarations', join(DEMO, 'declarations.yaml'), '--write', out, '--evaluation-events', mode]);
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stderr).toContain(`wrote ${out}`);
        const written = decodeOtlpJsonText(readFileSync(out, 'utf8'), out);
        const evs = written.spans.flatMap(({ span }) => span.events.filter((e) => e.name === TABLE.event).map((e) => ({ span, e })));
        expect(evs).toHaveLength(expected);
        for (const { span, e } of evs) {
          expectConforms(e);
          expect(['chat', 'execute_tool', 'invoke_agent']).toContain(span.attributes['gen_ai.operation.name']);
        }
      }
      const bad = runCheck([join(DEMO, 'trace.otlp.json'), '--evaluation-events', 'some']);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('--evaluation-events must be off, findings, all, not "some"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('gen_ai.evaluation.result in-process (real SDK, FootprintSpanProcessor)', () => {
  let pipe: Pipeline | undefined;
  afterEach(async () => {
    await pipe?.shutdown();
    pipe = undefined;
  });

  it('an unsupported argument: fail on the chat span that chose it (with its response id), pass/not_run on the turn', async () => {
    pipe = makePipeline({ declarations: { tools: { backup_jobs: { argumentsFrom: ['list_machines'] } } }, evaluationEvents: 'all' });
    const request = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Jobs of srv-db-04?' }] };
    const response = {
      id: 'chatcmpl-eval-1',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'backup_jobs', arguments: '{"machine_id":"srv-db-77"}' } }] } }],
    };
    await traceAgentTurn({ agentName: 'triage', conversationId: 'conv-eval' }, async () => {
      await traceChat(request, async () => response);
      await traceTool('backup_jobs', { machine_id: 'srv-db-77' }, async () => [{ job: 'nightly' }], { callId: 'call_9' });
    });
    const spans = pipe.next.received;
    const evs = spans.flatMap((s) => s.events.filter((e) => e.name === TABLE.event).map((e) => ({ span: s, attributes: e.attributes as Attributes })));
    for (const { attributes } of evs) expectConforms({ name: TABLE.event, attributes });
    const chat = spans.find((s) => s.name === 'chat gpt-4o-mini')!;
    const onChat = evs.filter((x) => x.span === chat);
    expect(onChat.map((x) => x.attributes)).toEqual([
      expect.objectContaining({ 'gen_ai.evaluation.name': 'footprint.unsupported-argument', 'gen_ai.evaluation.score.label': 'fail', 'gen_ai.response.id': 'chatcmpl-eval-1' }),
    ]);
    const turn = spans.find((s) => s.name === 'invoke_agent triage')!;
    const onTurn = evs.filter((x) => x.span === turn).map((x) => `${String(x.attributes['gen_ai.evaluation.name'])} ${String(x.attributes['gen_ai.evaluation.score.label'])}`);
    // The argument check found something (no pass for it); the tool result's check ran clean.
    expect(onTurn).toContain('footprint.empty-lookup pass');
    expect(onTurn.some((x) => x.startsWith('footprint.unsupported-argument '))).toBe(false);
  });
});
