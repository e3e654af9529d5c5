// Check `empty-lookup` (seam `write`, advisory by construction): a call whose result was empty —
// `[]` or a declared absence — with a string argument that a declared producer (`argumentsFrom`)
// served earlier in the conversation. The value came from somewhere real and the lookup found
// nothing: a place to look (a filter, a join, a stale cache), never a verdict, since an empty
// result can be perfectly true. Fences (the same as unsupported-argument): non-strings and
// trimmed values under 4 characters are never checked; a case-insensitive substring of a
// producer's result text matches; only declared producers count. Errored and refused calls, and
// results of unknown emptiness, are not applicable. Detection only: nothing is blocked.
// Tally: a non-empty result is one encounter (a pass); an empty one counts each string argument
// judged (pass or fail). Pure function over plain data: no I/O, no clocks, no globals.

import { RESULT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import type { LedgerRow } from '../model/ledger.js';
import type { ToolDeclaration } from '../declarations/types.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { argumentLeaves } from './argument-leaves.js';
import { MIN_CHECKED_LENGTH } from './unsupported-argument.js';
import { quoteText } from '../findings/quote.js';

export const EMPTY_LOOKUP = 'empty-lookup';
/** Quoted in every empty-lookup message: what this finding can and cannot say. */
export const EMPTY_LOOKUP_CEILING =
  'An empty result can be perfectly true (the thing may exist and simply have nothing to show), so this is a place to look, not a verdict that anything is wrong.';
export const ARGUMENTS_NOT_CAPTURED = 'the tool-call arguments were not captured';
export const NO_PRODUCER_RESULT = 'no declared producer had returned a result earlier in the conversation';

const NOTHING_BLOCKED = 'Nothing here blocked the call.';

/** An earlier result, in this conversation, of a tool the consumer declares in `argumentsFrom`. */
export interface ProducerResult {
  toolName: string;
  callId?: string;
  /** The result as text (JSON for structured results), as the model read it. */
  text: string;
  /** 1-based order of the request whose window held it, when known. */
  request?: number;
}

export interface EmptyLookupInput {
  row: LedgerRow;
  declaration: ToolDeclaration | undefined;
  /** Earlier results of declared producers, in conversation order. Others are ignored. */
  producerResults: readonly ProducerResult[];
  maxArgumentLeaves?: number;
  quotedValueChars?: number;
}

function emptyTally(): CheckTally {
  return { check: EMPTY_LOOKUP, seam: 'write', checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {} };
}

function unreachable(tally: CheckTally, reason: string): CheckOutcome {
  tally.unreachable++;
  tally.unreachableReasons[reason] = (tally.unreachableReasons[reason] ?? 0) + 1;
  return { findings: [], tally };
}

export function emptyLookups(input: EmptyLookupInput): CheckOutcome {
  const tally = emptyTally();
  const findings: Finding[] = [];
  const { row } = input;
  const producers = new Set(input.declaration?.argumentsFrom ?? []);
  producers.delete(row.toolName);
  if (producers.size === 0) {
    tally.notApplicable++;
    return { findings, tally };
  }
  // A call that failed or was refused says nothing about whether the thing exists.
  if (row.outcome === 'failed' || row.outcome === 'refused') {
    tally.notApplicable++;
    return { findings, tally };
  }
  if (row.result === undefined) return unreachable(tally, RESULT_NOT_CAPTURED);
  const emptiness = row.reading.emptiness;
  if (emptiness === 'non-empty') {
    tally.checked++;
    return { findings, tally };
  }
  if (emptiness === 'unknown') {
    tally.notApplicable++;
    return { findings, tally };
  }
  if (row.arguments === undefined) return unreachable(tally, ARGUMENTS_NOT_CAPTURED);
  const grounds = input.producerResults
    .filter((p) => producers.has(p.toolName) && p.text.trim() !== '')
    .map((p) => ({ p, lower: p.text.toLowerCase() }));
  if (grounds.length === 0) return unreachable(tally, NO_PRODUCER_RESULT);

  const maxLeaves = input.maxArgumentLeaves ?? DEFAULT_LIMITS.maxArgumentLeaves;
  const walk = argumentLeaves(row.arguments, maxLeaves);
  if (walk.truncated) {
    const reason = `arguments had more than ${maxLeaves} leaves; the rest were not checked`;
    tally.unreachableReasons[reason] = (tally.unreachableReasons[reason] ?? 0) + 1;
  }
  let judged = 0;
  for (const leaf of walk.leaves) {
    if (typeof leaf.value !== 'string' || leaf.value.trim().length < MIN_CHECKED_LENGTH) continue;
    judged++;
    tally.checked++;
    const needle = leaf.value.toLowerCase();
    // The latest producer result holding the value is the one the model most likely took it from.
    let ground: ProducerResult | undefined;
    for (let i = grounds.length - 1; i >= 0; i--) {
      if (grounds[i]!.lower.includes(needle)) {
        ground = grounds[i]!.p;
        break;
      }
    }
    if (!ground) continue;
    tally.findings++;
    findings.push(buildFinding(input, leaf.path, leaf.value, ground, input.quotedValueChars ?? DEFAULT_LIMITS.quotedValueChars));
  }
  if (judged === 0) tally.notApplicable++;
  return { findings, tally };
}

function describeEmpty(row: LedgerRow, cap: number): string {
  const r = row.reading;
  if (r.emptiness === 'declared-absent' && r.absence) {
    const gaps = (r.coverage?.notChecked.length ?? 0) + (r.coverage?.cannotCover.length ?? 0);
    return `a declared absence (looked for "${quoteText(r.absence.lookedFor, cap)}"${gaps > 0 ? `, with ${gaps} thing(s) it says it did not or cannot check` : ''})`;
  }
  if (r.emptiness === 'declared-absent') return 'an empty list inside its declared coverage ledger';
  return 'an empty list';
}

function buildFinding(input: EmptyLookupInput, path: string, value: string, ground: ProducerResult, cap: number): Finding {
  const { row } = input;
  const q = quoteText(value, cap);
  const argName = path.startsWith('args.') ? path.slice(5) : path;
  const callRef = row.callId ? `call ${row.callId}` : 'a call with no recorded id';
  const producerRef = `${ground.callId ? `call ${ground.callId}` : 'a call with no recorded id'}${ground.request !== undefined ? `, chosen in request ${ground.request}` : ''}`;
  const empty = describeEmpty(row, cap);
  const witnesses: Witness[] = [
    { subject: `tool ${row.toolName}`, predicate: path, value: q, stratum: 'chosen', provenance: `${callRef}: argument '${argName}' as the model chose it` },
    { subject: `tool ${ground.toolName}`, predicate: path, value: q, stratum: 'served', provenance: `served this value earlier in this conversation (${producerRef})` },
    { subject: `tool ${row.toolName}`, predicate: path, value: q, stratum: 'absent', provenance: `found nothing: ${empty}` },
  ];
  const message =
    `'${row.toolName}' (${callRef}) returned ${empty} for ${argName} = "${q}", a value '${ground.toolName}' served earlier in this conversation (${producerRef}). ` +
    `${EMPTY_LOOKUP_CEILING} ${NOTHING_BLOCKED}`;
  return {
    kind: EMPTY_LOOKUP,
    seam: 'write',
    subjects: [
      { kind: 'tool', id: row.toolName },
      { kind: 'producer', id: ground.toolName },
    ],
    predicate: path,
    value,
    message,
    witnesses,
    advisory: true,
    span: row.span,
    toolName: row.toolName,
    ...(row.callId ? { toolCallId: row.callId } : {}),
  };
}
