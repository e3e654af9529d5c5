// Which parts of a text offer values as examples rather than state them, the one place that says
// what an example is. Two readings: a tool description's example clauses ("e.g.", "for example",
// "such as", "examples:"), whose values the app did not serve as data (withoutExamples); and an
// answer's examples (exampleSpans), where "such as" is left out: in an answer it names real members
// ("meetings such as the 10:00 stand-up"). For the answer (issue 35: a reading that
// is unknown may suppress a finding, never raise one): "For example, if it is currently 11:30 AM,
// you have 1 hour left": 11:30 AM is an illustration the writer chose, not a fact it took from
// somewhere, so whether the text asserts it is unknown. A span opens at an example marker ("for
// example", "for instance", "e.g.", "let's say", "suppose", "imagine", "hypothetically", "as an
// example") and runs to the end of its sentence, or to the closing parenthesis when the marker
// opens a parenthesis. A plain condition ("If you cancel ABC123, …") is not an example: it
// presupposes its values, and stays asserted. Never widens what a check accuses: callers use the
// spans only to withhold. Pure: no I/O, no clocks.

import { everyOccurrence } from './occurrences.js';

/** A description's example clause: from its marker to the end of its sentence, parenthesis or line. */
const EXAMPLE_CLAUSE = /(?:\be\.g\.?|\beg[.,:]|\bfor example\b|\bfor instance\b|\bsuch as\b|\bexamples?\s*:)(?:[^;)\n.]|\.(?!\s|$))*/gi;

/** A tool description with its example values blanked: an example is not a value the run served. */
export function withoutExamples(text: string): string {
  return text.replace(EXAMPLE_CLAUSE, ' ');
}

/** The example values a description offers (the clauses `withoutExamples` blanks). */
export function exampleClauses(text: string): string[] {
  return [...text.matchAll(EXAMPLE_CLAUSE)].map((m) => m[0]);
}

/** Where an answer offers values as examples: [start, end) offsets into the text. */
export interface ExampleSpan {
  start: number;
  end: number;
}

const MARKER = /\b(?:(?:for\s+example|for\s+instance|let'?s\s+say|let\s+us\s+say|suppose|supposing|imagine|hypothetically|as\s+an\s+example|an\s+example\s+would\s+be)\b|e\.\s?g\.|eg,)/gi;

/** The end of the sentence that holds `from`: the next `.`, `!` or `?` before white space or the end, or a line break. */
function sentenceEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') return i;
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === text.length || /\s/.test(text[i + 1]!))) {
      // An abbreviation's dot ("a.m.", "e.g.", "p.m.", "approx.") ends no sentence.
      if (c === '.' && /(?:\b[a-z]\.[a-z]|\b(?:approx|etc|vs|no|st|dr|mr|mrs|ms))$/i.test(text.slice(Math.max(0, i - 6), i))) continue;
      return i + 1;
    }
  }
  return text.length;
}

/** The parts of `text` that offer values as examples, at most `max` of them. */
export function exampleSpans(text: string, max = 64): ExampleSpan[] {
  const out: ExampleSpan[] = [];
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(text); m !== null && out.length < max; m = MARKER.exec(text)) {
    const start = m.index;
    const open = /\(\s*$/.test(text.slice(Math.max(0, start - 4), start));
    const close = open ? text.indexOf(')', start) : -1;
    const end = close >= 0 ? close + 1 : sentenceEnd(text, start + m[0].length);
    out.push({ start, end });
    MARKER.lastIndex = Math.max(MARKER.lastIndex, end);
  }
  return out;
}

/** Whether every occurrence of `raw` in `text` lies inside an example span (false when it occurs nowhere). */
export function onlyInExamples(text: string, raw: string, spans: readonly ExampleSpan[]): boolean {
  return spans.length > 0 && everyOccurrence(text, raw, (i) => spans.some((s) => i >= s.start && i + raw.length <= s.end));
}
