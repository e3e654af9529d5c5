// Check `count-mismatch` (seam `answer`): a clause of the final answer states how many items of
// something there are (count-clauses.ts), the run served that kind of item as rows (a list or a
// map of objects whose name's head noun is the counted noun, served-rows.ts), and no served row set
// or derivation gives that number. A count is wrong when it is more than the distinct items served
// of that kind (`more-than-served`), or when it states the whole (no narrowing words: "three
// reservations under your profile") and no set has that size, nor several results of one tool
// added up (`whole-not-served`). A count narrowed to a kind ("two upcoming reservations in business
// class") cannot be re-derived (its filter is the model's), but it rests on each item's details:
// when the served list of those items names some that no result gave the details of, the count is
// not known from the run (`partial`). Needs no declaration (armedBy inferred: the
// served rows). Fences: no served rows of the counted noun -> not applicable; the user or system
// stated the same count of the same noun -> pass (the count is theirs); a narrowed count within
// the sizes served whose items were all read -> pass (its filter cannot be judged); answer not
// captured -> unreachable. One finding per clause. Detection only: nothing is blocked.
// Pure function over plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { armedByInference } from './arming.js';
import { countClauses, statesCount, type CountClause } from './count-clauses.js';
import { nameWordsOf, type RowSet, type ServedRows } from './served-rows.js';

export const COUNT_MISMATCH = 'count-mismatch';

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

/** Nouns that count whatever the latest read listed ("11 options", "3 results"). */
const GENERIC_NOUNS: ReadonlySet<string> = new Set(['option', 'result', 'match', 'item', 'entry', 'record', 'row', 'choice', 'hit', 'alternative']);

export interface CountMismatchInput {
  span: SpanRef;
  /** The final answer text; undefined = not captured. */
  answerText: string | undefined;
  /** The tool results the conversation served up to this answer, read as rows (asked for only when the answer counts something). */
  rows: () => ServedRows;
  /** What the user and the system said in the conversation (a count they stated is theirs). */
  userTexts: readonly string[];
  quotedValueChars: number;
}

/**
 * The sets a clause counts: a list under a key whose head noun is the counted noun, or a result
 * that is itself the list and whose tool's name has the noun ("rooms" of room_availability); a
 * generic noun ("options", "results") counts the results that are lists.
 */
function candidateSets(rows: ServedRows, c: CountClause): RowSet[] {
  const byHead = rows.sets.filter((s) => s.names.length > 0 && (s.names[s.names.length - 1] === c.noun || (s.primary && s.names.includes(c.noun))));
  const sets = byHead.length > 0 ? byHead : GENERIC_NOUNS.has(c.noun) ? rows.sets.filter((s) => s.primary) : [];
  // A modifier that names the set ("saved passengers" -> saved_passengers) picks it among several.
  const named = sets.filter((s) => c.modifiers.some((m) => s.names.slice(0, -1).includes(m)));
  return named.length > 0 ? named : sets;
}

/** Distinct items across sets: by identifier where rows carry one, else by position. */
function distinctItems(sets: readonly RowSet[]): number {
  const seen = new Set<string>();
  let anonymous = 0;
  for (const s of sets) {
    if (s.scalars.length === s.size) for (const v of s.scalars) seen.add(`v:${v}`);
    else {
      for (const o of s.objects) {
        const id = Object.entries(o).find(([k, v]) => /(?:^|_)(?:id|number|code)$|Id$/.test(k) && (typeof v === 'string' || typeof v === 'number'));
        if (id) seen.add(`${id[0]}:${String(id[1]).toLowerCase()}`);
        else anonymous++;
      }
      anonymous += s.size - s.objects.length;
    }
  }
  return seen.size + anonymous;
}

/** A list of identifiers (a user's reservations) and which of them some result gave the details of. */
interface IdListCoverage {
  set: RowSet;
  read: string[];
  /** As served (for quoting). */
  unread: string[];
}

function idListCoverage(rows: ServedRows, sets: readonly RowSet[]): IdListCoverage | undefined {
  // The latest list of plain identifiers among the candidates.
  const lists = sets.filter((s) => s.size > 0 && s.scalars.length === s.size);
  const list = lists[lists.length - 1];
  if (!list) return undefined;
  const detailed = new Set<string>();
  for (const e of rows.entities) for (const id of e.ids) detailed.add(id);
  const read = list.scalars.filter((v) => detailed.has(v));
  const unread = list.scalarsAsServed.filter((_, i) => !detailed.has(list.scalars[i]!));
  return { set: list, read, unread };
}

/** Whether some served row holds `n` under a key whose words name the noun (`records`, `record_count`). */
function servedCount(rows: ServedRows, n: number, noun: string): boolean {
  for (const e of rows.entities) if (holdsCount(e.object, n, noun, 0)) return true;
  for (const s of rows.sets) for (const o of s.objects.slice(0, 2000)) if (holdsCount(o, n, noun, 0)) return true;
  return false;
}

function holdsCount(o: Record<string, unknown>, n: number, noun: string, depth: number): boolean {
  if (depth > 2) return false;
  for (const [k, v] of Object.entries(o).slice(0, 64)) {
    if ((v === n || v === String(n)) && nameWordsOf(k).includes(noun)) return true;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && holdsCount(v as Record<string, unknown>, n, noun, depth + 1)) return true;
  }
  return false;
}

function sizesList(sets: readonly RowSet[], cap: number): string {
  const shown = sets.slice(-4).map((s) => `${quoteText(s.label, cap * 2)}: ${s.size}`);
  return `${shown.join('; ')}${sets.length > 4 ? `; and ${sets.length - 4} more` : ''}`;
}

export function countMismatches(input: CountMismatchInput): CheckOutcome {
  const tally: CheckTally = newTally(COUNT_MISMATCH, 'answer');
  const findings: Finding[] = [];
  if (input.answerText === undefined) {
    addUnreachable(tally, CONTENT_NOT_CAPTURED);
    return { findings, tally };
  }
  const clauses = countClauses(input.answerText);
  const rows = clauses.length > 0 ? input.rows() : undefined;
  if (!rows || rows.sets.length === 0) {
    tally.notApplicable = 1;
    return { findings, tally };
  }
  const cap = input.quotedValueChars;
  const reported = new Set<string>();
  for (const c of clauses) {
    const sets = candidateSets(rows, c);
    if (sets.length === 0) {
      tally.notApplicable++;
      continue;
    }
    tally.checked++;
    if (input.userTexts.some((t) => statesCount(t, c.n, c.noun))) continue;
    // A count the run served as a number under a key naming the noun (`records: 14`, `seat_count: 3`).
    if (servedCount(rows, c.n, c.noun)) continue;
    // Wholes: a set's size, or several results of one tool added up.
    const wholes = new Set<number>();
    const byTool = new Map<string, number>();
    for (const s of sets) {
      wholes.add(s.size);
      const tool = s.source.toolName ?? '';
      if (s.primary) byTool.set(tool, (byTool.get(tool) ?? 0) + s.size);
    }
    for (const n of byTool.values()) wholes.add(n);
    const coverage = idListCoverage(rows, sets);
    const most = Math.max(distinctItems(sets), ...wholes);

    let why: { grounding: string; text: string } | undefined;
    const said = c.phrase;
    // Readings a verdict rests on, each known or it passes: whether the sets are all there is, and
    // what the clause counts. A selection of served rows is never more than they are, so more than
    // served needs only that the count is not of what was done; the whole needs the served rows.
    const complete = sets.every((s) => s.complete.known);
    if (c.n > most) {
      if (complete && !c.ofActions) why = { grounding: 'more-than-served', text: `the run served at most ${most} (${sizesList(sets, cap)})` };
    } else if (!c.narrowed && !wholes.has(c.n)) {
      if (c.counts.known) why = { grounding: 'whole-not-served', text: `it states the whole, and no served set or sum has that size (${sizesList(sets, cap)})` };
    } else if (c.narrowed && coverage && coverage.unread.length > 0 && coverage.read.length > 0) {
      const unread = coverage.unread.slice(0, 6).map((v) => `"${quoteText(v, cap)}"`).join(', ') + (coverage.unread.length > 6 ? `, and ${coverage.unread.length - 6} more` : '');
      why = {
        grounding: 'partial',
        text: `it counts a kind of them, and only ${coverage.read.length} of the ${coverage.set.size} the run listed (${quoteText(coverage.set.label, cap * 2)}) were read; ${unread} ${coverage.unread.length === 1 ? 'was' : 'were'} never read, so how many are of that kind is not known from the run`,
      };
    }
    if (!why) continue;
    const key = `${c.n}\u0000${c.noun}\u0000${why.grounding}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const latest = sets[sets.length - 1]!;
    const witnesses: Witness[] = [
      { subject: 'answer final', predicate: c.noun, value: quoteText(said, cap), stratum: 'chosen', provenance: `the final answer counts "${quoteText(said, cap)}" in "${quoteText(c.clause, cap * 2)}"` },
      ...sets.slice(-3).map((s): Witness => ({ subject: `rows ${s.label}`, predicate: 'size', value: String(s.size), stratum: 'result', provenance: `served by ${quoteText(s.source.toolName ?? 'a tool', cap)}${s.source.callId ? ` (call ${quoteText(s.source.callId, cap)})` : ''}` })),
    ];
    if (why.grounding === 'partial' && coverage) {
      witnesses.push({ subject: `rows ${coverage.set.label}`, predicate: 'not read', value: quoteText(coverage.unread.join(', '), cap * 2), stratum: 'absent', provenance: 'listed by the run, and no result gave their details' });
    }
    tally.findings++;
    const finding: Finding = {
      kind: COUNT_MISMATCH,
      seam: 'answer',
      subjects: [{ kind: 'rows', id: c.noun }],
      predicate: c.noun,
      value: c.said,
      message: `The answer says "${quoteText(said, cap)}", but ${why.text}: count the rows the run served, or read the ones it did not. ${NOTHING_BLOCKED}`,
      witnesses,
      span: input.span,
      ...(latest.source.toolName ? { toolName: latest.source.toolName } : {}),
      ...(latest.source.callId ? { toolCallId: latest.source.callId } : {}),
      grounding: why.grounding,
    };
    findings.push(armedByInference(finding, `the run served these rows (${quoteText(latest.label, cap * 2)}), and the answer counts them`));
  }
  return { findings, tally };
}
