// Check `unsupported-claim` (seam `answer`): for each declared claim (`claims: { "<answer field
// path>": { entity, field } }`), the structured answer's value at that path contradicts the
// settled fact — the LAST (entity, field) row among the described-result facts of the ledger rows,
// in call order; earlier rows are quoted history. Fences: no claims declared -> no output at all;
// a prose answer (not a JSON object or array) -> not applicable ("the answer is not structured");
// a missing answer field -> not applicable; no fact row, or a settled value that is itself null or
// "unknown" -> unreachable; the string of a number equals that number ("30" ≡ 30); a claimed null
// or "unknown" against a settled value -> ADVISORY finding (doubt, not contradiction); other values
// compare by sorted-key JSON, strings trimmed and case-folded unless the claim is declared
// `exact: true`. A JSON answer inside a Markdown code fence (```json … ```) is the structured
// answer. Detection only: nothing is blocked. Tally: one encounter per claim.
// Pure function over plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { ClaimDeclaration } from '../declarations/types.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { LedgerRow } from '../model/ledger.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';

export const UNSUPPORTED_CLAIM = 'unsupported-claim';
export const ANSWER_NOT_STRUCTURED = 'the answer is not structured';

/** Quoted verbatim in every advisory unsupported-claim message. */
export const CLAIM_DOUBT_CEILING =
  'Declining to state a value the run verified is doubt, not a contradiction: this is a place to look, not a verdict.';

export interface UnsupportedClaimInput {
  /** The final chat span (the answer's span). */
  span: SpanRef;
  /** The final answer text; undefined = the response was not captured. */
  answerText: string | undefined;
  /** Declared claims (answer field path -> fact); undefined or empty = unarmed. */
  claims: Readonly<Record<string, ClaimDeclaration>> | undefined;
  /** Ledger rows whose described facts count (the conversation's reads up to this answer); sorted into call order here. */
  rows: readonly LedgerRow[];
  quotedValueChars: number;
}

interface FactRow {
  value: unknown;
  row: LedgerRow;
  measuredAt?: string;
}

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';
const NUMERIC = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A fenced Markdown code block: ``` or ~~~, an optional info string, the body, the closing fence. */
const CODE_FENCE = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?=\n|$)/g;

function parseObjectOrArray(text: string): { value: unknown } | undefined {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return { value: JSON.parse(t) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The answer as structured output: a JSON object or array, either the whole answer or the first
 * Markdown code fence (info string empty, `json` or `jsonc`) whose body parses as one; undefined for prose.
 */
export function structuredAnswer(text: string): { value: unknown } | undefined {
  const whole = parseObjectOrArray(text);
  if (whole) return whole;
  for (const m of text.matchAll(CODE_FENCE)) {
    const info = m[3]!.toLowerCase();
    if (info !== '' && info !== 'json' && info !== 'jsonc') continue;
    const body = parseObjectOrArray(m[4]!);
    if (body) return body;
  }
  return undefined;
}

/** The value at a dot-path (`backup.jobs.0.status`), or undefined when any step is missing. */
export function valueAtPath(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const step of path.split('.')) {
    if (Array.isArray(v)) {
      if (!/^\d+$/.test(step)) return undefined;
      v = v[Number(step)];
    } else if (v !== null && typeof v === 'object') {
      if (!Object.prototype.hasOwnProperty.call(v, step)) return undefined;
      v = (v as Record<string, unknown>)[step];
    } else return undefined;
  }
  return v;
}

function isUnknown(v: unknown): boolean {
  return v === null || (typeof v === 'string' && v.trim().toLowerCase() === 'unknown');
}

function canonicalJson(v: unknown, fold = false): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x, fold)).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k], fold)}`).join(',')}}`;
  }
  if (fold && typeof v === 'string') return JSON.stringify(v.normalize('NFKC').trim().toLowerCase());
  return JSON.stringify(v) ?? 'null';
}

function numberOf(s: string): number | undefined {
  const t = s.trim();
  return NUMERIC.test(t) ? Number(t) : undefined;
}

/**
 * "30" ≡ 30 (a non-blank decimal string of a number); otherwise sorted-key JSON equality, strings
 * (also inside arrays and objects) trimmed and case-folded unless `exact` ("OK" ≡ "ok").
 */
export function sameClaimValue(claimed: unknown, settled: unknown, exact = false): boolean {
  if (typeof settled === 'number' && typeof claimed === 'string') return numberOf(claimed) === settled;
  if (typeof claimed === 'number' && typeof settled === 'string') return numberOf(settled) === claimed;
  return canonicalJson(claimed, !exact) === canonicalJson(settled, !exact);
}

function shown(v: unknown, cap: number): string {
  return quoteText(typeof v === 'string' ? v : canonicalJson(v), cap);
}

/** Where a fact row came from; telemetry text is quoted (flattened, capped). */
function sourceOf(f: FactRow, cap: number): string {
  const call = f.row.callId ? `call ${quoteText(f.row.callId, cap)}` : 'a call with no recorded id';
  const req = f.row.request !== undefined ? `, request ${f.row.request}` : '';
  const at = f.measuredAt ? `, measured at ${quoteText(f.measuredAt, cap)}` : '';
  return `${quoteText(f.row.toolName, cap)}, ${call}${req}${at}`;
}

/** Fact rows per (entity, field), in call order. */
function factRows(rows: readonly LedgerRow[]): Map<string, FactRow[]> {
  const ordered = rows.map((row, i) => ({ row, i })).sort((a, b) => (a.row.startTimeUnixNano < b.row.startTimeUnixNano ? -1 : a.row.startTimeUnixNano > b.row.startTimeUnixNano ? 1 : a.i - b.i));
  const out = new Map<string, FactRow[]>();
  for (const { row } of ordered) {
    for (const fact of row.reading.facts ?? []) {
      const key = `${fact.entity}\u0000${fact.field}`;
      const measuredAt = fact.measuredAt ?? row.reading.provenance?.measuredAt;
      const list = out.get(key) ?? [];
      list.push({ value: fact.value, row, ...(measuredAt !== undefined ? { measuredAt } : {}) });
      out.set(key, list);
    }
  }
  return out;
}

export function unsupportedClaims(input: UnsupportedClaimInput): CheckOutcome {
  const tally: CheckTally = newTally(UNSUPPORTED_CLAIM, 'answer');
  const findings: Finding[] = [];
  const claims = Object.entries(input.claims ?? {});
  if (claims.length === 0) return { findings, tally };
  const unreachable = (reason: string) => addUnreachable(tally, reason);
  if (input.answerText === undefined) {
    for (let i = 0; i < claims.length; i++) unreachable(CONTENT_NOT_CAPTURED);
    return { findings, tally };
  }
  const answer = structuredAnswer(input.answerText);
  if (!answer) {
    tally.notApplicable += claims.length;
    return { findings, tally };
  }
  const facts = factRows(input.rows);
  const cap = input.quotedValueChars;

  for (const [path, decl] of claims) {
    const claimed = valueAtPath(answer.value, path);
    if (claimed === undefined) {
      tally.notApplicable++;
      continue;
    }
    const history = facts.get(`${decl.entity}\u0000${decl.field}`);
    if (!history || history.length === 0) {
      unreachable(`no described result stated ${decl.field} of ${decl.entity}`);
      continue;
    }
    const settled = history[history.length - 1]!;
    if (isUnknown(settled.value)) {
      unreachable(`the settled fact ${decl.field} of ${decl.entity} is itself unknown`);
      continue;
    }
    tally.checked++;
    const claimedUnknown = isUnknown(claimed);
    if (!claimedUnknown && sameClaimValue(claimed, settled.value, decl.exact === true)) continue;

    const qc = shown(claimed, cap);
    const qs = shown(settled.value, cap);
    const witnesses: Witness[] = [
      { subject: `entity ${decl.entity}`, predicate: decl.field, value: qs, stratum: 'result', provenance: `settled fact: the last row for it (${sourceOf(settled, cap)})` },
      { subject: 'answer final', predicate: path, value: qc, stratum: 'chosen', provenance: `the answer's field '${path}' as the model wrote it` },
    ];
    for (const earlier of history.slice(0, -1).slice(-3)) {
      witnesses.push({ subject: `entity ${decl.entity}`, predicate: decl.field, value: shown(earlier.value, cap), stratum: 'result', provenance: `earlier row, superseded (${sourceOf(earlier, cap)})` });
    }
    const message = claimedUnknown
      ? `The answer's '${path}' says "${qc}", but the run's settled fact ${decl.field} of ${decl.entity} is "${qs}" (${sourceOf(settled, cap)}), so the answer leaves out a value a tool stated. ${CLAIM_DOUBT_CEILING} ${NOTHING_BLOCKED}`
      : `The answer's '${path}' claims "${qc}", but the run's settled fact ${decl.field} of ${decl.entity} is "${qs}" (${sourceOf(settled, cap)}), so one of them is wrong: check the answer against that result. ${NOTHING_BLOCKED}`;
    tally.findings++;
    findings.push({
      kind: UNSUPPORTED_CLAIM,
      seam: 'answer',
      subjects: [{ kind: 'entity', id: decl.entity }],
      predicate: decl.field,
      value: typeof claimed === 'string' ? claimed : canonicalJson(claimed),
      sensitive: [settled.value, ...history.slice(0, -1).slice(-3).map((h) => h.value)].map((v) => (typeof v === 'string' ? v : canonicalJson(v))),
      message,
      witnesses,
      ...(claimedUnknown ? { advisory: true } : {}),
      span: input.span,
      toolName: settled.row.toolName,
      ...(settled.row.callId ? { toolCallId: settled.row.callId } : {}),
    });
  }
  return { findings, tally };
}
