// The real-traffic measure: runs the CLI's own `check` core over real agent runs and counts
// findings on the runs their benchmark scored healthy, by check and advisory, and on the failed
// ones. A finding on a healthy run is almost always a false positive. Two sets:
// - tau-airline (test/real-traces/tau-airline: 200 tau-bench airline runs of GPT-4o, MIT), in four
//   modes: the careful declarations or none, each with the app's `execute_tool` spans and with the
//   LLM client's spans only;
// - agentdojo-dev (AgentDojo's published benign runs, 13 models, workspace and slack suites, MIT),
//   read from ../shared/real-traces/agentdojo-dev (never copied into the project; FP_AGENTDOJO_DIR
//   overrides), in two modes: no declarations, with app spans and LLM spans only; broken down by
//   model and by suite. Absent (a clone outside the workplace), it is reported as not measured.
// Deterministic; writes only temporary files (removed), never edits a run.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runCheck } from '../../src/cli/check.js';
import { checkOfKind } from '../../src/checks/catalog.js';

export const REAL_DIR = 'test/real-traces/tau-airline';

export type SpansForm = 'app-spans' | 'llm-only';
export type RealDeclarations = 'careful' | 'none';
export type RealSetId = 'tau-airline' | 'agentdojo-dev';

export interface RealMode {
  set: RealSetId;
  spans: SpansForm;
  declarations: RealDeclarations;
}

export const REAL_MODES: readonly RealMode[] = [
  { set: 'tau-airline', spans: 'app-spans', declarations: 'careful' },
  { set: 'tau-airline', spans: 'app-spans', declarations: 'none' },
  { set: 'tau-airline', spans: 'llm-only', declarations: 'careful' },
  { set: 'tau-airline', spans: 'llm-only', declarations: 'none' },
  { set: 'agentdojo-dev', spans: 'app-spans', declarations: 'none' },
  { set: 'agentdojo-dev', spans: 'llm-only', declarations: 'none' },
];

export const modeName = (m: RealMode) => `${m.set} ${m.spans}/${m.declarations}`;

/** Where the AgentDojo dev set is read from: FP_AGENTDOJO_DIR, else ../shared/real-traces/agentdojo-dev beside the checkout. */
export function agentdojoDir(root: string): string {
  return resolve(process.env['FP_AGENTDOJO_DIR'] ?? join(root, '..', 'shared', 'real-traces', 'agentdojo-dev'));
}

/** Whether a set's runs are on this machine (tau-airline always is: it is in the project). */
export function realSetAvailable(root: string, set: RealSetId): boolean {
  return set === 'tau-airline' ? existsSync(join(root, REAL_DIR, 'traces', 'index.json')) : existsSync(join(agentdojoDir(root), 'traces', 'index.json'));
}

export interface RealFinding {
  run: string;
  traceId: string;
  check: string;
  kind: string;
  advisory: boolean;
  tool: string | null;
  value: string | null;
  armedBy: string;
}

/** Findings on healthy runs of one group (a model, a suite). */
export interface RealGroupResult {
  healthyRuns: number;
  nonAdvisory: number;
  advisory: number;
}

export interface RealModeResult {
  mode: string;
  set: RealSetId;
  healthyRuns: number;
  failedRuns: number;
  /** Findings on healthy runs: non-advisory and advisory, and by check (`check` or `check (advisory)`). */
  nonAdvisory: number;
  advisory: number;
  byCheck: Record<string, number>;
  /** Healthy-run findings by group (`model <name>`, `suite <name>`), where the set's index names them. */
  byGroup: Record<string, RealGroupResult>;
  /** Findings on failed runs (the real failures the checks point at, or not). */
  onFailed: number;
  onFailedByCheck: Record<string, number>;
  healthyFindings: RealFinding[];
}

interface RunIndex {
  runs: { run: string; reward: number; healthy?: boolean; model?: string; suite?: string; file?: string; spans: { traceId: string }[] }[];
}

/** The OTLP/JSON document without the app's execute_tool spans: what an LLM-client-only app exports. */
export function withoutToolSpans(doc: { resourceSpans?: { scopeSpans?: { spans?: { name?: string }[] }[] }[] }): unknown {
  return {
    ...doc,
    resourceSpans: (doc.resourceSpans ?? []).map((rs) => ({
      ...rs,
      scopeSpans: (rs.scopeSpans ?? []).map((ss) => ({ ...ss, spans: (ss.spans ?? []).filter((s) => !String(s.name ?? '').startsWith('execute_tool')) })),
    })),
  };
}

/** One set as measured: its index, and per spans form the run files unpacked into `tmp`. */
interface LoadedSet {
  index: RunIndex;
  files: Record<SpansForm, string[]>;
  declarations?: string;
}

function loadTau(root: string, tmp: string): LoadedSet {
  const dir = join(root, REAL_DIR);
  const index = JSON.parse(readFileSync(join(dir, 'traces', 'index.json'), 'utf8')) as RunIndex;
  const files: Record<SpansForm, string[]> = { 'app-spans': [], 'llm-only': [] };
  for (const f of readdirSync(join(dir, 'traces')).sort()) {
    if (!f.endsWith('.otlp.json.gz')) continue;
    const text = gunzipSync(readFileSync(join(dir, 'traces', f))).toString('utf8');
    const base = f.replace(/\.gz$/, '');
    const app = join(tmp, `tau-app-${base}`);
    writeFileSync(app, text);
    files['app-spans'].push(app);
    // The LLM-only form is derived: the same runs without the app's execute_tool spans.
    const llm = join(tmp, `tau-llm-${base}`);
    writeFileSync(llm, JSON.stringify(withoutToolSpans(JSON.parse(text))));
    files['llm-only'].push(llm);
  }
  return { index, files, declarations: join(dir, 'declarations.careful.yaml') };
}

function loadAgentdojo(root: string, tmp: string): LoadedSet {
  const dir = agentdojoDir(root);
  const index = JSON.parse(readFileSync(join(dir, 'traces', 'index.json'), 'utf8')) as RunIndex;
  const files: Record<SpansForm, string[]> = { 'app-spans': [], 'llm-only': [] };
  // Both forms ship as recorded (the LLM-only one is not derived here).
  for (const [form, folder] of [['app-spans', 'traces'], ['llm-only', 'traces-llm-only']] as const) {
    for (const f of readdirSync(join(dir, folder)).sort()) {
      if (!f.endsWith('.otlp.json.gz')) continue;
      const out = join(tmp, `ad-${form}-${f.replace(/\.gz$/, '')}`);
      writeFileSync(out, gunzipSync(readFileSync(join(dir, folder, f))));
      files[form].push(out);
    }
  }
  return { index, files };
}

const isHealthy = (r: RunIndex['runs'][number]) => r.healthy ?? r.reward === 1;

/** Scores the real runs in every mode whose set is on this machine (each mode one `check` over all runs of its set). */
export function scoreRealRuns(root: string, modes: readonly RealMode[] = REAL_MODES): RealModeResult[] {
  const tmp = mkdtempSync(join(tmpdir(), 'fp-real-'));
  try {
    const loaded = new Map<RealSetId, LoadedSet>();
    const out: RealModeResult[] = [];
    for (const mode of modes) {
      if (!realSetAvailable(root, mode.set)) continue;
      let set = loaded.get(mode.set);
      if (!set) loaded.set(mode.set, (set = mode.set === 'tau-airline' ? loadTau(root, tmp) : loadAgentdojo(root, tmp)));
      out.push(scoreMode(mode, set));
    }
    return out;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function scoreMode(mode: RealMode, set: LoadedSet): RealModeResult {
  const runOfTrace = new Map<string, RunIndex['runs'][number]>();
  for (const r of set.index.runs) for (const s of r.spans) runOfTrace.set(s.traceId, r);
  const argv = [...set.files[mode.spans], '--format', 'json', '--fail-on', 'never'];
  if (mode.declarations === 'careful') {
    if (!set.declarations) throw new Error(`${mode.set} has no careful declarations`);
    argv.push('--declarations', set.declarations);
  }
  const r = runCheck(argv);
  if (r.exitCode !== 0) throw new Error(`check refused the real runs (${modeName(mode)}): ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { findings: Record<string, unknown>[] };
  const healthy = set.index.runs.filter(isHealthy);
  const groupsOf = (run: RunIndex['runs'][number]) => [...(run.model ? [`model ${run.model}`] : []), ...(run.suite ? [`suite ${run.suite}`] : [])];
  const byGroup: Record<string, RealGroupResult> = {};
  for (const run of healthy) for (const g of groupsOf(run)) (byGroup[g] ??= { healthyRuns: 0, nonAdvisory: 0, advisory: 0 }).healthyRuns++;
  const result: RealModeResult = {
    mode: modeName(mode),
    set: mode.set,
    healthyRuns: healthy.length,
    failedRuns: set.index.runs.length - healthy.length,
    nonAdvisory: 0,
    advisory: 0,
    byCheck: {},
    byGroup,
    onFailed: 0,
    onFailedByCheck: {},
    healthyFindings: [],
  };
  for (const f of report.findings) {
    const run = runOfTrace.get(String(f.traceId));
    if (run === undefined) throw new Error(`a finding on trace ${String(f.traceId)}, which no run of ${mode.set}'s index.json holds`);
    const check = checkOfKind(String(f.kind));
    const advisory = f.advisory === true;
    const key = `${check}${advisory ? ' (advisory)' : ''}`;
    if (!isHealthy(run)) {
      result.onFailed++;
      result.onFailedByCheck[key] = (result.onFailedByCheck[key] ?? 0) + 1;
      continue;
    }
    if (advisory) result.advisory++;
    else result.nonAdvisory++;
    result.byCheck[key] = (result.byCheck[key] ?? 0) + 1;
    for (const g of groupsOf(run)) byGroup[g]![advisory ? 'advisory' : 'nonAdvisory']++;
    result.healthyFindings.push({
      run: run.run,
      traceId: String(f.traceId),
      check,
      kind: String(f.kind),
      advisory,
      tool: (f.toolName as string | null) ?? null,
      value: (f.value as string | null) ?? null,
      armedBy: String(f.armedBy ?? 'declared'),
    });
  }
  return result;
}

/** The real-traffic table, as printed by `npm run quality`: one row per mode, one column per check. */
export function renderRealTable(results: readonly RealModeResult[]): string {
  const checks = [...new Set(results.flatMap((r) => Object.keys(r.byCheck)))].sort();
  const header = `| set and mode | healthy runs | non-advisory | advisory | per healthy run | ${checks.join(' | ')}${checks.length ? ' | ' : ''}findings on failed runs |`;
  const rule = `|---|---:|---:|---:|---:|${checks.map(() => '---:|').join('')}---:|`;
  const rows = results.map(
    (r) =>
      `| ${r.mode} | ${r.healthyRuns} | ${r.nonAdvisory} | ${r.advisory} | ${((r.nonAdvisory + r.advisory) / Math.max(1, r.healthyRuns)).toFixed(3)} | ${checks.map((c) => String(r.byCheck[c] ?? 0)).join(' | ')}${checks.length ? ' | ' : ''}${r.onFailed} |`,
  );
  return `${[header, rule, ...rows].join('\n')}\n`;
}

/** Healthy-run findings by model and by suite, one column per mode of sets that name them. */
export function renderRealGroups(results: readonly RealModeResult[]): string {
  const grouped = results.filter((r) => Object.keys(r.byGroup).length > 0);
  if (grouped.length === 0) return '';
  const groups = [...new Set(grouped.flatMap((r) => Object.keys(r.byGroup)))].sort((a, b) => (a.startsWith('suite') === b.startsWith('suite') ? a.localeCompare(b) : a.startsWith('suite') ? -1 : 1));
  const header = `| group | healthy runs | ${grouped.map((r) => `${r.mode}: non-advisory / advisory`).join(' | ')} |`;
  const rule = `|---|---:|${grouped.map(() => '---:|').join('')}`;
  const rows = groups.map((g) => {
    const n = grouped.find((r) => r.byGroup[g])?.byGroup[g]?.healthyRuns ?? 0;
    return `| ${g} | ${n} | ${grouped.map((r) => (r.byGroup[g] ? `${r.byGroup[g]!.nonAdvisory} / ${r.byGroup[g]!.advisory}` : '–')).join(' | ')} |`;
  });
  return `${[header, rule, ...rows].join('\n')}\n`;
}
