// The real-traffic measure: runs the CLI's own `check` core over real agent runs
// (test/real-traces/tau-airline: 200 tau-bench airline runs, MIT) in four modes — the careful
// declarations and none, each with the app's `execute_tool` spans and with the LLM client's spans
// only — and counts findings on the runs the benchmark scored healthy (reward 1), by check and
// advisory, and on the failed ones. A finding on a healthy run is almost always a false positive.
// Deterministic; writes only temporary files (removed), never edits a run.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runCheck } from '../../src/cli/check.js';
import { checkOfKind } from '../../src/checks/catalog.js';

export const REAL_DIR = 'test/real-traces/tau-airline';

export type SpansForm = 'app-spans' | 'llm-only';
export type RealDeclarations = 'careful' | 'none';

export interface RealMode {
  spans: SpansForm;
  declarations: RealDeclarations;
}

export const REAL_MODES: readonly RealMode[] = [
  { spans: 'app-spans', declarations: 'careful' },
  { spans: 'app-spans', declarations: 'none' },
  { spans: 'llm-only', declarations: 'careful' },
  { spans: 'llm-only', declarations: 'none' },
];

export const modeName = (m: RealMode) => `${m.spans}/${m.declarations}`;

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

export interface RealModeResult {
  mode: string;
  healthyRuns: number;
  failedRuns: number;
  /** Findings on healthy runs: non-advisory and advisory, and by check (`check` or `check (advisory)`). */
  nonAdvisory: number;
  advisory: number;
  byCheck: Record<string, number>;
  /** Findings on failed runs (the real failures the checks point at, or not). */
  onFailed: number;
  onFailedByCheck: Record<string, number>;
  healthyFindings: RealFinding[];
}

interface RunIndex {
  runs: { run: string; reward: number; spans: { traceId: string }[] }[];
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

/** Scores the real runs in every mode (each mode one `check` over all runs). */
export function scoreRealRuns(root: string, modes: readonly RealMode[] = REAL_MODES): RealModeResult[] {
  const dir = join(root, REAL_DIR);
  const index = JSON.parse(readFileSync(join(dir, 'traces', 'index.json'), 'utf8')) as RunIndex;
  const runOfTrace = new Map<string, string>();
  const reward = new Map<string, number>();
  for (const r of index.runs) {
    reward.set(r.run, r.reward);
    for (const s of r.spans) runOfTrace.set(s.traceId, r.run);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'fp-real-'));
  try {
    const files: Record<SpansForm, string[]> = { 'app-spans': [], 'llm-only': [] };
    for (const f of readdirSync(join(dir, 'traces')).sort()) {
      if (!f.endsWith('.otlp.json.gz')) continue;
      const text = gunzipSync(readFileSync(join(dir, 'traces', f))).toString('utf8');
      const base = f.replace(/\.gz$/, '');
      const app = join(tmp, `app-${base}`);
      writeFileSync(app, text);
      files['app-spans'].push(app);
      const llm = join(tmp, `llm-${base}`);
      writeFileSync(llm, JSON.stringify(withoutToolSpans(JSON.parse(text))));
      files['llm-only'].push(llm);
    }
    return modes.map((mode) => {
      const argv = [...files[mode.spans], '--format', 'json', '--fail-on', 'never'];
      if (mode.declarations === 'careful') argv.push('--declarations', join(dir, 'declarations.careful.yaml'));
      const r = runCheck(argv);
      if (r.exitCode !== 0) throw new Error(`check refused the real runs (${modeName(mode)}): ${r.stderr}`);
      const out = JSON.parse(r.stdout) as { findings: Record<string, unknown>[] };
      const result: RealModeResult = {
        mode: modeName(mode),
        healthyRuns: [...reward.values()].filter((v) => v === 1).length,
        failedRuns: [...reward.values()].filter((v) => v !== 1).length,
        nonAdvisory: 0,
        advisory: 0,
        byCheck: {},
        onFailed: 0,
        onFailedByCheck: {},
        healthyFindings: [],
      };
      for (const f of out.findings) {
        const run = runOfTrace.get(String(f.traceId));
        if (run === undefined) throw new Error(`a finding on trace ${String(f.traceId)}, which no run of index.json holds`);
        const check = checkOfKind(String(f.kind));
        const advisory = f.advisory === true;
        const key = `${check}${advisory ? ' (advisory)' : ''}`;
        if (reward.get(run) !== 1) {
          result.onFailed++;
          result.onFailedByCheck[key] = (result.onFailedByCheck[key] ?? 0) + 1;
          continue;
        }
        if (advisory) result.advisory++;
        else result.nonAdvisory++;
        result.byCheck[key] = (result.byCheck[key] ?? 0) + 1;
        result.healthyFindings.push({
          run,
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
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The real-traffic table, as printed by `npm run quality`. */
export function renderRealTable(results: readonly RealModeResult[]): string {
  const checks = [...new Set(results.flatMap((r) => Object.keys(r.byCheck)))].sort();
  const header = `| mode | healthy runs | non-advisory | advisory | per healthy run | ${checks.join(' | ')}${checks.length ? ' | ' : ''}findings on failed runs |`;
  const rule = `|---|---:|---:|---:|---:|${checks.map(() => '---:|').join('')}---:|`;
  const rows = results.map(
    (r) =>
      `| ${r.mode} | ${r.healthyRuns} | ${r.nonAdvisory} | ${r.advisory} | ${((r.nonAdvisory + r.advisory) / Math.max(1, r.healthyRuns)).toFixed(3)} | ${checks.map((c) => String(r.byCheck[c] ?? 0)).join(' | ')}${checks.length ? ' | ' : ''}${r.onFailed} |`,
  );
  return `${[header, rule, ...rows].join('\n')}\n`;
}
