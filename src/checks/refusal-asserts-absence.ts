// Check `refusal-asserts-absence` (seam `answer`): a read of this turn was refused or failed (and
// no later successful read of the same tool with the same arguments superseded it), and a clause of
// the final answer that is about that read asserts that the thing does not exist or was not found.
// A refusal can never establish absence. Absence is read per clause as negated existence
// (absence-clauses.ts), never from a phrase list; each clause is attributed to the read it is
// about (absence-reads.ts), so an absence a successful empty read established is never blamed on
// another, refused read. Fences: no refused or failed read this turn -> not applicable (a tool that
// is not a read never makes one); answer not captured -> unreachable; no absence clause about a
// refused read -> pass. One finding per blamed read, naming it (tool, call id, its error).
// Detection only: nothing is blocked. Pure function: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally } from '../model/finding.js';
import type { LedgerRow } from '../model/ledger.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { readAnswer, type AbsenceClause, type AdmissionClause } from './absence-clauses.js';
import { attributeClause, establishedAbsence, readWords, refusalOf, turnReads, type TurnRead } from './absence-reads.js';

export { refusalOf, type Refusal } from './absence-reads.js';

export const REFUSAL_ASSERTS_ABSENCE = 'refusal-asserts-absence';

export interface RefusalAssertsAbsenceInput {
  /** The final chat span (the answer's span). */
  span: SpanRef;
  /** The final answer text; undefined = the response was not captured. */
  answerText: string | undefined;
  /** This turn's ledger rows, in call order. */
  rows: readonly LedgerRow[];
  quotedValueChars: number;
  /** Whether a tool is a read (declared readOnly, or an argumentsFrom producer); default: every row is. */
  isRead?: (toolName: string) => boolean;
}

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

/** The reads each absence clause blames: refused reads it is about, never one a successful read shares the blame with. */
export function blamedReads(
  clauses: readonly AbsenceClause[],
  reads: readonly TurnRead[],
  admissions: readonly AdmissionClause[] = [],
  /** Another call of the turn went through, not known to have returned something: a clause about no read in particular may be about it. */
  otherWentThrough = false,
): Map<TurnRead, { clause: AbsenceClause; shared: string[] }> {
  const blamed = new Map<TurnRead, { clause: AbsenceClause; shared: string[] }>();
  const words = new Map<TurnRead, Map<string, number>>();
  const wordsOf = (r: TurnRead) => words.get(r) ?? words.set(r, readWords(r.row)).get(r)!;
  // Reads the answer itself says failed, by sentence: an absence about one of them in the same or
  // the previous sentence is reported with its failure ("No incidents, but the incident lookup errored").
  const admitted = admissions.map((a) => {
    const about = attributeClause({ clause: a.clause, index: a.index, said: '', words: a.words, sentence: a.sentence }, reads, wordsOf);
    // An admission that names no read ("I got an error") is about every refused read.
    return { sentence: a.sentence, reads: new Set(about.shared.length > 0 ? about.reads : reads.filter((r) => r.refusal !== undefined)) };
  });
  const admits = (r: TurnRead, sentence: number) => admitted.some((a) => (a.sentence === sentence || a.sentence === sentence + 1) && a.reads.has(r));
  for (const clause of clauses) {
    const { reads: about, shared } = attributeClause(clause, reads, wordsOf);
    if (shared.length > 0) {
      // About named reads: blamed only when every one of them was refused.
      if (about.some((r) => r.refusal === undefined)) continue;
    } else if (reads.some(establishedAbsence) || otherWentThrough) {
      // About no read in particular (which read it is about is unknown), and a successful read
      // found nothing, or another call went through: it may rest on, or be about, that one.
      continue;
    }
    for (const r of about) if (r.refusal !== undefined && !blamed.has(r) && !admits(r, clause.sentence)) blamed.set(r, { clause, shared });
  }
  return blamed;
}

export function refusalAssertsAbsence(input: RefusalAssertsAbsenceInput): CheckOutcome {
  const tally: CheckTally = newTally(REFUSAL_ASSERTS_ABSENCE, 'answer');
  const findings: Finding[] = [];
  const reads = turnReads(input.rows, input.isRead);
  const refused = reads.filter((r) => r.refusal !== undefined);
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
  const answer = readAnswer(input.answerText);
  // A call that went through and is not known to have returned something (a write's "None", a text
  // result): a clause naming no read may be about it. One known to have returned rows cannot be.
  const otherWentThrough = input.rows.some((r) => r.outcome !== 'failed' && r.outcome !== 'refused' && refusalOf(r) === undefined && r.reading.emptiness !== 'non-empty');
  const blamed = blamedReads(answer.absences, reads, answer.admissions, otherWentThrough);

  const cap = input.quotedValueChars;
  for (const read of refused) {
    const why = blamed.get(read);
    if (!why) continue;
    const { row, position } = read;
    const r = read.refusal!;
    const said = quoteText(why.clause.said, cap);
    const tool = quoteText(row.toolName, cap);
    const callRef = row.callId ? `call ${quoteText(row.callId, cap)}` : `its call #${position + 1} of this turn, with no recorded id`;
    const err = r.error !== undefined ? quoteText(r.error, cap) : undefined;
    const errClause = err !== undefined ? ` ("${err}")` : ' (no error text was recorded)';
    const verb = r.how === 'refused' ? 'was refused' : 'failed';
    const about = why.shared.length > 0 ? `, about what '${tool}' was asked (${why.shared.slice(0, 4).map((w) => `"${quoteText(w, cap)}"`).join(', ')})` : ', about no read in particular, and no read of this turn found it absent';
    const witnesses: Witness[] = [
      { subject: 'answer final', predicate: 'absence', value: said, stratum: 'chosen', provenance: `the final answer states absence with the words "${said}"${about}` },
      {
        subject: `tool ${row.toolName}`,
        predicate: 'outcome',
        value: err ?? r.how,
        stratum: 'result',
        provenance: `${callRef}: the read ${verb}${row.request !== undefined ? ` (chosen in request ${row.request})` : ''}, so it established nothing about what exists`,
      },
    ];
    tally.findings++;
    findings.push({
      kind: REFUSAL_ASSERTS_ABSENCE,
      seam: 'answer',
      subjects: [{ kind: 'tool', id: row.toolName }],
      predicate: row.callId ?? `call#${position + 1}`,
      ...(r.error !== undefined ? { value: r.error } : {}),
      sensitive: [why.clause.said],
      message: `The answer says "${said}", but '${tool}' (${callRef}) ${verb}${errClause}, and a refused or failed read cannot establish that something does not exist: say the lookup could not be made, or make it again. ${NOTHING_BLOCKED}`,
      witnesses,
      span: input.span,
      toolName: row.toolName,
      ...(row.callId ? { toolCallId: row.callId } : {}),
    });
  }
  return { findings, tally };
}
