// Check `unsupported-value` (seam `answer`): every data token of the final answer (see
// data-tokens.ts) must appear, token for token, in a tool result the answering request's window
// held. Tokens the window's user or system text contains are exempt. The model's own earlier turns
// and its tool-call arguments never ground a value (they are not in `windowResults`; at most they
// classify a finding as `assistant-only`). Past a bound the check says it is incomplete (an
// unreachable reason) instead of passing or flagging what it could not see. Detection only:
// nothing is blocked. Tally: `checked` counts distinct answer tokens judged, `findings` those no
// result held (<= checked), `unreachable` those that could not be judged.
// Also returns the grounded tokens with the request (and turn) that last served each one, for
// `prior-turn-evidence`. Pure function over plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { buildEvidenceIndex, extractDataTokens, DEFAULT_MAX_ANSWER_TOKENS, DEFAULT_MAX_INDEX_TOKENS, type DataToken } from './data-tokens.js';

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

export type ValueGrounding = 'assistant-only' | 'nowhere';

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
  if (extraction.tokens.length === 0) {
    tally.notApplicable++;
    return { findings, tally, grounded, exempt };
  }

  // Index once per request: the window's results, its exempt text, and (for classification only) the model's own text.
  const results = input.windowResults;
  const evidence = buildEvidenceIndex(results, bounds.maxIndexTokens);
  const exemptIndex = buildEvidenceIndex(input.exemptTexts.map((text) => ({ text })), bounds.maxIndexTokens);
  const writtenIndex = input.writtenTexts ? buildEvidenceIndex(input.writtenTexts.map((text) => ({ text })), bounds.maxIndexTokens) : undefined;

  const incompleteReasons: string[] = [];
  const answerReason = `the answer held more than ${bounds.maxAnswerTokens} data tokens; the rest were not checked`;
  const indexReason = `the window's tool results and user or system text held more than ${bounds.maxIndexTokens} data tokens; values not found in the part indexed could not be judged`;
  if (extraction.truncated) {
    bump(tally, answerReason, 1);
    incompleteReasons.push(answerReason);
  }
  const indexIncomplete = evidence.truncated || exemptIndex.truncated;
  if (indexIncomplete) incompleteReasons.push(indexReason);

  for (const token of extraction.tokens) {
    const at = evidence.lookup(token.key);
    if (at !== undefined) {
      tally.checked++;
      const r = results[at]!;
      grounded.push({
        key: token.key,
        raw: token.raw,
        request: r.request,
        ...(r.turnTraceId !== undefined ? { turnTraceId: r.turnTraceId } : {}),
        ...(r.toolName !== undefined ? { toolName: r.toolName } : {}),
        ...(r.callId !== undefined ? { callId: r.callId } : {}),
      });
      continue;
    }
    if (exemptIndex.lookup(token.key) !== undefined) {
      tally.checked++;
      exempt.push(token.key);
      continue;
    }
    if (indexIncomplete) {
      bump(tally, indexReason, 1);
      continue;
    }
    tally.checked++;
    tally.findings++;
    const grounding: ValueGrounding = writtenIndex?.lookup(token.key) !== undefined ? 'assistant-only' : 'nowhere';
    findings.push(buildFinding(input, token, grounding, results.length, evidence.size));
  }
  return { findings, tally, grounded, exempt, ...(incompleteReasons.length > 0 ? { incomplete: incompleteReasons.join('; ') } : {}) };
}

function buildFinding(input: UnsupportedValueInput, token: DataToken, grounding: ValueGrounding, resultCount: number, indexed: number): Finding {
  const q = quoteText(token.raw, input.bounds.quotedValueChars);
  const witnesses: Witness[] = [{ subject: 'answer final', predicate: token.key, value: q, stratum: 'chosen', provenance: 'the final answer as the model wrote it' }];
  if (grounding === 'assistant-only') {
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
    grounding === 'assistant-only'
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
