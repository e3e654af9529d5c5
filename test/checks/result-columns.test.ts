// Pins checks `missing-column` and `column-type-mismatch` (check `result-columns`) and every fence:
// a declared column in no row is missing (and never also a mismatch); wrong-typed or empty values
// are counted over every row with the first offender quoted; the four types (number finite,
// string any, boolean true/false, date a Date.parse-able string, numbers refused); nullable lets
// null and absent pass; unlisted columns are never judged; zero rows, prose, mixed lists, failed
// and refused calls are not applicable; an uncaptured result is unreachable; and no declaration
// means no finding at all.
import { describe, it, expect } from 'vitest';
import { resultColumns, fitsColumnType, COLUMN_TYPE_CEILING } from '../../src/checks/result-columns.js';
import { ledgerRowOf } from '../../src/runs/ledger-row.js';
import type { ToolExecution } from '../../src/model/agent.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';
import { findingToEvent } from '../../src/findings/events.js';

const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '5b6c7d8e9fa0b1c2' };

const DECL: ToolDeclaration = {
  resultColumns: {
    machine_id: { type: 'string' },
    size_gb: { type: 'number' },
    encrypted: { type: 'boolean' },
    last_success: { type: 'date', nullable: true },
  },
};

const GOOD = [
  { machine_id: 'srv-db-04', job: 'nightly-db-full', size_gb: 412.5, encrypted: true, last_success: '2026-09-25T23:10:00Z' },
  { machine_id: 'srv-web-11', job: 'nightly-web-inc', size_gb: 18, encrypted: false, last_success: null },
];

function row(result: unknown, over: Partial<ToolExecution> = {}, declaration: ToolDeclaration | undefined = DECL) {
  const execution: ToolExecution = {
    kind: 'tool-execution',
    span,
    convention: 'genai-semconv',
    tenant: 'acme',
    callId: 'call_bj_002',
    toolName: 'backup_jobs',
    arguments: { site: 'fra-1' },
    result,
    status: 'ok',
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    ...over,
  };
  return ledgerRowOf(execution, declaration, 2);
}

function run(result: unknown, declaration: ToolDeclaration | undefined = DECL, over: Partial<ToolExecution> = {}) {
  return resultColumns({ row: row(result, over, declaration), declaration });
}

describe('unit: result-columns and every fence', () => {
  it('well-typed rows: every declared column a checked pass', () => {
    const out = run(JSON.stringify(GOOD));
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ check: 'result-columns', seam: 'write', checked: 4, findings: 0, notApplicable: 0, unreachable: 0 });
  });

  it('missing-column: a declared column in no row, naming the columns the rows do have', () => {
    const rows = GOOD.map(({ size_gb: _s, ...rest }) => rest);
    const out = run(rows);
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'missing-column', seam: 'write', subjects: [{ kind: 'tool', id: 'backup_jobs' }], predicate: 'size_gb', toolName: 'backup_jobs', toolCallId: 'call_bj_002', span });
    expect(f.message).toBe(
      "'backup_jobs' (call call_bj_002) declares a result column 'size_gb' (number), but none of its 2 rows has it; the rows have machine_id, job, encrypted, last_success. Nothing here blocked the result.",
    );
    expect(f.witnesses.map((w) => w.stratum)).toEqual(['declared', 'absent']);
    expect(out.tally).toMatchObject({ checked: 4, findings: 1 });
  });

  it('missing-column is judged first and never also reported as a mismatch, even when nullable', () => {
    const out = run([{ machine_id: 'srv-db-04', size_gb: 1, encrypted: true }]);
    expect(out.findings.map((f) => [f.kind, f.predicate])).toEqual([['missing-column', 'last_success']]);
    expect(out.findings[0]!.message).toContain('but its one row does not have it');
  });

  it('column-type-mismatch: counted over every row, the first offender quoted', () => {
    const rows = [
      ...GOOD,
      { machine_id: 'srv-app-02', size_gb: '0.0 GB', encrypted: true, last_success: null },
      { machine_id: 'srv-app-03', size_gb: '12', encrypted: true, last_success: null },
    ];
    const out = run(rows);
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'column-type-mismatch', predicate: 'size_gb', value: '0.0 GB' });
    expect(f.message).toBe(
      `'backup_jobs' (call call_bj_002) declares result column 'size_gb' as number, but 2 of 4 row(s) hold something else; the first, row 3, holds the string "0.0 GB". ${COLUMN_TYPE_CEILING} Nothing here blocked the result.`,
    );
    expect(f.witnesses[1]).toMatchObject({ stratum: 'result', value: '0.0 GB' });
    expect(f.witnesses[1]!.provenance).toContain('2 of 4 row(s)');
    expect(f.advisory).toBeUndefined();
  });

  it('an empty value (absent or null) in a non-nullable column is a mismatch, with the nullable hint', () => {
    const absent = run([GOOD[0], { machine_id: 'srv-web-11', size_gb: 18, last_success: null }]).findings[0]!;
    expect(absent).toMatchObject({ kind: 'column-type-mismatch', predicate: 'encrypted' });
    expect(absent.value).toBeUndefined();
    expect(absent.message).toContain('the first, row 2, holds no value (the key is absent). If the column may be empty, declare it nullable: true.');
    const nulled = run([{ ...GOOD[0], machine_id: null }]).findings[0]!;
    expect(nulled.message).toContain('holds null. If the column may be empty');
    expect(nulled.value).toBeUndefined();
  });

  it('nullable: null and absent pass, a wrong type still fails', () => {
    expect(run([{ ...GOOD[0], last_success: null }, GOOD[0]]).findings).toEqual([]);
    const { last_success: _l, ...noDate } = GOOD[0]!;
    expect(run([noDate, GOOD[0]]).findings).toEqual([]);
    const f = run([{ ...GOOD[0], last_success: 'never' }]).findings[0]!;
    expect(f.message).toContain("as date (nullable), but 1 of 1 row(s)");
    expect(f.message).not.toContain('declare it nullable');
  });

  it('LUN 0 stored as the empty string is caught in a number column', () => {
    const f = run([{ ...GOOD[0], size_gb: '' }]).findings[0]!;
    expect(f.message).toContain('holds an empty string ""');
    expect(f.value).toBeUndefined();
  });

  it('types: number is finite; string is any string; boolean is true or false', () => {
    expect(fitsColumnType(0, 'number')).toBe(true);
    expect(fitsColumnType(-3.5, 'number')).toBe(true);
    expect(fitsColumnType(NaN, 'number')).toBe(false);
    expect(fitsColumnType(Infinity, 'number')).toBe(false);
    expect(fitsColumnType('42', 'number')).toBe(false);
    expect(fitsColumnType('', 'string')).toBe(true);
    expect(fitsColumnType(42, 'string')).toBe(false);
    expect(fitsColumnType(true, 'boolean')).toBe(true);
    expect(fitsColumnType('true', 'boolean')).toBe(false);
    expect(fitsColumnType(1, 'boolean')).toBe(false);
  });

  it('types: date is a non-blank string Date.parse accepts; numbers are refused', () => {
    for (const v of ['2026-09-25T23:10:00Z', '2026-09-25', 'Sep 25 2026', '2024']) expect(fitsColumnType(v, 'date'), v).toBe(true);
    for (const v of ['never', 'N/A', '', '  ', 1790000000000, 1790000000, true]) expect(fitsColumnType(v, 'date'), String(v)).toBe(false);
  });

  it('non-scalar offenders are described and quoted', () => {
    const out = run([{ ...GOOD[0], machine_id: ['srv-db-04'] }, { ...GOOD[1], encrypted: { value: true } }]);
    expect(out.findings.map((f) => f.message.match(/holds (an \w+ \S+)/)?.[1])).toEqual(['an array ["srv-db-04"].', 'an object {"value":true}.']);
  });

  it('fence: unlisted columns are never judged', () => {
    expect(run([{ ...GOOD[0], job: 42, extra: null }]).findings).toEqual([]);
  });

  it('rows from a coverage ledger and from a declared rowsAt are judged too', () => {
    expect(run({ af_coverage: { checked: [{ what: 'site fra-1' }] }, result: [{ ...GOOD[0], size_gb: 'n/a' }] }).findings).toHaveLength(1);
    const decl: ToolDeclaration = { ...DECL, rowsAt: 'jobs' };
    expect(run({ site: 'fra-1', jobs: [{ ...GOOD[0], size_gb: 'n/a' }] }, decl).findings).toHaveLength(1);
  });

  it('rowsAt as a dotted path or a JSON pointer reaches nested rows', () => {
    const nested = { data: { items: [{ ...GOOD[0], size_gb: 'n/a' }, GOOD[1]], next_cursor: null }, meta: { page: 1 } };
    for (const rowsAt of ['data.items', '/data/items']) {
      const out = run(nested, { ...DECL, rowsAt });
      expect(out.findings.map((f) => [f.kind, f.predicate]), rowsAt).toEqual([['column-type-mismatch', 'size_gb']]);
      expect(out.tally.checked).toBe(4);
    }
    // Array steps, pointer escapes, and a literal dotted key winning over the path it reads as.
    expect(run({ pages: [{ items: [{ ...GOOD[0], encrypted: 'yes' }] }] }, { ...DECL, rowsAt: 'pages.0.items' }).findings).toHaveLength(1);
    expect(run({ 'a/b': { items: [{ ...GOOD[0], encrypted: 'yes' }] } }, { ...DECL, rowsAt: '/a~1b/items' }).findings).toHaveLength(1);
    expect(run({ 'data.items': [{ ...GOOD[0], encrypted: 'yes' }], data: { items: GOOD } }, { ...DECL, rowsAt: 'data.items' }).findings).toHaveLength(1);
  });

  it('fence: a rowsAt path that leads nowhere or to a non-list is not a row set', () => {
    for (const rowsAt of ['data.rows', '/data/items/0', 'data.items.length']) {
      const out = run({ data: { items: [{ ...GOOD[0], size_gb: 'n/a' }] } }, { ...DECL, rowsAt });
      expect(out.findings, rowsAt).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
    }
  });

  it('fence: zero rows are not applicable (they belong to empty-lookup)', () => {
    for (const result of ['[]', { af_coverage: {}, result: [] }, { af_absent: true, looked_for: 'jobs for srv-db-04', checked: [{ what: 'the scheduler' }] }]) {
      const out = run(result);
      expect(out.findings).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
    }
  });

  it('fence: prose, unknown objects, mixed lists and lists of scalars are not a row set', () => {
    for (const result of ['srv-db-04: 412 GB', { jobs: [GOOD[0]] }, [GOOD[0], 'srv-web-11'], ['srv-db-04']]) {
      const out = run(result);
      expect(out.findings).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
    }
  });

  it('failed and refused calls are not applicable', () => {
    expect(run(GOOD, DECL, { status: 'error' }).tally).toMatchObject({ checked: 0, notApplicable: 1 });
    const decl: ToolDeclaration = { ...DECL, rowsAt: 'jobs' };
    // Issue 9 §3: a status beside non-empty rows is data, so the refusal here is an error envelope.
    expect(run({ status: 'denied', error: 'tenant acme may not read jobs', jobs: [] }, decl).tally).toMatchObject({ checked: 0, notApplicable: 1 });
  });

  it('result not captured: unreachable, never a pass', () => {
    expect(run(undefined).tally).toMatchObject({ checked: 0, unreachable: 1, unreachableReasons: { 'the tool result was not captured': 1 } });
  });

  it('quotes and caps the first offender', () => {
    const long = `n/a ${'x'.repeat(200)}`;
    const out = resultColumns({ row: row([{ ...GOOD[0], size_gb: long }]), declaration: DECL, quotedValueChars: 8 });
    expect(out.findings[0]!.message).toContain('holds the string "n/a xxxx…"');
    expect(out.findings[0]!.value).toBe(long);
  });

  it('under redaction the value is hashed in the message; empty offenders carry no value to mangle the hint', () => {
    const o = { redaction: 'hash' as const, quotedValueChars: 64, maxAttributeBytes: 2000 };
    const typed = findingToEvent(run([{ ...GOOD[0], size_gb: '0.0 GB' }]).findings[0]!, 0n, o).attributes;
    expect(typed['footprint.finding.message']).not.toContain('0.0 GB');
    expect(typed['footprint.finding.value']).toMatch(/^sha256:/);
    const nulled = findingToEvent(run([{ ...GOOD[0], encrypted: null }]).findings[0]!, 0n, o).attributes;
    expect(nulled['footprint.finding.message']).toContain('holds null. If the column may be empty, declare it nullable: true.');
    expect(nulled['footprint.finding.value']).toBeUndefined();
  });

  it('zero delta: with no declaration there is no finding, not applicable', () => {
    const bad = [{ machine_id: 7, size_gb: 'lots' }];
    for (const decl of [undefined, {}, { resultColumns: {} }, { argumentsFrom: ['list_machines'] }] as (ToolDeclaration | undefined)[]) {
      const out = resultColumns({ row: row(bad, {}, decl), declaration: decl });
      expect(out.findings).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 1, unreachable: 0, unreachableReasons: {} });
    }
  });
});
