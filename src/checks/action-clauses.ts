// Reads the clauses of a final answer that assert an action was done: "your reservation has been
// cancelled", "I've booked the 9:05 flight", "the refund was successfully processed", "you are now
// booked on HAT041", "one checked bag has been added". Each gives the action's verb stem (cancel,
// book, add, …) and the clause's content words (what it was done to). What would, will, could or
// should be done, what was not done ("hasn't been cancelled", "I couldn't book"), what someone else
// did ("cancelled by the airline"), questions and conditionals ("once they have been added") assert
// no action. English only, rules fixed and documented (docs/checks-answer.md). Pure: no I/O, no
// clocks, no globals; telemetry text is matched, never executed or trusted.

import { clausesOf, contentWords } from './absence-clauses.js';

export interface ActionClause {
  clause: string;
  /** The action words as written ("has been successfully cancelled"). */
  said: string;
  /** The action's verb stem: cancel, book, add, update, send, … */
  verb: string;
  /** The clause's content words, folded, without the action words. */
  words: string[];
  sentence: number;
}

/** Past forms of action verbs, by stem. */
const PAST: Readonly<Record<string, string>> = {
  cancelled: 'cancel', canceled: 'cancel', voided: 'void', booked: 'book', rebooked: 'book', reserved: 'reserve', purchased: 'purchase',
  refunded: 'refund', updated: 'update', changed: 'change', modified: 'modify', edited: 'edit', upgraded: 'upgrade', downgraded: 'downgrade',
  added: 'add', removed: 'remove', deleted: 'delete', sent: 'send', emailed: 'send', issued: 'issue', credited: 'credit', transferred: 'transfer',
  escalated: 'escalate', created: 'create', submitted: 'submit', scheduled: 'schedule', rescheduled: 'schedule', paid: 'pay', charged: 'charge',
  processed: 'process', applied: 'apply', placed: 'place', filed: 'file', assigned: 'assign', approved: 'approve', rejected: 'reject',
  reset: 'reset', renamed: 'rename', replaced: 'replace', uploaded: 'upload', registered: 'register', enrolled: 'register', activated: 'activate',
  deactivated: 'deactivate', posted: 'post', completed: 'complete', restored: 'restore', archived: 'archive', unsubscribed: 'unsubscribe',
  subscribed: 'subscribe', finalized: 'complete', finalised: 'complete', waived: 'waive',
};

const VERB = `(${Object.keys(PAST).join('|')})`;
const ADVERBS = String.raw`(?:(?:now|also|just|already|successfully|fully|all|both|each|then|finally|officially|properly|correctly)\s+)*`;

/** Ways an action is said done: passive perfect, passive with now/successfully, first person, "successfully …". */
const DONE: readonly RegExp[] = [
  new RegExp(String.raw`\b(?:has|have|had|'s|'ve)\s+${ADVERBS}been\s+${ADVERBS}${VERB}\b`, 'g'),
  new RegExp(String.raw`\b(?:is|are|was|were|'s|'re)\s+(?:now\s+${ADVERBS}|${ADVERBS}successfully\s+${ADVERBS})${VERB}\b`, 'g'),
  new RegExp(String.raw`\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+${ADVERBS}(?:gone\s+ahead\s+and\s+|went\s+ahead\s+and\s+)?${ADVERBS}${VERB}\b`, 'g'),
  new RegExp(String.raw`\bsuccessfully\s+${VERB}\b|\b${VERB}\s+successfully\b`, 'g'),
];

/** Any past form of an action verb (a quick test before the clause-by-clause reading). */
const ANY_DONE = new RegExp(String.raw`\b${VERB}\b`);

/** Whether a text holds a past form of an action verb ("I sent", "were added"): what it counts or states may be what was done. */
export function mentionsAction(text: string): boolean {
  return ANY_DONE.test(fold(text));
}

/** Before the action words: what is supposed, planned, allowed or asked, not done. */
const NOT_DONE_BEFORE = /\b(?:if|unless|whether|once|when|whenever|after|before|until|in\s+case|will|would|could|can|cannot|can't|may|might|should|must|shall|need\s+to|needs\s+to|going\s+to|about\s+to|want\s+to|like\s+to|able\s+to|unable|try|trying|tried|attempt(?:ed|ing)?|let\s+me|please|ready\s+to|to\s+be)\b/;
/** Negation at or just before the action words. */
const NEGATED = /\b(?:not|never|no|n't|hasn't|haven't|hadn't|wasn't|weren't|isn't|aren't|didn't|couldn't|failed\s+to|yet\s+to)\b[^.]*$/;
/** Done by someone else: "cancelled by the airline". */
const BY_OTHER = /^\s+(?:\w+\s+){0,2}by\s+(?:the\s+|your\s+|their\s+|an?\s+)?(?!me\b|us\b|our\b|myself\b)\w+/;

function fold(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc\u2032]/g, "'").replace(/\*+|_{2,}|`/g, '').toLowerCase();
}

/** Where a later action of the same clause starts its own part: after ", and", " and", "; " or ", " before it. */
const PART_BOUNDARY = /(?:,\s*(?:and|also|plus|then)\s+|\s+(?:and|also|plus)\s+|;\s*|,\s+)/g;

/** The action clauses of an answer: one per action said, a clause with two actions ("X was changed, and Y has been added") giving two. */
export function actionClauses(answer: string): ActionClause[] {
  const out: ActionClause[] = [];
  // Most answers say no action at all: one pass over the whole text before reading clauses.
  if (!ANY_DONE.test(fold(answer))) return out;
  for (const c of clausesOf(answer)) {
    const text = fold(c.text);
    if (/\?\s*$/.test(text)) continue;
    const found: { index: number; end: number; said: string; verb: string }[] = [];
    for (const re of DONE) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) {
        const past = m.slice(1).find((g) => g !== undefined);
        if (past === undefined) continue;
        const before = text.slice(0, m.index);
        if (NOT_DONE_BEFORE.test(before) || NEGATED.test(text.slice(Math.max(0, m.index - 30), m.index + m[0].length))) continue;
        if (BY_OTHER.test(text.slice(m.index + m[0].length))) continue;
        const end = m.index + m[0].length;
        if (found.some((f) => m!.index < f.end && end > f.index)) continue;
        found.push({ index: m.index, end, said: c.text.slice(m.index, end), verb: PAST[past]! });
      }
    }
    found.sort((a, b) => a.index - b.index);
    // Each action owns the words from the boundary before it to the boundary before the next one.
    const parts = found.map((f, k) => {
      if (k === 0) return { from: 0, cut: 0 };
      let at: { from: number; cut: number } | undefined;
      PART_BOUNDARY.lastIndex = found[k - 1]!.end;
      let b: RegExpExecArray | null;
      while ((b = PART_BOUNDARY.exec(text)) !== null && b.index < f.index) at = { from: b.index + b[0].length, cut: b.index };
      return at;
    });
    found.forEach((f, k) => {
      const here = parts[k];
      if (!here) return;
      const next = parts.slice(k + 1).find((p) => p !== undefined);
      const part = c.text.slice(here.from, next ? next.cut : c.text.length);
      const actionWords = new Set(contentWords(f.said));
      out.push({ clause: part.trim(), said: f.said, verb: f.verb, words: contentWords(part).filter((w) => !actionWords.has(w)), sentence: c.sentence });
    });
  }
  return out;
}
