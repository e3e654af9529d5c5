// The registered checks: every check the core runs, with its seam and whether it reads message
// content. The disposition lists every one of them, armed or not, so "no findings" never reads as
// "all checked". Data only.

import type { RegisteredCheck } from '../model/finding.js';

export type { RegisteredCheck } from '../model/finding.js';

export const CHECK_CATALOG: readonly RegisteredCheck[] = [
  { id: 'dangling-reference', seam: 'offer', readsContent: true, inferable: true },
  { id: 'unsupported-argument', seam: 'choice', readsContent: true, inferable: true },
  { id: 'empty-lookup', seam: 'write', readsContent: true, inferable: true },
  { id: 'result-columns', seam: 'write', readsContent: true, kinds: ['missing-column', 'column-type-mismatch'] },
  { id: 'unsupported-value', seam: 'answer', readsContent: true, inferable: true },
  { id: 'prior-turn-evidence', seam: 'answer', readsContent: true, inferable: true },
  { id: 'unsupported-claim', seam: 'answer', readsContent: true },
  { id: 'refusal-asserts-absence', seam: 'answer', readsContent: true, inferable: true },
];

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
