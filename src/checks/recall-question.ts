// Whether the user's message of this turn asks the assistant to recall what it said before
// ("which run id did you mention earlier?", "remind me", "say that again"): then an answer built
// only from earlier turns' results is what was asked for, not a stale one. Lexical and fenced: a
// question about the present ("is it still failing?", "what is the status now?") is never a recall
// question, even with "you mentioned" in it. Must never read anything but the one user message.
// Pure: no I/O, no clocks, no globals.

import { asksAboutPresent } from './present-question.js';

/** An auxiliary + "you" + a verb of saying: the question's own verb is the recall. */
const DID_YOU_SAY = /\b(?:did|do|could|can|would) you\s+(?:just\s+|already\s+)?(?:say|mention|tell|quote|give|list|write|name|recommend|suggest|share)\b/i;
/** Requests to repeat. */
const REPEAT = /\b(?:remind me|repeat (?:that|it|the|what)|say (?:that|it) again|one more time|what was (?:that|it|the [\w -]{1,40}) again)\b/i;

export function asksToRecall(userText: string | undefined): boolean {
  if (!userText) return false;
  const text = userText.length > 2000 ? userText.slice(-2000) : userText;
  // A question about the present wants current data, whatever else it says.
  if (asksAboutPresent(text)) return false;
  return DID_YOU_SAY.test(text) || REPEAT.test(text);
}
