// The registered checks: every check the core runs, with its seam and whether it reads message
// content. The disposition lists every one of them, armed or not, so "no findings" never reads as
// "all checked". Data only.

import type { RegisteredCheck } from '../model/finding.js';

export type { RegisteredCheck } from '../model/finding.js';

/** The bar a check's default tier is earned against (docs/checks.md#tiers). */
export const TIER_BAR = 'at most 1 non-advisory finding per 100 healthy runs on every real set held (tau-airline and AgentDojo dev, both trace forms), each one read';

const MEETS = `meets the bar: ${TIER_BAR}`;

export const CHECK_CATALOG: readonly RegisteredCheck[] = [
  { id: 'dangling-reference', seam: 'offer', readsContent: true, inferable: true, tier: 'default', tierWhy: MEETS },
  { id: 'unsupported-argument', seam: 'choice', readsContent: true, inferable: true, tier: 'default', tierWhy: `${MEETS}; its 2 on tau-airline are one real invented payment id` },
  { id: 'argument-schema', seam: 'choice', readsContent: true, inferable: true, tier: 'default', tierWhy: 'its findings on healthy runs are real: each a call its own schema forbids, which the tool refused (7 on AgentDojo dev, 0 on tau-airline)' },
  { id: 'repeated-call', seam: 'choice', readsContent: true, inferable: true, tier: 'advisory', tierWhy: 'a repeated call is a place to look, not a verdict (healthy agents repeat reads)' },
  { id: 'empty-lookup', seam: 'write', readsContent: true, inferable: true, tier: 'advisory', tierWhy: 'an empty result for a served value is a place to look, not a verdict' },
  { id: 'result-columns', seam: 'write', readsContent: true, kinds: ['missing-column', 'column-type-mismatch'], tier: 'default', tierWhy: 'armed only by declared resultColumns: what the author declared is the evidence' },
  { id: 'unsupported-value', seam: 'answer', readsContent: true, inferable: true, tier: 'default', tierWhy: MEETS },
  { id: 'prior-turn-evidence', seam: 'answer', readsContent: true, inferable: true, tier: 'advisory', tierWhy: 'an earlier turn\'s result restated is a place to look, not a verdict' },
  { id: 'unsupported-claim', seam: 'answer', readsContent: true, tier: 'default', tierWhy: 'armed only by declared claims: what the author declared is the evidence' },
  { id: 'refusal-asserts-absence', seam: 'answer', readsContent: true, inferable: true, tier: 'default', tierWhy: MEETS },
  { id: 'count-mismatch', seam: 'answer', readsContent: true, inferable: true, tier: 'default', tierWhy: MEETS },
  { id: 'status-contradiction', seam: 'answer', readsContent: true, inferable: true, tier: 'default', tierWhy: MEETS },
  { id: 'unconfirmed-action', seam: 'answer', readsContent: true, inferable: true, tier: 'default', tierWhy: MEETS },
];

/** The registered check of this id, if any. */
export function registeredCheck(id: string): RegisteredCheck | undefined {
  return CHECK_CATALOG.find((c) => c.id === id);
}

/** The reason every content-reading check gives when the instrumentation recorded no messages. */
export const CONTENT_NOT_CAPTURED = 'message content was not captured';

/** The reason a write-seam check gives when the tool's result was not recorded. */
export const RESULT_NOT_CAPTURED = 'the tool result was not captured';

/** The registered check that files findings of this kind. */
export function checkOfKind(kind: string): string {
  return CHECK_CATALOG.find((c) => c.kinds?.includes(kind))?.id ?? kind;
}

/** The reason request-reading checks give for a turn whose trace holds no LLM request span at all. */
export const NO_LLM_SPANS =
  'the turn has no LLM request span: the LLM instrumentation recorded nothing (not registered, or an unsupported client version such as openai@7)';

/** The reason a check that reads conversation history gives when that history was cut at a bound. */
export const STATE_INCOMPLETE =
  "the conversation's state was cut at its bound (maxCallsPerConversation / maxBytesPerConversation): earlier results may be missing";
