// Reads a request's input window (a JSON messages attribute) reusing what the previous request of
// the same conversation already read (issues 11, 36): the raw window is cut into the raw JSON of
// its messages (src/conventions/json-items.ts, no parse), and a message whose raw JSON is one the
// previous window held is taken as it was read then, by identity of its text, wherever it stands
// (a window that grew, one whose oldest messages were dropped, an agent that rewrites its prompt
// each turn). Only the others are parsed and normalised. When the raw window starts with the
// previous one followed by a comma (a conversation that grows), that prefix is taken whole by one
// compare. What is remembered (kept below) never holds a slice of an earlier raw window, and a
// window that repeats little of the one before is not remembered in its place (worthKeeping).
// Must give exactly what readMessagesAttribute gives, diagnostics included: anything the item read
// cannot vouch for (not an array of objects, a bound crossed, an item that does not parse or nests
// too deep) falls back to the full read, and only windows read with no diagnostic at all are
// remembered (so a reused message never owed one). The messages handed out are the remembered
// objects themselves (what is derived from a message is then kept by its identity, frame.ts); the
// one thing written to them, a tool result's name from its window's calls, is given again by
// nameToolResults for every window, and taken back where the window holds no such call.

import type { Message } from '../model/agent.js';
import type { AttrValue } from '../model/telemetry.js';
import type { Diagnostic, DiagnosticSink } from '../model/diagnostics.js';
import type { PriorWindow, WindowMemo } from './types.js';
import { depthOf } from './json-attribute.js';
import { afterItem, compositeEnd, firstItem, guessedEnd, itemOpener, skipWhitespace } from './json-items.js';
import { normaliseMessage, readMessagesAttribute, ShapeProblems, type GenAiScope } from './genai-parts.js';
import { WINDOW_MEMO_LIMITS } from '../limits.js';

/** Passes every diagnostic on, counting them. */
class CountingSink implements DiagnosticSink {
  count = 0;
  constructor(private readonly to: DiagnosticSink) {}
  report(d: Diagnostic): void {
    this.count++;
    this.to.report(d);
  }
}

/**
 * A copy of an item's raw JSON that holds nothing else: a slice of the window would keep the
 * whole raw window alive as long as the item is remembered (issue 36: the raw window of every
 * request, kept for its new items, was most of what the young generation copied). Joining a
 * character and cutting it off makes the engine write the item's characters into a string of
 * their own (a slice of a joined string is taken of its flat copy); the same characters.
 */
function ownCopy(raw: string): string {
  return (raw + '\u0000').slice(0, -1);
}

const COMMA = 0x2c;

/** True when `value` is `prior` (a raw window up to its closing `]`) followed by a comma and more. */
function extendsBody(value: string, prior: string): boolean {
  const n = prior.length;
  if (value.length <= n + 1 || value.charCodeAt(n) !== COMMA) return false;
  // A flat compare (memcmp), not startsWith (a character loop in V8).
  return value.slice(0, n) === prior;
}

/** How many items the prior window had. */
const itemCount = (prior: PriorWindow) => prior.messages.length;

/** The raw JSON of the prior window's item i (a slice of its kept raw window, or its own copy). */
function itemText(prior: PriorWindow, i: number): string {
  return prior.bounds !== undefined ? prior.body!.slice(prior.bounds[2 * i]!, prior.bounds[2 * i + 1]!) : prior.items![i]!;
}

function itemLength(prior: PriorWindow, i: number): number {
  return prior.bounds !== undefined ? prior.bounds[2 * i + 1]! - prior.bounds[2 * i]! : prior.items![i]!.length;
}

/**
 * The prior window's items by length, made when an item is first looked for away from its place:
 * a number key costs nothing to hash, and an item of the same length that is another message
 * differs from it early (its role, kind and call id come first), so the compare is short.
 */
const indexes = new WeakMap<PriorWindow, Map<number, number[]>>();
function indexOf(prior: PriorWindow): Map<number, number[]> {
  let ix = indexes.get(prior);
  if (!ix) {
    ix = new Map();
    for (let i = 0; i < itemCount(prior); i++) {
      const n = itemLength(prior, i);
      const at = ix.get(n);
      if (at) at.push(i);
      else ix.set(n, [i]);
    }
    indexes.set(prior, ix);
  }
  return ix;
}

/** The index of the prior window's item whose raw JSON is `raw` and not `taken` yet, or -1. */
function priorItem(prior: PriorWindow, raw: string, taken: Uint8Array): number {
  const at = indexOf(prior).get(raw.length);
  if (at) for (const i of at) if (taken[i] === 0 && itemText(prior, i) === raw) return i;
  return -1;
}

/**
 * A window read item by item: where each item stands in the raw window (2 numbers an item), which
 * prior item it is (-1: new), its messages; `clean` when it gave no diagnostic.
 */
interface ItemRead {
  bounds: number[];
  from: number[];
  messages: Message[];
  clean: boolean;
  /** The window extended the prior one (its raw JSON starts with the prior's and a comma). */
  extended: boolean;
}

/**
 * Reads the window item by item, taking the prior window's messages for items it held. Undefined
 * (having reported nothing) when the full read must decide: then it also reports what is wrong.
 * `guess`: ends found by the first item's opener (json-items.ts guessedEnd); an item so cut that
 * does not parse sends the read back here with every end scanned for.
 */
function readItems(value: string, key: string, scope: GenAiScope, prior: PriorWindow | undefined, guess = true): ItemRead | undefined {
  const { limits } = scope;
  if (value.length > limits.maxJsonAttributeBytes) return undefined;
  let p = firstItem(value);
  if (p < 0) return undefined;
  const opener = guess ? itemOpener(value, p) : undefined;
  const bounds: number[] = [];
  const from: number[] = [];
  const messages: (Message | undefined)[] = [];
  const fresh: number[] = [];
  const priorCount = prior !== undefined ? itemCount(prior) : 0;
  /** Where the prior window's next item is expected (the item after the last one taken). */
  let j = 0;
  /**
   * The prior messages already taken: each is taken once per window (a message standing twice is
   * read again for its second place, so each place has its own object, named from its own calls).
   */
  const taken = new Uint8Array(priorCount);
  // A window that extends the previous one (a conversation that grows): its prefix taken whole by
  // one compare, not item by item; its items stand where they stood.
  let extended = false;
  if (prior !== undefined && prior.bounds !== undefined && extendsBody(value, prior.body!)) {
    extended = true;
    for (let i = 0; i < priorCount; i++) {
      bounds.push(prior.bounds[2 * i]!, prior.bounds[2 * i + 1]!);
      from.push(i);
      messages.push(prior.messages[i]);
    }
    taken.fill(1);
    j = priorCount;
    p = skipWhitespace(value, prior.body!.length + 1);
  }
  for (;;) {
    // Past the bound, the full read cuts the window and says so.
    if (messages.length >= limits.maxMessagesPerRequest) return undefined;
    let end = -1;
    let hit = -1;
    if (j < priorCount && taken[j] === 0) {
      const e = p + itemLength(prior!, j);
      // A flat compare (memcmp) of a temporary slice.
      if (e <= value.length && value.slice(p, e) === itemText(prior!, j)) {
        hit = j;
        end = e;
      }
    }
    if (hit < 0) {
      end = opener !== undefined ? guessedEnd(value, p, opener) : compositeEnd(value, p);
      if (end < 0) return opener !== undefined ? readItems(value, key, scope, prior, false) : undefined;
      // Looked for away from its place only while the prior window has items left to match: past
      // its end come the new messages (a repeat there is read again, which costs only the parse).
      if (j < priorCount) hit = priorItem(prior!, value.slice(p, end), taken);
    }
    bounds.push(p, end);
    from.push(hit);
    if (hit >= 0) {
      messages.push(prior!.messages[hit]);
      taken[hit] = 1;
      j = hit + 1;
    } else {
      fresh.push(messages.length);
      messages.push(undefined);
      j++;
    }
    const after = afterItem(value, end);
    if (after.kind === 'bad') return opener !== undefined ? readItems(value, key, scope, prior, false) : undefined;
    if (after.kind === 'end') break;
    p = after.next;
  }
  // The items not held before: each parsed alone (`[A,B]` is valid exactly when A and B are) and
  // bounded in depth as inside the array (one level deeper there). A guessed end that cut an item
  // wrong shows here as an item that does not parse.
  const parsed: unknown[] = [];
  for (const i of fresh) {
    let v: unknown;
    try {
      v = JSON.parse(value.slice(bounds[2 * i]!, bounds[2 * i + 1]!));
    } catch {
      return opener !== undefined ? readItems(value, key, scope, prior, false) : undefined;
    }
    if (depthOf(v, limits.maxJsonDepth - 1) > limits.maxJsonDepth - 1) return undefined;
    parsed.push(v);
  }
  // Normalised as the full read does, in window order; the prior window's items owed no diagnostic.
  const sink = new CountingSink(scope.diagnostics);
  const local: GenAiScope = { ...scope, diagnostics: sink };
  const problems = new ShapeProblems();
  for (let k = 0; k < fresh.length; k++) messages[fresh[k]!] = normaliseMessage(parsed[k], key, local, problems);
  problems.flush(local, key);
  const clean = sink.count === 0;
  // Read item by item, it may still have extended the prior window: all of it, in order, first.
  if (!extended && priorCount > 0 && from.length > priorCount) {
    extended = true;
    for (let k = 0; k < priorCount && extended; k++) if (from[k] !== k) extended = false;
  }
  return { bounds, from, messages: clean ? (messages as Message[]) : messages.filter((m): m is Message => m !== undefined), clean, extended };
}

/**
 * What the memo keeps of a window read clean. The conversation's first window and one that
 * extended the one before: its raw JSON and where each item stands in it (the next, if it grows
 * again, is compared in one piece). Any other (trimmed, rewritten): each item's raw JSON as its own
 * string, never a slice of a raw window, which would keep that whole window alive (issue 36: it
 * made the young generation's collections copy most), and no raw window (a window that did not
 * extend the one before it is rarely extended next).
 */
function kept(value: string, read: ItemRead, prior: PriorWindow | undefined): PriorWindow {
  if (prior === undefined || read.extended) return { body: value.slice(0, value.lastIndexOf(']')), bounds: Int32Array.from(read.bounds), messages: read.messages };
  const items = read.from.map((i, k) => (i >= 0 && prior.items !== undefined ? prior.items[i]! : ownCopy(value.slice(read.bounds[2 * k]!, read.bounds[2 * k + 1]!))));
  return { items, messages: read.messages };
}

/**
 * Whether the memo keeps this read's window in place of the one before: the conversation's first
 * window and one that extended the one before always (kept as the raw window, nothing copied);
 * any other only when it reused at least `minReusedShare` of its items' raw JSON from the one
 * before (issue 36: what is kept is promoted by the collector, its new items copied; a window
 * that repeats little of the one before costs more so than the parse it saves the next request).
 * Else the one before stays, for the next request to reuse what it can of it.
 */
function worthKeeping(read: ItemRead, prior: PriorWindow | undefined): boolean {
  if (prior === undefined || read.extended) return true;
  let reused = 0;
  let all = 0;
  for (let k = 0; k < read.from.length; k++) {
    const n = read.bounds[2 * k + 1]! - read.bounds[2 * k]!;
    all += n;
    if (read.from[k]! >= 0) reused += n;
  }
  return reused >= all * WINDOW_MEMO_LIMITS.minReusedShare;
}

/** readMessagesAttribute for a request's input window, with the conversation's memo when there is one. */
export function readWindowAttribute(value: AttrValue | undefined, key: string, scope: GenAiScope, memo: WindowMemo | undefined): Message[] | undefined {
  if (memo === undefined || typeof value !== 'string') return readMessagesAttribute(value, key, scope);
  const prior = memo.prior();
  const read = readItems(value, key, scope, prior);
  if (read === undefined) return readMessagesAttribute(value, key, scope);
  if (read.clean && worthKeeping(read, prior)) memo.remember(kept(value, read, prior));
  return read.messages;
}
