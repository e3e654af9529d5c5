// What `check` says about what it could and could not do: a trace with no GenAI span is "N traces,
// no LLM request recognised" with the conventions read (declarations never blamed); without
// declarations the demo says once which checks are off and the command that drafts them.
import { describe, it, expect } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DEMO, DEMO_DECLARATIONS, plainServiceTrace } from './helpers.js';
import { FIXTURES_DIR, fixturePaths } from '../helpers/fixtures.js';

const EXAMPLE = join(FIXTURES_DIR, '..', '..', 'examples', 'backup-triage');

const json = (argv: string[]) => {
  const r = runCheck([...argv, '--format', 'json']);
  expect([r.exitCode, r.stderr]).toEqual([0, '']);
  return JSON.parse(r.stdout) as { summary: string; notes: string[]; findings: unknown[]; traces: unknown[] };
};

describe('check summary: traces without GenAI spans', () => {
  const plain = plainServiceTrace(3);

  for (const [label, extra] of [['without declarations', []], ['with declarations', ['--declarations', DEMO_DECLARATIONS]]] as const) {
    it(`${label}: "3 traces, no LLM request recognised" and the conventions read, nothing about declarations`, () => {
      const out = json([plain, ...extra]);
      expect(out.summary).toMatch(/^3 traces, no LLM request recognised \(conventions read: /);
      for (const convention of ['OpenTelemetry GenAI', 'OpenInference', 'Vercel AI SDK']) expect(out.summary).toContain(convention);
      expect(out.summary).not.toMatch(/declar|0 traces/);
      expect(out.notes).toEqual([]);
      expect(out.findings).toEqual([]);
      const text = runCheck([plain, ...extra]).stdout;
      expect(text).toMatch(/^3 traces, no LLM request recognised/);
      expect(text).not.toMatch(/declar/);
    });
  }

  it('a run mixing agent and ordinary traces counts both', () => {
    const out = json([...DEMO, plainServiceTrace(1), '--declarations', DEMO_DECLARATIONS]);
    expect(out.summary).toMatch(/^6 checks ran on 5 LLM requests in 2 traces \(1 more with no LLM request recognised\)/);
  });
});

describe('check without declarations: says once which checks examined nothing and how to draft declarations', () => {
  it('text: the note appears once, names the checks that examined nothing and the suggest command with the given files', () => {
    const r = runCheck(DEMO, { width: 10_000 });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    const notes = lines.filter((l) => l.startsWith('No declarations given'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^No declarations given: checks ran on what the trace itself shows \(inferred\), and 9 checks found nothing they could examine \(dangling-reference, argument-schema, empty-lookup, result-columns, /);
    const suggest = lines.filter((l) => l.includes('declarations suggest'));
    expect(suggest).toEqual([`\`footprint-otel declarations suggest ${DEMO.join(' ')} --out declarations.yaml\` drafts them from this trace; review the draft, then pass it with --declarations declarations.yaml.`]);
  });

  it('json: the same note in "notes"; none once declarations are given', () => {
    expect(json(DEMO).notes).toHaveLength(2);
    expect(json(DEMO).notes[1]).toContain('footprint-otel declarations suggest');
    expect(json([...DEMO, '--declarations', DEMO_DECLARATIONS]).notes).toEqual([]);
  });
});

describe('check says why a check had nothing to do, when the input tells', () => {
  const jaeger = join(FIXTURES_DIR, 'jaeger', 'backup-triage.jaeger.json');
  it('a Jaeger file without its logs: content not captured, and the hint to give the logs file', () => {
    const out = json([jaeger, '--declarations', DEMO_DECLARATIONS]);
    expect(out.summary).toContain('could not run: message content was not captured');
    expect(out.notes).toEqual([expect.stringMatching(/^Message content was not captured on these spans and no log records were given: .*give the logs file too \(`footprint-otel check traces\.json logs\.json`; Jaeger keeps spans only/)]);
    // With the logs file beside it, the content is read and the hint is gone.
    const both = json([jaeger, join(EXAMPLE, 'logs.otlp.json'), '--declarations', DEMO_DECLARATIONS]);
    expect(both.notes).toEqual([]);
    expect(both.findings.length).toBe(2);
  });

  it('requests read but none recorded a tool call (OpenLLMetry LangChain without its tool spans): said so, not "nothing declared"', () => {
    // Its chat spans hold text only; the calls are on its execute_tool spans. Without those, nothing shows a call.
    const doc = JSON.parse(readFileSync(fixturePaths('traceloop-langchain' as never, 'backup-triage')[0]!, 'utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) ss.spans = ss.spans.filter((sp) => !sp.name.startsWith('execute_tool ') && !sp.name.startsWith('workflow '));
    const file = join(mkdtempSync(join(tmpdir(), 'fp-summary-')), 'chat-only.otlp.json');
    writeFileSync(file, JSON.stringify(doc));
    const out = json([file, '--declarations', join(FIXTURES_DIR, 'declarations.yaml')]);
    expect(out.notes.filter((n) => n.startsWith('None of'))).toEqual([expect.stringMatching(/^None of the 5 LLM requests read recorded a tool call \(in its output or its input\), so the checks on tool calls had nothing to check/)]);
    // With its tool spans, the calls are read: no such note.
    expect(json([...fixturePaths('traceloop-langchain' as never, 'backup-triage'), '--declarations', join(FIXTURES_DIR, 'declarations.yaml')]).notes.filter((n) => n.startsWith('None of'))).toEqual([]);
    // A stack that records its calls gets no such note.
    expect(json([...fixturePaths('traceloop-openai', 'backup-triage'), '--declarations', join(FIXTURES_DIR, 'declarations.yaml')]).notes).toEqual([]);
  });
});
