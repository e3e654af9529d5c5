// Check `unsupported-value` (seam `answer`): every data token of the final answer (see
// data-tokens.ts) must appear, token for token, in a tool result the answering request's window
// held — or meet one in a canonical form (value-forms.ts: a US, European or written date meets the
// served ISO date, `2:00 AM` meets `02:00`, a phone meets the same digits; grouped-values.ts: an
// identifier in display groups meets its join), after rounding to the
// precision the answer states or a unit factor (value-numbers.ts: `99.95%` meets 0.9995, `about
// 41,000` meets 41,187, 1,536 MB meets 1610612736 bytes). A number no result holds but which is
// the sum, difference, product or ratio of two or three served numbers (value-arithmetic.ts) is an
// ADVISORY finding with grounding `derived` and the formula as its witness. Tokens the window's
// user or system text (or, from the core, earlier turns' user messages) contains are exempt, in
// the same forms. The model's own earlier turns and its tool-call arguments never ground a value
// (they are not in `windowResults`; at most they classify a finding as `assistant-only`). Past a
// bound the check says it is incomplete (an unreachable reason) instead of passing or flagging
// what it could not see. Detection only: nothing is blocked. Tally: `checked` counts distinct
// answer values judged, `findings` those no result held (derived ones included, advisory)
// (<= checked), `unreachable` those that could not be judged.
// Also returns the grounded tokens with the request (and turn) that last served each one, for
// `prior-turn-evidence`. Pure function over plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { GROUNDING_ASSISTANT_ONLY, GROUNDING_DERIVED, GROUNDING_NOWHERE } from '../findings/names.js';
import { buildEvidenceIndex, extractDataTokens, scanDataTokens, DEFAULT_MAX_ANSWER_TOKENS, DEFAULT_MAX_INDEX_TOKENS, type DataToken } from './data-tokens.js';
import { buildFormIndex, findValueForms, type ValueForm } from './value-forms.js';
import { answerNumber, collectNumbers, hedgedIn, meetByRoundingOrUnit, sortNumbers, unitAfter, type ServedNumber, type SortedNumbers } from './value-numbers.js';
import { arithmeticOperands, deriveNumber, type Derivation } from './value-arithmetic.js';
import { groupedJoins } from './grouped-values.js';
import { VALUE_SEARCH_LIMITS } from '../limits.js';

export const UNSUPPORTED_VALUE = 'unsupported-value';

/** One tool result the answering request's window held. */
export interface WindowResult {
  /** The result as the model read it (frame.ts `resultText`). */
  text: string;
  toolName?: string;
  callId?: string;
  /** 1-based request of the conversation that first held this result (it was served then). */
  request: number;
  /** The trace of the turn whose tool call produced it. */
  turnTraceId?: string;
}

export interface EvidenceBounds {
  maxAnswerTokens: number;
  maxIndexTokens: number;
  quotedValueChars: number;
}

export const DEFAULT_EVIDENCE_BOUNDS: Readonly<EvidenceBounds> = Object.freeze({
  maxAnswerTokens: DEFAULT_MAX_ANSWER_TOKENS,
  maxIndexTokens: DEFAULT_MAX_INDEX_TOKENS,
  quotedValueChars: 64,
});

export interface UnsupportedValueInput {
  /** The final chat span (the answer's span). */
  span: SpanRef;
  /** The final answer text; undefined = the response was not captured. */
  answerText: string | undefined;
  windowResults: readonly WindowResult[];
  /** User and system text of the window: data tokens they contain are exempt. */
  exemptTexts: readonly string[];
  /** The model's own earlier text and tool-call arguments in the window: never ground, only classify. */
  writtenTexts?: readonly string[];
  /** False when the request's input messages were not recorded: nothing can be judged. */
  inputCaptured?: boolean;
  bounds: EvidenceBounds;
}

export interface GroundedToken {
  key: string;
  raw: string;
  /** The request that last served it, and the rest of that result's identity. */
  request: number;
  turnTraceId?: string;
  toolName?: string;
  callId?: string;
}

export interface UnsupportedValueOutcome extends CheckOutcome {
  /** Answer tokens found in a window result, with the result that last served each. */
  grounded: GroundedToken[];
  /** Answer tokens passed only because user or system text contains them. */
  exempt: string[];
  /** Why the judgement is incomplete (a bound was hit or content was not captured), if it is. */
  incomplete?: string;
}

/** `footprint.finding.grounding` of this check's findings; `derived` is advisory. */
export type ValueGrounding = typeof GROUNDING_ASSISTANT_ONLY | typeof GROUNDING_NOWHERE | typeof GROUNDING_DERIVED;

/** One value of the answer to judge: a data token, or a date, time or phone in a canonical form. */
interface AnswerValue {
  key: string;
  raw: string;
  /** Keys that ground it (the token's own key; a form's canonical keys). */
  lookups: string[];
  /** A number token (gets the rounding, unit and arithmetic search). */
  number: boolean;
  /** A phone's data tokens as written: it also passes when each of them is served as is. */
  inner?: string[];
}

/** Dot-grouped digits with no comma part (`12.480`, `1.234.567`): a decimal or German thousands. */
const DOT_GROUPED_INTEGER = /^\d{1,3}(?:\.\d{3})+$/;

/** The answer's values: its forms, then every data token not only ever written inside one. */
function answerValues(answer: string, tokens: readonly DataToken[], forms: readonly ValueForm[]): AnswerValue[] {
  const out: AnswerValue[] = [];
  const inForms = new Map<string, number>();
  const seenForm = new Set<string>();
  for (const f of forms) {
    let holdsData = false;
    const inner: string[] = [];
    scanDataTokens(f.raw, (t) => {
      holdsData = true;
      inner.push(t.key);
      inForms.set(t.key, (inForms.get(t.key) ?? 0) + 1);
      return true;
    });
    // A form with no data token in it (a date with no year, `2 AM`) is not data, as before.
    // A percentage with decimals is data by itself (`99.5%` is not `99.95%`).
    if ((!holdsData && f.kind !== 'percent') || seenForm.has(f.key)) continue;
    seenForm.add(f.key);
    out.push({
      key: f.key,
      raw: f.raw,
      lookups: f.kind === 'phone' ? [f.key, ...f.lookups] : f.lookups,
      number: f.kind === 'percent',
      ...(f.kind === 'phone' && inner.length > 0 ? { inner } : {}),
    });
  }
  const everywhere = new Map<string, number>();
  scanDataTokens(answer, (t) => {
    everywhere.set(t.key, (everywhere.get(t.key) ?? 0) + 1);
    return true;
  });
  for (const t of tokens) {
    if ((inForms.get(t.key) ?? 0) >= (everywhere.get(t.key) ?? 1)) continue;
    if (seenForm.has(t.key)) continue;
    // `12.480` is a decimal (12.48) or German thousands (12480): either reading, if served, grounds it.
    const thousands = t.kind === 'number' && DOT_GROUPED_INTEGER.test(t.raw) ? t.raw.replace(/\./g, '') : undefined;
    out.push({ key: t.key, raw: t.raw, lookups: thousands ? [t.key, thousands] : [t.key], number: t.kind === 'number' });
  }
  return out;
}

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

function emptyTally(): CheckTally {
  return { check: UNSUPPORTED_VALUE, seam: 'answer', checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {} };
}

function bump(tally: CheckTally, reason: string, n: number): void {
  if (n <= 0) return;
  tally.unreachable += n;
  tally.unreachableReasons[reason] = (tally.unreachableReasons[reason] ?? 0) + n;
}

export function unsupportedValues(input: UnsupportedValueInput): UnsupportedValueOutcome {
  const tally = emptyTally();
  const findings: Finding[] = [];
  const grounded: GroundedToken[] = [];
  const exempt: string[] = [];
  if (input.answerText === undefined || input.inputCaptured === false) {
    bump(tally, CONTENT_NOT_CAPTURED, 1);
    return { findings, tally, grounded, exempt, incomplete: CONTENT_NOT_CAPTURED };
  }
  const { bounds } = input;
  const extraction = extractDataTokens(input.answerText, bounds.maxAnswerTokens);
  const L = VALUE_SEARCH_LIMITS;
  const forms = findValueForms(input.answerText, L.maxFormsPerText);
  const values = answerValues(input.answerText, extraction.tokens, forms);
  if (values.length === 0) {
    tally.notApplicable++;
    return { findings, tally, grounded, exempt };
  }

  // Index once per request: the window's results, its exempt text, and (for classification only) the model's own text.
  const results = input.windowResults;
  const exemptSources = input.exemptTexts.map((text) => ({ text }));
  const evidence = buildEvidenceIndex(results, bounds.maxIndexTokens);
  const exemptIndex = buildEvidenceIndex(exemptSources, bounds.maxIndexTokens);
  const writtenIndex = input.writtenTexts ? buildEvidenceIndex(input.writtenTexts.map((text) => ({ text })), bounds.maxIndexTokens) : undefined;
  // Built only if some value needs them (most answers ground every value token for token).
  let formIdx: ReturnType<typeof buildFormIndex> | undefined;
  let exemptFormIdx: ReturnType<typeof buildFormIndex> | undefined;
  const formIndex = () => (formIdx ??= buildFormIndex(results, L.maxFormKeys));
  const exemptFormIndex = () => (exemptFormIdx ??= buildFormIndex(exemptSources, L.maxFormKeys));
  interface Pool {
    numbers: SortedNumbers;
    truncated: boolean;
  }
  let pools: { served: Pool; exempt: Pool; operands: ServedNumber[]; one: ServedNumber | undefined } | undefined;
  const numberPools = () => {
    if (pools) return pools;
    const served = collectNumbers(results, L.maxServedNumbers);
    const exemptNumbers = collectNumbers(exemptSources, L.maxServedNumbers);
    // Operands: the latest results first, then user and system text (positions past the results).
    const latestFirst = results.map((r, at) => ({ text: r.text, at })).reverse();
    const fromResults = collectNumbers(latestFirst, L.maxPairOperands * 4).numbers.map((n) => ({ ...n, at: latestFirst[n.at]!.at }));
    const fromExempt = exemptNumbers.numbers.map((n) => ({ ...n, at: results.length + n.at }));
    return (pools = {
      served: { numbers: sortNumbers(served.numbers), truncated: served.truncated },
      exempt: { numbers: sortNumbers(exemptNumbers.numbers), truncated: exemptNumbers.truncated },
      operands: arithmeticOperands([...fromResults, ...fromExempt], L.maxPairOperands),
      one: [...fromResults, ...fromExempt].find((n) => n.value === 1),
    });
  };

  const incompleteReasons: string[] = [];
  const answerReason = `the answer held more than ${bounds.maxAnswerTokens} data tokens; the rest were not checked`;
  const indexReason = `the window's tool results and user or system text held more than ${bounds.maxIndexTokens} data tokens; values not found in the part indexed could not be judged`;
  const numbersReason = `the window held more than ${L.maxServedNumbers} distinct numbers; answer numbers not found among those read could not be judged`;
  const searchReason = `the answer held more than ${L.maxSearchedNumbers} numbers no result held as written; the rest were not searched for rounding, units or arithmetic`;
  if (extraction.truncated) {
    bump(tally, answerReason, 1);
    incompleteReasons.push(answerReason);
  }
  const indexIncomplete = evidence.truncated || exemptIndex.truncated;
  if (indexIncomplete) incompleteReasons.push(indexReason);
  const note = (reason: string) => {
    bump(tally, reason, 1);
    if (!incompleteReasons.includes(reason)) incompleteReasons.push(reason);
  };
  const ground = (v: AnswerValue, at: number) => {
    tally.checked++;
    const r = results[at]!;
    grounded.push({
      key: v.key,
      raw: v.raw,
      request: r.request,
      ...(r.turnTraceId !== undefined ? { turnTraceId: r.turnTraceId } : {}),
      ...(r.toolName !== undefined ? { toolName: r.toolName } : {}),
      ...(r.callId !== undefined ? { callId: r.callId } : {}),
    });
  };
  const lookupAll = (v: AnswerValue, index: { lookup(key: string): number | undefined }) => {
    for (const k of v.lookups) {
      const at = index.lookup(k);
      if (at !== undefined) return at;
    }
    return undefined;
  };
  let searched = 0;
  const judged = withGroupedValues(input.answerText, extraction.tokens, forms, values, (key) => {
    const v = { lookups: [key] } as AnswerValue;
    return lookupAll(v, evidence) ?? lookupAll(v, formIndex()) ?? lookupAll(v, exemptIndex) ?? lookupAll(v, exemptFormIndex());
  }, L.maxFormsPerText);

  for (const v of judged) {
    const at = lookupAll(v, evidence) ?? lookupAll(v, formIndex()) ?? innerServed(v, evidence);
    if (at !== undefined) {
      ground(v, at);
      continue;
    }
    if (lookupAll(v, exemptIndex) !== undefined || lookupAll(v, exemptFormIndex()) !== undefined) {
      tally.checked++;
      exempt.push(v.key);
      continue;
    }
    let derived: Derivation | undefined;
    if (v.number) {
      if (searched >= L.maxSearchedNumbers) {
        note(searchReason);
        continue;
      }
      searched++;
      const t = answerNumber(v.raw, hedgedIn(input.answerText, v.raw));
      if (t) {
        const p = numberPools();
        const unit = answerUnitOf(input.answerText, v.raw);
        const met = meetByRoundingOrUnit(t, p.served.numbers, unit);
        if (met) {
          ground(v, met.number.at);
          continue;
        }
        if (meetByRoundingOrUnit(t, p.exempt.numbers, unit)) {
          tally.checked++;
          exempt.push(v.key);
          continue;
        }
        if (p.served.truncated || p.exempt.truncated) {
          note(numbersReason);
          continue;
        }
        if (!indexIncomplete) derived = deriveNumber(t, p.operands, L, p.one);
      }
    }
    if (indexIncomplete || formIndex().truncated || exemptFormIndex().truncated) {
      bump(tally, indexReason, 1);
      if (!incompleteReasons.includes(indexReason)) incompleteReasons.push(indexReason);
      continue;
    }
    tally.checked++;
    tally.findings++;
    if (derived) {
      findings.push(derivedFinding(input, v, derived, results));
      continue;
    }
    const grounding: ValueGrounding = writtenIndex && lookupAll(v, writtenIndex) !== undefined ? GROUNDING_ASSISTANT_ONLY : GROUNDING_NOWHERE;
    findings.push(buildFinding(input, v, grounding, results.length, evidence.size));
  }
  return { findings, tally, grounded, exempt, ...(incompleteReasons.length > 0 ? { incomplete: incompleteReasons.join('; ') } : {}) };
}

/**
 * The answer's values again with its display-grouped identifiers (`DE89 3704 0044 0532 0130 00`)
 * read whole, where some source holds the join (`held`): each such run is one value, keyed by its
 * join, and its groups are no longer judged one by one. A run whose join no source holds is left
 * to its groups. Dates and phones found first keep their text.
 */
function withGroupedValues(
  answer: string,
  tokens: readonly DataToken[],
  forms: readonly ValueForm[],
  values: AnswerValue[],
  held: (key: string) => number | undefined,
  max: number,
): AnswerValue[] {
  const taken: ValueForm[] = [...forms];
  const added: ValueForm[] = [];
  for (const g of groupedJoins(answer, max)) {
    if (taken.some((f) => g.start < f.end && g.end > f.start)) continue;
    if (held(g.key) === undefined) continue;
    const form: ValueForm = { kind: 'grouped', raw: g.raw, key: g.key, lookups: [g.key], start: g.start, end: g.end };
    taken.push(form);
    added.push(form);
  }
  if (added.length === 0) return values;
  return answerValues(answer, tokens, [...forms, ...added].sort((a, b) => a.start - b.start));
}

/** The unit word of an answer number: glued to it (`2048MB`) or right after its first occurrence (`1,234 MWh`). */
function answerUnitOf(answer: string, raw: string): string | undefined {
  const glued = /\d([A-Za-z]{1,6})$/.exec(raw);
  if (glued) return glued[1]!.toLowerCase();
  const s = answer.normalize('NFKC');
  const at = s.indexOf(raw);
  return at < 0 ? undefined : unitAfter(s, at + raw.length);
}

/** A phone-shaped run whose every data token a result served as is (the last one's position), if so. */
function innerServed(v: AnswerValue, evidence: { lookup(key: string): number | undefined }): number | undefined {
  if (!v.inner) return undefined;
  let at: number | undefined;
  for (const k of v.inner) {
    at = evidence.lookup(k);
    if (at === undefined) return undefined;
  }
  return at;
}

function operandSource(n: ServedNumber, results: readonly WindowResult[], cap: number): string {
  const r = results[n.at];
  if (!r) return `${quoteText(n.text, cap)} (user or system text)`;
  const who = r.toolName ? `a result of ${quoteText(r.toolName, cap)}` : 'a tool result';
  return `${quoteText(n.text, cap)} (${who}${r.callId ? `, call ${quoteText(r.callId, cap)}` : ''}, request ${r.request})`;
}

function derivedFinding(input: UnsupportedValueInput, v: AnswerValue, d: Derivation, results: readonly WindowResult[]): Finding {
  const cap = input.bounds.quotedValueChars;
  const q = quoteText(v.raw, cap);
  const formula = quoteText(d.formula, Math.max(cap, 160));
  const from = d.operands.map((n) => operandSource(n, results, cap)).join('; ');
  const witnesses: Witness[] = [
    { subject: 'answer final', predicate: v.key, value: q, stratum: 'chosen', provenance: 'the final answer as the model wrote it' },
    { subject: 'frame', predicate: v.key, value: formula, stratum: 'served', provenance: `derived: computed from values the window served: ${from}` },
    {
      subject: 'frame',
      predicate: v.key,
      value: q,
      stratum: 'absent',
      provenance: `held as written by none of the ${results.length} tool result(s) in the answering request's window, nor by a user or system message`,
    },
  ];
  return {
    kind: UNSUPPORTED_VALUE,
    seam: 'answer',
    subjects: [{ kind: 'answer', id: 'final' }],
    predicate: v.key,
    value: v.raw,
    message: `The answer states "${q}", which no tool result in the window holds as written, but which equals ${formula} of values the window served: it was derived, not copied, so check that this arithmetic is what the answer means. ${NOTHING_BLOCKED}`,
    witnesses,
    advisory: true,
    span: input.span,
    grounding: GROUNDING_DERIVED satisfies ValueGrounding,
  };
}

function buildFinding(input: UnsupportedValueInput, token: AnswerValue, grounding: ValueGrounding, resultCount: number, indexed: number): Finding {
  const q = quoteText(token.raw, input.bounds.quotedValueChars);
  const witnesses: Witness[] = [{ subject: 'answer final', predicate: token.key, value: q, stratum: 'chosen', provenance: 'the final answer as the model wrote it' }];
  if (grounding === GROUNDING_ASSISTANT_ONLY) {
    witnesses.push({ subject: 'frame', predicate: token.key, value: q, stratum: 'written', provenance: "the model's own earlier answers or tool-call arguments in the window (never a source)" });
  }
  witnesses.push({
    subject: 'frame',
    predicate: token.key,
    value: q,
    stratum: 'absent',
    provenance: `held by none of the ${resultCount} tool result(s) in the answering request's window (${indexed} data token(s) indexed, compared token for token) and by no user or system message`,
  });
  const message =
    grounding === GROUNDING_ASSISTANT_ONLY
      ? `The answer states "${q}", and the only place that value appears in the window it was written from is the model's own earlier writing (its answers or tool-call arguments), which is not a source: no tool result, user or system message contains it, so check where it came from before relying on it. ${NOTHING_BLOCKED}`
      : `The answer states "${q}", but no tool result in the window it was written from contains that value (compared token for token) and no user or system message supplied it, so check where it came from before relying on it. ${NOTHING_BLOCKED}`;
  return {
    kind: UNSUPPORTED_VALUE,
    seam: 'answer',
    subjects: [{ kind: 'answer', id: 'final' }],
    predicate: token.key,
    value: token.raw,
    message,
    witnesses,
    span: input.span,
    grounding,
  };
}
