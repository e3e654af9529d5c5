// The one reading of this turn's reads that `refusal-asserts-absence` and the answer's standing
// share: which rows are reads (declared `readOnly`, or named as a producer in some `argumentsFrom`),
// which of them were refused or failed, which refusals a later successful read of the same tool
// with the same arguments superseded, and which read an absence clause of the answer is about (the
// entity and nouns it shares with the read's tool name, arguments or declared `looked_for`). Pure:
// no I/O, no clocks, no globals; values are compared, never interpreted.

import type { LedgerRow } from '../model/ledger.js';
import type { ToolDeclaration } from '../declarations/types.js';
import { contentWords, foldWord, STOP_WORDS, type AbsenceClause } from './absence-clauses.js';

export interface Refusal {
  how: 'refused' | 'failed';
  /** The error's words: the span's error message, else the result's refusal text. */
  error?: string;
  /** Where those words came from (`result` when the result itself says them). */
  from?: 'span' | 'result';
}

/** Why a row counts as a refused or failed read, or undefined when it does not. */
export function refusalOf(row: LedgerRow): Refusal | undefined {
  const refusal = row.reading.refusal;
  const how = row.outcome === 'refused' || row.outcome === 'failed' ? row.outcome : refusal !== undefined ? 'refused' : undefined;
  if (!how) return undefined;
  // A window row's error words are its tool message's (the window marked it an error).
  if (row.errorMessage !== undefined && row.errorMessage !== '') return { how, error: row.errorMessage, from: row.errorMessage === refusal || row.source === 'window' ? 'result' : 'span' };
  if (refusal !== undefined && refusal !== '') return { how, error: refusal, from: 'result' };
  return { how };
}

/** Tool names an `argumentsFrom` lists, in its list form or its per-argument form. */
export function producersOf(argumentsFrom: unknown): string[] {
  if (Array.isArray(argumentsFrom)) return argumentsFrom.filter((t): t is string => typeof t === 'string');
  if (argumentsFrom !== null && typeof argumentsFrom === 'object') return Object.values(argumentsFrom).flatMap((v) => producersOf(v));
  return [];
}

/**
 * Whether a tool is a read: declared `readOnly: true`, or named as a producer in the
 * `argumentsFrom` of one of `declarations`. A tool that is neither never makes a "refused read".
 */
export function readToolTest(declarationOf: (tool: string) => ToolDeclaration | undefined, declarations: Iterable<ToolDeclaration | undefined>): (tool: string) => boolean {
  const producers = new Set<string>();
  for (const d of declarations) for (const p of producersOf(d?.argumentsFrom)) producers.add(p);
  return (tool) => declarationOf(tool)?.readOnly === true || producers.has(tool);
}

/** A value's text with object keys sorted (a JSON string read as its value): equal for the same arguments however recorded. */
export function canonical(v: unknown, depth = 0): string {
  if (typeof v === 'string') {
    const t = v.trim();
    if (depth === 0 && (t.startsWith('{') || t.startsWith('['))) {
      try {
        return canonical(JSON.parse(t), depth + 1);
      } catch {
        return JSON.stringify(v);
      }
    }
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x, depth + 1)).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** One read of this turn, as both the check and the standing see it. */
export interface TurnRead {
  row: LedgerRow;
  /** 0-based position among the turn's rows (in call order). */
  position: number;
  /** Set when the read was refused or failed and nothing superseded it. */
  refusal?: Refusal;
  /** A refused read that a later successful read of the same tool, same arguments, superseded (its position). */
  supersededBy?: number;
}

/**
 * This turn's reads in call order. Rows of tools that are not reads are left out; a refusal that
 * a later successful read (same tool, same arguments) superseded carries `supersededBy` instead
 * of `refusal`.
 */
export function turnReads(rows: readonly LedgerRow[], isRead: (tool: string) => boolean = () => true): TurnRead[] {
  const out: TurnRead[] = [];
  const keys = rows.map((r) => `${r.toolName}\u0000${canonical(r.arguments)}`);
  rows.forEach((row, position) => {
    if (!isRead(row.toolName)) return;
    const refusal = refusalOf(row);
    if (!refusal) {
      out.push({ row, position });
      return;
    }
    let later: number | undefined;
    for (let j = position + 1; j < rows.length; j++) {
      if (keys[j] === keys[position] && rows[j]!.outcome === 'ran' && refusalOf(rows[j]!) === undefined) {
        later = j;
        break;
      }
    }
    out.push(later !== undefined ? { row, position, supersededBy: later } : { row, position, refusal });
  });
  return out;
}

/** Words of a tool name that name an action, not what it reads. */
export const TOOL_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'search', 'find', 'query', 'fetch', 'lookup', 'look', 'up', 'read', 'check', 'show', 'describe', 'retrieve', 'load', 'run', 'api', 'tool', 'by', 'for', 'all', 'v1', 'v2', 'v3']);
/** Argument names that say nothing about what is read. */
const GENERIC_KEYS: ReadonlySet<string> = new Set(['id', 'ids', 'name', 'query', 'q', 'filter', 'limit', 'offset', 'page', 'type', 'value', 'key', 'text', 'input']);

/** Weights of what a read is about: an argument's value 3, a noun of its tool name or looked_for 2, an argument's name 1. */
export function readWords(row: LedgerRow): Map<string, number> {
  const words = new Map<string, number>();
  const add = (w: string, weight: number) => {
    if (w === '' || STOP_WORDS.has(w)) return;
    if ((words.get(w) ?? 0) < weight) words.set(w, weight);
  };
  for (const w of toolNouns(row.toolName)) add(w, 2);
  const walk = (v: unknown, key: string | undefined, depth: number) => {
    if (depth > 6) return;
    if (key !== undefined) for (const part of key.split(/[_\-.\s]+|(?<=[a-z])(?=[A-Z])/)) {
      const w = foldWord(part);
      if (!GENERIC_KEYS.has(w)) add(w, 1);
    }
    if (typeof v === 'string' || typeof v === 'number') {
      const whole = foldWord(String(v).trim());
      add(whole, 3);
      for (const w of contentWords(String(v))) add(w, w === whole ? 3 : 2);
    } else if (Array.isArray(v)) v.slice(0, 64).forEach((x) => walk(x, undefined, depth + 1));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v).slice(0, 64)) walk(x, k, depth + 1);
  };
  let args = row.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      // Plain text arguments: their words are the values.
    }
  }
  walk(args, undefined, 0);
  if (row.reading.absence) for (const w of contentWords(row.reading.absence.lookedFor)) add(w, 2);
  return words;
}

/** A read scores at least this much to be what a clause is about; below it the clause names no read. */
export const MIN_ATTRIBUTION_SCORE = 2;

export interface Attribution {
  /** The reads the clause is about (the best-scoring ones), or all reads when it names none. */
  reads: TurnRead[];
  /** The words the clause shares with them (empty when it names no read). */
  shared: string[];
}

/** Which of the turn's reads an absence clause is about. */
export function attributeClause(clause: AbsenceClause, reads: readonly TurnRead[], wordsOf: (r: TurnRead) => Map<string, number>): Attribution {
  let best = 0;
  let top: TurnRead[] = [];
  let shared: string[] = [];
  for (const r of reads) {
    const words = wordsOf(r);
    let score = 0;
    const hit: string[] = [];
    for (const w of clause.words) {
      const weight = words.get(w);
      if (weight !== undefined) {
        score += weight;
        hit.push(w);
      }
    }
    if (score > best) {
      best = score;
      top = [r];
      shared = hit;
    } else if (score === best && score > 0) {
      top.push(r);
      for (const w of hit) if (!shared.includes(w)) shared.push(w);
    }
  }
  if (best < MIN_ATTRIBUTION_SCORE) return { reads: [...reads], shared: [] };
  if (top.length > 1) {
    // A tie: the reads whose tool-name nouns the clause shares (what was read) beat those it
    // matches only through argument words (whose it is). All or none naming: the tie stands.
    const named = top.filter((r) => toolNouns(r.row.toolName).some((w) => clause.words.includes(w)));
    if (named.length > 0 && named.length < top.length) {
      const words = new Set(named.flatMap((r) => { const ws = wordsOf(r); return clause.words.filter((w) => ws.has(w)); }));
      return { reads: named, shared: shared.filter((w) => words.has(w)) };
    }
  }
  return { reads: top, shared };
}

/** The nouns of a tool name: its folded parts that are not action words (`leave_requests` → leave, request). */
export function toolNouns(toolName: string): string[] {
  return toolName
    .split(/[_\-.\s/:]+|(?<=[a-z])(?=[A-Z])/)
    .map(foldWord)
    .filter((w) => w !== '' && !TOOL_VERBS.has(w) && !STOP_WORDS.has(w));
}

/** Whether a successful read found nothing: an empty result or a declared absence (a not-found included). */
export function establishedAbsence(r: TurnRead): boolean {
  return r.refusal === undefined && (r.row.reading.emptiness === 'undeclared-empty' || r.row.reading.emptiness === 'declared-absent');
}
