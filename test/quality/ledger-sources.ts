// `npm run quality:ledger -- --spans DIR --windows DIR [--declarations FILE] [--json OUT]`:
// compares, run by run, what the core gives on the same runs recorded with app `execute_tool` spans
// (DIR of --spans) and with the LLM client's spans only (--windows): every ledger row (tool, call
// id, arguments, outcome, emptiness, rows, result, turn, choosing request), each turn's answer
// standing (standing, reasons, statement), each turn's disposition tallies, and the findings. Runs
// are matched by file name (`<run>.otlp.json`, or `.otlp.json.gz`). Prints the figures and every
// difference (up to 40), and exits 1 when any differs. Reads only; writes only --json.
// Made for ../shared/real-traces/tau-airline (issue 27: the ledger from what was recorded).

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeTraceFileText } from '../../src/otlp/trace-file.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import type { Declarations } from '../../src/declarations/types.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { tenantOfResource } from '../../src/model/tenant.js';
import { canonical } from '../../src/checks/absence-reads.js';
import { findingIdentity } from '../../src/findings/events.js';
import type { LedgerRow } from '../../src/model/ledger.js';
import { ATTR_ANSWER_REASONS, ATTR_ANSWER_STANDING, ATTR_ANSWER_STATEMENT, ATTR_DISPOSITION_CHECKS, EVENT_ANSWER_STANDING, EVENT_DISPOSITION } from '../../src/findings/names.js';

interface RunView {
  rows: Map<string, string>;
  /** Call id -> whether a request came after the one that chose it (its result could be in a window). */
  answered: Map<string, boolean>;
  sources: Record<string, number>;
  standings: Map<string, string>;
  dispositions: Map<string, string>;
  findings: string[];
  refusalChecked: number;
}

const args = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) if (argv[i]!.startsWith('--')) args.set(argv[i]!.slice(2), argv[i + 1] ?? '');
const spansDir = args.get('spans');
const windowsDir = args.get('windows');
if (!spansDir || !windowsDir) {
  process.stderr.write('usage: ledger-sources --spans DIR --windows DIR [--declarations FILE] [--json OUT]\n');
  process.exit(2);
}
let declarations: Declarations | undefined;
if (args.get('declarations')) {
  const r = loadDeclarationsFile(args.get('declarations')!);
  if (!r.ok) throw new Error(r.errors.join('; '));
  declarations = r.declarations;
}

const runName = (f: string) => f.replace(/\.otlp\.json(\.gz)?$/, '');
const runsIn = (dir: string) => new Map(readdirSync(dir).filter((f) => /\.otlp\.json(\.gz)?$/.test(f)).map((f) => [runName(f), join(dir, f)]));

function textOf(path: string): string {
  const raw = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

/** A row as both recordings must agree on it (its span and where it was read from aside). */
function rowKey(r: LedgerRow): string {
  return JSON.stringify({
    tool: r.toolName,
    trace: r.traceId,
    request: r.request ?? null,
    arguments: canonical(r.arguments),
    result: canonical(r.result),
    outcome: r.outcome,
    emptiness: r.reading.emptiness,
    rows: r.reading.rows ?? null,
    refusal: r.reading.refusal ?? null,
    notFound: r.reading.absence?.notFound ?? null,
  });
}

function view(path: string): RunView {
  const doc = decodeTraceFileText(textOf(path), path, { spans: [], logs: [], diagnostics: [], documents: [] });
  const core = new FootprintCore(declarations ? { declarations } : {});
  const spans = doc.spans.map((d) => d.span);
  const result = core.process({ spans, logs: doc.logs });
  const access = core.stateAccess();
  const rows = new Map<string, string>();
  const answered = new Map<string, boolean>();
  const sources: Record<string, number> = {};
  const seen = new Set<LedgerRow[]>();
  for (const key of access.keysOf({ spans })) {
    const state = access.peek(key);
    if (!state || seen.has(state.ledger)) continue;
    seen.add(state.ledger);
    for (const r of state.ledger) {
      rows.set(r.callId ?? `#${rows.size}`, rowKey(r));
      answered.set(r.callId ?? `#${rows.size - 1}`, r.request === undefined || r.request < state.requests);
      sources[r.source] = (sources[r.source] ?? 0) + 1;
    }
  }
  const standings = new Map<string, string>();
  const dispositions = new Map<string, string>();
  const events = [...result.annotations.values()].flatMap((a) => a.events).concat(result.carriers.flatMap((c) => c.events));
  const traceOf = new Map<unknown, string>();
  for (const [key, a] of result.annotations) for (const e of a.events) traceOf.set(e, key.split('/')[0]!);
  for (const c of result.carriers) for (const e of c.events) traceOf.set(e, c.traceId);
  for (const e of events) {
    const trace = traceOf.get(e)!;
    if (e.name === EVENT_ANSWER_STANDING) standings.set(trace, JSON.stringify([e.attributes[ATTR_ANSWER_STANDING], e.attributes[ATTR_ANSWER_REASONS], e.attributes[ATTR_ANSWER_STATEMENT]]));
    if (e.name === EVENT_DISPOSITION) dispositions.set(trace, String(e.attributes[ATTR_DISPOSITION_CHECKS]));
  }
  const findings = result.findings.map((f) => `${f.span.traceId} ${findingIdentity(f)}${f.advisory ? ' (advisory)' : ''}`).sort();
  let refusalChecked = 0;
  for (const id of new Set(spans.map((s) => `${s.traceId}\u0000${tenantOfResource(s.resource, 'service.name')}`))) for (const t of core.talliesOf(...(id.split('\u0000') as [string, string]))) if (t.check === 'refusal-asserts-absence') refusalChecked += t.checked;
  return { rows, answered, sources, standings, dispositions, findings, refusalChecked };
}

function compareMaps(a: Map<string, string>, b: Map<string, string>, what: string, run: string, diffs: string[]): { same: number; differ: number; onlyA: number; onlyB: number } {
  let same = 0, differ = 0, onlyA = 0, onlyB = 0;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined) {
      onlyA++;
      diffs.push(`${run} ${what} ${k}: only with spans: ${v}`);
    } else if (w === v) same++;
    else {
      differ++;
      diffs.push(`${run} ${what} ${k}:\n    spans:   ${v}\n    windows: ${w}`);
    }
  }
  for (const [k, w] of b) if (!a.has(k)) {
    onlyB++;
    diffs.push(`${run} ${what} ${k}: only from windows: ${w}`);
  }
  return { same, differ, onlyA, onlyB };
}

const spanRuns = runsIn(spansDir);
const windowRuns = runsIn(windowsDir);
const totals = {
  runs: 0,
  rows: { spans: 0, windows: 0, same: 0, differ: 0, onlySpans: 0, onlySpansLastCall: 0, onlyWindows: 0 },
  sources: { spans: {} as Record<string, number>, windows: {} as Record<string, number> },
  standings: { spans: 0, windows: 0, same: 0, differ: 0, onlySpans: 0, onlyWindows: 0 },
  dispositions: { same: 0, differ: 0 },
  findings: { spans: 0, windows: 0, runsSame: 0 },
  refusalChecked: { spans: 0, windows: 0 },
};
const diffs: string[] = [];
for (const [run, path] of [...spanRuns].sort()) {
  const other = windowRuns.get(run);
  if (!other) continue;
  totals.runs++;
  const a = view(path);
  const b = view(other);
  totals.rows.spans += a.rows.size;
  totals.rows.windows += b.rows.size;
  const r = compareMaps(a.rows, b.rows, 'row', run, diffs);
  totals.rows.same += r.same;
  totals.rows.differ += r.differ;
  totals.rows.onlySpans += r.onlyA;
  // A call the run's last request chose: no later request's window can hold its result.
  for (const [k, yes] of a.answered) if (!b.rows.has(k) && !yes) totals.rows.onlySpansLastCall++;
  totals.rows.onlyWindows += r.onlyB;
  for (const [k, n] of Object.entries(a.sources)) totals.sources.spans[k] = (totals.sources.spans[k] ?? 0) + n;
  for (const [k, n] of Object.entries(b.sources)) totals.sources.windows[k] = (totals.sources.windows[k] ?? 0) + n;
  totals.standings.spans += a.standings.size;
  totals.standings.windows += b.standings.size;
  const s = compareMaps(a.standings, b.standings, 'standing', run, diffs);
  totals.standings.same += s.same;
  totals.standings.differ += s.differ;
  totals.standings.onlySpans += s.onlyA;
  totals.standings.onlyWindows += s.onlyB;
  const d = compareMaps(a.dispositions, b.dispositions, 'disposition', run, diffs);
  totals.dispositions.same += d.same;
  totals.dispositions.differ += d.differ + d.onlyA + d.onlyB;
  totals.findings.spans += a.findings.length;
  totals.findings.windows += b.findings.length;
  if (JSON.stringify(a.findings) === JSON.stringify(b.findings)) totals.findings.runsSame++;
  else diffs.push(`${run} findings:\n    spans:   ${a.findings.join('\n             ')}\n    windows: ${b.findings.join('\n             ')}`);
  totals.refusalChecked.spans += a.refusalChecked;
  totals.refusalChecked.windows += b.refusalChecked;
}

const t = totals;
const lines = [
  `runs compared: ${t.runs}${declarations ? ` (declarations: ${args.get('declarations')})` : ' (no declarations)'}`,
  `ledger rows: ${t.rows.spans} with app spans, ${t.rows.windows} from windows only; identical ${t.rows.same}, different ${t.rows.differ}, only with spans ${t.rows.onlySpans} (${t.rows.onlySpansLastCall} of them chosen by the run's last request: no later window shows their result), only from windows ${t.rows.onlyWindows}`,
  `row sources: with app spans ${JSON.stringify(t.sources.spans)}; LLM spans only ${JSON.stringify(t.sources.windows)}`,
  `answer standings: ${t.standings.spans} / ${t.standings.windows} turns; identical ${t.standings.same}, different ${t.standings.differ}, only with spans ${t.standings.onlySpans}, only from windows ${t.standings.onlyWindows}`,
  `dispositions (check tallies): identical ${t.dispositions.same}, different ${t.dispositions.differ}`,
  `findings: ${t.findings.spans} / ${t.findings.windows}; runs with identical findings ${t.findings.runsSame} of ${t.runs}`,
  `refusal-asserts-absence checked: ${t.refusalChecked.spans} with app spans, ${t.refusalChecked.windows} from windows only`,
];
process.stdout.write(`${lines.join('\n')}\n`);
const cut = (d: string) => (d.length > 400 ? `${d.slice(0, 400)}…` : d);
if (diffs.length > 0) process.stdout.write(`\ndifferences (${diffs.length}${diffs.length > 40 ? ', first 40' : ''}):\n${diffs.slice(0, 40).map(cut).join('\n')}\n`);
if (args.get('json')) writeFileSync(args.get('json')!, `${JSON.stringify({ ...totals, differences: diffs }, null, 1)}\n`);
const differs = t.rows.differ + t.rows.onlySpans + t.rows.onlyWindows + t.standings.differ + t.standings.onlySpans + t.standings.onlyWindows + t.dispositions.differ + (t.runs - t.findings.runsSame);
if (differs > 0) process.exitCode = 1;
