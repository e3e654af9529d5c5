// A finding: one defect, its witnesses (where the value was and was not), and the sentence that
// states it. Produced by pure checks, turned into span events by src/findings. Plain data only.

import type { SpanRef } from './telemetry.js';

/** Where in the agent loop a finding was seen; it attaches to that seam's span. */
export type Seam = 'offer' | 'choice' | 'write' | 'answer';

export interface Subject {
  kind: string;
  id: string;
}

/**
 * One piece of evidence. `stratum` says what kind of place it was found in:
 * `chosen` (the model's choice), `served` (system/user/tool result), `written` (the model's own
 * text or arguments), `external` (app-asserted), `absent` (looked for and not there).
 */
export interface Witness {
  subject: string;
  predicate: string;
  value: string;
  stratum: 'chosen' | 'served' | 'written' | 'external' | 'absent' | 'declared' | 'result';
  provenance: string;
}

export interface Finding {
  kind: string;
  seam: Seam;
  subjects: Subject[];
  /** The discriminator, e.g. an argument's dot-path `args.machine_id`. */
  predicate: string;
  /** The raw value concerned (quoted/redacted only when written out). */
  value?: string;
  /**
   * Other raw values the message and witnesses quote (e.g. the settled fact a claim contradicts):
   * redacted like `value` when redaction is `hash` or `omit`.
   */
  sensitive?: string[];
  message: string;
  witnesses: Witness[];
  advisory?: boolean;
  /** The span the finding attaches to (its seam's span). */
  span: SpanRef;
  toolName?: string;
  toolCallId?: string;
  /** Check-specific classification, e.g. `assistant-only` | `nowhere` for unsupported-argument. */
  grounding?: string;
  conversationId?: string;
  /** How the check was armed for this finding: declared by an author (default) or inferred from the trace. */
  armedBy?: ArmedBy;
  /** The evidence of an inferred arming. */
  armedEvidence?: string;
  /** The tenant of the span it was found on (set by the core; the service scopes findings by it). */
  tenant?: string;
}

/** The two tiers a check is armed by (DESIGN: "Declarations, and what the trace shows"). */
export type ArmedBy = 'declared' | 'inferred';

/** Per-check accounting for one turn: "no findings" must never read as "all checked". */
export interface CheckTally {
  check: string;
  seam: Seam;
  checked: number;
  findings: number;
  notApplicable: number;
  unreachable: number;
  /** Why encounters were unreachable, with counts (e.g. "message content was not captured"). */
  unreachableReasons: Record<string, number>;
}

/** The tally of a check that has met nothing yet (every check starts from one). */
export function newTally(check: string, seam: Seam): CheckTally {
  return { check, seam, checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {} };
}

/** Counts `n` encounters as unreachable, for `reason`. */
export function addUnreachable(tally: CheckTally, reason: string, n = 1): void {
  tally.unreachable += n;
  tally.unreachableReasons[reason] = (tally.unreachableReasons[reason] ?? 0) + n;
}

export interface CheckOutcome {
  findings: Finding[];
  tally: CheckTally;
}

/** A check the core runs: its id, its seam and whether it reads message content (src/checks/catalog.ts lists them). */
export interface RegisteredCheck {
  id: string;
  seam: Seam;
  /** Needs recorded message content (so it is unreachable when capture is off). */
  readsContent: boolean;
  /** Finding kinds it files, when they differ from its id. */
  kinds?: readonly string[];
  /** Inference can arm it with no declaration (what the trace shows: names, schemas, annotations). */
  inferable?: boolean;
  /**
   * How its findings ship when nothing overrides it (docs/checks.md#tiers): `default` (findings),
   * `advisory` (findings marked advisory: a place to look), `opt-in` (not reported unless the
   * declarations turn it on). Earned on real data: on by default only while it meets the bar on
   * every real set the project holds.
   */
  tier: CheckTier;
  /** Its tier when armed by inference, where that differs (an inferred arming may be advisory while a declared one is not). */
  inferredTier?: CheckTier;
  /** Why it is in its tier: what was measured. */
  tierWhy: string;
}

/** How a check's findings ship (RegisteredCheck.tier). */
export type CheckTier = 'default' | 'advisory' | 'opt-in';

/** How finding values are written out: quoted, hashed (`sha256:` + 16 hex) or omitted. */
export type Redaction = 'quote' | 'hash' | 'omit';
