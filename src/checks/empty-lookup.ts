// Check `empty-lookup` (seam `write`, advisory by construction): a call whose result was empty —
// `[]` or a declared absence — with an argument that a declared producer (`argumentsFrom`)
// served earlier in the conversation. The value came from somewhere real and the lookup found
// nothing: a place to look (a filter, a join, a stale cache), never a verdict, since an empty
// result can be perfectly true. Fences (the same as unsupported-argument): trimmed strings under 4
// characters and integers that are not identifiers are never checked; an identifier-like value
// matches a WHOLE token of a producer's result (raw or JSON-decoded), a phrase a case-insensitive
// substring; a value that is only a proper part of a producer's token is reported as `fragment`,
// naming the whole token (never as "a value the tool served"); only declared producers count (per
// argument in the named form). An empty result that explains itself is a pass: the call carried a
// declared enum filter (`statuses: [failed]`), or the producer's object holding the value has a zero
// count beside it (`job_count: 0`). Errored and refused calls, results of unknown emptiness, and
// every call of a write (`readOnly: false`, declared or inferred: its "… not found" error is about
// one argument of an action, not an empty lookup) are not applicable. At most one finding per call:
// the argument whose value the tool's own not-found words name, else the first one judged.
// Detection only: nothing is blocked.
// Tally: a non-empty result is one encounter (a pass); an empty one counts each string argument
// judged (pass or fail). Pure function over plain data: no I/O, no clocks, no globals.

import { RESULT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { LedgerRow } from '../model/ledger.js';
import type { ToolDeclaration } from '../declarations/types.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { argumentLeaves } from './argument-leaves.js';
import { isFragmentOf, judgedValue } from './argument-identity.js';
import { producersOf } from './argument-sources.js';
import { ServedGrounds } from './argument-grounds.js';
import { enumFilterOf, producerPredictedEmpty, userTypedWhole } from './empty-explained.js';
import type { ServedString } from '../model/frame.js';
import { quoteText } from '../findings/quote.js';
import { GROUNDING_FRAGMENT } from '../findings/names.js';

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
  /** The conversation's user messages so far: a value typed whole there is not a fragment of a producer's token. */
  userTexts?: readonly string[];
  maxArgumentLeaves?: number;
  quotedValueChars?: number;
}

function emptyTally(): CheckTally {
  return newTally(EMPTY_LOOKUP, 'write');
}

function unreachable(tally: CheckTally, reason: string): CheckOutcome {
  addUnreachable(tally, reason);
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
  // A call that failed or was refused says nothing about whether the thing exists; a write's error
  // is about an action, not a lookup.
  if (row.outcome === 'failed' || row.outcome === 'refused' || input.declaration?.readOnly === false) {
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
  const grounds = input.producerResults.filter((p) => producers.has(p.toolName) && p.text.trim() !== '');
  if (grounds.length === 0) return unreachable(tally, NO_PRODUCER_RESULT);
  // Latest first: the latest producer result holding the value is the one the model most likely took it from.
  const latestFirst = grounds.map((p, i) => ({ p, i })).reverse();
  const servedOf = new Map<ServedString, ProducerResult>();
  const asServed = latestFirst.map(({ p, i }) => {
    const s: ServedString = { source: 'tool-result', message: i, text: p.text, toolName: p.toolName, ...(p.callId ? { callId: p.callId } : {}) };
    servedOf.set(s, p);
    return s;
  });
  const view = new ServedGrounds(asServed);
  const schemas = input.declaration?.inputSchema !== undefined ? [input.declaration.inputSchema] : [];

  const maxLeaves = input.maxArgumentLeaves ?? DEFAULT_LIMITS.maxArgumentLeaves;
  const walk = argumentLeaves(row.arguments, maxLeaves);
  if (walk.truncated) {
    const reason = `arguments had more than ${maxLeaves} leaves; the rest were not checked`;
    tally.unreachableReasons[reason] = (tally.unreachableReasons[reason] ?? 0) + 1;
  }
  // A declared enum filter on the call explains an empty result: nothing of that status is an answer.
  const filter = enumFilterOf(row.arguments, schemas, maxLeaves);
  let judged = 0;
  const candidates: Finding[] = [];
  for (const leaf of walk.leaves) {
    const leafProducers = producersOf(input.declaration!, leaf.path);
    if (!leafProducers) continue;
    const value = judgedValue(leaf.path, leaf.value, schemas);
    if (!value) continue;
    judged++;
    tally.checked++;
    const needle = value.text.toLowerCase();
    const fromLeafProducer = (s: ServedString) => leafProducers.includes(s.toolName!);
    let ground: ProducerResult | undefined;
    let fragment: { producer: ProducerResult; token: string } | undefined;
    if (value.form === 'identifier') {
      const located = view.locate(needle, fromLeafProducer);
      if (located.accepted) ground = servedOf.get(located.accepted);
      else if (located.fragment && fromLeafProducer(located.fragment.served) && isFragmentOf(value, located.fragment.token ?? '') && !userTypedWhole(input.userTexts ?? [], value.text)) fragment = { producer: servedOf.get(located.fragment.served)!, token: located.fragment.token ?? '' };
    } else {
      ground = latestFirst.find(({ p }) => leafProducers.includes(p.toolName) && p.text.toLowerCase().includes(needle))?.p;
    }
    if (!ground && !fragment) continue;
    // Explained empties are checked passes: the filter, or the producer's own zero count beside the value.
    // A cut value (fragment) is still reported: a filter does not explain a value that is only part of a token.
    if (ground && (filter || producerPredictedEmpty(ground.text, value.text))) continue;
    candidates.push(buildFinding(input, leaf.path, value.text, ground ?? fragment!.producer, input.quotedValueChars ?? DEFAULT_LIMITS.quotedValueChars, fragment?.token));
  }
  if (judged === 0) tally.notApplicable++;
  // One finding per call: the argument the tool's own words name, else the first judged.
  const named = namedByTool(row);
  const chosen = candidates.find((f) => named !== '' && f.value !== undefined && named.includes(String(f.value).toLowerCase())) ?? candidates[0];
  if (chosen) {
    tally.findings++;
    findings.push(chosen);
  }
  return { findings, tally };
}

/** Fields of an object result that hold a tool's own words about what went wrong. */
const WORD_FIELDS = ['message', 'error', 'detail', 'reason', 'description'];

/**
 * The tool's own words about what it did not find, lower-cased: its not-found text, error or
 * refusal, a text result itself, or the message-like fields of an object result (never its echo
 * of the call's arguments).
 */
function namedByTool(row: LedgerRow): string {
  const words = [row.reading.absence?.notFound, row.errorMessage, row.reading.refusal];
  const r = row.result;
  if (typeof r === 'string') words.push(r.slice(0, 2000));
  else if (r !== null && typeof r === 'object' && !Array.isArray(r)) {
    for (const k of WORD_FIELDS) {
      const v = (r as Record<string, unknown>)[k];
      if (typeof v === 'string') words.push(v.slice(0, 2000));
      else if (v !== null && typeof v === 'object' && typeof (v as Record<string, unknown>)['message'] === 'string') words.push(String((v as Record<string, unknown>)['message']).slice(0, 2000));
    }
  }
  return words.filter((t): t is string => t !== undefined).join(' ').toLowerCase();
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

function buildFinding(input: EmptyLookupInput, path: string, value: string, ground: ProducerResult, cap: number, fragmentOf?: string): Finding {
  const { row } = input;
  const q = quoteText(value, cap);
  const argName = path.startsWith('args.') ? path.slice(5) : path;
  const callRef = row.callId ? `call ${row.callId}` : 'a call with no recorded id';
  const producerRef = `${ground.callId ? `call ${ground.callId}` : 'a call with no recorded id'}${ground.request !== undefined ? `, chosen in request ${ground.request}` : ''}`;
  const empty = describeEmpty(row, cap);
  const token = fragmentOf !== undefined ? quoteText(fragmentOf, cap) : undefined;
  const witnesses: Witness[] = [
    { subject: `tool ${row.toolName}`, predicate: path, value: q, stratum: 'chosen', provenance: `${callRef}: argument '${argName}' as the model chose it` },
    token !== undefined
      ? { subject: `tool ${ground.toolName}`, predicate: path, value: token, stratum: 'served', provenance: `served the whole value "${token}" earlier in this conversation (${producerRef}); the argument is only a part of it` }
      : { subject: `tool ${ground.toolName}`, predicate: path, value: q, stratum: 'served', provenance: `served this value earlier in this conversation (${producerRef})` },
    { subject: `tool ${row.toolName}`, predicate: path, value: q, stratum: 'absent', provenance: `found nothing: ${empty}` },
  ];
  const message =
    token !== undefined
      ? `'${row.toolName}' (${callRef}) returned ${empty} for ${argName} = "${q}", which is only part of "${token}", a value '${ground.toolName}' served earlier in this conversation (${producerRef}): the cut value may be why nothing was found. ` +
        `${EMPTY_LOOKUP_CEILING} ${NOTHING_BLOCKED}`
      : `'${row.toolName}' (${callRef}) returned ${empty} for ${argName} = "${q}", a value '${ground.toolName}' served earlier in this conversation (${producerRef}). ` +
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
    ...(token !== undefined ? { grounding: GROUNDING_FRAGMENT } : {}),
  };
}
