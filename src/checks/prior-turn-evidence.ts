// Check `prior-turn-evidence` (seam `answer`, ADVISORY): every value the final answer grounds in a
// tool result was last served in an earlier turn, no tool was called this turn, AND something says
// that data may have moved since: the user asks about the present ("by now", "still", "any change
// since?", present-state words of the languages the absence reader knows), a
// write of this conversation after the serving read touched it (its arguments hold the value, or
// an identifier the serving read was called with), or the serving tool is declared `volatile`.
// A confirmation turn restating what was read minutes earlier, with nothing in between that could
// change it, is not stale. Reads the grounded tokens `unsupported-value` returns. Fences: no
// grounded value, an unknown current turn, a value whose serving turn was not recorded, or an
// incomplete evidence index -> unreachable (never a pass); one value from this turn, any tool call
// this turn, a user message asking to recall what was said, or nothing that could have moved the
// data -> pass. One encounter per answer. Detection only: nothing is blocked; the finding is a
// place to look, never a verdict. Pure function: no I/O, no clocks, no globals.

import type { CheckOutcome, CheckTally, Witness } from '../model/finding.js';
import { newTally } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import type { GroundedToken } from './unsupported-value.js';
import { asksToRecall } from './recall-question.js';
import { presentQuestionWords } from './present-question.js';

export const PRIOR_TURN_EVIDENCE = 'prior-turn-evidence';

/** Quoted verbatim in every prior-turn-evidence message. */
export const PRIOR_TURN_EVIDENCE_CEILING =
  "Turns are read from the traces the window's tool results came from, and values a memory or retrieval layer supplied are invisible here, so this check can miss a stale answer but never invents one; it is a place to look, not a verdict.";

export interface PriorTurnEvidenceInput {
  /** The final chat span (the answer's span). */
  span: SpanRef;
  /** `unsupportedValues(...).grounded`. */
  grounded: readonly GroundedToken[];
  /** `unsupportedValues(...).incomplete`: when set, "every value" cannot be established. */
  incomplete?: string;
  /** The trace of the turn the answer belongs to; undefined = not recorded. */
  currentTurnTraceId: string | undefined;
  /** Tool calls (ledger rows, any outcome) of this turn. */
  toolCallsThisTurn: number;
  /** The user's message of this turn (the window's last user message), when recorded. */
  userMessage?: string;
  /** The conversation's writes (calls of tools known as writes), with what they were called with. */
  writes?: readonly PriorWrite[];
  /** Identifier values each serving read (by call id) was called with: a write naming one touched its data. */
  readArguments?: (callId: string) => readonly string[];
  /** Whether a tool is declared `volatile` (its data moves on its own). */
  isVolatile?: (toolName: string) => boolean;
  quotedValueChars: number;
}

/** A write of the conversation: the request that chose it and its argument values (lower-cased). */
export interface PriorWrite {
  toolName: string;
  callId?: string;
  request: number;
  values: readonly string[];
}

/** Why the earlier data may have moved: the first reason found, as a witness sentence. */
function whyMayHaveMoved(input: PriorTurnEvidenceInput): string | undefined {
  const words = presentQuestionWords(input.userMessage);
  if (words !== undefined) return `this turn's user message asks about the present ("${words}")`;
  for (const g of input.grounded) {
    if (g.toolName !== undefined && input.isVolatile?.(g.toolName)) return `${g.toolName} is declared volatile: its data moves on its own`;
    const readWith = g.callId !== undefined ? (input.readArguments?.(g.callId) ?? []) : [];
    for (const w of input.writes ?? []) {
      if (w.request <= g.request) continue;
      const touched = w.values.find((v) => v === g.key || readWith.includes(v));
      if (touched !== undefined)
        return `the write ${w.toolName}${w.callId ? ` (call ${w.callId})` : ''} in request ${w.request}, after the read that served "${g.raw}", was called with "${touched}"`;
    }
  }
  return undefined;
}

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

export function priorTurnEvidence(input: PriorTurnEvidenceInput): CheckOutcome {
  const tally: CheckTally = newTally(PRIOR_TURN_EVIDENCE, 'answer');
  const unreachable = (reason: string) => {
    tally.unreachable = 1;
    tally.unreachableReasons[reason] = 1;
    return { findings: [], tally };
  };
  if (input.incomplete !== undefined) return unreachable(input.incomplete);
  if (input.currentTurnTraceId === undefined) return unreachable('the turn the answer belongs to was not recorded');
  // Nothing from a tool result restated: nothing for this check to judge (not applicable, not a pass).
  if (input.grounded.length === 0) {
    tally.notApplicable = 1;
    return { findings: [], tally };
  }
  const current = input.currentTurnTraceId;
  if (input.grounded.some((g) => g.turnTraceId === current)) {
    tally.checked = 1;
    return { findings: [], tally };
  }
  if (input.grounded.some((g) => g.turnTraceId === undefined)) return unreachable('the turn that served some grounded values was not recorded');
  tally.checked = 1;
  if (input.toolCallsThisTurn > 0) return { findings: [], tally };
  // The user asked what was said before: repeating an earlier turn's value is the answer asked for.
  if (asksToRecall(input.userMessage)) return { findings: [], tally };
  // Nothing could have moved the data since it was read: restating it is a confirmation, not stale.
  const moved = whyMayHaveMoved(input);
  if (moved === undefined) return { findings: [], tally };

  tally.findings = 1;
  const first = input.grounded[0]!;
  const latest = input.grounded.reduce((a, g) => (g.request > a.request ? g : a), first);
  const q = quoteText(first.raw, input.quotedValueChars);
  const others = input.grounded.length - 1;
  const values = others > 0 ? `"${q}" and ${others} other value${others === 1 ? '' : 's'}` : `"${q}"`;
  // Only the finding's own value is quoted (the core redacts exactly that); the others are counted.
  const witnesses: Witness[] = [
    {
      subject: 'answer final',
      predicate: 'grounding',
      value: q,
      stratum: 'served',
      provenance: `last served by ${first.toolName ? `a result of ${quoteText(first.toolName, input.quotedValueChars)}` : 'a tool result'}${first.callId ? ` (call ${quoteText(first.callId, input.quotedValueChars)})` : ''} in request ${first.request}, in an earlier turn (trace ${first.turnTraceId})${others > 0 ? `; ${others} other grounded value${others === 1 ? '' : 's'} too, the latest in request ${latest.request}` : ''}`,
    },
  ];
  witnesses.push({ subject: 'turn', predicate: 'tool-results-this-turn', value: '0', stratum: 'absent', provenance: `no tool was called in this turn (trace ${current})` });
  witnesses.push({ subject: 'turn', predicate: 'may-have-moved', value: q, stratum: 'served', provenance: moved });
  const message = `Every value the answer takes from a tool result (${values}) was last served in an earlier turn, the latest in request ${latest.request}, and no tool was called this turn, although ${moved}: the answer may repeat results that are no longer current. ${PRIOR_TURN_EVIDENCE_CEILING} ${NOTHING_BLOCKED}`;
  return {
    findings: [
      {
        kind: PRIOR_TURN_EVIDENCE,
        seam: 'answer',
        subjects: [{ kind: 'answer', id: 'final' }],
        predicate: 'grounding',
        value: first.raw,
        message,
        witnesses,
        advisory: true,
        span: input.span,
      },
    ],
    tally,
  };
}
