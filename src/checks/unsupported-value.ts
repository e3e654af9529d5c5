// Check `unsupported-value` (seam `answer`): every value of the final answer must be grounded in
// what the answering request's window served. The fast path is token-exact (data-tokens.ts: the
// answer's data tokens against a token index of the window's tool results). A value it does not
// ground is read as a typed value (src/values: numbers and money in any CLDR locale's marks, dates,
// months, times and their ranges by chrono-node, number ranges and ratings, phones by
// libphonenumber-js, identifiers modulo case, punctuation, grouping and width; a range is judged by
// its two ends, never as one opaque token, and a rating by its number, never its scale) and
// grounded when a tool result holds the same typed value, or when it is a bounded derivation of
// served values (src/values/derive.ts): rounded to the precision it states, converted between units
// (js-quantities), its sign moved, the sum, difference, product or ratio of two or three served
// numbers, a percentage change between two of them or a served percentage applied to one, a
// computation the model wrote out (earlier or in the answer itself) whose operands are served or
// results of its earlier written steps and whose arithmetic is right, the total or mean of a served
// column (all rows of a list of records, or those sharing a field's value or a date's month:
// src/values/aggregates.ts), a served date shifted by a relative expression the user or system
// wrote ("the next day", "last month"), hours and minutes (`01:30`) between two served times of
// day, a served time moved by a length the user or system wrote ("for one hour"), or the argument
// of a call in the window that the tool accepted (its result holds something and is no error). A
// value that stands only in an example the answer gives ("For example, if it is 11:30 AM",
// src/values/examples.ts) is not asserted: withheld, never raised. A derived value passes; its
// derivation is returned as the witness (`derived`). Tokens the window's user or system text (or
// earlier turns' user messages) or the offered tools' descriptions (their example clauses blanked)
// hold are exempt, in the same typed forms. The model's own earlier turns and tool-call arguments
// never ground a value (at most they classify a finding as `assistant-only`). Past a bound the
// check says it is incomplete (an unreachable reason). Detection only: nothing is blocked. Tally:
// `checked` counts distinct answer values judged, `findings` those with no origin (<= checked),
// `unreachable` those that could not be judged. Also returns the grounded tokens with the request
// (and turn) that last served each one, for `prior-turn-evidence`. Pure function over plain data
// (and the conversation's value memo): no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { GROUNDING_ASSISTANT_ONLY, GROUNDING_NOWHERE } from '../findings/names.js';
import { buildEvidenceIndex, extractDataTokens, scanDataTokens, DEFAULT_MAX_ANSWER_TOKENS, DEFAULT_MAX_INDEX_TOKENS, type DataToken } from './data-tokens.js';
import { VALUE_SEARCH_LIMITS } from '../limits.js';
import { ServedValues, ValueMemo, minutesOfKey, type ServedNumber } from '../values/served.js';
import { readForms, readNumbers } from '../values/read.js';
import { groupedJoins, identifierKey } from '../values/identifiers.js';
import { numeralReadings } from '../values/numerals.js';
import { relativeShifts, statedLengths, type Length, type Shift } from '../values/relative.js';
import { arithmeticOperands, deriveDate, deriveDuration, deriveNumber, deriveTimeShift, hedgedIn, meetServed, meetsNumber, shown, writtenComputation, type Derivation, type StatedNumber } from '../values/derive.js';
import { isUnit } from '../values/quantities.js';
import { exampleSpans, onlyInExamples, type ExampleSpan } from '../values/examples.js';
import { everyOccurrence } from '../values/occurrences.js';
import { columnAggregates, type ColumnAggregate } from '../values/aggregates.js';
import { KEY, numberKey, type TypedValue } from '../values/types.js';
import { readWordAmounts, rendersAs } from '../values/words.js';

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
  /** User and system text of the window: data tokens they contain are exempt; their relative expressions shift served dates. */
  exemptTexts: readonly string[];
  /**
   * The offered tools' names and descriptions, their example clauses blanked (src/values/examples.ts):
   * text the app served, so a value they hold is exempt as user or system text is (a limit, a
   * policy's number); they shift no dates.
   */
  schemaTexts?: readonly string[];
  /** The model's own earlier text and tool-call arguments in the window: never ground, only classify (and hold written computations). */
  writtenTexts?: readonly string[];
  /** The window's tool calls (arguments as text, with call ids): a value the tool accepted (its result in `windowResults` is no error and not empty) is grounded. */
  windowCalls?: readonly { text: string; callId?: string; toolName?: string }[];
  /** False when the request's input messages were not recorded: nothing can be judged. */
  inputCaptured?: boolean;
  bounds: EvidenceBounds;
  /** The conversation's memo of served strings' typed readings (a fresh one when not given). */
  memo?: ValueMemo;
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

/** A value that passed as a derivation of served values, with the derivation as its witness. */
export interface DerivedValue {
  key: string;
  raw: string;
  /** The steps (`2787 − 207 = 2,580`; `2024-05-18 + 1 day ("next day") = 2024-05-19`). */
  formula: string;
  /** Where each served operand came from. */
  from: string;
}

export interface UnsupportedValueOutcome extends CheckOutcome {
  /** Answer tokens found in a window result, with the result that last served each. */
  grounded: GroundedToken[];
  /** Answer tokens passed only because user or system text contains them. */
  exempt: string[];
  /** Answer values that passed as derivations of served values (the witness for the page and JSON). */
  derived: DerivedValue[];
  /** Why the judgement is incomplete (a bound was hit or content was not captured), if it is. */
  incomplete?: string;
}

/** `footprint.finding.grounding` of this check's findings. */
export type ValueGrounding = typeof GROUNDING_ASSISTANT_ONLY | typeof GROUNDING_NOWHERE;

/** One value of the answer to judge: a data token, or a typed value read whole (a date, a phone, a numeral …). */
interface AnswerValue {
  /** The key it is reported by (a token's key; a typed value's key without its kind prefix). */
  key: string;
  raw: string;
  /** Token keys of the fast path. */
  tokens: string[];
  /** Typed keys (src/values). */
  typed: string[];
  typedValue?: TypedValue;
  /** A phone's data tokens as written: it also passes when each of them is served as is. */
  inner?: string[];
}

const plain = (key: string) => key.slice(key.indexOf(':') + 1);

function digitCount(s: string): number {
  let n = 0;
  for (const c of s) if (c >= '0' && c <= '9') n++;
  return n;
}

/**
 * A numeral is data when a data token is written inside it, or its reading has 4 digits, or it is
 * a percentage with decimals and 3 (`99.5%`). A number on a scale (`4.5/5`) is data when it has
 * decimals or 4 digits: its scale is never data, and a whole rating (`4/5`) no more than `4` is.
 */
function numeralIsData(v: TypedValue, holdsData: boolean): boolean {
  const r = v.numbers?.[0];
  if (!r) return false;
  const d = digitCount(plain(v.key));
  if (v.scale !== undefined) return v.numbers!.some((n) => n.decimals > 0) || d >= 4;
  return holdsData || d >= 4 || (v.unit === '%' && r.decimals > 0 && d >= 3);
}

/** The data token keys written in a text, in order (duplicates kept). */
function tokensIn(text: string): string[] {
  const keys: string[] = [];
  scanDataTokens(text, (t) => (keys.push(t.key), true));
  return keys;
}

/**
 * The answer's values: its typed forms and numerals, then every data token not only ever written
 * inside one. A range (`10:00-11:00`, `$1,200-$1,500`) is judged by its ends, each a value of its
 * own (a date or time end is data when the range holds data); a token of its text that no end
 * holds (`10:00-11:00` itself) is never judged as an opaque token, and grounds both ends where a
 * source holds it as written.
 */
function answerValues(answer: string, tokens: readonly DataToken[], forms: readonly TypedValue[]): AnswerValue[] {
  const out: AnswerValue[] = [];
  const inForms = new Map<string, number>();
  const seen = new Set<string>();
  const seenForms = new Set<string>();
  const add = (f: TypedValue, inner: readonly string[], whole: readonly string[], rangeIsData = false) => {
    const holdsData = inner.length > 0;
    // A date or time that ends a range holding data is data (`May 3 - May 5, 2026`: the year is written once).
    const data = f.kind === 'number' ? numeralIsData(f, holdsData) : f.kind === 'words' || holdsData || rangeIsData;
    const identity = `${f.kind} ${f.keys.join(' ')}`;
    if (!data || seenForms.has(identity)) return;
    seenForms.add(identity);
    seen.add(f.key);
    // The fast path looks a typed value up by its plain keys where the token index holds that form (`2026-11-28`, `02:00`, `4850`).
    const tokenKeys = f.kind === 'number' || f.kind === 'date' || f.kind === 'time' || f.kind === 'month' ? f.keys.map(plain) : [];
    out.push({ key: plain(f.key), raw: f.raw, tokens: [...tokenKeys, ...whole], typed: f.keys, typedValue: f, ...(f.kind === 'phone' && holdsData ? { inner: [...inner] } : {}) });
  };
  for (const f of forms) {
    const inner = tokensIn(f.raw);
    for (const k of inner) inForms.set(k, (inForms.get(k) ?? 0) + 1);
    if (!f.parts) {
      add(f, inner, []);
      continue;
    }
    const ends = f.parts.map((p) => tokensIn(p.raw));
    const held = new Set(ends.flat());
    const whole = inner.filter((k) => !held.has(k));
    f.parts.forEach((p, i) => add(p, ends[i]!, whole, inner.length > 0));
  }
  const everywhere = new Map<string, number>();
  scanDataTokens(answer, (t) => {
    everywhere.set(t.key, (everywhere.get(t.key) ?? 0) + 1);
    return true;
  });
  // Where the typed forms lie: a token that runs past one (`10-11:30`, whose `11:30` is read) is
  // part of a construct read in part; it is judged by what was read, unless what lies outside the
  // forms is data of its own (a letter, as in `INV-2024-05-19`, or 4 digits; a lower-case word
  // joined after the number, as in `30-minute`, is a compound adjective's, not data).
  const read = new Uint8Array(answer.length);
  for (const f of forms) read.fill(1, Math.max(0, f.start), Math.min(answer.length, f.end));
  const partlyRead = (raw: string): boolean =>
    everyOccurrence(answer, raw, (i) => {
      let overlaps = false;
      let rest = '';
      for (let k = i; k < i + raw.length; k++) {
        if (read[k]) overlaps = true;
        else rest += answer[k];
      }
      // A compound's word after the number (`30-minute`, `5-star`, `2-hour`) is prose, not data of its own.
      const own = rest.replace(/^-\p{Ll}{2,}$/u, '');
      return overlaps && !/\p{L}/u.test(own) && digitCount(own) < 4;
    });
  for (const t of tokens) {
    if ((inForms.get(t.key) ?? 0) >= (everywhere.get(t.key) ?? 1)) continue;
    if (seen.has(t.key)) continue;
    if (partlyRead(t.raw)) continue;
    const typed: string[] = [];
    let typedValue: TypedValue | undefined;
    if (t.kind === 'number') {
      // A prose number (`2048MB`): read by its number, with its glued unit.
      const readings = numeralReadings(t.key.replace(/^-/, ''));
      const sign = t.key.startsWith('-') ? -1 : 1;
      const numbers = readings.map((r) => ({ ...r.reading, value: sign * r.reading.value }));
      const glued = /\d([A-Za-z]{1,6})$/.exec(t.raw)?.[1];
      typed.push(...numbers.map((n) => numberKey(n.value)));
      if (numbers.length > 0) typedValue = { kind: 'number', raw: t.raw, start: 0, end: 0, keys: typed, key: typed[0]!, numbers, ...(glued && isUnit(glued) ? { unit: glued } : {}) };
    } else {
      const id = identifierKey(t.raw);
      if (id) typed.push(id);
    }
    out.push({ key: t.key, raw: t.raw, tokens: [t.key], typed, ...(typedValue ? { typedValue } : {}) });
  }
  return out;
}

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

function emptyTally(): CheckTally {
  return newTally(UNSUPPORTED_VALUE, 'answer');
}

function bump(tally: CheckTally, reason: string, n: number): void {
  if (n > 0) addUnreachable(tally, reason, n);
}

/** A tool result that says the tool accepted its arguments: it holds something and is no error. */
function accepted(text: string): boolean {
  const t = text.trim();
  if (t === '' || t === '[]' || t === '{}' || t === 'null' || t === '""') return false;
  if (/^(?:error|exception|failed|failure)\b/i.test(t)) return false;
  if (/^\{\s*"(?:error|errors|exception)"\s*:/.test(t)) return false;
  if (t.length < 200 && /\b(?:not found|no such|does not exist|invalid|unknown|denied|forbidden)\b/i.test(t)) return false;
  return true;
}

export function unsupportedValues(input: UnsupportedValueInput): UnsupportedValueOutcome {
  const tally = emptyTally();
  const findings: Finding[] = [];
  const grounded: GroundedToken[] = [];
  const exempt: string[] = [];
  const derived: DerivedValue[] = [];
  if (input.answerText === undefined || input.inputCaptured === false) {
    bump(tally, CONTENT_NOT_CAPTURED, 1);
    return { findings, tally, grounded, exempt, derived, incomplete: CONTENT_NOT_CAPTURED };
  }
  const { bounds } = input;
  const L = VALUE_SEARCH_LIMITS;
  const answer = input.answerText.normalize('NFKC');
  const extraction = extractDataTokens(answer, bounds.maxAnswerTokens);
  const results = input.windowResults;
  const exemptSources = [...input.exemptTexts, ...(input.schemaTexts ?? [])].map((text) => ({ text }));
  const memo = input.memo ?? new ValueMemo();
  const maxKeys = Math.min(L.maxFormKeys, bounds.maxIndexTokens);
  const served = new ServedValues(results, memo, maxKeys);
  const exemptServed = new ServedValues(exemptSources, memo, maxKeys);

  // Typed forms of the answer: dates, months, times and phones, then numerals outside them, then
  // display-grouped identifiers whose join some source holds.
  const forms: TypedValue[] = readForms(answer, L.maxFormsPerText, false);
  const overlaps = (a: { start: number; end: number }) => forms.some((f) => a.start < f.end && a.end > f.start);
  for (const g of groupedJoins(answer, L.maxFormsPerText)) {
    if (overlaps(g)) continue;
    const key = KEY.identifier + g.key;
    if (served.lookup(key) === undefined && exemptServed.lookup(key) === undefined) continue;
    forms.push({ kind: 'identifier', raw: g.raw, start: g.start, end: g.end, keys: [key], key });
  }
  for (const n of readNumbers(answer, L.maxFormsPerText)) if (!overlaps(n)) forms.push(n);
  // Amounts in words (`twelve thousand four hundred eighty`, `zwölftausend…`): data, as their number would be.
  for (const w of readWordAmounts(answer, L.maxFormsPerText)) {
    if (overlaps(w)) continue;
    const key = `w:${w.words}`;
    forms.push({ kind: 'words', raw: w.raw, start: w.start, end: w.end, keys: [key], key, amount: w });
  }
  forms.sort((a, b) => a.start - b.start);
  const values = answerValues(answer, extraction.tokens, forms);
  if (values.length === 0) {
    tally.notApplicable++;
    return { findings, tally, grounded, exempt, derived };
  }

  const evidence = buildEvidenceIndex(results, bounds.maxIndexTokens);
  const exemptIndex = buildEvidenceIndex(exemptSources, bounds.maxIndexTokens);
  const writtenIndex = input.writtenTexts ? buildEvidenceIndex(input.writtenTexts.map((text) => ({ text })), bounds.maxIndexTokens) : undefined;

  // Built on first need: number operands, relative expressions, accepted call arguments.
  let operands: { list: ServedNumber[]; one: ServedNumber | undefined } | undefined;
  const arithmetic = () => {
    if (operands) return operands;
    // Latest results first, then user and system text (positions past the results).
    const fromResults = served.numbersLatestFirst(L.maxPairOperands * 4);
    const fromExempt = exemptServed.numbers().map((n) => ({ ...n, at: results.length + n.at }));
    const all = [...fromResults, ...fromExempt];
    return (operands = { list: arithmeticOperands(all, L.maxPairOperands), one: all.find((n) => n.value === 1) });
  };
  let shifts: Shift[] | undefined;
  const relative = () => (shifts ??= relativeShifts(input.exemptTexts, 64));
  // Totals and means of served columns, per result, latest results first (read on first need).
  const aggregates = new Map<number, ColumnAggregate[]>();
  const columnAggregate = (t: StatedNumber): { aggregate: ColumnAggregate; at: number } | undefined => {
    for (let at = results.length - 1; at >= Math.max(0, results.length - L.maxAggregatedResults); at--) {
      let list = aggregates.get(at);
      if (!list) aggregates.set(at, (list = columnAggregates(results[at]!.text)));
      for (const a of list) {
        const mean = a.kind === 'mean';
        if (meetsNumber(t, a.value, mean ? 'full' : 'fine') || (!mean && a.value < 0 && meetsNumber(t, -a.value, 'fine'))) return { aggregate: a, at };
      }
    }
    return undefined;
  };
  let stated: Length[] | undefined;
  const lengths = () => (stated ??= statedLengths(input.exemptTexts, 16));
  let acceptedArgs: { index: ReturnType<typeof buildEvidenceIndex>; typed: ServedValues; calls: { text: string; callId?: string; toolName?: string }[] } | undefined;
  const acceptedArguments = () => {
    if (!acceptedArgs) {
      const byCall = new Map(results.filter((r) => r.callId).map((r) => [r.callId!, r]));
      const calls = (input.windowCalls ?? [])
        .filter((c) => c.callId !== undefined && byCall.has(c.callId) && accepted(byCall.get(c.callId)!.text))
        .map((c) => ({ ...c, toolName: c.toolName ?? byCall.get(c.callId!)!.toolName }));
      acceptedArgs = { index: buildEvidenceIndex(calls, bounds.maxIndexTokens), typed: new ServedValues(calls, memo, maxKeys), calls };
    }
    return acceptedArgs;
  };

  const incompleteReasons: string[] = [];
  const answerReason = `the answer held more than ${bounds.maxAnswerTokens} data tokens; the rest were not checked`;
  const indexReason = `the window's tool results and user or system text held more than ${bounds.maxIndexTokens} data tokens; values not found in the part indexed could not be judged`;
  const typedReason = `the window held more than ${maxKeys} typed values of a kind; answer values not found among those read could not be judged`;
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
    const r = results[at];
    if (!r) {
      exempt.push(v.key);
      return;
    }
    grounded.push({
      key: v.key,
      raw: v.raw,
      request: r.request,
      ...(r.turnTraceId !== undefined ? { turnTraceId: r.turnTraceId } : {}),
      ...(r.toolName !== undefined ? { toolName: r.toolName } : {}),
      ...(r.callId !== undefined ? { callId: r.callId } : {}),
    });
  };
  const derive = (v: AnswerValue, formula: string, from: string, at?: number) => {
    derived.push({ key: v.key, raw: v.raw, formula, from });
    if (at !== undefined) ground(v, at);
    else tally.checked++;
  };
  const firstToken = (keys: readonly string[], index: { lookup(key: string): number | undefined }) => {
    for (const k of keys) {
      const at = index.lookup(k);
      if (at !== undefined) return at;
    }
    return undefined;
  };
  let searched = 0;
  let examples: ExampleSpan[] | undefined;

  for (const v of values) {
    // 1. Token for token (the fast path), then the same typed value.
    const at = firstToken(v.tokens, evidence) ?? served.lookupAny(v.typed)?.at ?? innerServed(v, evidence);
    if (at !== undefined) {
      ground(v, at);
      continue;
    }
    if (firstToken(v.tokens, exemptIndex) !== undefined || exemptServed.lookupAny(v.typed) !== undefined) {
      tally.checked++;
      exempt.push(v.key);
      continue;
    }
    const tv = v.typedValue;
    // An amount in words: n2words renders some served number as these words.
    if (tv?.amount) {
      const amount = tv.amount;
      const hit = served.numbers().find((n) => rendersAs(amount, n.value));
      if (hit) {
        ground(v, hit.at);
        continue;
      }
      if (exemptServed.numbers().some((n) => rendersAs(amount, n.value))) {
        tally.checked++;
        exempt.push(v.key);
        continue;
      }
    }
    // 2. A bounded derivation of served values.
    let found: { formula: string; from: string; at?: number } | undefined;
    if (tv?.kind === 'number' && tv.numbers) {
      if (searched >= L.maxSearchedNumbers) {
        note(searchReason);
        continue;
      }
      searched++;
      const hedged = hedgedIn(answer, v.raw);
      for (const r of tv.numbers) {
        const t: StatedNumber = { ...r, hedged, ...(tv.unit ? { unit: tv.unit } : {}), ...(tv.currency ? { currency: tv.currency } : {}) };
        const met = meetServed(t, served.numbers());
        if (met) {
          found = { formula: met.formula, from: sourcesOf(met, results, bounds.quotedValueChars, input.exemptTexts.length), at: met.operands[0]!.at };
          if (met.step === 'rounding') {
            ground(v, met.operands[0]!.at);
            found = { formula: '', from: '' };
          }
          break;
        }
        if (meetServed(t, exemptServed.numbers())) {
          tally.checked++;
          exempt.push(v.key);
          found = { formula: '', from: '' };
          break;
        }
        // A rating (`4.6/5`) is a small number a search over pairs would meet by chance
        // (`14 ÷ 287 × 100 = 4.87…`): only a computation the model wrote out derives one.
        const d: Derivation | undefined =
          (tv.scale === undefined ? deriveNumber(t, arithmetic().list, L, arithmetic().one) : undefined) ??
          writtenComputation(t, [...(input.writtenTexts ?? []), answer], (o) => servedOperand(o, served, exemptServed, results.length), L.maxPairOperands + 1);
        if (d) {
          const last = d.operands.reduce((a, n) => (n.at < results.length && n.at > a ? n.at : a), -1);
          found = { formula: d.formula, from: sourcesOf(d, results, bounds.quotedValueChars, input.exemptTexts.length), ...(last >= 0 ? { at: last } : {}) };
          break;
        }
        // A total or mean of a served column (every amount of a list, or of the rows of one month or
        // one recipient). Never a rating's: a mean of a few ratings meets a stated one by chance.
        const agg = tv.scale === undefined ? columnAggregate(t) : undefined;
        if (agg) {
          found = { formula: `${agg.aggregate.what} = ${shown(agg.aggregate.value)}`, from: resultOf(results[agg.at]!, bounds.quotedValueChars), at: agg.at };
          break;
        }
      }
    } else if (tv?.kind === 'time') {
      const times = [...served.times(), ...exemptServed.times().map((t) => ({ ...t, at: results.length + t.at }))];
      const operand = (t: { minutes: number; at: number }) => ({ value: t.minutes, text: `${String(Math.floor(t.minutes / 60)).padStart(2, '0')}:${String(t.minutes % 60).padStart(2, '0')}`, at: t.at });
      // A clock without a meridiem may be hours and minutes: the time between two served times of day.
      const d = tv.duration !== undefined ? deriveDuration(tv.duration, times) : undefined;
      if (d) {
        const last = Math.max(d.from.at, d.to.at);
        found = { formula: d.formula, from: sourcesOf({ operands: [operand(d.from), operand(d.to)] }, results, bounds.quotedValueChars, input.exemptTexts.length), ...(last < results.length ? { at: last } : {}) };
      } else if (lengths().length > 0) {
        // A served time moved by a length the user or system wrote ("for one hour": 12:00 to 13:00).
        const readings = tv.keys.flatMap((k) => (k.includes('+') ? [] : [minutesOfKey(k) ?? -1])).filter((m) => m >= 0);
        const shifted = deriveTimeShift(readings, times, lengths());
        if (shifted) found = { formula: shifted.formula, from: sourcesOf({ operands: [operand(shifted.from)] }, results, bounds.quotedValueChars, input.exemptTexts.length), ...(shifted.from.at < results.length ? { at: shifted.from.at } : {}) };
      }
    } else if (tv && (tv.kind === 'date' || tv.kind === 'month')) {
      const value = plain(tv.key);
      const anchors = [...served.dates(), ...exemptServed.dates().map((d) => ({ ...d, at: results.length + d.at }))];
      const d = relative().length > 0 ? deriveDate(value, anchors, relative(), (a) => a.at >= results.length) : undefined;
      if (d) found = { formula: d.formula, from: d.anchor.at < results.length ? sourcesOf({ operands: [{ value: 0, text: d.anchor.date, at: d.anchor.at }] }, results, bounds.quotedValueChars, input.exemptTexts.length) : `${d.anchor.date} (${exemptSource(d.anchor.at - results.length, input.exemptTexts.length)})`, ...(d.anchor.at < results.length ? { at: d.anchor.at } : {}) };
    }
    if (found) {
      if (found.formula !== '') derive(v, found.formula, found.from, found.at);
      continue;
    }
    // 3. An argument of a call in the window that the tool accepted.
    const acc = acceptedArguments();
    const accAt = acc.calls.length === 0 ? undefined : (firstToken(v.tokens, acc.index) ?? acc.typed.lookupAny(v.typed)?.at);
    if (accAt !== undefined) {
      const call = acc.calls[accAt]!;
      derive(v, `an argument of ${call.toolName ? `'${quoteText(call.toolName, bounds.quotedValueChars)}'` : 'a tool call'} that the tool accepted`, `call ${quoteText(call.callId ?? '', bounds.quotedValueChars)}, whose result in the window holds something and is no error`);
      continue;
    }
    if (indexIncomplete) {
      bump(tally, indexReason, 1);
      if (!incompleteReasons.includes(indexReason)) incompleteReasons.push(indexReason);
      continue;
    }
    if (served.truncated || exemptServed.truncated) {
      note(typedReason);
      continue;
    }
    tally.checked++;
    // Whether the answer asserts the value is unknown where it is only offered as an example
    // ("For example, if it is currently 11:30 AM, …"): withheld, never raised.
    if (onlyInExamples(answer, v.raw, (examples ??= exampleSpans(answer)))) continue;
    tally.findings++;
    const grounding: ValueGrounding = writtenIndex && (firstToken(v.tokens, writtenIndex) !== undefined || answerWritten(v, input.writtenTexts ?? [])) ? GROUNDING_ASSISTANT_ONLY : GROUNDING_NOWHERE;
    findings.push(buildFinding(input, v, grounding, results.length, evidence.size));
  }
  return { findings, tally, grounded, exempt, derived, ...(incompleteReasons.length > 0 ? { incomplete: incompleteReasons.join('; ') } : {}) };
}

/** Whether the model's own writing holds the value as written (a date or phone in its form). */
function answerWritten(v: AnswerValue, written: readonly string[]): boolean {
  if (v.raw.length < 4) return false;
  const needle = v.raw.toLowerCase();
  return written.some((w) => w.toLowerCase().includes(needle));
}

/** A written operand (`$402`, `16005`) as a served number: the same value a result or the user served. */
function servedOperand(operand: string, served: ServedValues, exemptServed: ServedValues, resultCount: number): ServedNumber | undefined {
  const readings = numeralReadings(operand.replace(/^[-−]/, ''));
  for (const r of readings) {
    const key = numberKey(r.reading.value);
    const at = served.lookup(key);
    if (at !== undefined) return { value: r.reading.value, text: operand, at };
    const ex = exemptServed.lookup(key);
    if (ex !== undefined) return { value: r.reading.value, text: operand, at: resultCount + ex };
  }
  return undefined;
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

/** Which result a witness comes from: `a result of 'tool', call c1, request 2`. */
function resultOf(r: WindowResult, cap: number): string {
  return `${r.toolName ? `a result of ${quoteText(r.toolName, cap)}` : 'a tool result'}${r.callId ? `, call ${quoteText(r.callId, cap)}` : ''}, request ${r.request}`;
}

/** Which exempt text the operand at `offset` among them comes from: the first `userOrSystem` are user or system text, the rest tool descriptions. */
function exemptSource(offset: number, userOrSystem: number): string {
  return offset >= userOrSystem ? 'a tool description' : 'user or system text';
}

function sourcesOf(d: Pick<Derivation, 'operands'>, results: readonly WindowResult[], cap: number, userOrSystem: number): string {
  return d.operands
    .map((n) => {
      const r = results[n.at];
      if (!r) return `${quoteText(n.text, cap)} (${exemptSource(n.at - results.length, userOrSystem)})`;
      return `${quoteText(n.text, cap)} (${resultOf(r, cap)})`;
    })
    .join('; ');
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
