// Amounts written in words ("two thousand five hundred eighty", "zwölftausendvierhundertachtzig",
// "douze mille quatre cent quatre-vingts"), compared in n2words' direction: a run of number words
// holding a scale word (thousand, million …) is found in the text with each language's vocabulary
// learned from n2words itself (the words it writes for 0–99, the hundreds and the scales; for
// German, Italian and Dutch, which write an amount as one word, the scale's stem it writes), and
// it is grounded when n2words renders some served number as the same words (American and British
// English, with "and" or hundred-pairing: "twenty-five hundred"; German, French, Spanish, Italian,
// Portuguese, Dutch). A run no served number renders to is an amount nothing served. Pure: no I/O.

import { toCardinal as enUS } from 'n2words/en-US';
import { toCardinal as enGB } from 'n2words/en-GB';
import { toCardinal as deDE } from 'n2words/de-DE';
import { toCardinal as frFR } from 'n2words/fr-FR';
import { toCardinal as esES } from 'n2words/es-ES';
import { toCardinal as itIT } from 'n2words/it-IT';
import { toCardinal as ptPT } from 'n2words/pt-PT';
import { toCardinal as nlNL } from 'n2words/nl-NL';

type Render = (n: number) => string[];

interface Language {
  name: string;
  /** Every way the language's writers may put a number in words (normalised). */
  render: Render;
  /** Words n2words writes in numbers (normalised, hyphenated parts apart). */
  vocabulary: Set<string>;
  /** Scale words (`thousand`, `mille`, `mil`) or, for one-word languages, scale stems (`tausend`). */
  scales: string[];
  /** The language writes an amount as one word (German, Italian, Dutch). */
  compound: boolean;
  /** The vocabulary, longest first (to split a one-word amount). */
  parts: string[];
}

/** Lower case, NFKC, hyphens as blanks, one blank between words. */
export function normaliseWords(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/[-‐‑]/g, ' ').replace(/\s+/g, ' ').trim();
}

const safe = (f: (n: number) => string) => (n: number) => {
  try {
    return [normaliseWords(f(n))];
  } catch {
    return [];
  }
};

function language(name: string, render: Render): Language {
  const vocabulary = new Set<string>();
  const samples = [...Array.from({ length: 1000 }, (_, i) => i), 1000, 2000, 21000, 1e6, 2e6, 1e9, 2e9];
  for (const n of samples) for (const r of render(n)) for (const w of r.split(' ')) vocabulary.add(w);
  const two = render(2000)[0] ?? '';
  const three = render(3000)[0] ?? '';
  const twoM = render(2e6)[0] ?? '';
  const threeM = render(3e6)[0] ?? '';
  const common = (a: string, b: string) => a.split(' ').filter((w) => b.split(' ').includes(w));
  const suffix = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
    return a.slice(a.length - i);
  };
  const compound = !two.includes(' ');
  // The stem all multiples of a thousand end with (`tausend`, `mila`, `duizend`).
  const stem = [5000, 8000, 9000].reduce((acc, n) => suffix(acc, render(n)[0] ?? ''), suffix(two, three));
  const scales = compound ? [stem, ...common(twoM, threeM)] : [...common(two, three), ...common(twoM, threeM)];
  const kept = [...new Set(scales.filter((x) => x.length >= 3))];
  for (const x of kept) vocabulary.add(x);
  return { name, render, vocabulary, scales: kept, compound, parts: [...vocabulary].filter((v) => v.length >= 2).sort((a, b) => b.length - a.length) };
}

const LANGUAGES: readonly Language[] = Object.freeze([
  language('en', (n) => [...safe(enUS)(n), ...safe((x) => enUS(x, { and: true }))(n), ...safe((x) => enUS(x, { hundredPairing: true }))(n), ...safe(enGB)(n)]),
  language('de', safe(deDE)),
  language('fr', safe(frFR)),
  language('es', safe(esES)),
  language('it', safe(itIT)),
  language('pt', safe(ptPT)),
  language('nl', safe(nlNL)),
]);

/** An amount in words found in a text. */
export interface WordAmount {
  raw: string;
  start: number;
  end: number;
  /** The language whose words it is in, and the words normalised. */
  language: string;
  words: string;
}

const WORD = /\p{L}+(?:-\p{L}+)*/gu;

/** The amounts in words of an NFKC text, at most `max`: runs of one language's number words holding a scale word and a multiplier. */
export function readWordAmounts(text: string, max: number): WordAmount[] {
  const out: WordAmount[] = [];
  const words = [...text.matchAll(WORD)].map((m) => ({ w: m[0], lower: normaliseWords(m[0]), start: m.index, end: m.index + m[0].length }));
  if (words.length === 0) return out;
  const inVocab = (l: Language, lower: string) => lower.split(' ').every((p) => l.vocabulary.has(p));
  for (const l of LANGUAGES) {
    for (let i = 0; i < words.length && out.length < max; i++) {
      const w = words[i]!;
      const isScale = l.compound ? l.scales.some((s) => w.lower.includes(s)) && inVocabCompound(l, w.lower) : l.scales.includes(w.lower) && l.vocabulary.has(w.lower);
      if (!isScale) continue;
      if (out.some((o) => w.start < o.end && w.end > o.start)) continue;
      let a = i;
      let b = i;
      // Neighbours join only across a single blank (or a hyphen inside a word).
      const gapOk = (x: { end: number }, y: { start: number }) => /^ $/.test(text.slice(x.end, y.start));
      while (a > 0 && gapOk(words[a - 1]!, words[a]!) && inVocab(l, words[a - 1]!.lower)) a--;
      while (b + 1 < words.length && gapOk(words[b]!, words[b + 1]!) && inVocab(l, words[b + 1]!.lower)) b++;
      // A scale alone ("thousands of", "a thousand thanks", "tausend") is no amount.
      const run = words.slice(a, b + 1);
      const multiplied = l.compound ? !l.scales.includes(w.lower) || run.length > 1 : run.length > 1 && !(run.length === 2 && /^(?:a|an|un|une|uno|una|um|uma|een)$/.test(run[0]!.lower));
      if (!multiplied) continue;
      const start = run[0]!.start;
      const end = run[run.length - 1]!.end;
      out.push({ raw: text.slice(start, end), start, end, language: l.name, words: normaliseWords(text.slice(start, end)) });
      i = b;
    }
  }
  return out.sort((x, y) => x.start - y.start);
}

/** A one-word amount made only of the language's number words (`zweitausendfünfhundertachtzig`), split longest part first. */
function inVocabCompound(l: Language, word: string): boolean {
  if (word.includes(' ') || word.length > 80) return false;
  const memo = new Map<number, boolean>();
  const from = (i: number): boolean => {
    if (i === word.length) return true;
    const hit = memo.get(i);
    if (hit !== undefined) return hit;
    memo.set(i, false);
    const ok = l.parts.some((p) => word.startsWith(p, i) && from(i + p.length));
    memo.set(i, ok);
    return ok;
  };
  return from(0);
}

/**
 * Whether n2words renders `n` as these words in this language; a served amount with cents is
 * written by its whole units (`12345.5`: "twelve thousand three hundred forty-five euros and fifty
 * cents" — the cents are no amount of thousands).
 */
export function rendersAs(amount: WordAmount, served: number): boolean {
  const n = Math.trunc(served);
  if (n < 1000 || n >= 1e15) return false;
  const l = LANGUAGES.find((x) => x.name === amount.language);
  return l !== undefined && l.render(n).some((r) => r === amount.words);
}
