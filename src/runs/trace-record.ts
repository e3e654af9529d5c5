// What FootprintCore keeps of one trace, as one record (issue 11: five maps keyed by trace id
// became one): its conversation, the requests read, its turn, the findings written and the
// tallies of the turn not yet reported. Every part is created when first needed. The tallies are
// packed in flat arrays instead of a map of copied tally objects; talliesOf() gives back exactly
// what that map gave (same tallies, same order, same reasons in the same order).
// Must never do I/O or throw over bad telemetry; the byte estimates below are measured, not guessed
// (bench/memory-breakdown.mjs), and must stay in step with what the record holds.

import type { CheckTally, Seam } from '../model/finding.js';
import { CHECK_CATALOG } from '../checks/catalog.js';
import { stringBytes } from './string-bytes.js';

export class TraceRecord {
  /** The trace's conversation id, learned from any span of the trace that carries one. */
  conversationId: string | undefined = undefined;
  /** LLM requests read; undefined until an agent span of the trace was read (traceInfoOf says nothing then). */
  llmRequests: number | undefined = undefined;
  /** The turn's agent name. */
  turn: string | undefined = undefined;
  /** The span id of the turn's span (invoke_agent), where its disposition goes. */
  turnSpanId: string | undefined = undefined;
  /** Identities of findings already written for the trace (one defect, one finding per trace). */
  findings: Set<string> | undefined = undefined;
  /** Findings written, by check id (the disposition counts what was written). */
  written: Map<string, number> | undefined = undefined;
  /**
   * The tallies of the turn not yet reported, TALLY_WIDTH numbers each, in the order their
   * (check, seam) was first tallied: [pair, checked, findings, notApplicable, unreachable].
   */
  tallies: number[] | undefined = undefined;
  /** Unreachable reasons of those tallies, [pair, reason, count] each, in the order first counted. */
  reasons: (number | string)[] | undefined = undefined;
  /** The turn's ledger rows read from execute_tool spans (the disposition says where its rows came from). */
  ledgerFromSpans = 0;
  /** The turn's ledger rows read from the request windows (no execute_tool span recorded the call). */
  ledgerFromWindows = 0;
}

const TALLY_WIDTH = 5;
const REASON_WIDTH = 3;

/**
 * (check, seam) pairs by position, the catalog's first. It grows only with the pairs the code
 * tallies (check ids and seams are the code's, never the telemetry's), so its size is the code's.
 */
const PAIRS: { check: string; seam: Seam }[] = CHECK_CATALOG.map((c) => ({ check: c.id, seam: c.seam }));

function pairOf(check: string, seam: Seam): number {
  for (let i = 0; i < PAIRS.length; i++) if (PAIRS[i]!.check === check && PAIRS[i]!.seam === seam) return i;
  PAIRS.push({ check, seam });
  return PAIRS.length - 1;
}

/**
 * One copy of each reason's text, shared by every trace that counts it (most are sentences of the
 * code; some carry a bound's number or a declared field's name). Bounded: once full, a new text
 * stays the trace's own copy and is counted in its bytes.
 */
const REASON_TEXTS = new Map<string, string>();
const MAX_REASON_TEXTS = 256;

function sharedReason(reason: string): string {
  const shared = REASON_TEXTS.get(reason);
  if (shared !== undefined) return shared;
  if (REASON_TEXTS.size >= MAX_REASON_TEXTS) return reason;
  REASON_TEXTS.set(reason, reason);
  return reason;
}

// Bytes, measured on Node 20 (x64, no pointer compression: 8 bytes a slot) with heap probes and
// bench/memory-breakdown.mjs (issue 11; 10,000 records of its workload, each with 4 tallies and a
// reason): the records 2.92 MB, their tallies arrays 1.93 MB (20 numbers, 208 bytes each) and
// reasons arrays 0.68 MB (3 slots, 72 bytes each).
/**
 * One record without its parts, counted by FootprintCore per record held: the record (8 fields),
 * its BoundedMap entry and time, its map slot, its trace-id key and the ids it holds (turn span,
 * conversation). 306 bytes measured; the two ledger counts added since (small integers, in-object)
 * are two more slots.
 */
export const TRACE_RECORD_BYTES = 320;
/** A JS array's own cost: the object and its element store's header. */
const ARRAY_BYTES = 48;
/** One element: arrays here are allocated at their exact length (concat, never push). */
const SLOT_BYTES = 8;
/** A Set of up to 4 entries (the object and its smallest hash table): 150 measured. */
const SET_BYTES = 152;
/** A Map of up to 4 entries: 184 measured. */
const MAP_BYTES = 184;
/** One entry beyond the fourth: its share of a table that doubles (20-40 measured). */
const HASH_ENTRY_BYTES = 24;
/** Entries the smallest Set or Map table holds without growing. */
const HASH_FIRST_ENTRIES = 4;
const hashBytes = (base: number, entries: number) => base + Math.max(0, entries - HASH_FIRST_ENTRIES) * HASH_ENTRY_BYTES;

/** A reason's three slots, and its text when it is the trace's own copy (the shared texts are not). */
const reasonBytes = (reason: string) => REASON_WIDTH * SLOT_BYTES + (REASON_TEXTS.has(reason) ? 0 : stringBytes(reason));

/** Bytes the record's parts hold beyond the record itself (the core counts records by number). */
export function traceRecordPartsBytes(rec: TraceRecord): number {
  let n = 0;
  if (rec.tallies !== undefined) n += ARRAY_BYTES + rec.tallies.length * SLOT_BYTES;
  if (rec.reasons !== undefined) {
    n += ARRAY_BYTES;
    for (let i = 1; i < rec.reasons.length; i += REASON_WIDTH) n += reasonBytes(rec.reasons[i] as string);
  }
  if (rec.findings !== undefined) {
    n += hashBytes(SET_BYTES, rec.findings.size);
    for (const identity of rec.findings) n += stringBytes(identity);
  }
  if (rec.written !== undefined) n += hashBytes(MAP_BYTES, rec.written.size);
  return n;
}

/** Notes a finding's identity as written for the trace (the caller checked it was not); returns the bytes this added. */
export function noteFinding(rec: TraceRecord, identity: string): number {
  const before = rec.findings === undefined ? 0 : hashBytes(SET_BYTES, rec.findings.size);
  rec.findings ??= new Set();
  rec.findings.add(identity);
  return hashBytes(SET_BYTES, rec.findings.size) - before + stringBytes(identity);
}

/** Counts one finding written for `check`; returns the bytes this added. */
export function countWritten(rec: TraceRecord, check: string): number {
  const before = rec.written === undefined ? 0 : hashBytes(MAP_BYTES, rec.written.size);
  rec.written ??= new Map();
  rec.written.set(check, (rec.written.get(check) ?? 0) + 1);
  return hashBytes(MAP_BYTES, rec.written.size) - before;
}

/** Copies an array with `more` appended, at its exact length (push would leave spare slots). */
function appended<T>(list: readonly T[] | undefined, ...more: T[]): T[] {
  return list === undefined ? more : list.concat(more);
}

/**
 * Adds `t` to the record's tallies, as the map of copies did: a (check, seam) met first is copied
 * as it is (reasons and all, zeros kept); met again, its counts are added and a reason whose count
 * comes to 0 is dropped. Returns the bytes this added (negative when a reason went).
 */
export function addTally(rec: TraceRecord, t: CheckTally): number {
  const pair = pairOf(t.check, t.seam);
  const tallies = rec.tallies;
  let at = -1;
  if (tallies !== undefined) {
    for (let i = 0; i < tallies.length; i += TALLY_WIDTH) {
      if (tallies[i] === pair) {
        at = i;
        break;
      }
    }
  }
  let bytes = 0;
  if (at < 0) {
    if (tallies === undefined) bytes += ARRAY_BYTES;
    rec.tallies = appended(tallies, pair, t.checked, t.findings, t.notApplicable, t.unreachable);
    bytes += TALLY_WIDTH * SLOT_BYTES;
    for (const [r, n] of Object.entries(t.unreachableReasons)) bytes += appendReason(rec, pair, r, n);
    return bytes;
  }
  const counts = tallies!;
  counts[at + 1] = counts[at + 1]! + t.checked;
  counts[at + 2] = counts[at + 2]! + t.findings;
  counts[at + 3] = counts[at + 3]! + t.notApplicable;
  counts[at + 4] = counts[at + 4]! + t.unreachable;
  for (const [r, n] of Object.entries(t.unreachableReasons)) {
    const j = reasonAt(rec.reasons, pair, r);
    if (j < 0) {
      if (n !== 0) bytes += appendReason(rec, pair, r, n);
      continue;
    }
    const reasons = rec.reasons!;
    const sum = (reasons[j + 2] as number) + n;
    if (sum !== 0) {
      reasons[j + 2] = sum;
      continue;
    }
    bytes -= reasonBytes(reasons[j + 1] as string);
    if (reasons.length === REASON_WIDTH) {
      rec.reasons = undefined;
      bytes -= ARRAY_BYTES;
    } else rec.reasons = reasons.slice(0, j).concat(reasons.slice(j + REASON_WIDTH));
  }
  return bytes;
}

function appendReason(rec: TraceRecord, pair: number, reason: string, count: number): number {
  const text = sharedReason(reason);
  const bytes = (rec.reasons === undefined ? ARRAY_BYTES : 0) + reasonBytes(text);
  rec.reasons = appended(rec.reasons, pair, text, count);
  return bytes;
}

function reasonAt(reasons: readonly (number | string)[] | undefined, pair: number, reason: string): number {
  if (reasons === undefined) return -1;
  for (let j = 0; j < reasons.length; j += REASON_WIDTH) if (reasons[j] === pair && reasons[j + 1] === reason) return j;
  return -1;
}

/** A tally with every count negated: adding it takes the original back. */
export function negated(t: CheckTally): CheckTally {
  return {
    ...t,
    checked: -t.checked,
    findings: -t.findings,
    notApplicable: -t.notApplicable,
    unreachable: -t.unreachable,
    unreachableReasons: Object.fromEntries(Object.entries(t.unreachableReasons).map(([k, v]) => [k, -v])),
  };
}

/**
 * What the turn's disposition rows (dispositionRows over the record's tallies, each check's
 * `findings` the count written) are made of, as one string, read from the record without making
 * the rows (issue 36): equal keys for equal rows, request counts, byte bounds and ledger sources,
 * so the disposition cache answers a turn like one seen before without building its rows.
 */
export function dispositionKey(rec: TraceRecord | undefined, catalog: readonly { id: string; seam: Seam }[], llmRequests: number, maxBytes: number, ledger: { spans: number; windows: number }, written: ReadonlyMap<string, number> | undefined): string {
  let s = `${llmRequests}\u0001${maxBytes}\u0001${ledger.spans}\u0001${ledger.windows}`;
  const tallies = rec?.tallies;
  const reasons = rec?.reasons;
  for (const c of catalog) {
    const findings = written?.get(c.id) ?? 0;
    let at = -1;
    if (tallies !== undefined) {
      for (let i = 0; i < tallies.length; i += TALLY_WIDTH) {
        if (PAIRS[tallies[i]!]!.check === c.id) {
          at = i;
          break;
        }
      }
    }
    if (at < 0) {
      s += `\u0001${c.id}\u0002${c.seam}\u00020\u0002${findings}\u00020\u00020`;
      continue;
    }
    const pair = tallies![at]!;
    s += `\u0001${c.id}\u0002${PAIRS[pair]!.seam}\u0002${tallies![at + 1]}\u0002${findings}\u0002${tallies![at + 3]}\u0002${tallies![at + 4]}`;
    if (reasons !== undefined) for (let j = 0; j < reasons.length; j += REASON_WIDTH) if (reasons[j] === pair) s += `\u0003${reasons[j + 1]}\u0004${reasons[j + 2]}`;
  }
  return s;
}

/** The record's tallies as CheckTally objects (new ones each call), in the order first tallied. */
export function talliesOfRecord(rec: TraceRecord | undefined): CheckTally[] {
  const tallies = rec?.tallies;
  if (tallies === undefined) return [];
  const out: CheckTally[] = [];
  for (let i = 0; i < tallies.length; i += TALLY_WIDTH) {
    const pair = tallies[i]!;
    const unreachableReasons: Record<string, number> = {};
    const reasons = rec!.reasons;
    if (reasons !== undefined) for (let j = 0; j < reasons.length; j += REASON_WIDTH) if (reasons[j] === pair) unreachableReasons[reasons[j + 1] as string] = reasons[j + 2] as number;
    const { check, seam } = PAIRS[pair]!;
    out.push({ check, seam, checked: tallies[i + 1]!, findings: tallies[i + 2]!, notApplicable: tallies[i + 3]!, unreachable: tallies[i + 4]!, unreachableReasons });
  }
  return out;
}
