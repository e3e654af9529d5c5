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
      expect(out.findings).toHaveLength(1);
      const f = out.findings[0]!;
      expect(f).toMatchObject({ kind: exp.kind, seam: exp.seam, toolName: exp.toolName, toolCallId: exp.toolCallId, predicate: exp.predicate, value: exp.value, grounding: exp.grounding });
      expect(f.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(f.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(String(f.message)).toContain('its own earlier answer');
      expect(String(f.message)).toContain('It was served earlier in this conversation');
      expect((f.witnesses as { stratum: string }[]).map((w) => w.stratum)).toContain('written');
    });
    it(`${lib} clean-control: no finding, and the checks did run`, () => {
      const out = json([...fixturePaths(lib, 'clean-control'), '--declarations', DECL]);
      expect(out.findings).toEqual([]);
      expect(out.summary).toMatch(/^1 check ran on 3 LLM requests in 1 trace/);
    });
  }

  it('the finding lands on the chat span that chose the call, and its id is stable across runs', () => {
    const paths = fixturePaths('traceloop-openai', 'backup-triage');
    const a = json([...paths, '--declarations', DECL]).findings[0]!;
    const b = json([...paths, '--declarations', DECL]).findings[0]!;
    expect(a.id).toBe(b.id);
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const span = doc.spans.find((s) => s.span.spanId === a.spanId)!.span;
    expect(span.name).toMatch(/^chat /);
    expect(span.attributes['gen_ai.response.id']).toBe('chatcmpl-backup-triage-004');
  });

  it('zero delta: without declarations there are no findings and the summary says nothing was armed', () => {
    const out = json(fixturePaths('traceloop-openai', 'backup-triage'));
    expect(out.findings).toEqual([]);
    expect(out.summary).toContain('nothing was declared that arms a check');
  });

  it('text output names the trace, the call, the sentence and the witnesses', () => {
    const r = runCheck([...fixturePaths('vercel-ai', 'backup-triage'), '--declarations', DECL]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^1 check ran on 5 LLM requests in 2 traces\. 1 finding\./);
    expect(r.stdout).toContain('unsupported-argument @ choice — backup_status args.machine_id (call call_bt_003)');
    expect(r.stdout).toContain('[written] "db-primary-full"');
  });

  it('--write writes the trace back with the finding event on the subject span', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fp-'));
    const out = join(dir, 'out.json');
    const r = runCheck([...fixturePaths('otel-instrumentation-openai', 'backup-triage'), '--declarations', DECL, '--write', out]);
    expect(r.exitCode).toBe(0);
    const back = decodeOtlpJsonText(readFileSync(out, 'utf8'), out);
    expect(back.diagnostics).toEqual([]);
    const withEvents = back.spans.filter((s) => s.span.events.some((e) => e.name === 'footprint.finding'));
    expect(withEvents).toHaveLength(1);
    const s = withEvents[0]!.span;
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
      const f = JSON.parse(r.stdout).findings[0];
      expect(JSON.stringify(f)).not.toContain('db-primary-full');
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
