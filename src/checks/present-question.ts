// Whether the user's message of this turn asks about the present state of something ("has it
// finished by now?", "is it still protected?", "any change since?", "ist mein Gehalt jetzt
// eingegangen?"): then an answer built only from an earlier turn's results may be stale. A
// confirmation ("yes, please proceed"), an order ("cancel it now"), a request to reconsider
// ("could you double-check that?": on real traffic it asks to look at what was read, not to read
// again) or a question about meaning is none of these. Lexical, in the languages the absence reader knows;
// discourse uses of "now" ("for now", "now, I'd also like …") do not count. Must never read
// anything but the one user message. Pure: no I/O, no clocks, no globals.

/** Words and phrases that ask about the present, by language. */
const PRESENT_WORDS: readonly string[] = [
  // en
  'now', 'still', 'yet', 'currently', 'latest', 'anymore', 'any more', 'any longer', 'at the moment', 'at this point',
  'up to date', 'up-to-date', 'changed', 'any change', 'any changes', 'since then', 'so far',
  // de
  'jetzt', 'inzwischen', 'mittlerweile', 'aktuell', 'derzeit', 'momentan', 'immer noch', 'noch immer', 'geändert', 'schon angekommen', 'schon eingegangen',
  // fr
  'maintenant', 'actuellement', 'désormais', 'toujours pas', 'à jour', 'changé', 'encore en',
  // es
  'ahora', 'todavía', 'actualmente', 'cambiado', 'aún',
  // pt
  'agora', 'ainda', 'atualmente', 'mudou',
  // it
  'adesso', 'attualmente', 'ancora', 'cambiato',
  // nl
  'inmiddels', 'momenteel', 'nog steeds', 'veranderd',
];

/**
 * The message asks for information (a question mark of any script, or a request to be told): a
 * present-state word in an order ("cancel it now, please") asks about nothing.
 */
const ASKS = /[?？¿]|\b(?:tell me|let me know|show me|give me|i (?:want|need|would like) to know|check (?:whether|if)|sag mir|dites-moi|dime|diga-me|dimmi|vertel me)\b/iu;

/** Discourse "now": `for now`, `just now` (a moment ago), a sentence opening with `Now,` / `Now I …`. */
const DISCOURSE_NOW = /\b(?:for now|just now|until now|up (?:to|until) now)\b|(?:^|[.!?]\s+)now\b[,\s]/giu;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whole words only; letters of any script count as word characters. */
const PRESENT = new RegExp(`(?<![\\p{L}\\p{N}])(?:${PRESENT_WORDS.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'iu');

/** The words by which the message asks about the present, or undefined when it does not. */
export function presentQuestionWords(userText: string | undefined): string | undefined {
  if (!userText) return undefined;
  const text = (userText.length > 2000 ? userText.slice(-2000) : userText).replace(DISCOURSE_NOW, ' ');
  if (!ASKS.test(text)) return undefined;
  return PRESENT.exec(text)?.[0];
}

/** Whether the message asks about the present. */
export function asksAboutPresent(userText: string | undefined): boolean {
  return presentQuestionWords(userText) !== undefined;
}
