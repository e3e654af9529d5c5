// Pins Jaeger's JSON and Jaeger v2's answers as `check` inputs: every recorded fixture, written the
// way Jaeger hands it back, gives `check` the same findings as its OTLP original; the committed
// Jaeger file of the demo trace gives the demo's findings; tags, logs, references and processes
// map back to OTLP fields; a mixed or unknown shape is refused with the list of shapes read.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheck } from '../../src/cli/check.js';
import { decodeTraceFileText, SHAPES_READ } from '../../src/otlp/trace-file.js';
import { FIXTURES_DIR, LIBRARIES, SCENARIOS, fixturePaths } from '../helpers/fixtures.js';
import { otlpToJaeger } from '../helpers/otlp-to-jaeger.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEMO = join(ROOT, 'examples', 'backup-triage');
const DECL = join(FIXTURES_DIR, 'declarations.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'fp-jaeger-'));

type Finding = Record<string, unknown>;
function findings(argv: string[]): Finding[] {
  const r = runCheck([...argv, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}
/** What a finding says and where it lands; ids of findings derive from these. */
const gist = (f: Finding) => ({ kind: f.kind, toolName: f.toolName, toolCallId: f.toolCallId, predicate: f.predicate, value: f.value, traceId: f.traceId, spanId: f.spanId, message: f.message, id: f.id });

describe('functional: Jaeger JSON of every recorded fixture gives the OTLP original findings', () => {
  for (const lib of LIBRARIES)
    for (const scenario of SCENARIOS)
      it(`${lib} ${scenario}`, () => {
        const [tracePath, ...logPaths] = fixturePaths(lib, scenario);
        const jaegerPath = join(tmp, `${lib}-${scenario}.jaeger.json`);
        writeFileSync(jaegerPath, JSON.stringify(otlpToJaeger(JSON.parse(readFileSync(tracePath!, 'utf8')))));
        const original = findings([tracePath!, ...logPaths, '--declarations', DECL]);
        const viaJaeger = findings([jaegerPath, ...logPaths, '--declarations', DECL]);
        expect(viaJaeger.map(gist)).toEqual(original.map(gist));
        if (scenario === 'backup-triage') expect(original.map((f) => f.kind)).toContain('unsupported-argument');
      });
});

describe('functional: the committed Jaeger file of the demo trace', () => {
  const jaegerFile = join(FIXTURES_DIR, 'jaeger', 'backup-triage.jaeger.json');
  it('is what Jaeger writes for the demo trace (16-character ids where the high half is zero, µs times)', () => {
    const committed = JSON.parse(readFileSync(jaegerFile, 'utf8'));
    expect(committed).toEqual(otlpToJaeger(JSON.parse(readFileSync(join(DEMO, 'trace.otlp.json'), 'utf8'))));
    expect(committed.data[0].spans[0]).toMatchObject({ traceID: expect.stringMatching(/^[0-9a-f]{32}$/), startTime: expect.any(Number), processID: 'p1' });
  });
  it('gives check the demo findings, with the demo declarations', () => {
    const decl = join(DEMO, 'declarations.yaml');
    const original = findings([join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json'), '--declarations', decl]);
    const viaJaeger = findings([jaegerFile, join(DEMO, 'logs.otlp.json'), '--declarations', decl]);
    expect(original.filter((f) => f.kind === 'unsupported-argument')).toHaveLength(1);
    expect(viaJaeger.map(gist)).toEqual(original.map(gist));
  });
  it('--write writes the Jaeger input back out as OTLP/JSON with the finding events', () => {
    const out = join(tmp, 'written.otlp.json');
    const r = runCheck([jaegerFile, join(DEMO, 'logs.otlp.json'), '--declarations', join(DEMO, 'declarations.yaml'), '--write', out]);
    expect(r.exitCode).toBe(0);
    const back = decodeTraceFileText(readFileSync(out, 'utf8'), out);
    expect(back.diagnostics).toEqual([]);
    expect(back.spans.flatMap((s) => s.span.events.map((e) => e.name))).toContain('footprint.finding');
  });
});

describe('functional: Jaeger v2 answers (result.resourceSpans)', () => {
  const request = JSON.parse(readFileSync(join(DEMO, 'trace.otlp.json'), 'utf8')) as { resourceSpans: unknown[] };
  const logs = join(DEMO, 'logs.otlp.json');
  const decl = join(DEMO, 'declarations.yaml');
  it('one answer, and a stream of answers as JSON lines, give the OTLP findings', () => {
    const original = findings([join(DEMO, 'trace.otlp.json'), logs, '--declarations', decl]);
    const one = join(tmp, 'v2-one.json');
    writeFileSync(one, JSON.stringify({ result: request }, null, 2));
    expect(findings([one, logs, '--declarations', decl]).map(gist)).toEqual(original.map(gist));
    const stream = join(tmp, 'v2-stream.jsonl');
    writeFileSync(stream, request.resourceSpans.map((rs) => JSON.stringify({ result: { resourceSpans: [rs] } })).join('\n'));
    expect(findings([stream, logs, '--declarations', decl]).map(gist)).toEqual(original.map(gist));
  });
});

describe('unit: Jaeger fields map back to OTLP', () => {
  const jaeger = {
    data: [
      {
        traceID: '1f2e3d4c5b6a7980',
        processes: { p1: { serviceName: 'agent', tags: [{ key: 'service.version', type: 'string', value: '1.2' }, { key: 'host.cpus', type: 'int64', value: 4 }] } },
        spans: [
          {
            traceID: '1f2e3d4c5b6a7980',
            spanID: '00000000000000a1',
            operationName: 'root',
            references: [],
            startTime: 1700000000000001,
            duration: 5,
            tags: [{ key: 'span.kind', type: 'string', value: 'server' }],
            logs: [],
            processID: 'p1',
          },
          {
            traceID: '1f2e3d4c5b6a7980',
            spanID: '00000000000000b2',
            operationName: 'chat',
            references: [
              { refType: 'CHILD_OF', traceID: '1f2e3d4c5b6a7980', spanID: '00000000000000a1' },
              { refType: 'FOLLOWS_FROM', traceID: 'aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb', spanID: '00000000000000c3' },
            ],
            startTime: 1700000000000002,
            duration: 3,
            tags: [
              { key: 'gen_ai.usage.input_tokens', type: 'int64', value: 12 },
              { key: 'gen_ai.request.temperature', type: 'float64', value: 0.5 },
              { key: 'stream', type: 'bool', value: false },
              { key: 'blob', type: 'binary', value: Buffer.from('hi').toString('base64') },
              { key: 'span.kind', type: 'string', value: 'client' },
              { key: 'otel.status_code', type: 'string', value: 'ERROR' },
              { key: 'otel.status_description', type: 'string', value: 'boom' },
              { key: 'error', type: 'bool', value: true },
              { key: 'otel.scope.name', type: 'string', value: 'my-instr' },
              { key: 'otel.scope.version', type: 'string', value: '0.9' },
            ],
            logs: [{ timestamp: 1700000000000003, fields: [{ key: 'event', type: 'string', value: 'gen_ai.choice' }, { key: 'index', type: 'int64', value: 0 }] }],
            processID: 'p1',
          },
        ],
      },
    ],
  };
  const doc = decodeTraceFileText(JSON.stringify(jaeger), 'unit.json');
  const byId = new Map(doc.spans.map((s) => [s.span.spanId, s.span]));
  it('reads both spans with no diagnostics, pads the 64-bit trace id', () => {
    expect(doc.diagnostics).toEqual([]);
    expect(doc.spans).toHaveLength(2);
    expect(byId.get('00000000000000b2')!.traceId).toBe('00000000000000001f2e3d4c5b6a7980');
  });
  it('types tags back and turns kind, status and scope tags into fields', () => {
    const s = byId.get('00000000000000b2')!;
    expect(s.attributes).toEqual({ 'gen_ai.usage.input_tokens': 12, 'gen_ai.request.temperature': 0.5, stream: false, blob: Uint8Array.from(Buffer.from('hi')) });
    expect(s.kind).toBe(3);
    expect(s.status).toEqual({ code: 2, message: 'boom' });
    expect(s.scope).toEqual({ name: 'my-instr', version: '0.9' });
    expect(byId.get('00000000000000a1')!.kind).toBe(2);
  });
  it('maps logs to events, references to parent and links, the process to the resource, µs to ns', () => {
    const s = byId.get('00000000000000b2')!;
    expect(s.parentSpanId).toBe('00000000000000a1');
    expect(s.events).toEqual([{ name: 'gen_ai.choice', timeUnixNano: 1700000000000003000n, attributes: { index: 0 } }]);
    expect(s.startTimeUnixNano).toBe(1700000000000002000n);
    expect(s.endTimeUnixNano).toBe(1700000000000005000n);
    expect(s.resource).toEqual({ 'service.name': 'agent', 'service.version': '1.2', 'host.cpus': 4 });
    expect((doc.documents[0] as { resourceSpans: { scopeSpans: { spans: { links: unknown[] }[] }[] }[] }).resourceSpans[0]!.scopeSpans.flatMap((ss) => ss.spans.flatMap((x) => x.links))).toEqual([
      { traceId: 'aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb', spanId: '00000000000000c3', attributes: [] },
    ]);
  });
  it('a span with an unusable id is a diagnostic, the rest is read', () => {
    const broken = structuredClone(jaeger);
    broken.data[0]!.spans[0]!.spanID = 'not-hex';
    const d = decodeTraceFileText(JSON.stringify(broken), 'b.json');
    expect(d.spans).toHaveLength(1);
    expect(d.diagnostics.map((x) => x.code)).toEqual(['jaeger.span-invalid']);
  });
});

describe('unit: mixed and unknown shapes are refused with the list of shapes read', () => {
  const otlpLine = readFileSync(join(DEMO, 'trace.otlp.json'), 'utf8').replace(/\s*\n\s*/g, '');
  const jaegerLine = JSON.stringify(otlpToJaeger(JSON.parse(otlpLine)));
  it('a file mixing Jaeger JSON and OTLP lines reads nothing from it', () => {
    const d = decodeTraceFileText(`${otlpLine}\n${jaegerLine}\n`, 'mixed.jsonl');
    expect(d.spans).toEqual([]);
    expect(d.diagnostics.map((x) => x.code)).toEqual(['input.shape-mixed']);
    for (const s of SHAPES_READ) expect(d.diagnostics[0]!.message).toContain(s);
  });
  it('one document that is both is refused', () => {
    const both = { ...JSON.parse(otlpLine), ...JSON.parse(jaegerLine) };
    expect(decodeTraceFileText(JSON.stringify(both), 'both.json').diagnostics.map((x) => x.code)).toEqual(['input.shape-mixed']);
  });
  it('check exits 2 on an unknown shape and says which shapes are read', () => {
    const p = join(tmp, 'unknown.json');
    writeFileSync(p, JSON.stringify({ traces: [{ id: 1 }] }));
    const r = runCheck([p]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Jaeger's JSON");
    expect(r.stderr).toContain('result: {resourceSpans}');
  });
});
