// Reads the clauses of a final answer that state how many items of something there are ("I found
// three reservations", "there are 11 options", "you have 2 saved passengers"): the number, the noun
// it counts (folded), the words between them, and whether the clause narrows the count to a kind
// ("two upcoming reservations in business class") or states the whole ("three reservations under
// your profile"). A number that is a limit ("up to three", "at most 5"), a part of something ("one
// of these"), money, a time or a rank is no count; questions, conditionals and what could, would or
// will be assert no count. English only, rules fixed and documented (docs/checks-answer.md). Pure:
// no I/O, no clocks, no globals; telemetry text is matched, never executed or trusted.

import { clausesOf, foldWord } from './absence-clauses.js';
import { mentionsAction } from './action-clauses.js';
import { known, unknown, type Known } from '../model/known.js';

export interface CountClause {
  /** The clause as written (trimmed). */
  clause: string;
  /** The count as written ("three", "11"). */
  said: string;
  /** The count and its noun phrase as written ("two upcoming reservations"). */
  phrase: string;
  n: number;
  /** The counted noun, folded ("reservations" -> reservation). */
  noun: string;
  /** Words between the number and the noun, folded ("upcoming", "saved"). */
  modifiers: string[];
  /** The words after the noun up to the clause's end or a colon, lower case. */
  tail: string;
  /** The count is narrowed to a kind (a modifier or a qualifying tail), not the whole of what was served. */
  narrowed: boolean;
  /**
   * Whether the clause counts what the run served, known only when the words before the count
   * name no subject of their own ("You have", "I found", "There are", a list item): after a label
   * ("Charlie - 2 messages", "general: 3 messages"), a demonstrative ("between those two
   * events") or an action ("I sent 3 messages") what it counts is the model's own selection, unknown.
   */
  counts: Known<'served'>;
  /** An action stands before the count ("I sent 3 messages"): it may count what was done, never served. */
  ofActions: boolean;
  /** 1-based sentence of the answer. */
  sentence: number;
}

const WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13,
  fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50,
};

/** Words that may stand between a count and its noun without narrowing it. */
const NEUTRAL_MODIFIERS: ReadonlySet<string> = new Set(['total', 'separate', 'different', 'distinct', 'individual', 'unique', 'such', 'more', 'other', 'listed', 'existing', 'registered', 'recorded', 'found', 'matching', 'result', 'your', 'the', 'these', 'those', 'in']);

/** Tails that say where the items are, not which of them ("under your profile", "in total"). */
const NEUTRAL_TAIL = /^(?:(?:in\s+(?:total|all)|altogether|overall|on\s+(?:file|record)|(?:under|in|on|for|with|to|linked\s+to|associated\s+with|attached\s+to|saved\s+(?:in|to|on))\s+(?:your|the|this|their|his|her|my)\s+(?:\w+\s+){0,2}?(?:profile|account|name|user\s*id|record|file|id)|(?:listed|found|registered|saved|stored|recorded)(?:\s+(?:here|there|below|above))?|(?:here|there|below|above)|(?:that|which)\s+(?:i|we)\s+(?:found|see|have\s+found))\s*)*$/;

/**
 * Words before a count that name no subject of their own: the count is of what the run served
 * ("You currently have", "I found", "There are", "Here are the", a list marker). Anything else
 * before it (a label, a name, a demonstrative, a place) may select what it counts.
 */
const NEUTRAL_LEAD = new RegExp(
  String.raw`^(?:[-*•]\s*|\d{1,2}[.)]\s*)?` +
    String.raw`(?:(?:so|ok|okay|great|good\s+news|yes|well|and|also|currently|right\s+now|at\s+the\s+moment|overall|in\s+total|altogether|all\s+in\s+all|today)[,:]?\s+)*` +
    String.raw`(?:(?:i|we)(?:'ve|\s+have)?\s+(?:(?:also|now|just)\s+)?(?:found|see|have|got|located|retrieved|counted|identified)` +
    String.raw`|(?:i|we)\s+(?:was|were)\s+able\s+to\s+find` +
    String.raw`|(?:you|your\s+[a-z]+|it|this|that|the\s+(?:search|query|result|lookup|list|tool|system|account|profile|catalog|inventory))(?:'ve|'s|\s+have|\s+has|\s+had)?(?:\s+(?:currently|now|also|got|found|returned|shows?|lists?|contains?|includes?|holds?))*` +
    String.raw`|there(?:'s|\s+(?:are|is|were|was))(?:\s+(?:currently|now|also))?|here\s+(?:are|is)|found|showing|listing)?` +
    String.raw`\s*(?:(?:a\s+total\s+of|exactly|only|just|all|the|your)\s+)*$`,
);

/** A count is a limit, a part, or no count at all, when these words come right before it. */
const NOT_A_COUNT_BEFORE = /(?:\bup\s+to|\bat\s+(?:most|least)|\bmaximum\s+of|\bminimum\s+of|\bmax(?:imum)?|\bmin(?:imum)?|\bmore\s+than|\bless\s+than|\bfewer\s+than|\bover|\bunder|\babout|\baround|\bapproximately|\bnearly|\balmost|\bexactly\s+\w+\s+of|\bno\s+more\s+than|\blimit\s+of|\bone\s+of|[$€£¥#№]|\bno\.|\boption|\bnumber|\bstep|\bpage|\btop|\bfirst|\blast|\bnext|\bprevious|\bper|\bevery|\beach)\s*$/i;

/** Clauses that suppose, ask, plan or allow assert no count. */
const NOT_ASSERTED = /\b(?:if|unless|whether|in\s+case|would|could|can|will|shall|may|might|should|must|need|needs|allowed|allow|allows|permitted|eligible|entitled|want|wants|like|prefer|please|let's|let\s+me)\b/i;

const NUMBER = String.raw`(\d{1,4}|${Object.keys(WORDS).join('|')}|a\s+single)`;
// The count and the (up to four) words after it; the noun phrase ends at the first stop word.
const COUNT = new RegExp(String.raw`(?<![\w$€£¥#.,:/-])${NUMBER}(?![\d.,:/%])((?:[ \t]+[A-Za-z][\w'-]*){1,4})`, 'gi');

/** Words that end a noun phrase: prepositions, verbs, conjunctions, determiners, pronouns. */
const PHRASE_STOPS: ReadonlySet<string> = new Set(
  ('in on at for from to of by with under over into onto about after before between during within without via per each every than as ' +
    'and or but nor so yet that which who whom whose where when while is are was were be been being am has have had do does did ' +
    'can could will would shall should may might must the a an this these those there here it its they them their your my our his her ' +
    'you i we he she me us him not no only also still just all both either neither available left remaining').split(' '),
);

/** Words never counted as items (units of time and measure, money, people in general). */
const NOT_ITEMS: ReadonlySet<string> = new Set([
  'hour', 'minute', 'second', 'day', 'week', 'month', 'year', 'night', 'am', 'pm', 'time', 'times', 'percent', 'dollar', 'euro', 'cent', 'usd', 'eur',
  'mile', 'km', 'kg', 'lb', 'pound', 'ounce', 'inch', 'meter', 'foot', 'feet', 'gb', 'mb', 'kb', 'tb', 'ms', 'step', 'way', 'thing', 'people', 'person',
  'of', 'and', 'or', 'to', 'in', 'on', 'at', 'for', 'by', 'with', 'from', 'is', 'are', 'was', 'were', 'more', 'less', 'other', 'per', 'each', 'times',
]);

function numberOf(said: string): number | undefined {
  const s = said.toLowerCase().replace(/\s+/g, ' ');
  if (s === 'a single') return 1;
  if (/^\d+$/.test(s)) return Number(s);
  return WORDS[s];
}

function fold(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc\u2032]/g, "'").replace(/\*+|_{2,}|`/g, '').toLowerCase();
}

/** The count clauses of an answer. */
export function countClauses(answer: string): CountClause[] {
  const out: CountClause[] = [];
  // Most answers state no count: one pass over the whole text before reading clauses.
  COUNT.lastIndex = 0;
  if (!COUNT.test(fold(answer))) return out;
  for (const c of clausesOf(answer)) {
    const text = fold(c.text);
    if (/\?\s*$/.test(text)) continue;
    COUNT.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = COUNT.exec(text)) !== null) {
      const n = numberOf(m[1]!);
      if (n === undefined || n === 0) continue;
      const before = text.slice(0, m.index);
      if (NOT_A_COUNT_BEFORE.test(before)) continue;
      if (NOT_ASSERTED.test(before)) continue;
      // The noun phrase: the words up to the first stop word (or one holding a digit); its last word is the noun.
      const words = m[2]!.trim().split(/\s+/);
      const phrase: string[] = [];
      for (const w of words) {
        if (PHRASE_STOPS.has(w) || /\d/.test(w)) break;
        phrase.push(w);
      }
      if (phrase.length === 0) continue;
      // The noun: for a count above one, the first plural word ("2 devices registered to you");
      // for one, the last word before a participle ("one checked bag added").
      const isPlural = (w: string) => foldWord(w.replace(/'$/, '')) !== w.replace(/'$/, '') || w === 'people' || w === 'children';
      let at = n === 1 ? phrase.findIndex((w, i) => i > 0 && /(?:ed|ing)$/.test(w)) - 1 : phrase.findIndex(isPlural);
      if (n === 1 && at < 0) at = phrase.length - 1;
      if (at < 0) continue;
      phrase.length = at + 1;
      const rawNoun = phrase[at]!.replace(/'$/, '');
      const noun = foldWord(rawNoun);
      if (noun.length < 3 || NOT_ITEMS.has(noun) || NOT_ITEMS.has(rawNoun)) continue;
      if (n === 1 && isPlural(rawNoun)) continue;
      const modifiers = phrase.slice(0, -1).map((w) => foldWord(w));
      if (modifiers.some((w) => NOT_ITEMS.has(w))) continue;
      const consumed = m[1]!.length + m[2]!.length - m[2]!.trimStart().length + phrase.join(' ').length;
      const after = text.slice(m.index + consumed);
      COUNT.lastIndex = m.index + consumed;
      // "3 bags per passenger", "2 flights a day": a rate, not a count of served items.
      if (/^\s*(?:per|each|a\s+(?:day|week|month|year|night)|every)\b/.test(after)) continue;
      const tail = (after.split(/[:;.!?(,]|\s(?:and|or|but)\s/)[0] ?? '').replace(/^[\s,]+|[\s,]+$/g, '');
      const narrowedByModifier = modifiers.some((w) => !NEUTRAL_MODIFIERS.has(w));
      const narrowedByTail = tail !== '' && !NEUTRAL_TAIL.test(tail);
      const ofActions = mentionsAction(before);
      const counts: Known<'served'> = ofActions
        ? unknown('it may count what was done')
        : NEUTRAL_LEAD.test(before.trim())
          ? known('served', before.trim() === '' ? 'the clause opens with the count' : `"${before.trim()}" names no subject of its own`)
          : unknown(`"${before.trim()}" before the count may select what it counts`);
      out.push({ clause: c.text, said: m[1]!, phrase: c.text.slice(m.index, m.index + consumed).replace(/\*+|_{2,}|`/g, ''), n, noun, modifiers, tail, narrowed: narrowedByModifier || narrowedByTail, counts, ofActions, sentence: c.sentence });
    }
  }
  return out;
}

/** Whether `text` (user or system words) states the same count of the same noun ("three passengers"). */
export function statesCount(text: string, n: number, noun: string): boolean {
  const t = fold(text);
  COUNT.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = COUNT.exec(t)) !== null) {
    if (numberOf(m[1]!) !== n) continue;
    const words = m[2]!.trim().split(/\s+/).slice(0, 4).map((w) => foldWord(w));
    if (words.includes(noun)) return true;
  }
  return false;
}
