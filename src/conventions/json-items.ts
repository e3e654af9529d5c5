// Where the items of a JSON array text begin and end, without parsing them: the raw text of each
// message of a request's window, so a conversation's next request can tell by identity which
// messages it already read (src/conventions/genai-window.ts). Not a parser: the caller parses
// every item it did not already hold with JSON.parse, which judges validity, so an end here need
// only be right where the text is valid JSON. `guessedEnd` finds the next item's opening the way
// the first item opened (`{"role":` after `},`: unescaped quotes never stand inside a JSON string,
// so this is structure), an indexOf; `compositeEnd` skips strings (escapes included) and counts brackets,
// for when the guess cannot be made or did not parse. Must never throw and never allocate per
// character.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON's whitespace (RFC 8259): space, tab, line feed, carriage return. */
function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The first index at or after `i` that is not JSON whitespace. */
export function skipWhitespace(text: string, i: number): number {
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string whose opening quote is at `i`; -1 when it never closes. */
function stringEnd(text: string, i: number): number {
  let j = text.indexOf('"', i + 1);
  while (j > 0) {
    // A quote preceded by an odd run of backslashes is escaped.
    let k = j - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j + 1;
    j = text.indexOf('"', j + 1);
  }
  return -1;
}

/**
 * The index just past the object or array that opens at `start` (`{` or `[`); -1 when the text
 * ends first or `start` opens neither.
 */
export function compositeEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return -1;
  let depth = 0;
  let i = start;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/**
 * The text that opens the array's items, taken from its first item (from its `{` to its first
 * `:`, e.g. `{"role":`): what `guessedEnd` looks for. Undefined when that is not a short run
 * without whitespace (then every end is scanned for).
 */
export function itemOpener(text: string, first: number): string | undefined {
  if (text.charCodeAt(first) !== OPEN_BRACE || text.charCodeAt(first + 1) !== QUOTE) return undefined;
  const colon = text.indexOf(':', first + 2);
  if (colon < 0 || colon - first > 40) return undefined;
  const opener = text.slice(first, colon + 1);
  return /^\{"[^"\\\s]*":$/.test(opener) ? opener : undefined;
}

/**
 * Where the item starting at `start` ends if the next item opens with `opener` after a comma
 * (`}` + whitespace + `,` + whitespace + opener: compact and `json.dumps` spacing alike), or, when
 * none does, where the array's last `]` is (whitespace before it left out). A guess: right on the
 * JSON instrumentations write, to be checked by parsing the item.
 */
export function guessedEnd(text: string, start: number, opener: string): number {
  for (let at = text.indexOf(opener, start + 1); at >= 0; at = text.indexOf(opener, at + 1)) {
    let k = at - 1;
    while (k > start && isWhitespace(text.charCodeAt(k))) k--;
    if (text.charCodeAt(k) !== 0x2c) continue;
    k--;
    while (k > start && isWhitespace(text.charCodeAt(k))) k--;
    if (text.charCodeAt(k) === CLOSE_BRACE) return k + 1;
  }
  let end = text.lastIndexOf(']');
  if (end <= start) return -1;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return end;
}

/** What follows an item of an array: another item (at `next`), the array's end, or something else. */
export type AfterItem = { kind: 'next'; next: number } | { kind: 'end' } | { kind: 'bad' };

/**
 * After an item ending at `end` of the array text: a comma (the next item's start, whitespace
 * skipped), or the closing bracket with nothing but whitespace after it.
 */
export function afterItem(text: string, end: number): AfterItem {
  const i = skipWhitespace(text, end);
  const c = text.charCodeAt(i);
  if (c === 0x2c) return { kind: 'next', next: skipWhitespace(text, i + 1) };
  if (c === CLOSE_BRACKET && skipWhitespace(text, i + 1) === text.length) return { kind: 'end' };
  return { kind: 'bad' };
}

/** Where the first item of the array text starts (after `[` and whitespace); -1 when it is not an array with an item. */
export function firstItem(text: string): number {
  const open = skipWhitespace(text, 0);
  if (text.charCodeAt(open) !== OPEN_BRACKET) return -1;
  const at = skipWhitespace(text, open + 1);
  return at < text.length && text.charCodeAt(at) !== CLOSE_BRACKET ? at : -1;
}
