// The served tool results read as rows, for the answer checks that compare what the answer says
// about items with what the run served: row sets (every list in a result, and every map of
// objects keyed by id, with the words of its name) and entities (every object that carries an
// identifier: an `id`, a `*_id`, a `*_number`, a `code`, a `name`, …). A result that is a JSON
// or YAML-dump string is parsed (src/values/structured.ts) within SERVED_ROWS_LIMITS; text, and anything past a bound, is not read as
// rows. Pure: no I/O, no clocks, no globals; values are compared, never interpreted.

import { foldWord } from './absence-clauses.js';
import { SERVED_ROWS_LIMITS } from '../limits.js';
import { readStructured } from '../values/structured.js';
import { known, unknown, type Known } from '../model/known.js';

/** One tool result the answer's window or the conversation's ledger served. */
export interface ServedResult {
  toolName?: string;
  callId?: string;
  /** The call's arguments, when known (entities are also named by what they were looked up with). */
  arguments?: unknown;
  /** The result as served: a string (parsed here when it is JSON) or an already parsed value. */
  result: unknown;
  /** Order served in (higher = later). */
  order: number;
  /** Served in this turn (after the window's last user message). */
  thisTurn: boolean;
}

export type Row = Record<string, unknown>;

/** A list of items a result served: a JSON array, or an object whose values are all objects (keyed by id). */
export interface RowSet {
  /** Words of its name, folded ("saved_passengers" -> saved, passenger); the last is its head noun. */
  names: string[];
  /** Where it is, for findings: "reservations in get_user_details (call c1)". */
  label: string;
  size: number;
  /** Its items that are objects. */
  objects: Row[];
  /** Its items that are strings or numbers (an id list), folded. */
  scalars: string[];
  /** The same items as served (for quoting). */
  scalarsAsServed: string[];
  source: ServedResult;
  /** The result itself is the list (or the only list under a wrapper key): what "results"/"options" count. */
  primary: boolean;
  /**
   * Whether the set is all there is, as far as the run shows: unknown when its call asked for a
   * page or a limit (`limit`, `page`, `cursor`, …) or its result says there is more (`has_more`,
   * `next_page`, `truncated`, a `total` above its size).
   */
  complete: Known<true>;
}

/** An object a result served that carries an identifier. */
export interface ServedEntity {
  /** Its identifier values, folded (lower case, trimmed). */
  ids: string[];
  object: Row;
  source: ServedResult;
}

export interface ServedRows {
  sets: RowSet[];
  entities: ServedEntity[];
  /** Results not read as rows because a bound was met (said in unreachable reasons). */
  truncated: boolean;
}

/** Words of a name that say nothing about what the items are. */
const NAME_NOISE: ReadonlySet<string> = new Set([
  'get', 'list', 'search', 'find', 'query', 'fetch', 'lookup', 'look', 'show', 'read', 'retrieve', 'load', 'describe', 'view', 'browse',
  'all', 'by', 'for', 'of', 'the', 'a', 'an', 'and', 'to', 'from', 'with', 'in', 'on', 'detail', 'details', 'info', 'information', 'data', 'result',
  'results', 'response', 'items', 'item', 'list', 'api', 'tool', 'v1', 'v2', 'v3',
]);

/** Keys of the wrapper objects whose one list is the result's primary list. */
const WRAPPER_KEYS: ReadonlySet<string> = new Set(['data', 'items', 'results', 'result', 'rows', 'records', 'entries', 'hits', 'matches', 'options', 'list', 'values', 'content', 'response', 'payload']);

/** An identifier key: `id`, `*_id`, `*Id`, `*_number`, `code`, `sku`, `name`, `*_ref`, … */
const ID_KEY = /^(?:id|uuid|guid|key|code|sku|slug|handle|name|number|ref|reference)$|(?:[_\-.\s](?:id|uuid|number|code|ref|no|key|name))$|(?<=[a-z])(?:Id|ID|Number|Code|Ref|Name)$/;

export function isIdKey(key: string): boolean {
  return ID_KEY.test(key);
}

/** The words of a key or tool name, folded, noise dropped ("search_direct_flight" -> direct, flight). */
export function nameWordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => foldWord(w))
    .filter((w) => w !== '' && !NAME_NOISE.has(w));
}

function isPlainObject(v: unknown): v is Row {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A result's value: parsed when it is a JSON or YAML-dump string within the bound (src/values/structured.ts); undefined when it is text or too large. */
export function parsedResult(result: unknown, maxBytes: number = SERVED_ROWS_LIMITS.maxResultBytes): unknown {
  if (typeof result !== 'string') return result;
  if (result.length > maxBytes) return undefined;
  return readStructured(result)?.value;
}

function fold(v: unknown): string | undefined {
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    return t === '' ? undefined : t;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** Argument names that ask for a part of a list. */
const PAGING_ARGUMENT = /^(?:limit|page|page_?size|per_?page|offset|cursor|page_?token|max_?results|max_?items|top|first|count|n|k|size)$/i;
/** Result keys that say the list goes on. */
const MORE_KEY = /^(?:has_?more|more|next|next_?page|next_?cursor|next_?page_?token|next_?token|truncated|is_?truncated|continuation|has_?next(?:_?page)?)$/i;
const TOTAL_KEY = /^(?:total|total_?count|count|total_?results|total_?items|num_?results|result_?count)$/i;

/** Whether a result's list is all there is, as far as the call and its result show (served-rows `complete`). */
function completeness(r: ServedResult, value: unknown, size: number): Known<true> {
  const args = r.arguments;
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
    const paging = Object.keys(args).find((k) => PAGING_ARGUMENT.test(k));
    if (paging !== undefined) return unknown(`its call asked for a part of the list ('${paging}')`);
  }
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (MORE_KEY.test(k) && v !== false && v !== null && v !== '' && v !== 0) return unknown(`its result says there is more ('${k}')`);
      if (TOTAL_KEY.test(k) && typeof v === 'number' && v > size) return unknown(`its result says there are ${v} in all ('${k}')`);
    }
  }
  return known(true, 'its call asked for no page or limit, and its result says there is no more');
}

function callLabel(r: ServedResult): string {
  const tool = r.toolName ?? 'a tool';
  return r.callId ? `${tool} (call ${r.callId})` : tool;
}

/** Reads served results (latest last) into row sets and entities, within SERVED_ROWS_LIMITS. */
export function readServedRows(results: readonly ServedResult[]): ServedRows {
  const sets: RowSet[] = [];
  const entities: ServedEntity[] = [];
  let truncated = false;
  // Keys repeat across rows (flight_number, status, …): their words are read once per call.
  const wordsOfKey = new Map<string, string[]>();
  const keyWords = (k: string) => {
    let w = wordsOfKey.get(k);
    if (w === undefined) {
      w = nameWordsOf(k);
      if (wordsOfKey.size < 4096) wordsOfKey.set(k, w);
    }
    return w;
  };
  const recent = results.length > SERVED_ROWS_LIMITS.maxResults ? results.slice(-SERVED_ROWS_LIMITS.maxResults) : results;
  if (recent.length < results.length) truncated = true;
  for (const r of recent) {
    const value = parsedResult(r.result);
    if (value === undefined) {
      if (typeof r.result === 'string' && r.result.trim().length > SERVED_ROWS_LIMITS.maxResultBytes) truncated = true;
      continue;
    }
    let nodes = 0;
    const toolNames = r.toolName ? keyWords(r.toolName) : [];
    const addSet = (names: string[], label: string, items: unknown[], primary: boolean) => {
      if (sets.length >= SERVED_ROWS_LIMITS.maxRowSets) {
        truncated = true;
        return;
      }
      sets.push({
        names,
        label: `${label} in ${callLabel(r)}`,
        size: items.length,
        objects: items.filter(isPlainObject),
        scalars: items.map(fold).filter((s): s is string => s !== undefined),
        scalarsAsServed: items.filter((x) => fold(x) !== undefined).map((x) => String(x).trim()),
        source: r,
        primary,
        complete: completeness(r, value, items.length),
      });
    };
    const walk = (v: unknown, key: string | undefined, names: string[], depth: number, primary: boolean) => {
      if (++nodes > SERVED_ROWS_LIMITS.maxNodesPerResult || depth > 12) {
        truncated = true;
        return;
      }
      if (Array.isArray(v)) {
        addSet(names, key ?? 'the result', v, primary);
        // Lists of lists (one-stop options as pairs of flights) name their inner lists alike.
        for (const x of v) walk(x, key, names, depth + 1, false);
        return;
      }
      if (!isPlainObject(v)) return;
      const ids = Object.entries(v)
        .filter(([k, x]) => isIdKey(k) && (typeof x === 'string' || typeof x === 'number'))
        .map(([, x]) => fold(x))
        .filter((s): s is string => s !== undefined && s.length >= 2);
      if (ids.length > 0) entities.push({ ids, object: v, source: r });
      const entries = Object.entries(v);
      // A map of objects keyed by id (`payment_methods: {"card_1": {...}}`) is a row set too.
      if (key !== undefined && entries.length > 0 && entries.every(([, x]) => isPlainObject(x))) addSet(names, key, entries.map(([, x]) => x), false);
      const lists = entries.filter(([, x]) => Array.isArray(x));
      for (const [k, x] of entries) {
        const childNames = Array.isArray(x) || isPlainObject(x) ? keyWords(k) : names;
        // The one list under a wrapper key of the top level is the result's primary list, named by its tool.
        const wrapper = depth === 0 && lists.length === 1 && Array.isArray(x) && WRAPPER_KEYS.has(k.toLowerCase());
        walk(x, k, wrapper ? (childNames.length > 0 ? childNames : toolNames) : childNames.length > 0 ? childNames : names, depth + 1, wrapper);
      }
    };
    walk(value, undefined, toolNames, 0, true);
  }
  return { sets, entities, truncated };
}
