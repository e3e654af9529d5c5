// The per-turn `footprint.disposition` event: for every registered check, how often it checked,
// found, was not applicable or could not run, and why. Lists unarmed checks too, so "no findings"
// never reads as "all checked". Bounded like every attribute footprint-otel writes.

import { plural } from './phrases.js';
import type { Attributes, SpanEventData } from '../model/telemetry.js';
import type { CheckTally } from '../model/finding.js';
import { newTally } from '../model/finding.js';
import type { RegisteredCheck } from '../model/finding.js';
import { fitBytes } from './events.js';
import * as N from './names.js';

/** One row per registered check, zeros where a check never met anything. */
export function dispositionRows(catalog: readonly RegisteredCheck[], tallies: readonly CheckTally[]): CheckTally[] {
  return catalog.map((c) => {
    const t = tallies.find((x) => x.check === c.id);
    return t ? { ...t, unreachableReasons: { ...t.unreachableReasons } } : newTally(c.id, c.seam);
  });
}


/** Adds tallies up by check (e.g. every trace of a file, for one summary). */
export function sumTallies(tallies: readonly CheckTally[]): CheckTally[] {
  const totals = new Map<string, CheckTally>();
  for (const x of tallies) {
    const p = totals.get(x.check);
    if (!p) {
      totals.set(x.check, { ...x, unreachableReasons: { ...x.unreachableReasons } });
      continue;
    }
    p.checked += x.checked;
    p.findings += x.findings;
    p.notApplicable += x.notApplicable;
    p.unreachable += x.unreachable;
    for (const [k, v] of Object.entries(x.unreachableReasons)) p.unreachableReasons[k] = (p.unreachableReasons[k] ?? 0) + v;
  }
  return [...totals.values()];
}

export interface SentenceOptions {
  /** Said after the request count, e.g. "in 2 traces". */
  scope?: string;
  /** List the checks that had nothing declared or applicable (default true). */
  idle?: boolean;
}

/**
 * "2 checks ran on 3 LLM requests; 1 could not run everywhere: …; 5 could not run: message
 * content was not captured; 1 check had nothing declared or applicable (result-columns)". Without
 * the final period, so callers can go on.
 */
export function checksClauses(rows: readonly CheckTally[], llmRequests: number, o: SentenceOptions = {}): string {
  const ran = rows.filter((r) => r.checked > 0);
  const partly = ran.filter((r) => r.unreachable > 0);
  const never = rows.filter((r) => r.checked === 0 && r.unreachable > 0);
  const reasonsOf = (list: readonly CheckTally[]) => [...new Set(list.flatMap((r) => Object.keys(r.unreachableReasons)))].join('; ');
  let s = `${plural(ran.length, 'check')} ran on ${plural(llmRequests, 'LLM request')}${o.scope ? ` ${o.scope}` : ''}`;
  if (partly.length > 0) s += `; ${partly.length} could not run everywhere: ${reasonsOf(partly)}`;
  if (never.length > 0) s += `; ${never.length} could not run: ${reasonsOf(never)}`;
  const idle = rows.filter((r) => r.checked === 0 && r.unreachable === 0);
  if (o.idle !== false && idle.length > 0) s += `; ${plural(idle.length, 'check')} had nothing declared or applicable (${idle.map((r) => r.check).join(', ')})`;
  return s;
}

/** Where a turn's ledger rows were read from: execute_tool spans, or the request windows. */
export interface LedgerSources {
  spans: number;
  windows: number;
}

/** "3 tool calls read from execute_tool spans, 2 from the request windows"; undefined when the turn has none. */
export function ledgerClause(l: LedgerSources | undefined): string | undefined {
  if (!l || l.spans + l.windows <= 0) return undefined;
  if (l.windows <= 0) return `${plural(l.spans, 'tool call')} read from execute_tool spans`;
  if (l.spans <= 0) return `${plural(l.windows, 'tool call')} read from the request windows (no execute_tool span recorded ${l.windows === 1 ? 'it' : 'them'})`;
  return `${plural(l.spans + l.windows, 'tool call')} read: ${l.spans} from execute_tool spans, ${l.windows} from the request windows`;
}

/** The disposition's sentence: every clause, with a final period. */
export function dispositionSentence(rows: readonly CheckTally[], llmRequests: number, ledger?: LedgerSources): string {
  const sources = ledgerClause(ledger);
  return `${checksClauses(rows, llmRequests)}${sources ? `; ${sources}` : ''}.`;
}

export function dispositionEvent(rows: readonly CheckTally[], llmRequests: number, time: bigint, maxBytes: number, ledger?: LedgerSources): SpanEventData {
  const attributes: Attributes = {
    [N.ATTR_DISPOSITION_SUMMARY]: fitBytes(dispositionSentence(rows, llmRequests, ledger), maxBytes),
    [N.ATTR_DISPOSITION_CHECKS]: checksJson(rows, maxBytes),
    [N.ATTR_DISPOSITION_UNREACHABLE]: rows.reduce((n, r) => n + r.unreachable, 0),
    [N.ATTR_DISPOSITION_FINDINGS]: rows.reduce((n, r) => n + r.findings, 0),
  };
  if (ledger && ledger.spans + ledger.windows > 0) {
    attributes[N.ATTR_DISPOSITION_LEDGER_SPANS] = Math.max(0, ledger.spans);
    attributes[N.ATTR_DISPOSITION_LEDGER_WINDOWS] = Math.max(0, ledger.windows);
  }
  return { name: N.EVENT_DISPOSITION, timeUnixNano: time, attributes };
}

/**
 * The rows as JSON under the byte bound, and always valid JSON: first whole; then with zero counts
 * left out (a missing count reads 0), which keeps every reason for the 13 registered checks when
 * content was not captured; then reasons shortened, then replaced by their count. A smaller
 * configured bound still gets valid JSON, only longer.
 */
function checksJson(rows: readonly CheckTally[], maxBytes: number): string {
  const encode = (reasons: (r: CheckTally) => Record<string, number> | number, zeros = true) =>
    JSON.stringify(
      rows.map((r) => {
        const counts = { checked: r.checked, findings: r.findings, not_applicable: r.notApplicable, unreachable: r.unreachable };
        return {
          check: r.check,
          seam: r.seam,
          ...(zeros ? counts : Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0))),
          ...(r.unreachable > 0 ? { unreachable_reasons: reasons(r) } : {}),
        };
      }),
    );
  const shortened = (cap: number) => (r: CheckTally) =>
    Object.fromEntries(Object.entries(r.unreachableReasons).map(([k, v]) => [Array.from(k).length > cap ? `${Array.from(k).slice(0, cap).join('')}…` : k, v]));
  const whole = (r: CheckTally) => r.unreachableReasons;
  const attempts: [(r: CheckTally) => Record<string, number> | number, boolean][] = [
    [whole, true],
    [whole, false],
    [shortened(120), false],
    [shortened(40), false],
    [(r: CheckTally) => Object.keys(r.unreachableReasons).length, false],
  ];
  for (const [reasons, zeros] of attempts) {
    const json = encode(reasons, zeros);
    if (Buffer.byteLength(json, 'utf8') <= maxBytes) return json;
  }
  return encode(() => 0, false);
}
