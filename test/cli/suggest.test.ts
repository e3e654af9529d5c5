// Pins `footprint-otel declarations suggest`: from the demo trace, the draft once saved gives the
// demo's findings (the same as the demo's own declarations); over every recorded instrumentation
// the draft arms the backup-triage finding and stays silent on the clean control; the draft
// proposes argumentsFrom only from observed flow (exact and fragment counted apart, never from a
// later result or from the tool itself), never decides readOnly or answers, and never overwrites.
import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { runCheck } from '../../src/cli/check.js';
import { runDeclarations } from '../../src/cli/suggest.js';
import { draftDeclarations } from '../../src/declarations/draft.js';
import type { LlmRequest } from '../../src/model/agent.js';
import { FIXTURES_DIR, LIBRARIES, fixturePaths } from '../helpers/fixtures.js';
import { otlpToJaeger } from '../helpers/otlp-to-jaeger.js';

const DEMO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'backup-triage');
const DEMO_FILES = [join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json')];
const tmp = mkdtempSync(join(tmpdir(), 'fp-suggest-'));
let n = 0;

type Finding = Record<string, unknown>;
function findings(argv: string[]): Finding[] {
  const r = runCheck([...argv, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}
function suggest(files: string[]): { path: string; text: string } {
  const path = join(tmp, `draft-${n++}.yaml`);
  const r = runDeclarations(['suggest', ...files, '--out', path]);
  expect(r.exitCode, r.stderr).toBe(0);
  return { path, text: readFileSync(path, 'utf8') };
}
const gist = (f: Finding) => ({ kind: f.kind, toolName: f.toolName, toolCallId: f.toolCallId, predicate: f.predicate, value: f.value, grounding: f.grounding, spanId: f.spanId, advisory: f.advisory });

describe('functional: the demo trace', () => {
  it('the draft, once saved, gives the demo findings (those of the demo declarations)', () => {
    const { path, text } = suggest(DEMO_FILES);
    const demo = findings([...DEMO_FILES, '--declarations', join(DEMO, 'declarations.yaml')]);
    const drafted = findings([...DEMO_FILES, '--declarations', path]);
    expect(demo.map((f) => f.kind).sort()).toEqual(['empty-lookup', 'unsupported-argument']);
    expect(drafted.map(gist)).toEqual(demo.map(gist));
    // Without the draft only inference arms checks: the cut id is still found, said as inferred,
    // and the empty lookup (which needs declared producers) is not.
    expect(findings(DEMO_FILES).map((f) => [f.kind, f.value, f.armedBy])).toEqual([['unsupported-argument', 'db-primary-full', 'inferred']]);
    // (the demo records no tool definitions, so its schema's words cannot arm anything more)
    const d = parseYaml(text) as { tools: Record<string, { argumentsFrom?: string[]; readOnly?: boolean }>; answers?: unknown };
    expect(d.tools.backup_jobs!.argumentsFrom).toEqual(['list_machines']);
    expect(d.tools.backup_status!.argumentsFrom).toEqual(['backup_jobs']);
    // list_machines only reads: inference says so from its name, and the draft makes it permanent, with the evidence.
    expect(d.tools.list_machines).toEqual({ readOnly: true });
    expect(text).toContain("readOnly: true    # inferred (in force already, by inference): its name has the read verb 'list'");
    expect(text).toContain('"db-primary-full" in "nightly-db-primary-full": review');
    expect(text).toContain('#   checkValues: true');
    // Tools whose names and descriptions have no read or write verb are left to the user.
    expect(d.tools.backup_jobs!.readOnly).toBeUndefined();
    expect(text).toContain('# readOnly: true    # yours to decide: nothing in the trace says whether the tool only reads');
    expect(d.answers).toBeUndefined();
  });
  it('the same draft comes from the demo trace as Jaeger JSON', () => {
    const jaeger = join(tmp, 'demo.jaeger.json');
    writeFileSync(jaeger, JSON.stringify(otlpToJaeger(JSON.parse(readFileSync(DEMO_FILES[0]!, 'utf8')))));
    const a = runDeclarations(['suggest', ...DEMO_FILES]).stdout;
    const b = runDeclarations(['suggest', jaeger, DEMO_FILES[1]!]).stdout;
    expect(b.split('\n').slice(2)).toEqual(a.split('\n').slice(2));
  });
});

describe('functional: over every recorded instrumentation', () => {
  for (const lib of LIBRARIES) {
    it(`${lib}: the backup-triage draft arms the unsupported-argument finding; on the clean control it finds nothing, or (no schema recorded) the enum value it says to declare`, () => {
      const defect = fixturePaths(lib, 'backup-triage');
      const { path, text } = suggest(defect);
      const withDraft = findings([...defect, '--declarations', path]);
      const withAuthors = findings([...defect, '--declarations', join(FIXTURES_DIR, 'declarations.yaml')]);
      const ua = (fs: Finding[]) => fs.filter((f) => f.kind === 'unsupported-argument').map(gist);
      expect(ua(withDraft)).toHaveLength(1);
      expect(ua(withDraft)).toEqual(ua(withAuthors));
      // Where the instrumentation records tool definitions, the schema is drafted from them.
      const recorded = JSON.stringify(parseYaml(text)).includes('"inputSchema"');
      expect(recorded).toBe(!lib.startsWith('otel-instrumentation-openai'));
      const clean = fixturePaths(lib, 'clean-control');
      const cleanDraft = suggest(clean);
      const drafted = parseYaml(cleanDraft.text) as { tools: Record<string, { argumentsFrom?: string[]; inputSchema?: unknown }> };
      expect(drafted.tools.backup_jobs?.argumentsFrom).toEqual(['list_machines']);
      const cleanFindings = findings([...clean, '--declarations', cleanDraft.path]);
      if (recorded) expect(cleanFindings).toEqual([]);
      else {
        // No schema recorded: the enum value "failed" came from no result, and the draft says so
        // where it proposes argumentsFrom; with the authors' schema added the control is clean.
        expect(cleanFindings.map((f) => [f.kind, f.toolName, f.predicate, f.value])).toEqual([['unsupported-argument', 'backup_jobs', 'args.statuses.1', 'failed']]);
        expect(cleanDraft.text).toMatch(/not seen in any earlier tool result: args\.statuses\[\].*declare a vocabulary as an enum in inputSchema/);
        const authors = parseYaml(readFileSync(join(FIXTURES_DIR, 'declarations.yaml'), 'utf8')) as { tools: Record<string, { inputSchema?: unknown }> };
        for (const [name, t] of Object.entries(drafted.tools)) t.inputSchema = authors.tools[name]!.inputSchema;
        const completed = join(tmp, `completed-${lib}.yaml`);
        writeFileSync(completed, stringifyYaml(drafted));
        expect(findings([...clean, '--declarations', completed])).toEqual([]);
      }
    });
  }
});

describe('unit: what the draft proposes', () => {
  const req = (start: number, input: LlmRequest['input'], toolCalls: LlmRequest['toolCalls']): LlmRequest => ({
    kind: 'llm-request',
    span: { traceId: 'a'.repeat(32), spanId: start.toString(16).padStart(16, '0') },
    convention: 'genai-semconv',
    tenant: 't',
    startTimeUnixNano: BigInt(start),
    endTimeUnixNano: BigInt(start + 1),
    inputContent: 'captured',
    outputContent: 'captured',
    input,
    outputText: [],
    toolCalls,
  });
  const bounds = { maxLeaves: 1000, maxJsonChars: 1_000_000 };
  const called = (id: string, name: string, args: unknown) => ({ role: 'assistant' as const, parts: [{ type: 'tool-call' as const, id, name, arguments: args }] });
  const result = (id: string, r: unknown) => ({ role: 'tool' as const, parts: [{ type: 'tool-result' as const, id, result: r }] });

  it('counts exact and fragment matches apart, per call, from earlier results of other tools only', () => {
    const events = [
      req(1, [], [{ id: 'c1', name: 'find', arguments: { q: 'acme' } }]),
      req(3, [called('c1', 'find', { q: 'acme' }), result('c1', '[{"id":"ord-7731"},{"id":"ord-7732"}]')], [
        { id: 'c2', name: 'get', arguments: { id: 'ord-7731' } },
        { id: 'c3', name: 'get', arguments: { id: '7732' } },
        { id: 'c4', name: 'find', arguments: { q: 'ord-7731' } },
      ]),
    ];
    const d = draftDeclarations(events, bounds);
    expect(d.tools.map((t) => [t.name, t.calls, t.results])).toEqual([['find', 2, 1], ['get', 2, 0]]);
    expect(d.flows).toEqual([{ target: 'get', path: 'args.id', source: 'find', exact: 1, fragment: 1, example: { value: 'ord-7731', matched: 'ord-7731' } }]);
  });
  it('a value seen only in a later result, or a non-token part, is no flow', () => {
    const events = [
      req(1, [], [{ id: 'c1', name: 'get', arguments: { id: 'ord-7731' } }]),
      req(3, [called('c1', 'get', { id: 'ord-7731' }), result('c1', 'done')], []),
      req(5, [result('c9', 'x')], []),
      req(6, [called('c2', 'find', {}), result('c2', '{"id":"ord-7731","code":"xacmey"}')], [{ id: 'c3', name: 'lookup', arguments: { q: 'acme' } }]),
    ];
    const d = draftDeclarations(events, bounds);
    expect(d.flows).toEqual([]);
  });
});

describe('unit: usage', () => {
  it('refuses to overwrite, to run without input, and on input with no tool', () => {
    const existing = join(tmp, 'exists.yaml');
    writeFileSync(existing, 'tools: {}\n');
    const r = runDeclarations(['suggest', ...DEMO_FILES, '--out', existing]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('never overwrites');
    expect(readFileSync(existing, 'utf8')).toBe('tools: {}\n');
    expect(runDeclarations(['suggest']).exitCode).toBe(2);
    expect(runDeclarations(['bogus']).stderr).toContain('unknown subcommand "bogus"');
    const noTools = join(tmp, 'plain.json');
    writeFileSync(noTools, JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: 'http' }, spans: [{ traceId: 'b'.repeat(32), spanId: 'c'.repeat(16), name: 'GET /', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] }));
    const none = runDeclarations(['suggest', noTools, '--out', join(tmp, 'none.yaml')]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no tool was seen');
    expect(existsSync(join(tmp, 'none.yaml'))).toBe(false);
    const missing = runDeclarations(['suggest', ...DEMO_FILES, join(tmp, 'absent.json'), '--out', join(tmp, 'missing.yaml')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*absent\.json \(ENOENT\)/);
    expect(existsSync(join(tmp, 'missing.yaml'))).toBe(false);
  });
});
