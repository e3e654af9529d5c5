// Checks `missing-column` and `column-type-mismatch` (seam `write`), one check `result-columns`:
// a tool's declared `resultColumns` judged over every row of an array-of-objects result (a bare
// array, one inside a coverage ledger, or the list at a declared `rowsAt` key, dotted path or JSON
// pointer, found by the result reader). A declared column in
// no row is `missing-column` (judged first, so never also a mismatch); otherwise the rows whose
// value is empty (absent or null, unless the column is nullable) or of the wrong type are counted,
// never sampled, and the first is quoted: `column-type-mismatch`. Types: number = a finite
// number; string = any string, '' included; boolean = true or false; date = a string that
// Date.parse accepts (numbers fail: an epoch number cannot say whether it counts seconds or
// milliseconds). It judges type, never meaning; unlisted columns are never judged. Detection
// only: the result is not rewritten. Tally: each declared column over a non-empty row set is one
// encounter. Pure function over plain data: no I/O, no clocks, no globals.

import { RESULT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally } from '../model/finding.js';
import type { LedgerRow } from '../model/ledger.js';
import type { ColumnDeclaration, ColumnType, ToolDeclaration } from '../declarations/types.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { quoteText } from '../findings/quote.js';

export const RESULT_COLUMNS = 'result-columns';
export const MISSING_COLUMN = 'missing-column';
export const COLUMN_TYPE_MISMATCH = 'column-type-mismatch';
/** Quoted in every column-type-mismatch message: what this finding can and cannot say. */
export const COLUMN_TYPE_CEILING = 'This judges the type of each value, never its meaning: a well-typed value can still be wrong.';
/** Column names listed in a missing-column message before "and N more". */
const MAX_LISTED_COLUMNS = 8;

const NOTHING_BLOCKED = 'Nothing here blocked the result.';

export interface ResultColumnsInput {
  row: LedgerRow;
  declaration: ToolDeclaration | undefined;
  quotedValueChars?: number;
}

function emptyTally(): CheckTally {
  return newTally(RESULT_COLUMNS, 'write');
}

function has(row: Record<string, unknown>, column: string): boolean {
  return Object.prototype.hasOwnProperty.call(row, column) && row[column] !== undefined;
}

/** Whether one value fits the declared type. Empty values (absent, null) are judged by the caller. */
export function fitsColumnType(value: unknown, type: ColumnType): boolean {
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return value === true || value === false;
    case 'date':
      return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Date.parse(value));
  }
}

function isEmpty(row: Record<string, unknown>, column: string): boolean {
  return !has(row, column) || row[column] === null;
}

function offends(row: Record<string, unknown>, column: string, decl: ColumnDeclaration): boolean {
  if (isEmpty(row, column)) return decl.nullable !== true;
  return !fitsColumnType(row[column], decl.type);
}

function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** How people read the offending value, quoted and capped. */
function describeValue(row: Record<string, unknown>, column: string, cap: number): string {
  if (!has(row, column)) return 'no value (the key is absent)';
  const v = row[column];
  if (v === null) return 'null';
  if (typeof v === 'string') return v === '' ? 'an empty string ""' : `the string "${quoteText(v, cap)}"`;
  if (typeof v === 'number') return `the number ${quoteText(String(v), cap)}`;
  if (typeof v === 'boolean') return `the boolean ${v}`;
  if (Array.isArray(v)) return `an array ${quoteText(jsonText(v), cap)}`;
  return `${typeof v === 'object' ? 'an object' : `a ${typeof v}`} ${quoteText(jsonText(v), cap)}`;
}

/** The offender as the finding's value: absent, null and '' have none (nothing to quote or redact). */
function rawValue(row: Record<string, unknown>, column: string): string | undefined {
  if (isEmpty(row, column)) return undefined;
  const v = row[column];
  if (v === '') return undefined;
  return typeof v === 'string' ? v : jsonText(v);
}

function callRefOf(row: LedgerRow): string {
  return row.callId ? `call ${row.callId}` : 'a call with no recorded id';
}

export function resultColumns(input: ResultColumnsInput): CheckOutcome {
  const tally = emptyTally();
  const findings: Finding[] = [];
  const declared = Object.entries(input.declaration?.resultColumns ?? {});
  const { row } = input;
  if (declared.length === 0 || row.outcome === 'failed' || row.outcome === 'refused') {
    tally.notApplicable++;
    return { findings, tally };
  }
  if (row.result === undefined) {
    tally.unreachable++;
    tally.unreachableReasons[RESULT_NOT_CAPTURED] = 1;
    return { findings, tally };
  }
  const rows = row.reading.objectRows;
  // Zero rows belong to empty-lookup; prose, mixed lists and unknown objects are not a row set.
  if (!rows || rows.length === 0) {
    tally.notApplicable++;
    return { findings, tally };
  }
  const cap = input.quotedValueChars ?? DEFAULT_LIMITS.quotedValueChars;
  for (const [column, decl] of declared) {
    tally.checked++;
    if (!rows.some((r) => has(r, column))) {
      tally.findings++;
      findings.push(missingColumn(row, column, decl, rows, cap));
      continue;
    }
    let count = 0;
    let first = -1;
    for (let i = 0; i < rows.length; i++) {
      if (!offends(rows[i]!, column, decl)) continue;
      count++;
      if (first < 0) first = i;
    }
    if (count === 0) continue;
    tally.findings++;
    findings.push(typeMismatch(row, column, decl, rows, count, first, cap));
  }
  return { findings, tally };
}

function declaredText(decl: ColumnDeclaration): string {
  return `${decl.type}${decl.nullable ? ' (nullable)' : ''}`;
}

function missingColumn(row: LedgerRow, column: string, decl: ColumnDeclaration, rows: readonly Record<string, unknown>[], cap: number): Finding {
  const present: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue;
      seen.add(k);
      present.push(k);
    }
  }
  const listed = present.slice(0, MAX_LISTED_COLUMNS).map((k) => quoteText(k, cap));
  const more = present.length > MAX_LISTED_COLUMNS ? ` and ${present.length - MAX_LISTED_COLUMNS} more` : '';
  const theyHave = present.length > 0 ? `; the rows have ${listed.join(', ')}${more}` : '; the rows have no keys at all';
  const col = quoteText(column, cap);
  const rowsText = rows.length === 1 ? 'its one row does not have it' : `none of its ${rows.length} rows has it`;
  const witnesses: Witness[] = [
    { subject: `tool ${row.toolName}`, predicate: column, value: declaredText(decl), stratum: 'declared', provenance: `declared in resultColumns: '${col}' is ${declaredText(decl)}` },
    { subject: `tool ${row.toolName}`, predicate: column, value: col, stratum: 'absent', provenance: `${callRefOf(row)}: in none of ${rows.length} row(s)` },
  ];
  return {
    kind: MISSING_COLUMN,
    seam: 'write',
    subjects: [{ kind: 'tool', id: row.toolName }],
    predicate: column,
    message: `'${row.toolName}' (${callRefOf(row)}) declares a result column '${col}' (${declaredText(decl)}), but ${rowsText}${theyHave}. ${NOTHING_BLOCKED}`,
    witnesses,
    span: row.span,
    toolName: row.toolName,
    ...(row.callId ? { toolCallId: row.callId } : {}),
  };
}

function typeMismatch(
  row: LedgerRow,
  column: string,
  decl: ColumnDeclaration,
  rows: readonly Record<string, unknown>[],
  count: number,
  first: number,
  cap: number,
): Finding {
  const offender = rows[first]!;
  const got = describeValue(offender, column, cap);
  const col = quoteText(column, cap);
  const emptyOffender = isEmpty(offender, column);
  const nullableHint = emptyOffender ? ' If the column may be empty, declare it nullable: true.' : '';
  const value = rawValue(offender, column);
  const witnesses: Witness[] = [
    { subject: `tool ${row.toolName}`, predicate: column, value: declaredText(decl), stratum: 'declared', provenance: `declared in resultColumns: '${col}' is ${declaredText(decl)}` },
    {
      subject: `tool ${row.toolName}`,
      predicate: column,
      value: value === undefined ? '' : quoteText(value, cap),
      stratum: 'result',
      provenance: `${callRefOf(row)}: ${count} of ${rows.length} row(s) hold something else; first: row ${first + 1}, ${got}`,
    },
  ];
  const message =
    `'${row.toolName}' (${callRefOf(row)}) declares result column '${col}' as ${declaredText(decl)}, but ${count} of ${rows.length} row(s) hold something else; ` +
    `the first, row ${first + 1}, holds ${got}.${nullableHint} ${COLUMN_TYPE_CEILING} ${NOTHING_BLOCKED}`;
  return {
    kind: COLUMN_TYPE_MISMATCH,
    seam: 'write',
    subjects: [{ kind: 'tool', id: row.toolName }],
    predicate: column,
    ...(value !== undefined ? { value } : {}),
    message,
    witnesses,
    span: row.span,
    toolName: row.toolName,
    ...(row.callId ? { toolCallId: row.callId } : {}),
  };
}
