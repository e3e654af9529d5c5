// Totals and averages of a served column: "you spent 1,169.75 in March" is the sum of the
// `amount` of a transaction list's rows whose `date` falls in 2022-03, a sum of more served numbers
// than the bounded arithmetic search (derive.ts: at most three operands) ever tries. A result read
// as structure (structured.ts: JSON or a YAML dump) that holds a list of records gives, for each of
// its numeric fields, the total and the mean (of three numbers or more) over all rows, and over
// each group of rows that share a field's value (the same recipient, the same category) or a
// date's month. Only columns of at least two numbers are summed; every count is bounded. A
// candidate carries the words of its witness. Never grounds a value by itself: the caller compares a stated number
// against these as it does against served numbers. Pure: no I/O, no clocks.

import { readStructured } from './structured.js';

/** A total or mean of a served column, with what it sums. */
export interface ColumnAggregate {
  kind: 'sum' | 'mean';
  value: number;
  /** `sum of 'amount' over the 3 rows whose 'date' is in 2022-03`. */
  what: string;
  /** How many numbers it combines. */
  count: number;
}

/** Bounds of the search: rows of a list, lists of a result, groups a field makes, aggregates a result gives. */
export const AGGREGATE_LIMITS = { maxRows: 500, maxLists: 8, maxGroupsPerField: 32, maxAggregates: 512 } as const;

/** A mean of fewer numbers is an arithmetic step (`(a + b) / 2`) a stated number meets by chance too often. */
const MIN_MEAN_ROWS = 3;

const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
const DATE_PREFIX = /^(\d{4}-\d{2})-\d{2}(?:$|[T ])/;

/** A field's number: a JSON number, or a string written as a plain decimal numeral (a YAML scalar). */
export function fieldNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && PLAIN_NUMBER.test(v.trim())) return Number(v.trim());
  return undefined;
}

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Lists of records in the structure: the value itself, or a list under a top-level key. */
function listsOf(value: unknown): Row[][] {
  const out: Row[][] = [];
  const take = (v: unknown) => {
    if (Array.isArray(v) && v.length >= 2 && out.length < AGGREGATE_LIMITS.maxLists) {
      const rows = v.slice(0, AGGREGATE_LIMITS.maxRows).filter(isRow);
      if (rows.length >= 2) out.push(rows);
    }
  };
  take(value);
  if (isRow(value)) for (const v of Object.values(value)) take(v);
  return out;
}

const fmt = (n: number) => String(Math.round(n * 1e6) / 1e6);

/** The totals and means of every numeric column of every list of records `text` holds, as structure. */
export function columnAggregates(text: string): ColumnAggregate[] {
  const s = readStructured(text);
  if (!s) return [];
  const out: ColumnAggregate[] = [];
  const push = (a: ColumnAggregate) => {
    if (out.length < AGGREGATE_LIMITS.maxAggregates) out.push(a);
  };
  for (const rows of listsOf(s.value)) {
    const keys = new Set<string>();
    for (const r of rows) for (const k of Object.keys(r)) keys.add(k);
    // Group keys: a field whose values are strings (or a date's month), shared by two rows or more.
    const groupsOf = (k: string): Map<string, number[]> => {
      const g = new Map<string, number[]>();
      rows.forEach((r, i) => {
        const v = r[k];
        if (typeof v !== 'string' || v === '' || fieldNumber(v) !== undefined) return;
        const month = DATE_PREFIX.exec(v)?.[1];
        const label = month !== undefined ? `is in ${month}` : `is '${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
        const at = g.get(label);
        if (at) at.push(i);
        else if (g.size < AGGREGATE_LIMITS.maxGroupsPerField) g.set(label, [i]);
      });
      for (const [label, at] of g) if (at.length < 2 || at.length === rows.length) g.delete(label);
      return g;
    };
    const groups = [...keys].map((k) => [k, groupsOf(k)] as const).filter(([, g]) => g.size > 0);
    for (const k of keys) {
      const values = rows.map((r) => fieldNumber(r[k]));
      const present = values.filter((v): v is number => v !== undefined);
      if (present.length < 2) continue;
      const total = present.reduce((a, b) => a + b, 0);
      push({ kind: 'sum', value: total, what: `sum of '${k}' over ${present.length} rows (${present.map(fmt).join(' + ')})`, count: present.length });
      if (present.length >= MIN_MEAN_ROWS) push({ kind: 'mean', value: total / present.length, what: `mean of '${k}' over ${present.length} rows`, count: present.length });
      for (const [g, byLabel] of groups) {
        if (g === k) continue;
        for (const [label, at] of byLabel) {
          const part = at.map((i) => values[i]).filter((v): v is number => v !== undefined);
          if (part.length < 2) continue;
          const sum = part.reduce((a, b) => a + b, 0);
          push({ kind: 'sum', value: sum, what: `sum of '${k}' over the ${part.length} rows whose '${g}' ${label} (${part.map(fmt).join(' + ')})`, count: part.length });
          if (part.length >= MIN_MEAN_ROWS) push({ kind: 'mean', value: sum / part.length, what: `mean of '${k}' over the ${part.length} rows whose '${g}' ${label}`, count: part.length });
        }
      }
    }
  }
  return out;
}
