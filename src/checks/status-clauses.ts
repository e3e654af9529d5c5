// Reads the state words of a final answer: "available", "sold out", "cancelled", "active", "paid",
// "unpaid", … each with its concept (availability, standing, payment), its polarity (negation read:
// "not available", "no longer active", "isn't paid"), and the stretch of answer it is said of: its
// clause, or — for a list introduced by a clause that ends with a colon ("Here are the available
// flights:") — each item of that list, with the item's own words as qualifiers ("Economy Price:
// $179"). Quantity talk ("not enough seats available", "only 2 left") states no state. English
// only, rules fixed and documented (docs/checks-answer.md). Pure: no I/O, no clocks, no globals;
// telemetry text is matched, never executed or trusted.

import { clausesOf } from './absence-clauses.js';

export type StateConcept = 'availability' | 'standing' | 'payment';

/** One state word the answer says of a stretch of text. */
export interface StateClaim {
  concept: StateConcept;
  /** true: the positive state (available, active, paid); false: its opposite. */
  positive: boolean;
  /** The state words as written ("sold out", "not available"). */
  said: string;
  /** The text the state is said of (a clause, or a list item). */
  text: string;
  /** The header clause when the state came from a list's introduction. */
  header?: string;
  /** Extra text the item sits under (a sub-heading), read for dates only. */
  context?: string;
}

interface StateWord {
  re: RegExp;
  concept: StateConcept;
  positive: boolean;
}

// Matched on text folded to lower case with straight quotes. Longer phrases first.
const STATE_WORDS: readonly StateWord[] = [
  { re: /\b(?:sold[\s-]out|out\s+of\s+stock|fully\s+booked|unavailable|no\s+longer\s+available)\b/, concept: 'availability', positive: false },
  { re: /\b(?:available|in\s+stock|bookable)\b/, concept: 'availability', positive: true },
  { re: /\b(?:cancell?ed|voided|inactive|deactivated|terminated|expired|suspended)\b/, concept: 'standing', positive: false },
  { re: /\b(?:active|(?<=\b(?:is|are|was|were|remains|still|now)\s+)confirmed)\b/, concept: 'standing', positive: true },
  { re: /\b(?:unpaid|outstanding|overdue|not\s+(?:yet\s+)?(?:been\s+)?paid)\b/, concept: 'payment', positive: false },
  { re: /\b(?:paid|settled)\b/, concept: 'payment', positive: true },
];

/** A negation within the few words before a state word flips it ("is not available", "isn't active"). */
const NEGATED = /\b(?:not|no\s+longer|never|isn't|aren't|wasn't|weren't|isnt|arent|hasn't|haven't|no)\s+(?:\w+\s+){0,2}$/;
/** Quantity and sufficiency talk, and what could or would be: no state is asserted. */
const NOT_A_STATE = /\b(?:enough|sufficient|insufficient|only\s+\d+|\d+\s+(?:left|remaining)|if|unless|whether|would|could|can|will|may|might|should|once|when|after|before|until|make\s+sure|check\s+(?:if|whether))\b/;
/** "paid with", "paid by", "paid using", "paid for": how something was paid, not whether. */
const PAID_HOW = /\bpaid\s+(?:with|by|using|via|for|through|in)\b/;

function fold(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc\u2032]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\*+|_{2,}|`/g, '').toLowerCase();
}

/** Any state word at all (a quick test before the clause-by-clause reading). */
const ANY_STATE = new RegExp(STATE_WORDS.map((w) => w.re.source).join('|'));
const GLOBAL_WORDS = STATE_WORDS.map((w) => ({ ...w, re: new RegExp(w.re.source, 'g') }));

/** The state words of one stretch of text, negation read; empty when it asserts no state. */
export function statesOf(text: string): { concept: StateConcept; positive: boolean; said: string }[] {
  const t = fold(text);
  if (!ANY_STATE.test(t) || /\?\s*$/.test(t) || NOT_A_STATE.test(t)) return [];
  const out: { concept: StateConcept; positive: boolean; said: string }[] = [];
  const taken: [number, number][] = [];
  for (const w of GLOBAL_WORDS) {
    const re = w.re;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(t)) !== null) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      taken.push([start, end]);
      if (w.concept === 'payment' && w.positive && PAID_HOW.test(t.slice(start))) continue;
      const neg = NEGATED.exec(t.slice(Math.max(0, start - 40), start));
      const positive = neg ? !w.positive : w.positive;
      out.push({ concept: w.concept, positive, said: (neg ? t.slice(start - (t.slice(Math.max(0, start - 40), start).length - neg.index), end) : m[0]).trim() });
    }
  }
  return out;
}

const ITEM_LINE = /^([ \t]*)(?:\d{1,3}[.)]|[-*•])[ \t]+/;
const HEADING_LINE = /^[ \t]*#{1,6}[ \t]/;

/** State claims of an answer: per clause, and per list item under a stating header that ends with a colon. */
export function stateClaims(answer: string): StateClaim[] {
  const out: StateClaim[] = [];
  if (!ANY_STATE.test(fold(answer))) return out;
  for (const c of clausesOf(answer)) {
    for (const s of statesOf(c.text)) out.push({ ...s, text: c.text });
  }
  // Lists under a header clause that states a state ("Here are the available flights:").
  const lines = answer.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (ITEM_LINE.test(line) || !/:\s*$/.test(fold(line).trim())) continue;
    const headerStates = statesOf(line.replace(/:\s*$/, ''));
    if (headerStates.length !== 1) continue;
    const state = headerStates[0]!;
    let item: string[] | undefined;
    let itemIndent = -1;
    let context: string | undefined;
    const flush = () => {
      // An item that says a state of its own ("Basic Economy: Sold Out") is read by its own clauses.
      if (item && item.length > 0 && !STATE_WORDS.some((w) => w.re.test(fold(item!.join(' '))))) out.push({ ...state, text: item.join('\n'), header: line.trim(), ...(context ? { context } : {}) });
      item = undefined;
    };
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.trim() === '') continue;
      if (HEADING_LINE.test(l) || (!ITEM_LINE.test(l) && /:\s*$/.test(l.trim()) && item === undefined)) {
        flush();
        context = l.trim();
        continue;
      }
      const marker = ITEM_LINE.exec(l);
      if (marker && (itemIndent < 0 || marker[1]!.length <= itemIndent)) {
        flush();
        itemIndent = marker[1]!.length;
        item = [l.trim()];
        continue;
      }
      if (item && (marker || /^[ \t]+/.test(l))) {
        item.push(l.trim());
        continue;
      }
      break;
    }
    flush();
  }
  return out;
}
