// The quality scorer: runs every case of test/quality/cases through the CLI's own `check` core
// (runCheck, --format json), matches the findings with the reviewer's expectations and tallies
// per check TP, FP, FN and advisory FP (advisory findings nobody expected, counted apart).
// Deterministic; never writes files (quality.ts does) and never edits a case.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCheck } from '../../src/cli/check.js';
import { checkOfKind } from '../../src/checks/catalog.js';
import { CHECK_IDS, type CheckId, type Expectation } from './build/spec.js';

export interface CaseExpected {
  case: string;
  check: CheckId;
  class: string;
  kind: 'defect' | 'clean';
  shape: string;
  expect: Expectation[];
  acceptable: Expectation[];
  note: string;
}

export interface ActualFinding {
  check: string;
  kind: string;
  tool: string | null;
  predicate: string;
  value: string | null;
  advisory: boolean;
  grounding: string | null;
  message: string;
}

export type Verdict = 'TP' | 'FP' | 'FN' | 'advisory FP' | 'acceptable';

export interface CaseResult {
  case: string;
  check: CheckId;
  class: string;
  kind: 'defect' | 'clean';
  shape: string;
  /** Set when the CLI refused the case (bad declarations, unreadable input): every expectation is a miss. */
  error?: string;
  items: { verdict: Verdict; check: string; kind?: string; tool?: string | null; value?: string | null; advisory?: boolean }[];
  /** True when the case got exactly what the reviewer wants (no FN, FP or advisory FP). */
  pass: boolean;
}

export interface CheckScore {
  check: CheckId;
  tp: number;
  fp: number;
  fn: number;
  advisoryFp: number;
  /** null when the check filed no non-advisory finding at all. */
  precision: number | null;
  /** null when no case expects a finding of the check. */
  recall: number | null;
}

export interface QualityResults {
  cases: number;
  casesPassing: number;
  checks: CheckScore[];
  total: Omit<CheckScore, 'check'>;
  perCase: CaseResult[];
}

const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();

export function matches(e: Expectation, f: ActualFinding): boolean {
  if (e.check !== f.check) return false;
  if (e.kind !== undefined && e.kind !== f.kind) return false;
  if (e.tool !== undefined && norm(e.tool) !== norm(f.tool)) return false;
  if (e.advisory !== undefined && e.advisory !== f.advisory) return false;
  if (e.value !== undefined && norm(e.value) !== norm(f.value) && norm(e.value) !== norm(f.predicate)) return false;
  return true;
}

export function listCases(root: string): string[] {
  const dir = join(root, 'test/quality/cases');
  return existsSync(dir) ? readdirSync(dir).filter((n) => existsSync(join(dir, n, 'expected.json'))).sort() : [];
}

/** How a case is run: with its declarations (the reviewer's setting), or as a user who wrote none. */
export type DeclarationsMode = 'declared' | 'none';

/** Runs one case through the CLI core and returns its findings (or why the CLI refused it). */
export function runCase(root: string, name: string, mode: DeclarationsMode = 'declared'): { expected: CaseExpected; findings: ActualFinding[]; error?: string } {
  const dir = join(root, 'test/quality/cases', name);
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as CaseExpected;
  const files = [join(dir, 'trace.otlp.json')];
  if (existsSync(join(dir, 'logs.otlp.json'))) files.push(join(dir, 'logs.otlp.json'));
  const r = runCheck([...files, ...(mode === 'declared' ? ['--declarations', join(dir, 'declarations.yaml')] : []), '--format', 'json']);
  if (r.exitCode !== 0) return { expected, findings: [], error: r.stderr.trim() };
  const out = JSON.parse(r.stdout) as { findings: Record<string, unknown>[] };
  const findings = out.findings.map((f) => ({
    check: checkOfKind(String(f.kind)),
    kind: String(f.kind),
    tool: (f.toolName as string | null) ?? null,
    predicate: String(f.predicate ?? ''),
    value: (f.value as string | null) ?? null,
    advisory: f.advisory === true,
    grounding: (f.grounding as string | null) ?? null,
    message: String(f.message ?? ''),
  }));
  return { expected, findings };
}

/** Matches one case's findings with its expectations (each expectation and finding used once). */
export function judgeCase(expected: CaseExpected, findings: ActualFinding[], error?: string): CaseResult {
  const items: CaseResult['items'] = [];
  const used = new Set<number>();
  for (const e of expected.expect) {
    const i = findings.findIndex((f, k) => !used.has(k) && matches(e, f));
    if (i >= 0) {
      used.add(i);
      const f = findings[i]!;
      items.push({ verdict: 'TP', check: e.check, kind: f.kind, tool: f.tool, value: f.value, advisory: f.advisory });
    } else items.push({ verdict: 'FN', check: e.check, ...(e.kind ? { kind: e.kind } : {}), ...(e.tool ? { tool: e.tool } : {}), ...(e.value ? { value: e.value } : {}) });
  }
  findings.forEach((f, k) => {
    if (used.has(k)) return;
    const verdict: Verdict = expected.acceptable.some((a) => matches(a, f)) ? 'acceptable' : f.advisory ? 'advisory FP' : 'FP';
    items.push({ verdict, check: f.check, kind: f.kind, tool: f.tool, value: f.value, advisory: f.advisory });
  });
  const pass = !error && items.every((x) => x.verdict === 'TP' || x.verdict === 'acceptable');
  return { case: expected.case, check: expected.check, class: expected.class, kind: expected.kind, shape: expected.shape, ...(error ? { error } : {}), items, pass };
}

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);

function tally(check: CheckId | null, perCase: CaseResult[]): Omit<CheckScore, 'check'> {
  const items = perCase.flatMap((c) => c.items).filter((x) => check === null || x.check === check);
  const n = (v: Verdict) => items.filter((x) => x.verdict === v).length;
  const tp = n('TP');
  const fp = n('FP');
  const fn = n('FN');
  return { tp, fp, fn, advisoryFp: n('advisory FP'), precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn) };
}

export function scoreCorpus(root: string, mode: DeclarationsMode = 'declared'): QualityResults {
  const perCase = listCases(root).map((name) => {
    const r = runCase(root, name, mode);
    return judgeCase(r.expected, r.findings, r.error);
  });
  return {
    cases: perCase.length,
    casesPassing: perCase.filter((c) => c.pass).length,
    checks: CHECK_IDS.map((check) => ({ check, ...tally(check, perCase) })),
    total: tally(null, perCase),
    perCase,
  };
}

const fmt = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));

/** The per-check table, as printed by `npm run quality` and copied into the README. */
export function renderTable(r: QualityResults): string {
  const rows = [
    '| check | TP | FP | FN | advisory FP | precision | recall |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.checks.map((c) => `| ${c.check} | ${c.tp} | ${c.fp} | ${c.fn} | ${c.advisoryFp} | ${fmt(c.precision)} | ${fmt(c.recall)} |`),
    `| **all** | ${r.total.tp} | ${r.total.fp} | ${r.total.fn} | ${r.total.advisoryFp} | ${fmt(r.total.precision)} | ${fmt(r.total.recall)} |`,
  ];
  const refused = r.perCase.filter((c) => c.error).length;
  const refusedNote = refused ? ` ${refused} refused by the CLI (each expectation of theirs counts as missed).` : '';
  return `${rows.join('\n')}\n\n${r.cases} cases, ${r.casesPassing} exactly as a reviewer wants.${refusedNote}\n`;
}

export function renderVerbose(r: QualityResults): string {
  const out: string[] = [];
  for (const c of r.perCase) {
    out.push(`${c.pass ? 'ok  ' : 'MISS'} ${c.case}  [${c.check} · ${c.kind} · ${c.shape}] ${c.class}`);
    if (c.error) out.push(`       error: ${c.error.split('\n')[0]}`);
    for (const x of c.items) {
      out.push(`       ${x.verdict.padEnd(11)} ${x.kind ?? x.check}${x.tool ? ` tool=${x.tool}` : ''}${x.value ? ` value=${JSON.stringify(x.value)}` : ''}${x.advisory ? ' (advisory)' : ''}`);
    }
  }
  return `${out.join('\n')}\n`;
}
