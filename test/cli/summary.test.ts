// What `check` says about what it could and could not do: a trace with no GenAI span is "N traces,
// no LLM request recognised" with the conventions read (declarations never blamed); without
// declarations the demo says once which checks are off and the command that drafts them.
import { describe, it, expect } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { DEMO, DEMO_DECLARATIONS, plainServiceTrace } from './helpers.js';

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
    expect(out.summary).toMatch(/^4 checks ran on 5 LLM requests in 2 traces \(1 more with no LLM request recognised\)/);
  });
});

describe('check without declarations: says once which checks examined nothing and how to draft declarations', () => {
  it('text: the note appears once, names the checks that examined nothing and the suggest command with the given files', () => {
    const r = runCheck(DEMO, { width: 10_000 });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    const notes = lines.filter((l) => l.startsWith('No declarations given'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^No declarations given: checks ran on what the trace itself shows \(inferred\), and 5 checks found nothing they could examine \(dangling-reference, empty-lookup, result-columns, /);
    const suggest = lines.filter((l) => l.includes('declarations suggest'));
    expect(suggest).toEqual([`\`footprint-otel declarations suggest ${DEMO.join(' ')} --out declarations.yaml\` drafts them from this trace; review the draft, then pass it with --declarations declarations.yaml.`]);
  });

  it('json: the same note in "notes"; none once declarations are given', () => {
    expect(json(DEMO).notes).toHaveLength(2);
    expect(json(DEMO).notes[1]).toContain('footprint-otel declarations suggest');
    expect(json([...DEMO, '--declarations', DEMO_DECLARATIONS]).notes).toEqual([]);
  });
});
