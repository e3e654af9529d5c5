// Check `refusal-asserts-absence` (seam `answer`): a read of this turn was refused or failed
// (outcome `refused`/`failed`, or its result's status said so) and the final answer states that
// the thing does not exist or was not found. A refusal can never establish absence. The absence
// wording is a small, fixed English phrase list (ABSENCE_PHRASES), matched case-insensitively on
// word boundaries, curly apostrophes read as straight ones; nothing else in the answer is
// interpreted. Fences: no refused or failed read this turn -> not applicable; answer not captured
// -> unreachable; no phrase -> pass. One finding per refused read, naming it (tool, call id, its
// error). Detection only: nothing is blocked. Pure function: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import type { LedgerRow } from '../model/ledger.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';

export const REFUSAL_ASSERTS_ABSENCE = 'refusal-asserts-absence';

/** Wording that states something does not exist or was not found. Fixed, documented, English only. */
export const ABSENCE_PHRASES: readonly string[] = Object.freeze([
  'no record',
  'no records',
  'no such',
  'no results',
  'no matching',
  'no entry',
  'no entries',
  'not found',
  'nothing found',
  'found nothing',
  'does not exist',
  "doesn't exist",
  'do not exist',
  "don't exist",
  'no longer exists',
  'there is no',
  "there's no",
  'there are no',
  "couldn't find",
  'could not find',
  "can't find",
  'cannot find',
  'unable to find',
]);

export interface RefusalAssertsAbsenceInput {
  /** The final chat span (the answer's span). */
  span: SpanRef;
  /** The final answer text; undefined = the response was not captured. */
  answerText: string | undefined;
  /** This turn's ledger rows, in call order. */
  rows: readonly LedgerRow[];
  quotedValueChars: number;
}

export interface AbsencePhraseMatch {
  phrase: string;
  /** The words as the answer wrote them. */
  matched: string;
  index: number;
}

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const PHRASE_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...ABSENCE_PHRASES].sort((a, b) => b.length - a.length).map((p) => escapeRegExp(p).replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`,
  'iu',
);

const PHRASE_AT = new RegExp(PHRASE_RE.source, 'iuy');

/**
 * The first absence phrase in a text, or undefined. Curly apostrophes count as straight ones.
 * `matched` runs on through phrases that overlap it ("There is no record" = "there is no" + "no record").
 */
export function findAbsencePhrase(text: string): AbsencePhraseMatch | undefined {
  const normal = text.replace(/[\u2018\u2019\u02bc]/g, "'");
  const m = PHRASE_RE.exec(normal);
  if (!m) return undefined;
  let end = m.index + m[0].length;
  for (let at = m.index + 1; at < end; at++) {
    PHRASE_AT.lastIndex = at;
    const next = PHRASE_AT.exec(normal);
    if (next) end = Math.max(end, at + next[0].length);
  }
  const phrase = m[0].toLowerCase().replace(/\s+/g, ' ');
  return { phrase, matched: text.slice(m.index, end), index: m.index };
}

export interface Refusal {
  how: 'refused' | 'failed';
  /** The error's words: the span's error message, else the result's refusal text. */
  error?: string;
  /** Where those words came from (`result` when the result itself says them). */
  from?: 'span' | 'result';
}

/** Why a row counts as a refused or failed read, or undefined when it does not. */
export function refusalOf(row: LedgerRow): Refusal | undefined {
  const refusal = row.reading.refusal;
  const how = row.outcome === 'refused' || row.outcome === 'failed' ? row.outcome : refusal !== undefined ? 'refused' : undefined;
  if (!how) return undefined;
  if (row.errorMessage !== undefined && row.errorMessage !== '') return { how, error: row.errorMessage, from: row.errorMessage === refusal ? 'result' : 'span' };
  if (refusal !== undefined && refusal !== '') return { how, error: refusal, from: 'result' };
  return { how };
}

export function refusalAssertsAbsence(input: RefusalAssertsAbsenceInput): CheckOutcome {
  const tally: CheckTally = { check: REFUSAL_ASSERTS_ABSENCE, seam: 'answer', checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {} };
  const findings: Finding[] = [];
  const refused = input.rows.map((row, i) => ({ row, i, r: refusalOf(row) })).filter((x) => x.r !== undefined);
  if (refused.length === 0) {
    tally.notApplicable = 1;
    return { findings, tally };
  }
  if (input.answerText === undefined) {
    tally.unreachable = refused.length;
    tally.unreachableReasons[CONTENT_NOT_CAPTURED] = refused.length;
    return { findings, tally };
  }
  tally.checked = refused.length;
  const match = findAbsencePhrase(input.answerText);
  if (!match) return { findings, tally };

  const cap = input.quotedValueChars;
  const said = quoteText(match.matched, cap);
  for (const { row, i, r } of refused) {
    const tool = quoteText(row.toolName, cap);
    const callRef = row.callId ? `call ${quoteText(row.callId, cap)}` : `its call #${i + 1} of this turn, with no recorded id`;
    const err = r!.error !== undefined ? quoteText(r!.error, cap) : undefined;
    const errClause = err !== undefined ? ` ("${err}")` : ' (no error text was recorded)';
    const verb = r!.how === 'refused' ? 'was refused' : 'failed';
    const witnesses: Witness[] = [
      { subject: 'answer final', predicate: 'absence', value: said, stratum: 'chosen', provenance: `the final answer states absence with the words "${said}"` },
      {
        subject: `tool ${row.toolName}`,
        predicate: 'outcome',
        value: err ?? r!.how,
        stratum: 'result',
        provenance: `${callRef}: the read ${r!.how === 'refused' ? 'was refused' : 'failed'}${row.request !== undefined ? ` (chosen in request ${row.request})` : ''}, so it established nothing about what exists`,
      },
    ];
    tally.findings++;
    findings.push({
      kind: REFUSAL_ASSERTS_ABSENCE,
      seam: 'answer',
      subjects: [{ kind: 'tool', id: row.toolName }],
      predicate: row.callId ?? `call#${i + 1}`,
      ...(r!.error !== undefined ? { value: r!.error } : {}),
      sensitive: [match.matched],
      message: `The answer says "${said}", but '${tool}' (${callRef}) ${verb}${errClause}, and a refused or failed read cannot establish that something does not exist: say the lookup could not be made, or make it again. ${NOTHING_BLOCKED}`,
      witnesses,
      span: input.span,
      toolName: row.toolName,
      ...(row.callId ? { toolCallId: row.callId } : {}),
    });
  }
  return { findings, tally };
}
