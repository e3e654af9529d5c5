// Quality cases for `result-columns` (issue 9 §6): declared result columns judged over the rows,
// including rows at a nested `rowsAt` path (`data.items`).

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, declarations, declare, offer } from './common.js';

const COLUMNS = { machine_id: 'string', size_gb: 'number', last_backup: 'date' };
const base = { system: BACKUP_SYSTEM, tools: offer('storage_usage') };
const user = 'How much storage does acme use per machine?';

export const COLUMN_CASES: CaseSpec[] = [
  {
    name: 'rc-defect-renamed-column',
    shape: 'traceloop',
    check: 'result-columns',
    class: 'a declared column no row has (the tool renamed last_backup to last_verified)',
    kind: 'defect',
    note: 'Every row carries last_verified instead of the declared last_backup.',
    expect: [{ check: 'result-columns', kind: 'missing-column', tool: 'storage_usage', value: 'last_backup' }],
    ...base,
    declarations: declarations([declare('storage_usage', { resultColumns: COLUMNS })]),
    turns: [
      {
        user,
        steps: [{ calls: [{ name: 'storage_usage', args: { customer: 'acme' }, result: [{ machine_id: 'srv-db-04', size_gb: 1840, last_verified: '2026-11-30' }, { machine_id: 'srv-web-11', size_gb: 96.5, last_verified: '2026-11-29' }] }] }],
        answer: 'srv-db-04 uses 1840 GB and srv-web-11 uses 96.5 GB.',
      },
    ],
  },
  {
    name: 'rc-defect-number-as-string',
    shape: 'vercel',
    check: 'result-columns',
    class: 'a number column holding quoted strings ("1840")',
    kind: 'defect',
    note: 'Two of three rows serve size_gb as a string; sorting and sums downstream break.',
    expect: [{ check: 'result-columns', kind: 'column-type-mismatch', tool: 'storage_usage', value: 'size_gb' }],
    ...base,
    declarations: declarations([declare('storage_usage', { resultColumns: COLUMNS })]),
    turns: [
      {
        user,
        steps: [
          {
            calls: [
              {
                name: 'storage_usage',
                args: { customer: 'acme' },
                result: [
                  { machine_id: 'srv-db-04', size_gb: '1840', last_backup: '2026-11-30T02:00:00Z' },
                  { machine_id: 'srv-web-11', size_gb: '96.5', last_backup: '2026-11-29T02:00:00Z' },
                  { machine_id: 'srv-app-02', size_gb: 310, last_backup: '2026-11-30T03:00:00Z' },
                ],
              },
            ],
          },
        ],
        answer: 'srv-db-04 uses 1840 GB, srv-web-11 96.5 GB and srv-app-02 310 GB.',
      },
    ],
  },
  {
    name: 'rc-defect-rowsat-nested-path',
    shape: 'otel-logs',
    check: 'result-columns',
    class: '`rowsAt: data.items` (a dotted path) reaches the rows, and a bad date column is reported',
    kind: 'defect',
    note: 'The API wraps rows as {"data":{"items":[…]}}; last_backup holds "never" in one row.',
    expect: [{ check: 'result-columns', kind: 'column-type-mismatch', tool: 'storage_usage', value: 'last_backup' }],
    ...base,
    declarations: declarations([declare('storage_usage', { resultColumns: COLUMNS, rowsAt: 'data.items' })]),
    turns: [
      {
        user,
        steps: [
          {
            calls: [
              {
                name: 'storage_usage',
                args: { customer: 'acme' },
                result: { data: { items: [{ machine_id: 'srv-db-04', size_gb: 1840, last_backup: '2026-11-30T02:00:00Z' }, { machine_id: 'srv-web-11', size_gb: 96.5, last_backup: 'never' }] }, page: 1 },
              },
            ],
          },
        ],
        answer: 'srv-db-04 uses 1840 GB (last backup 2026-11-30T02:00:00Z); srv-web-11 uses 96.5 GB and has never been backed up.',
      },
    ],
  },
  {
    name: 'rc-clean-rowsat-nested-path',
    shape: 'traceloop',
    check: 'result-columns',
    class: '`rowsAt: data.items` with well-typed rows stays silent',
    kind: 'clean',
    note: 'Every declared column is present and typed under data.items.',
    expect: [],
    ...base,
    declarations: declarations([declare('storage_usage', { resultColumns: COLUMNS, rowsAt: 'data.items' })]),
    turns: [
      {
        user,
        steps: [
          {
            calls: [
              {
                name: 'storage_usage',
                args: { customer: 'acme' },
                result: { data: { items: [{ machine_id: 'srv-db-04', size_gb: 1840, last_backup: '2026-11-30T02:00:00Z' }, { machine_id: 'srv-web-11', size_gb: 96.5, last_backup: '2026-11-29T02:00:00Z' }] }, page: 1 },
              },
            ],
          },
        ],
        answer: 'srv-db-04 uses 1840 GB and srv-web-11 uses 96.5 GB; both were backed up in the last two days.',
      },
    ],
  },
  {
    name: 'rc-clean-nullable-and-extra',
    shape: 'vercel',
    check: 'result-columns',
    class: 'a nullable column holding null, and extra undeclared columns, stay silent',
    kind: 'clean',
    note: 'last_backup is declared nullable; region is not declared and never judged.',
    expect: [],
    ...base,
    declarations: declarations([declare('storage_usage', { resultColumns: { machine_id: 'string', size_gb: 'number', last_backup: { type: 'date', nullable: true } } })]),
    turns: [
      {
        user,
        steps: [
          {
            calls: [
              {
                name: 'storage_usage',
                args: { customer: 'acme' },
                result: [
                  { machine_id: 'srv-db-04', size_gb: 1840, last_backup: '2026-11-30T02:00:00Z', region: 'fra-1' },
                  { machine_id: 'srv-lab-09', size_gb: 12, last_backup: null, region: 'fra-1' },
                ],
              },
            ],
          },
        ],
        answer: 'srv-db-04 uses 1840 GB; srv-lab-09 uses 12 GB and has not been backed up yet.',
      },
    ],
  },
];
