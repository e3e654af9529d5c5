// Reliability, bad input: property-based (fast-check, bounded numRuns) bodies posted to a running
// service on 127.0.0.1: recorded fixture bodies (protobuf via the SDK serializer, OTLP/JSON)
// with bytes flipped, truncated, spliced, gzip-wrapped or not, under right and wrong content
// types; arbitrary bytes and JSON; mixed batches with generated unusable ids; deeply nested and
// oversized JSON in gen_ai.input.messages; invalid UTF-8 inside protobuf strings; bidi controls
// and zero-width characters inside tool-call argument values. The service always answers within
// a bound with 200/400/413/415 (never 5xx for a bad body), says why, stays healthy, and a value
// quoted in a finding never carries a bidi or zero-width character. Then FootprintCore.process
// straight over generated GenAI SpanData and log records: it never throws and never fails inside.
// (The fixed edge cases — 400/413/415 one-offs, gzip bombs, one mixed batch — are in test/service.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { startService, type RunningService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { decodeExportResponseProto } from '../../src/otlp/proto.js';
import type { AttrValue, Attributes, LogData, SpanData } from '../../src/model/telemetry.js';
import { LIBRARIES, type Library } from '../helpers/fixtures.js';
import { DECLARATIONS, downstreamTo, readable, retraced, startSink, testConfig, silentLog, type Sink } from '../service/helpers.js';
import { LONG, protoBody } from './helpers.js';

/** The long config runs five times as many cases. */
const RUNS = LONG ? 5 : 1;

const BODY_LIMIT = 1024 * 1024;
const ANSWER_WITHIN_MS = 10_000;
/** Bidi controls, zero-width and other invisible format characters. */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;
const INVISIBLES = ['\u202E', '\u202D', '\u202A', '\u202B', '\u202C', '\u2066', '\u2067', '\u2068', '\u2069', '\u200B', '\u200C', '\u200D', '\u200E', '\u200F', '\u2060', '\uFEFF', '\u061C'];

let sink: Sink;
let svc: RunningService;
const logLines: string[] = [];

beforeAll(async () => {
  sink = await startSink();
  const cfg = testConfig({ downstream: downstreamTo(sink, { timeoutMs: 3000 }), declarationsPath: DECLARATIONS });
  cfg.limits = { ...cfg.limits, bodyBytes: BODY_LIMIT };
  svc = await startService(cfg, { loadDeclarations: loadDeclarationsFile, log: (l, m) => logLines.length < 500 && logLines.push(`${l} ${m}`) });
});
afterAll(async () => {
  await svc?.shutdown();
  await sink?.close();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
  bytes: Uint8Array;
}

/** Posts and reads the whole answer; throws (fails the property) when no answer comes within the bound. */
async function post(body: Uint8Array | string, headers: Record<string, string>, path = '/v1/traces'): Promise<Answer> {
  const r = await fetch(`${svc.address}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  const bytes = new Uint8Array(await r.arrayBuffer());
  return { status: r.status, contentType: r.headers.get('content-type') ?? '', text: Buffer.from(bytes).toString('utf8'), bytes };
}

async function healthy(): Promise<boolean> {
  const r = await fetch(`${svc.address}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  return r.status === 200;
}

/** A bad body is answered 400/413/415 with a reason, or 200 (what was usable went through). Never 5xx, never a hang. */
function expectSaneAnswer(a: Answer): void {
  expect([200, 400, 413, 415], `status ${a.status}: ${a.text.slice(0, 300)}`).toContain(a.status);
  if (a.status === 400) expect(a.text).toMatch(/undecodable (traces|logs) request: .{3,}|Content-Encoding is gzip but the body is not/);
  if (a.status === 413) expect(a.text).toMatch(/limits\.bodyBytes/);
  if (a.status === 415) expect(a.text).toMatch(/unsupported content (type|encoding)/);
  if (a.status === 200 && a.contentType === 'application/x-protobuf') expect(decodeExportResponseProto(a.bytes, 'traces').ok).toBe(true);
  if (a.status === 200 && a.contentType === 'application/json') expect(() => JSON.parse(a.text)).not.toThrow();
}

const fixtureProto = new Map<Library, Uint8Array>(LIBRARIES.map((l) => [l, protoBody(retraced(l).spans)]));
const fixtureJson = new Map<Library, string>(LIBRARIES.map((l) => [l, new TextDecoder().decode(JsonTraceSerializer.serializeRequest(readable(retraced(l).spans))!)]));

const mutation = fc.record({
  flips: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), byte: fc.integer({ min: 0, max: 255 }) }), { maxLength: 12 }),
  truncateAt: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  splice: fc.option(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), bytes: fc.uint8Array({ maxLength: 64 }) }), { nil: undefined }),
});

function mutate(src: Uint8Array, m: typeof mutation extends fc.Arbitrary<infer T> ? T : never): Uint8Array {
  let b = Buffer.from(src);
  for (const f of m.flips) b[Math.min(b.length - 1, Math.floor(f.at * b.length))] = f.byte;
  if (m.splice) {
    const at = Math.floor(m.splice.at * b.length);
    b = Buffer.concat([b.subarray(0, at), Buffer.from(m.splice.bytes), b.subarray(at)]);
  }
  if (m.truncateAt !== undefined) b = b.subarray(0, Math.floor(m.truncateAt * b.length));
  return b;
}

const contentType = fc.constantFrom('application/x-protobuf', 'application/json', 'application/json; charset=utf-8', 'APPLICATION/X-PROTOBUF', 'text/plain', 'application/grpc', 'application/octet-stream', '');
/** none: plain body; gzip: compressed, header set; lie: header says gzip, body is not; header-only: gzip body, no header. */
const wrapping = fc.constantFrom('none', 'gzip', 'lie', 'unlabelled-gzip', 'br');

function wrap(body: Uint8Array, how: string, ct: string): { body: Uint8Array; headers: Record<string, string> } {
  const headers: Record<string, string> = ct ? { 'Content-Type': ct } : {};
  if (how === 'gzip') return { body: gzipSync(body), headers: { ...headers, 'Content-Encoding': 'gzip' } };
  if (how === 'lie') return { body, headers: { ...headers, 'Content-Encoding': 'gzip' } };
  if (how === 'unlabelled-gzip') return { body: gzipSync(body), headers };
  if (how === 'br') return { body, headers: { ...headers, 'Content-Encoding': 'br' } };
  return { body, headers };
}

describe('bad input over HTTP (property-based)', () => {
  it('mutated recorded protobuf and JSON bodies, any content type and encoding: a sane answer within the bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LIBRARIES), fc.boolean(), mutation, contentType, wrapping, async (lib, asJson, m, ct, how) => {
        const src = asJson ? Buffer.from(fixtureJson.get(lib)!) : fixtureProto.get(lib)!;
        const { body, headers } = wrap(mutate(src, m), how, ct);
        const a = await post(body, headers);
        expectSaneAnswer(a);
        const media = ct.split(';')[0]!.trim().toLowerCase();
        if (media !== 'application/x-protobuf' && media !== 'application/json') expect(a.status).toBe(415);
        else if (how === 'br') expect(a.status).toBe(415);
        else if (how === 'lie') expect(a.status).toBe(400);
      }),
      { numRuns: 120 * RUNS, seed: 20240601 },
    );
    expect(await healthy()).toBe(true);
  });

  it('arbitrary bytes and arbitrary JSON as OTLP bodies (traces and logs): a sane answer within the bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ maxLength: 4096 }), fc.json({ maxDepth: 6 }).map((s) => Buffer.from(s)), fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [v] }] }], resourceLogs: [{ scopeLogs: [{ logRecords: [v] }] }] })))),
        fc.constantFrom('application/x-protobuf', 'application/json'),
        fc.constantFrom('/v1/traces', '/v1/logs'),
        async (body, ct, path) => {
          const a = await post(body, { 'Content-Type': ct }, path);
          expect([200, 400], `status ${a.status}: ${a.text.slice(0, 300)}`).toContain(a.status);
          if (a.status === 400) expect(a.text).toMatch(/undecodable (traces|logs) request: .{3,}/);
        },
      ),
      { numRuns: 120 * RUNS, seed: 7 },
    );
    expect(await healthy()).toBe(true);
  });

  it('mixed batches with generated unusable ids: the usable spans are forwarded, the rest counted in partialSuccess', async () => {
    const badHex = fc.oneof(
      fc.constant(''),
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/^[0-9a-fA-F]+$/.test(s)),
      fc.stringMatching(/^[0-9a-f]{1,15}$/), // too short for either id
      fc.stringMatching(/^[0-9a-f]{33,40}$/), // too long
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LIBRARIES), fc.array(fc.record({ traceId: badHex, spanId: badHex, which: fc.constantFrom('trace', 'span', 'both'), name: fc.string({ maxLength: 30 }) }), { minLength: 1, maxLength: 6 }), async (lib, bads) => {
        const { spans, traceId } = retraced(lib);
        const doc = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(readable(spans))!));
        const good = '1'.repeat(32);
        const goodSpan = '2'.repeat(16);
        for (const b of bads) {
          const tid = b.which === 'span' ? good : b.traceId;
          const sid = b.which === 'trace' ? goodSpan : b.spanId;
          doc.resourceSpans[0].scopeSpans[0].spans.push({ traceId: tid, spanId: sid, name: b.name, startTimeUnixNano: '1', endTimeUnixNano: '2' });
        }
        const before = sink.spans.filter((s) => s.traceId === traceId).length;
        const a = await post(JSON.stringify(doc), { 'Content-Type': 'application/json' });
        expect(a.status, a.text.slice(0, 300)).toBe(200);
        const j = JSON.parse(a.text) as { partialSuccess?: { rejectedSpans: string; errorMessage: string } };
        expect(Number(j.partialSuccess?.rejectedSpans)).toBe(bads.length);
        expect(j.partialSuccess?.errorMessage).toMatch(new RegExp(`^${bads.length} spans rejected`));
        expect(sink.spans.filter((s) => s.traceId === traceId).length - before).toBe(spans.length);
      }),
      { numRuns: 30 * RUNS, seed: 11 },
    );
  });

  // Regression (found by this suite): OTLP/JSON accepted an all-zero trace or span id, which the
  // trace-context spec makes invalid and the protobuf decoder rejects; now both count it in
  // partialSuccess instead of analysing and forwarding it.
  it('OTLP/JSON all-zero trace and span ids are rejected like protobuf ones', async () => {
    const { spans } = retraced('vercel-ai');
    const doc = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(readable(spans))!));
    doc.resourceSpans[0].scopeSpans[0].spans.push({ traceId: '1'.repeat(32), spanId: '0'.repeat(16), name: 'zero span id' }, { traceId: '0'.repeat(32), spanId: '3'.repeat(16), name: 'zero trace id' });
    const a = await post(JSON.stringify(doc), { 'Content-Type': 'application/json' });
    expect(a.status).toBe(200);
    expect(Number((JSON.parse(a.text) as { partialSuccess?: { rejectedSpans: string } }).partialSuccess?.rejectedSpans)).toBe(2);
  });
});

/** The traceloop backup-triage trace (both turns under one fresh trace id) with every string attribute passed through `f`. */
function traceloopWith(f: (s: string) => string): ReturnType<typeof retraced> {
  const t = retraced('traceloop-openai');
  const mapAttr = (v: AttrValue): AttrValue => (typeof v === 'string' ? f(v) : Array.isArray(v) ? v.map(mapAttr) : v && typeof v === 'object' && !(v instanceof Uint8Array) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapAttr(x)])) : v);
  t.spans = t.spans.map((s) => ({ ...s, attributes: Object.fromEntries(Object.entries(s.attributes).map(([k, v]) => [k, mapAttr(v)])) as Attributes }));
  return t;
}

function chatSpans(spans: SpanData[]): SpanData[] {
  return spans.filter((s) => typeof s.attributes['gen_ai.input.messages'] === 'string');
}

describe('hostile content inside valid bodies', () => {
  it('deeply nested JSON in gen_ai.input.messages (100,000 levels, and 20,000 levels inside a message part): 200, spans forwarded', async () => {
    for (const nested of [
      '['.repeat(100_000) + ']'.repeat(100_000),
      '[{"role":"user","parts":[{"type":"text","content":"x"}],"extra":' + '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) + '}]',
      '[{"role":"tool","parts":[{"type":"tool_call_response","id":"call_bt_002","response":' + '['.repeat(20_000) + '"nightly-db-primary-full"' + ']'.repeat(20_000) + '}]}]',
    ]) {
      const { spans, traceId } = retraced('traceloop-openai');
      const chat = chatSpans(spans);
      for (const c of chat) c.attributes = { ...c.attributes, 'gen_ai.input.messages': nested };
      const a = await post(protoBody(spans), { 'Content-Type': 'application/x-protobuf' });
      expect(a.status, a.text.slice(0, 300)).toBe(200);
      expect(sink.spans.filter((s) => s.traceId === traceId).length).toBeGreaterThanOrEqual(spans.length);
    }
    expect(await healthy()).toBe(true);
  });

  it('oversized JSON in message attributes (a 4 MB served text, 20,000 messages): 200 within the bound', async () => {
    const cfg = testConfig({ downstream: downstreamTo(sink, { timeoutMs: 8000 }), declarationsPath: DECLARATIONS });
    const big = await startService(cfg, { loadDeclarations: loadDeclarationsFile, log: silentLog });
    try {
      for (const make of [
        (m: unknown[]) => [...m.slice(0, 1), { role: 'user', parts: [{ type: 'text', content: 'srv-db-04 '.repeat(400_000) }] }, ...m.slice(1)],
        (m: unknown[]) => [...Array.from({ length: 20_000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', parts: [{ type: 'text', content: `message ${i} about db-primary-full-${i}` }] })), ...m],
      ]) {
        const { spans, traceId } = retraced('traceloop-openai');
        for (const c of chatSpans(spans)) c.attributes = { ...c.attributes, 'gen_ai.input.messages': JSON.stringify(make(JSON.parse(String(c.attributes['gen_ai.input.messages'])))) };
        const t = Date.now();
        const r = await fetch(`${big.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: protoBody(spans), signal: AbortSignal.timeout(25_000) });
        expect(r.status).toBe(200);
        console.log(`[bad-input] oversized window (${chatSpans(spans).map((c) => String(c.attributes['gen_ai.input.messages']).length).reduce((x, y) => x + y, 0)} chars of gen_ai.input.messages): answered in ${Date.now() - t} ms`);
        expect(sink.spans.filter((s) => s.traceId === traceId).length).toBeGreaterThanOrEqual(spans.length);
      }
    } finally {
      await big.shutdown();
    }
  }, 60_000);

  it('invalid UTF-8 inside protobuf string values (attributes, names, resource): answered 200 or 400 with a reason, never a crash', async () => {
    const MARK = 'QQQQQQQQ'; // 8 bytes, replaced in place so every length prefix stays right
    const bad = [
      [0xff, 0xfe, 0xfd, 0xfc, 0xff, 0xfe, 0xfd, 0xfc],
      [0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80, 0x41, 0x41], // UTF-8-encoded surrogate halves
      [0xc0, 0xaf, 0xe0, 0x80, 0xaf, 0xf8, 0x88, 0x80], // overlong forms, 5-byte lead
      [0xf4, 0x90, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], // past U+10FFFF, lone continuations
      [0x00, 0x00, 0xe2, 0x80, 0xae, 0xe2, 0x80, 0x8b], // NULs, U+202E, U+200B
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bad), fc.constantFrom('attr', 'args', 'name', 'resource'), async (bytes, where) => {
        const t = retraced('traceloop-openai');
        const s0 = t.spans.find((s) => s.attributes['gen_ai.tool.call.arguments'] !== undefined)!;
        if (where === 'attr') s0.attributes = { ...s0.attributes, 'app.note': MARK };
        if (where === 'args') s0.attributes = { ...s0.attributes, 'gen_ai.tool.call.arguments': `{"machine_id":"${MARK}"}` };
        if (where === 'name') s0.name = MARK;
        if (where === 'resource') s0.resource = { ...s0.resource, 'service.name': MARK };
        const body = Buffer.from(protoBody(t.spans));
        const at = body.indexOf(MARK);
        expect(at).toBeGreaterThan(0);
        Buffer.from(bytes).copy(body, at);
        const a = await post(body, { 'Content-Type': 'application/x-protobuf' });
        expectSaneAnswer(a);
        if (a.status === 200) expect(sink.spans.filter((s) => s.traceId === t.traceId).length).toBeGreaterThanOrEqual(t.spans.length);
      }),
      { numRuns: 20 * RUNS, seed: 3 },
    );
    expect(await healthy()).toBe(true);
  });

  it('bidi controls and zero-width characters inside argument values: the finding is written, and no quoted value carries them', async () => {
    const inserts = fc.array(fc.record({ at: fc.integer({ min: 0, max: 15 }), ch: fc.constantFrom(...INVISIBLES) }), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(inserts, async (ins) => {
        const points = Array.from('db-primary-full');
        for (const i of ins) points.splice(Math.min(i.at, points.length), 0, i.ch);
        const hostile = points.join('');
        // Every occurrence (served, written, chosen) becomes the hostile value: the conversation keeps its shape.
        const t = traceloopWith((s) => s.split('db-primary-full').join(hostile));
        const a = await post(protoBody(t.spans), { 'Content-Type': 'application/x-protobuf' });
        expect(a.status).toBe(200);
        const got = sink.spans.filter((s) => s.traceId === t.traceId);
        const findings = got.flatMap((s) => s.events).filter((e) => e.name === 'footprint.finding');
        expect(findings.map((e) => [e.attributes['footprint.finding.kind'], e.attributes['footprint.tool.call.id']])).toContainEqual(['unsupported-argument', 'call_bt_003']);
        for (const e of findings) {
          for (const k of ['footprint.finding.value', 'footprint.finding.message', 'footprint.finding.predicate']) {
            const v = e.attributes[k];
            if (typeof v === 'string') expect(INVISIBLE.test(v), `${k} = ${JSON.stringify(v)}`).toBe(false);
          }
          for (const w of JSON.parse(String(e.attributes['footprint.finding.witnesses'])) as { value?: string; provenance?: string }[]) {
            if (w.value !== undefined) expect(INVISIBLE.test(w.value), `witness value ${JSON.stringify(w.value)}`).toBe(false);
            if (w.provenance !== undefined) expect(INVISIBLE.test(w.provenance), `witness provenance ${JSON.stringify(w.provenance)}`).toBe(false);
          }
        }
        const store = (await (await fetch(`${svc.address}/api/findings?traceId=${t.traceId}`)).json()) as { runs: { findings: { value?: string; message: string }[] }[] };
        for (const f of store.runs.flatMap((r) => r.findings)) {
          expect(INVISIBLE.test(f.message)).toBe(false);
          if (f.value !== undefined) expect(INVISIBLE.test(f.value)).toBe(false);
        }
      }),
      { numRuns: 25 * RUNS, seed: 5 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The core directly: generated SpanData with GenAI attributes.

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const word = fc.constantFrom('srv-db-04', 'db-primary-full', 'acme', 'nightly-db-primary-full', 'ok', 'failed', '', ' ', '\u202E', '[]', '{}', 'null');
const text = fc.oneof(word, fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const toolName = fc.oneof(fc.constantFrom('backup_status', 'backup_jobs', 'list_machines'), fc.string({ maxLength: 12 }));
const attrLeaf: fc.Arbitrary<AttrValue> = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.uint8Array({ maxLength: 8 }));
const attrValue: fc.Arbitrary<AttrValue> = fc.letrec<{ v: AttrValue }>((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, attrLeaf, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('v'), { maxKeys: 4 })),
})).v;
const args = fc.oneof(fc.dictionary(fc.constantFrom('machine_id', 'customer', 'statuses', 'window', 'x'), fc.oneof(text, fc.jsonValue({ maxDepth: 2 }))), fc.jsonValue({ maxDepth: 3 }), text);
const part = fc.oneof(
  fc.record({ type: fc.constant('text'), content: fc.oneof(text, fc.jsonValue({ maxDepth: 2 })) }),
  fc.record({ type: fc.constant('tool_call'), id: fc.oneof(fc.constantFrom('call_1', 'call_2', 'call_bt_003'), text), name: toolName, arguments: args }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('tool_call_response'), id: fc.oneof(fc.constantFrom('call_1', 'call_2'), fc.constant(null), text), response: fc.oneof(text, fc.jsonValue({ maxDepth: 3 })) }, { requiredKeys: ['type'] }),
  fc.jsonValue({ maxDepth: 2 }),
);
const messages = fc.array(fc.record({ role: fc.oneof(fc.constantFrom('system', 'user', 'assistant', 'tool'), text), parts: fc.oneof(fc.array(part, { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })), finish_reason: fc.oneof(fc.constantFrom('tool_call', 'stop', 'tool_calls'), text) }, { requiredKeys: [] }), { maxLength: 6 });
const jsonAttr = (inner: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: inner.map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: text }, { weight: 1, arbitrary: attrValue }, { weight: 1, arbitrary: inner.map((v) => JSON.stringify(v).slice(0, 17)) });
const genAiAttributes = fc.record(
  {
    'gen_ai.operation.name': fc.oneof(fc.constantFrom('chat', 'execute_tool', 'invoke_agent', 'text_completion', 'generate_content', 'agent_step'), text),
    'gen_ai.input.messages': jsonAttr(messages),
    'gen_ai.output.messages': jsonAttr(messages),
    'gen_ai.system_instructions': jsonAttr(fc.array(part, { maxLength: 2 })),
    'gen_ai.tool.definitions': jsonAttr(fc.array(fc.record({ type: fc.constant('function'), name: toolName, inputSchema: fc.jsonValue({ maxDepth: 3 }) }), { maxLength: 3 })),
    'gen_ai.tool.name': toolName,
    'gen_ai.tool.call.id': fc.oneof(fc.constantFrom('call_1', 'call_2'), text),
    'gen_ai.tool.call.arguments': jsonAttr(args),
    'gen_ai.tool.call.result': jsonAttr(fc.jsonValue({ maxDepth: 3 })),
    'gen_ai.conversation.id': fc.oneof(fc.constantFrom('conv-1', 'conv-2'), text),
    'gen_ai.response.finish_reasons': fc.oneof(fc.array(text, { maxLength: 2 }), attrValue),
    'gen_ai.system': fc.constantFrom('openai', 'x'),
    'ai.prompt.messages': jsonAttr(fc.array(fc.record({ role: fc.constantFrom('system', 'user', 'assistant', 'tool'), content: fc.oneof(text, fc.array(fc.record({ type: fc.constantFrom('text', 'tool-call', 'tool-result'), text, toolCallId: text, toolName, input: args, output: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['type'] }), { maxLength: 3 })) }), { maxLength: 4 })),
    'ai.response.toolCalls': jsonAttr(fc.array(fc.record({ toolCallId: text, toolName, input: fc.oneof(args.map((a) => JSON.stringify(a)), args) }), { maxLength: 3 })),
    'ai.toolCall.name': toolName,
    'ai.toolCall.args': jsonAttr(args),
    'ai.toolCall.result': jsonAttr(fc.jsonValue({ maxDepth: 2 })),
    'ai.telemetry.metadata.conversationId': text,
    'openinference.span.kind': fc.constantFrom('LLM', 'TOOL', 'AGENT', 'CHAIN'),
    'llm.input_messages.0.message.role': fc.constantFrom('user', 'tool', 'system'),
    'llm.input_messages.0.message.content': text,
    'llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments': jsonAttr(args),
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': toolName,
    'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': jsonAttr(args),
    'session.id': text,
    'footprint.tool.arguments_from': attrValue,
    'footprint.external_grounds': jsonAttr(fc.array(fc.record({ value: text, source: text }), { maxLength: 2 })),
  },
  { requiredKeys: [] },
);
const traceIds = ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32)];
const spanData: fc.Arbitrary<SpanData> = fc.record({
  traceId: fc.oneof(fc.constantFrom(...traceIds), hex(32)),
  spanId: hex(16),
  parentSpanId: fc.option(hex(16), { nil: undefined }),
  name: fc.oneof(fc.constantFrom('chat gpt-4o-mini', 'execute_tool backup_status', 'invoke_agent backup-triage', 'ai.generateText.doGenerate', 'ai.toolCall', 'OpenAI Chat Completions', 'step 1'), text),
  kind: fc.integer({ min: 0, max: 5 }),
  startTimeUnixNano: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  endTimeUnixNano: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  attributes: fc.tuple(genAiAttributes, fc.dictionary(fc.string({ maxLength: 10 }), attrValue, { maxKeys: 3 })).map(([a, b]) => ({ ...b, ...a }) as Attributes),
  events: fc.array(fc.record({ name: fc.oneof(fc.constantFrom('gen_ai.content.prompt', 'gen_ai.content.completion', 'gen_ai.user.message', 'gen_ai.choice'), text), timeUnixNano: fc.bigInt({ min: 0n, max: 2n ** 63n }), attributes: genAiAttributes as fc.Arbitrary<Attributes> }), { maxLength: 2 }),
  status: fc.record({ code: fc.constantFrom(0 as const, 1 as const, 2 as const) }),
  resource: fc.record({ 'service.name': fc.oneof(fc.constantFrom('tenant-a', 'tenant-b'), text) }, { requiredKeys: [] }) as fc.Arbitrary<Attributes>,
  scope: fc.record({ name: fc.oneof(fc.constantFrom('@opentelemetry/instrumentation-openai', 'ai', 'gen_ai', '@traceloop/instrumentation-openai'), text) }),
});
const logData = (spans: SpanData[]): fc.Arbitrary<LogData> =>
  fc.record({
    traceId: spans.length ? fc.constantFrom(...spans.map((s) => s.traceId)) : hex(32),
    spanId: spans.length ? fc.constantFrom(...spans.map((s) => s.spanId)) : hex(16),
    eventName: fc.oneof(fc.constantFrom('gen_ai.client.inference.operation.details', 'gen_ai.user.message', 'gen_ai.choice', 'gen_ai.tool.message', 'gen_ai.assistant.message'), text),
    timeUnixNano: fc.bigInt({ min: 0n, max: 2n ** 63n }),
    body: fc.oneof(attrValue, fc.record({ content: text, tool_calls: fc.array(fc.record({ id: text, type: fc.constant('function'), function: fc.record({ name: toolName, arguments: jsonAttr(args) }) }), { maxLength: 2 }) }) as fc.Arbitrary<AttrValue>, fc.constant(undefined)),
    attributes: fc.tuple(genAiAttributes, fc.record({ 'event.name': fc.constantFrom('gen_ai.user.message', 'gen_ai.choice', 'gen_ai.tool.message') }, { requiredKeys: [] })).map(([a, b]) => ({ ...a, ...b }) as Attributes),
    resource: fc.constant({ 'service.name': 'tenant-a' } as Attributes),
    scope: fc.constant({ name: '@opentelemetry/instrumentation-openai' }),
  });
const batch = fc.array(spanData, { maxLength: 8 }).chain((spans) => fc.record({ spans: fc.constant(spans), logs: fc.array(logData(spans), { maxLength: 4 }) }));

describe('FootprintCore.process over generated GenAI telemetry', () => {
  const decl = (() => {
    const r = loadDeclarationsFile(DECLARATIONS);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    return r.declarations;
  })();

  it('never throws, never fails inside (no core.failed), returns its diagnostics; state stays bounded across batches', () => {
    let findings = 0;
    let diagnostics = 0;
    fc.assert(
      fc.property(fc.array(batch, { minLength: 1, maxLength: 4 }), fc.constantFrom('quote', 'hash', 'omit') as fc.Arbitrary<'quote' | 'hash' | 'omit'>, (batches, redaction) => {
        const core = new FootprintCore({ declarations: decl, redaction, limits: { maxConversations: 4 } });
        for (const b of batches) {
          let r: ReturnType<FootprintCore['process']> | undefined;
          expect(() => (r = core.process(b))).not.toThrow();
          expect(Array.isArray(r!.diagnostics)).toBe(true);
          const failed = r!.diagnostics.filter((d) => d.code === 'core.failed');
          expect(failed, failed.map((d) => d.message).join('\n')).toEqual([]);
          findings += r!.findings.length;
          diagnostics += r!.diagnostics.length;
          for (const a of r!.annotations.values()) for (const e of a.events) if (e.name === 'footprint.finding' && typeof e.attributes['footprint.finding.value'] === 'string') expect(INVISIBLE.test(e.attributes['footprint.finding.value'])).toBe(false);
        }
        expect(core.stats().conversations).toBeLessThanOrEqual(4);
      }),
      { numRuns: 300 * RUNS, seed: 42 },
    );
    // The generator reaches the checks, not only the readers' refusals.
    console.log(`[bad-input] core over generated telemetry: ${findings} findings, ${diagnostics} diagnostics in ${300 * RUNS} runs`);
    expect(diagnostics).toBeGreaterThan(0);
  }, 150_000 * RUNS);

  it('deeply nested JSON straight into the core (arrays and objects, 50,000 levels): no throw, a diagnostic or a clean pass', () => {
    const core = new FootprintCore({ declarations: decl });
    for (const nested of ['['.repeat(50_000) + ']'.repeat(50_000), '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000), '[{"role":"assistant","parts":[{"type":"tool_call","id":"c","name":"backup_status","arguments":' + '{"machine_id":'.repeat(50_000) + '"x"' + '}'.repeat(50_000) + '}]}]']) {
      const span: SpanData = { traceId: 'd'.repeat(32), spanId: 'e'.repeat(16), name: 'chat x', kind: 3, startTimeUnixNano: 1n, endTimeUnixNano: 2n, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': nested, 'gen_ai.output.messages': nested, 'gen_ai.tool.call.arguments': nested }, events: [], status: { code: 0 }, resource: { 'service.name': 'a' }, scope: { name: 'x' } };
      const r = core.process({ spans: [span] });
      expect(r.diagnostics.filter((d) => d.code === 'core.failed')).toEqual([]);
    }
  });
});
