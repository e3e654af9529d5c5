// `check --fail-on findings|advisory|never` as a CI gate: the demo trace (one non-advisory
// unsupported-argument, one advisory empty-lookup) and the clean control, each policy's exit code.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck } from '../../src/cli/check.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { FIXTURES_DIR, fixturePaths } from '../helpers/fixtures.js';
import { DEMO, DEMO_DECLARATIONS } from './helpers.js';

const CLEAN = [...fixturePaths('traceloop-openai', 'clean-control'), '--declarations', join(FIXTURES_DIR, 'declarations.yaml')];
/**
 * A quality case whose only finding is an advisory empty-lookup (the empty-lookup-fragment scenario
 * also files a non-advisory `fragment` unsupported-argument since issue 9 §4).
 */
const ADVISORY_CASE = join('test', 'quality', 'cases', 'el-defect-producer-value-empty-list');
const ADVISORY_ONLY = [join(ADVISORY_CASE, 'trace.otlp.json'), '--declarations', join(ADVISORY_CASE, 'declarations.yaml')];

describe('check --fail-on', () => {
  it('the codes are 0 ok, 1 findings, 2 usage, 3 internal', () => {
    expect(EXIT).toEqual({ ok: 0, findings: 1, usage: 2, internal: 3 });
  });

  it('default (never): findings alone never fail the run', () => {
    const r = runCheck([...DEMO, '--declarations', DEMO_DECLARATIONS, '--format', 'json']);
    expect(JSON.parse(r.stdout).findings).toHaveLength(2);
    expect(r.exitCode).toBe(0);
    expect(runCheck([...DEMO, '--declarations', DEMO_DECLARATIONS, '--fail-on', 'never']).exitCode).toBe(0);
  });

  it('findings: exit 1 on a non-advisory finding, with a stderr line saying why', () => {
    const r = runCheck([...DEMO, '--declarations', DEMO_DECLARATIONS, '--fail-on', 'findings', '--format', 'json']);
    expect(r.exitCode).toBe(EXIT.findings);
    expect(r.stderr).toBe('footprint-otel check: 1 non-advisory finding (--fail-on findings): exit 1\n');
    // stdout is still the whole report
    expect(JSON.parse(r.stdout).findings).toHaveLength(2);
  });

  it('findings ignores advisory findings; advisory counts them', () => {
    const only = JSON.parse(runCheck([...ADVISORY_ONLY, '--format', 'json']).stdout).findings as { kind: string; advisory: boolean }[];
    expect(only.map((f) => [f.kind, f.advisory])).toEqual([['empty-lookup', true]]);
    expect(runCheck([...ADVISORY_ONLY, '--fail-on', 'findings'])).toMatchObject({ exitCode: 0, stderr: '' });
    expect(runCheck([...ADVISORY_ONLY, '--fail-on', 'advisory'])).toMatchObject({ exitCode: 1, stderr: 'footprint-otel check: 1 finding (--fail-on advisory): exit 1\n' });
    const demo = runCheck([...DEMO, '--declarations', DEMO_DECLARATIONS, '--fail-on', 'advisory']);
    expect([demo.exitCode, demo.stderr]).toEqual([1, 'footprint-otel check: 2 findings (--fail-on advisory): exit 1\n']);
  });

  it('a clean trace passes every policy', () => {
    for (const policy of ['findings', 'advisory', 'never']) {
      const r = runCheck([...CLEAN, '--fail-on', policy]);
      expect(r.stdout).toMatch(/0\s+findings\./);
      expect([policy, r.exitCode, r.stderr]).toEqual([policy, 0, '']);
    }
  });

  it('an unknown policy is a usage error (2) naming the four', () => {
    const r = runCheck([...CLEAN, '--fail-on', 'errors']);
    expect(r.exitCode).toBe(EXIT.usage);
    expect(r.stderr).toBe('footprint-otel check: --fail-on must be findings, advisory, unchecked or never (or several, with commas), not "errors"\n');
    expect(runCheck([...CLEAN, '--fail-on', 'findings,nope']).stderr).toContain('not "nope"');
  });

  it('unchecked: exit 1 when no check gave a verdict anywhere (content not captured, or nothing declared with inference off), with the reason; 0 when some check ran', () => {
    // A span-only pipeline whose content went to log records, and no declarations: nothing to judge.
    const spansOnly = [fixturePaths('otel-instrumentation-openai', 'clean-control')[0]!];
    const none = runCheck([...spansOnly, '--fail-on', 'unchecked']);
    expect([none.exitCode, none.stderr]).toEqual([EXIT.findings, 'footprint-otel check: nothing was checked: no check gave a verdict on 3 LLM requests in 1 trace (--fail-on unchecked): exit 1\n']);
    // Content captured, inference turned off and nothing declared: nothing armed.
    const off = join(mkdtempSync(join(tmpdir(), 'fp-unchecked-')), 'declarations.yaml');
    writeFileSync(off, 'inference: false\ntools: {}\n');
    const bare = fixturePaths('traceloop-openai', 'clean-control');
    expect(runCheck([...bare, '--declarations', off, '--fail-on', 'unchecked']).exitCode).toBe(EXIT.findings);
    // The same trace with what inference arms, or with declarations: checks ran, nothing found.
    expect(runCheck([...bare, '--fail-on', 'unchecked'])).toMatchObject({ exitCode: 0, stderr: '' });
    expect(runCheck([...CLEAN, '--fail-on', 'unchecked'])).toMatchObject({ exitCode: 0, stderr: '' });
  });

  it('policies combine with commas: findings,unchecked fails on either, saying each', () => {
    const demo = runCheck([...DEMO, '--declarations', DEMO_DECLARATIONS, '--fail-on', 'findings,unchecked']);
    expect([demo.exitCode, demo.stderr]).toEqual([1, 'footprint-otel check: 1 non-advisory finding (--fail-on findings): exit 1\n']);
    const bare = runCheck([fixturePaths('otel-instrumentation-openai', 'clean-control')[0]!, '--fail-on', 'findings,unchecked']);
    expect(bare.exitCode).toBe(1);
    expect(bare.stderr).toContain('(--fail-on unchecked)');
    expect(runCheck([...CLEAN, '--fail-on', 'findings,unchecked'])).toMatchObject({ exitCode: 0, stderr: '' });
  });

  it('--help documents --fail-on and the exit codes', () => {
    const r = runCheck(['--help']);
    expect(r.stdout).toContain('--fail-on       when to exit 1');
    expect(r.stdout).toContain('unchecked (no check gave a verdict anywhere');
    expect(r.stdout).toMatch(/exit codes:\n  0 .*\n  1 .*\n  2 .*\n  3 /);
  });
});
