// Pins `footprint-otel check` end to end over every recorded instrumentation: backup-triage gives
// exactly the one expected unsupported-argument finding, clean-control gives none; --write adds
// the events to the right span; bad input exits 2 with a one-line reason.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck } from '../../src/cli/check.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { FIXTURES_DIR, LIBRARIES, fixturePaths, loadFixture } from '../helpers/fixtures.js';

const DECL = join(FIXTURES_DIR, 'declarations.yaml');
/** The official OpenAI instrumentation records no tool definitions; the others do. */
const TOOL_DEFINITIONS_RECORDED = new Set(['traceloop-openai', 'openinference-openai', 'vercel-ai', 'vercel-ai-v7-otel']);
const json = (argv: string[]) => {
  const r = runCheck([...argv, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as { findings: Record<string, unknown>[]; summary: string };
};

describe('functional: check over every recorded instrumentation', () => {
  for (const lib of LIBRARIES) {
    it(`${lib} backup-triage: exactly the expected finding`, () => {
      const { expected } = loadFixture(lib, 'backup-triage');
      const out = json([...fixturePaths(lib, 'backup-triage'), '--declarations', DECL]);
      const exp = expected.expectedFindings[0]!;
      const unsupported = out.findings.filter((x) => x.kind === 'unsupported-argument');
      expect(unsupported).toHaveLength(1);
      const f = unsupported[0]!;
      expect(f).toMatchObject({ kind: exp.kind, seam: exp.seam, toolName: exp.toolName, toolCallId: exp.toolCallId, predicate: exp.predicate, value: exp.value, grounding: exp.grounding });
      expect(f.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(f.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(String(f.message)).toContain('its own earlier answer');
      expect(String(f.message)).toContain('It was served earlier in this conversation');
      expect((f.witnesses as { stratum: string }[]).map((w) => w.stratum)).toContain('written');
      // The same turn also shows the catalog's other defects, truthfully:
      // backup_status returned [] for a fragment that backup_jobs served earlier (advisory),
      const lookups = out.findings.filter((x) => x.kind === 'empty-lookup');
      expect(lookups.map((x) => [x.toolName, x.predicate, x.advisory])).toEqual([['backup_status', 'args.machine_id', true]]);
      // and, where the telemetry records which tools were offered, turn 2 offered backup_jobs and
      // backup_status after their grounds (list_machines, backup_jobs results) left the window:
      // one grouped finding naming both, on the call to backup_status that request made.
      const dangling = out.findings.filter((x) => x.kind === 'dangling-reference');
      expect(dangling.map((x) => [x.toolName, x.toolCallId, x.advisory === true])).toEqual(TOOL_DEFINITIONS_RECORDED.has(lib) ? [['backup_status', 'call_bt_003', false]] : []);
      if (dangling.length > 0) expect(String(dangling[0]!.message)).toContain("'backup_jobs' and 'backup_status' were offered");
      expect(out.findings).toHaveLength(2 + dangling.length);
    });
    it(`${lib} clean-control: no finding, and the checks did run`, () => {
      const out = json([...fixturePaths(lib, 'clean-control'), '--declarations', DECL]) as unknown as { findings: unknown[]; summary: string; traces: { checks: { check: string; checked: number; findings: number; unreachableReasons: Record<string, number> }[] }[] };
      expect(out.findings).toEqual([]);
      expect(out.summary).toMatch(/^\d+ checks ran on 3 LLM requests in 1 trace/);
      const checks = out.traces[0]!.checks;
      // backup_status' machine_id and backup_jobs' machine_id + "failed" (the enum) were judged.
      expect(checks.find((c) => c.check === 'unsupported-argument')).toMatchObject({ checked: 3, findings: 0 });
      expect(checks.find((c) => c.check === 'empty-lookup')).toMatchObject({ checked: 2, findings: 0 });
      if (!TOOL_DEFINITIONS_RECORDED.has(lib)) expect(checks.find((c) => c.check === 'dangling-reference')!.unreachableReasons).toEqual({ 'tool definitions were not recorded': 3 });
    });
  }

  it('the finding lands on the chat span that chose the call, and its id is stable across runs', () => {
    const paths = fixturePaths('traceloop-openai', 'backup-triage');
    const pick = () => json([...paths, '--declarations', DECL]).findings.find((x) => x.kind === 'unsupported-argument')!;
    const a = pick();
    const b = pick();
    expect(a.id).toBe(b.id);
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const span = doc.spans.find((s) => s.span.spanId === a.spanId)!.span;
    expect(span.name).toMatch(/^chat /);
    expect(span.attributes['gen_ai.response.id']).toBe('chatcmpl-backup-triage-004');
  });

  it('without declarations, inference arms the checks and every finding says so', () => {
    const out = json(fixturePaths('traceloop-openai', 'backup-triage')) as unknown as { findings: Record<string, unknown>[]; summary: string };
    expect(out.findings.map((f) => [f.kind, f.value, f.armedBy])).toEqual([
      ['dangling-reference', null, 'inferred'],
      ['unsupported-argument', 'db-primary-full', 'inferred'],
    ]);
    for (const f of out.findings) {
      expect(f.armedEvidence).toBe("the schema of 'machine_id' names 'list_machines'");
      expect(String(f.message)).toContain('This was checked on inference, not on a declaration');
    }
  });

  it('zero delta: `inference: false` and nothing declared arms no check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fp-noinfer-'));
    const file = join(dir, 'declarations.yaml');
    writeFileSync(file, 'inference: false\n');
    const out = json([...fixturePaths('traceloop-openai', 'backup-triage'), '--declarations', file]);
    expect(out.findings).toEqual([]);
    expect(out.summary).toContain('nothing was declared that arms a check');
  });

  it('text output names the trace, the call, the sentence and the witnesses', () => {
    const r = runCheck([...fixturePaths('vercel-ai', 'backup-triage'), '--declarations', DECL]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^5 checks ran on 5 LLM requests in 2 traces\. 3 findings\./);
    expect(r.stdout).toContain('unsupported-argument @ choice — backup_status args.machine_id (call call_bt_003)');
    expect(r.stdout).toContain('[written] "db-primary-full"');
    // Every turn says what was checked, and the final answer's standing comes with its statement.
    expect(r.stdout.match(/^  checked: \d+ checks ran on \d LLM requests/gm)).toHaveLength(2);
    expect(r.stdout).toMatch(/answer standing: not-sure \(empty-undeclared\)\n    .*'backup_status' \(call call_bt_003\) was called with/);
  });

  it('json output carries each turn\'s disposition and standing', () => {
    const out = json([...fixturePaths('traceloop-openai', 'backup-triage'), '--declarations', DECL]) as unknown as { traces: { disposition: string; standing: { standing: string; reasons: string[] } | null }[] };
    expect(out.traces).toHaveLength(2);
    for (const t of out.traces) expect(t.disposition).toMatch(/checks ran on/);
    // Turn 1 answered from non-empty reads; turn 2's answer rests on backup_status' bare [].
    expect(out.traces.map((t) => t.standing?.standing).sort()).toEqual(['consistent', 'not-sure']);
    expect(out.traces.find((t) => t.standing?.standing === 'not-sure')!.standing!.reasons).toEqual(['empty-undeclared']);
  });

  it('--write writes the trace back with the finding event on the subject span', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fp-'));
    const out = join(dir, 'out.json');
    const r = runCheck([...fixturePaths('otel-instrumentation-openai', 'backup-triage'), '--declarations', DECL, '--write', out]);
    expect(r.exitCode).toBe(0);
    const back = decodeOtlpJsonText(readFileSync(out, 'utf8'), out);
    expect(back.diagnostics).toEqual([]);
    const withEvents = back.spans.filter((s) => s.span.events.some((e) => e.name === 'footprint.finding'));
    // The chat span that chose backup_status, and the execute_tool span whose [] it returned.
    expect(withEvents.map((x) => x.span.name).sort()).toEqual(['chat gpt-4o-mini', 'execute_tool backup_status']);
    const s = withEvents.find((x) => x.span.name.startsWith('chat'))!.span;
    expect(s.attributes['footprint.findings.count']).toBe(1);
    const e = s.events.find((x) => x.name === 'footprint.finding')!;
    expect(e.attributes['footprint.finding.kind']).toBe('unsupported-argument');
    expect(e.attributes['footprint.finding.predicate']).toBe('args.machine_id');
    expect(e.attributes['footprint.tool.call.id']).toBe('call_bt_003');
    for (const v of Object.values(e.attributes)) if (typeof v === 'string') expect(Buffer.byteLength(v)).toBeLessThan(2048);
    expect(back.spans.length).toBe(loadFixture('otel-instrumentation-openai', 'backup-triage').doc.spans.length);
  });

  it('redaction hash and omit leave no raw value in the output', () => {
    for (const mode of ['hash', 'omit']) {
      const r = runCheck([...fixturePaths('traceloop-openai', 'backup-triage'), '--declarations', DECL, '--format', 'json', '--redaction', mode]);
      const all = JSON.parse(r.stdout).findings as { kind: string; value: string }[];
      expect(all.length).toBeGreaterThan(1);
      expect(JSON.stringify(all)).not.toContain('db-primary-full');
      const f = all.find((x) => x.kind === 'unsupported-argument')!;
      expect(f.value).toMatch(mode === 'hash' ? /^sha256:[0-9a-f]{16}$/ : /^\(omitted\)$/);
    }
  });
});

describe('unit: check refuses unusable input with exit 2 and one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fp-bad-'));
  const cases: [string, string[], RegExp][] = [
    ['no file', [], /no input file given/],
    ['missing file', ['/nonexistent.json'], /cannot read \/nonexistent\.json \(ENOENT\)/],
    ['not OTLP', [(writeFileSync(join(dir, 'x.json'), '{"a":1}'), join(dir, 'x.json'))], /not an OTLP\/JSON trace or logs export/],
    ['garbage', [(writeFileSync(join(dir, 'g.json'), '\u0000\u0001garbage'), join(dir, 'g.json'))], /not JSON/],
    ['bad format', [join(FIXTURES_DIR, 'vercel-ai', 'clean-control.otlp.json'), '--format', 'xml'], /--format must be text or json/],
    ['bad declarations', [join(FIXTURES_DIR, 'vercel-ai', 'clean-control.otlp.json'), '--declarations', (writeFileSync(join(dir, 'd.yaml'), 'tools:\n  a:\n    argumentFrom: [b]\n'), join(dir, 'd.yaml'))], /did you mean "argumentsFrom"/],
    ['logs only', [join(FIXTURES_DIR, 'otel-instrumentation-openai', 'clean-control.logs.otlp.json')], /only \d+ log records/],
  ];
  for (const [name, argv, msg] of cases)
    it(name, () => {
      const r = runCheck(argv);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^footprint-otel check: /);
    });
});
