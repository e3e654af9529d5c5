// Pins the one result reader: bare arrays counted ([] undeclared-empty, object rows only when every
// element is a plain object), JSON text parsed up to the byte bound and not beyond, the absence
// envelope, the coverage ledger (its result read by the same routes, an empty wrapped list a
// declared absence, nesting to depth 8), the described result (facts and series flattened), the
// declared rowsAt key, refusals the result states about itself, and that anything else — prose,
// unknown objects, null — reads unknown. Every malformed envelope is plain data with the reason
// recorded, never half-read.
import { describe, it, expect } from 'vitest';
import { readToolResult, settledFacts, MAX_COVERAGE_NESTING } from '../../src/runs/result-reader.js';
import type { ResultReading } from '../../src/model/ledger.js';

const MACHINES = [
  { machine_id: 'srv-db-04', site: 'fra-1', last_backup: '2026-09-25T23:10:00Z' },
  { machine_id: 'srv-web-11', site: 'fra-1', last_backup: '2026-09-25T23:40:00Z' },
];

const ABSENCE = {
  af_absent: true,
  outcome: 'nothing_found',
  looked_for: 'backup jobs for srv-db-04',
  checked: [{ what: 'the job scheduler of site fra-1' }, { what: 'window: the last 30 days', why: 'job history retention' }],
  not_checked: [{ what: 'the archived job history', why: 'older than 30 days', kind: 'existence', short: 'archived history' }],
  cannot_cover: [{ what: 'jobs scheduled on the DR site', why: 'this collector is scoped to one site' }],
  retry_returns_the_same: true,
  try_instead: 'Ask for the DR site by name.',
  try_instead_tool: { tool: 'list_machines', why: 'it lists machines of both sites' },
  period: {
    queried: { from: '2026-09-26T09:00:00Z', to: '2026-09-26T10:00:00Z' },
    held: { from: '2026-08-27T02:00:00Z', to: '2026-09-26T02:00:00Z' },
    read_at: '2026-09-26T10:00:03Z',
  },
  provenance: { source: 'backup scheduler API', measured_at: '2026-09-26T10:00:00Z' },
  note: 'A declared absence: what was looked for and where.',
};

/** A refused envelope carries nothing of the envelope: no half-read. */
function expectPlain(r: ResultReading, reason: RegExp): void {
  expect(r.envelopeRefused).toMatch(reason);
  expect(r.emptiness).toBe('unknown');
  expect(r.shape).toBe('object');
  expect(r.absence).toBeUndefined();
  expect(r.coverage).toBeUndefined();
  expect(r.period).toBeUndefined();
  expect(r.facts).toBeUndefined();
  expect(r.provenance).toBeUndefined();
}

describe('unit: bare arrays', () => {
  it('[] is undeclared-empty with zero rows', () => {
    expect(readToolResult([])).toEqual({ emptiness: 'undeclared-empty', rows: 0, shape: 'array' });
    expect(readToolResult('[]')).toEqual({ emptiness: 'undeclared-empty', rows: 0, shape: 'array' });
  });

  it('rows are counted; object rows kept only when every element is a plain object', () => {
    const r = readToolResult(JSON.stringify(MACHINES));
    expect(r).toMatchObject({ emptiness: 'non-empty', rows: 2, shape: 'array' });
    expect(r.objectRows).toEqual(MACHINES);
    const mixed = readToolResult([{ machine_id: 'srv-db-04' }, 'srv-web-11', null]);
    expect(mixed).toMatchObject({ emptiness: 'non-empty', rows: 3 });
    expect(mixed.objectRows).toBeUndefined();
    expect(readToolResult([['srv-db-04']]).objectRows).toBeUndefined();
    expect(readToolResult(['srv-db-04', 'srv-web-11'])).toEqual({ emptiness: 'non-empty', rows: 2, shape: 'array' });
  });

  it('JSON text is parsed with leading blanks; broken JSON is text', () => {
    expect(readToolResult('  \n[{"machine_id":"srv-db-04"}]').rows).toBe(1);
    expect(readToolResult('[{"machine_id":"srv-db-04"}')).toEqual({ emptiness: 'unknown', shape: 'text' });
  });

  it('bound: JSON text over the byte bound is not parsed (text, unknown)', () => {
    const text = JSON.stringify(MACHINES);
    expect(readToolResult(text, undefined, { maxParsedBytes: text.length - 1 })).toEqual({ emptiness: 'unknown', shape: 'text' });
    expect(readToolResult(text, undefined, { maxParsedBytes: text.length }).rows).toBe(2);
    // Bytes, not UTF-16 units: 'é' is two bytes.
    const accented = '["é"]';
    expect(readToolResult(accented, undefined, { maxParsedBytes: 5 }).shape).toBe('text');
    expect(readToolResult(accented, undefined, { maxParsedBytes: 6 }).shape).toBe('array');
  });

  it('bound: the default is 4 MiB', () => {
    const big = `[${'"srv-db-04",'.repeat(Math.ceil((4 * 1024 * 1024) / 12))}"x"]`;
    expect(readToolResult(big)).toEqual({ emptiness: 'unknown', shape: 'text' });
    const fits = `[${'"srv-db-04",'.repeat(1000)}"x"]`;
    expect(readToolResult(fits).rows).toBe(1001);
  });
});

describe('unit: anything else is unknown, never guessed', () => {
  it('prose, JSON scalars in text, null, undefined, numbers', () => {
    expect(readToolResult('No backups found for srv-db-04.')).toEqual({ emptiness: 'unknown', shape: 'text' });
    expect(readToolResult('42')).toEqual({ emptiness: 'unknown', shape: 'text' });
    expect(readToolResult('null')).toEqual({ emptiness: 'unknown', shape: 'text' });
    expect(readToolResult('')).toEqual({ emptiness: 'unknown', shape: 'text' });
    expect(readToolResult(null)).toEqual({ emptiness: 'unknown', shape: 'none' });
    expect(readToolResult(undefined)).toEqual({ emptiness: 'unknown', shape: 'none' });
    expect(readToolResult(0)).toEqual({ emptiness: 'unknown', shape: 'text' });
    expect(readToolResult(false)).toEqual({ emptiness: 'unknown', shape: 'text' });
  });

  it('objects of unknown shape, including a rows wrapper nobody declared', () => {
    expect(readToolResult({ machines: [] })).toEqual({ emptiness: 'unknown', shape: 'object' });
    expect(readToolResult('{"rows":[],"total":0}')).toEqual({ emptiness: 'unknown', shape: 'object' });
  });

  it('a JSON string holding JSON text is not parsed twice', () => {
    expect(readToolResult(JSON.stringify('[]'))).toEqual({ emptiness: 'unknown', shape: 'text' });
  });
});

describe('unit: declared rowsAt', () => {
  const decl = { rowsAt: 'jobs' };
  it('counts the rows at the declared key', () => {
    const r = readToolResult({ machine_id: 'srv-db-04', jobs: [{ job: 'nightly-db-full', status: 'ok' }] }, decl);
    expect(r).toMatchObject({ emptiness: 'non-empty', rows: 1, shape: 'rows-at', objectRows: [{ job: 'nightly-db-full', status: 'ok' }] });
    expect(readToolResult('{"machine_id":"srv-db-04","jobs":[]}', decl)).toEqual({ emptiness: 'undeclared-empty', rows: 0, shape: 'rows-at' });
  });

  it('the key absent, not an array, or nothing declared → unknown', () => {
    expect(readToolResult({ machine_id: 'srv-db-04' }, decl)).toEqual({ emptiness: 'unknown', shape: 'object' });
    expect(readToolResult({ jobs: 'none' }, decl)).toEqual({ emptiness: 'unknown', shape: 'object' });
    expect(readToolResult({ jobs: [] })).toEqual({ emptiness: 'unknown', shape: 'object' });
    expect(readToolResult({ jobs: [] }, { argumentsFrom: ['list_machines'] })).toEqual({ emptiness: 'unknown', shape: 'object' });
  });

  it('a bare array is read as an array whatever rowsAt says', () => {
    expect(readToolResult([], decl)).toEqual({ emptiness: 'undeclared-empty', rows: 0, shape: 'array' });
  });
});

describe('unit: the absence envelope', () => {
  it('reads every part, snake_case wire to camelCase reading, with the period verdict', () => {
    const r = readToolResult(JSON.stringify(ABSENCE));
    expect(r).toEqual({
      emptiness: 'declared-absent',
      shape: 'absence',
      absence: {
        lookedFor: 'backup jobs for srv-db-04',
        tryInstead: 'Ask for the DR site by name.',
        tryInsteadTool: { tool: 'list_machines', why: 'it lists machines of both sites' },
      },
      coverage: {
        checked: [{ what: 'the job scheduler of site fra-1' }, { what: 'window: the last 30 days', why: 'job history retention' }],
        notChecked: [{ what: 'the archived job history', why: 'older than 30 days', kind: 'existence', short: 'archived history' }],
        cannotCover: [{ what: 'jobs scheduled on the DR site', why: 'this collector is scoped to one site' }],
      },
      period: { queried: ABSENCE.period.queried, held: ABSENCE.period.held, readAt: '2026-09-26T10:00:03Z', verdict: 'not-held' },
      provenance: { source: 'backup scheduler API', measuredAt: '2026-09-26T10:00:00Z' },
    });
  });

  it('the minimal envelope: af_absent, looked_for and one checked item', () => {
    const r = readToolResult({ af_absent: true, looked_for: 'machine srv-db-99', checked: [{ what: 'the CMDB' }] });
    expect(r).toEqual({
      emptiness: 'declared-absent',
      shape: 'absence',
      absence: { lookedFor: 'machine srv-db-99' },
      coverage: { checked: [{ what: 'the CMDB' }], notChecked: [], cannotCover: [] },
    });
  });

  it('held unknown reads period verdict unknown', () => {
    const r = readToolResult({ ...ABSENCE, period: { queried: ABSENCE.period.queried, held: 'unknown' } });
    expect(r.period).toEqual({ queried: ABSENCE.period.queried, held: 'unknown', verdict: 'unknown' });
  });

  const malformed: [string, Record<string, unknown>, RegExp][] = [
    ['empty checked', { ...ABSENCE, checked: [] }, /checked: must list at least one thing/],
    ['checked missing', { af_absent: true, looked_for: 'x-0001' }, /checked/],
    ['checked not a list', { ...ABSENCE, checked: 'the CMDB' }, /checked/],
    ['a blank what', { ...ABSENCE, checked: [{ what: '  ' }] }, /checked\.0\.what: must be a non-blank string/],
    ['looked_for missing', { af_absent: true, checked: [{ what: 'the CMDB' }] }, /looked_for/],
    ['a cannot_cover item without why', { ...ABSENCE, cannot_cover: [{ what: 'the DR site' }] }, /cannot_cover\.0\.why: every cannot_cover item needs a why/],
    ['a cannot_cover item with a blank why', { ...ABSENCE, cannot_cover: [{ what: 'the DR site', why: ' ' }] }, /every cannot_cover item needs a why/],
    ['a period instant without a zone', { ...ABSENCE, period: { ...ABSENCE.period, queried: { from: '2026-09-26T09:00:00', to: '2026-09-26T10:00:00Z' } } }, /period\.queried\.from: must be an ISO-8601 date-time with a zone/],
    ['a held range running backwards', { ...ABSENCE, period: { ...ABSENCE.period, held: { from: '2026-09-26T02:00:00Z', to: '2026-08-27T02:00:00Z' } } }, /period\.held/],
    ['a duration instead of an instant', { ...ABSENCE, period: { queried: { from: '2h', to: '2026-09-26T10:00:00Z' }, held: 'unknown' } }, /period\.queried\.from/],
    ['a mis-cased key', { ...ABSENCE, notChecked: [] }, /notChecked: unknown key \(did you mean "not_checked"\?\)/],
    ['kind on a checked item', { ...ABSENCE, checked: [{ what: 'the CMDB', kind: 'scope' }] }, /checked\.0: kind: unknown key|checked\.0\.kind: unknown key/],
    ['an unknown kind', { ...ABSENCE, not_checked: [{ what: 'archive', kind: 'time' }] }, /not_checked\.0\.kind/],
    ['short longer than 80', { ...ABSENCE, not_checked: [{ what: 'x'.repeat(100), short: 'y'.repeat(81) }] }, /short: must be at most 80 characters/],
    ['short on two lines', { ...ABSENCE, not_checked: [{ what: 'the archived job history', short: 'archived\nhistory' }] }, /short: must be one line/],
    ['short longer than what', { ...ABSENCE, not_checked: [{ what: 'archive', short: 'archived history' }] }, /short must not be longer than what/],
    ['af_absent not literally true', { ...ABSENCE, af_absent: 'true' }, /af_absent/],
    ['af_absent false', { ...ABSENCE, af_absent: false }, /af_absent/],
    ['try_instead_tool without a tool', { ...ABSENCE, try_instead_tool: { why: 'it lists both sites' } }, /try_instead_tool\.tool/],
  ];
  for (const [name, envelope, reason] of malformed) {
    it(`malformed (${name}) is plain data with the reason, never half-read`, () => {
      expectPlain(readToolResult(envelope), reason);
      expectPlain(readToolResult(JSON.stringify(envelope)), reason);
    });
  }

  it('the refusal reason names at most three problems and says how many more', () => {
    const r = readToolResult({ af_absent: true, looked_for: '', checked: [], a: 1, b: 2, c: 3 });
    expect(r.envelopeRefused).toMatch(/^absence envelope \(af_absent\) refused, read as plain data: /);
    expect(r.envelopeRefused).toMatch(/and \d+ more$/);
  });

  it('a refused envelope is still plain data: a declared rowsAt there is read', () => {
    const r = readToolResult({ af_absent: true, looked_for: 'jobs', checked: [], jobs: [] }, { rowsAt: 'jobs' });
    expect(r).toMatchObject({ emptiness: 'undeclared-empty', shape: 'rows-at', rows: 0 });
    expect(r.envelopeRefused).toMatch(/checked/);
  });
});

describe('unit: the coverage ledger', () => {
  const lists = {
    checked: [{ what: 'site fra-1' }],
    not_checked: [{ what: 'site ams-2', why: 'collector offline', kind: 'scope' }],
    cannot_cover: [{ what: 'tape archives', why: 'not indexed' }],
    note: 'what was and was not searched',
  };
  const coverage = {
    checked: [{ what: 'site fra-1' }],
    notChecked: [{ what: 'site ams-2', why: 'collector offline', kind: 'scope' }],
    cannotCover: [{ what: 'tape archives', why: 'not indexed' }],
  };

  it('records the lists and reads result rows by the same routes', () => {
    const r = readToolResult({ af_coverage: lists, result: MACHINES });
    expect(r).toEqual({ emptiness: 'non-empty', rows: 2, shape: 'coverage', objectRows: MACHINES, coverage });
  });

  it('an empty wrapped list reads declared-absent', () => {
    expect(readToolResult(JSON.stringify({ af_coverage: lists, result: [] }))).toEqual({ emptiness: 'declared-absent', rows: 0, shape: 'coverage', coverage });
    expect(readToolResult({ af_coverage: lists, result: { jobs: [] } }, { rowsAt: 'jobs' }).emptiness).toBe('declared-absent');
  });

  it('a wrapped JSON text result is parsed; wrapped prose stays unknown', () => {
    expect(readToolResult({ af_coverage: {}, result: '[]' })).toMatchObject({ emptiness: 'declared-absent', shape: 'coverage' });
    expect(readToolResult({ af_coverage: {}, result: 'All backups are fine.' })).toEqual({
      emptiness: 'unknown',
      shape: 'coverage',
      coverage: { checked: [], notChecked: [], cannotCover: [] },
    });
  });

  it('a wrapped absence: declared-absent, absence kept, outer lists first then the absence\'s, duplicates once', () => {
    const r = readToolResult({ af_coverage: { checked: [{ what: 'site fra-1' }, { what: 'the job scheduler of site fra-1' }] }, result: ABSENCE });
    expect(r.shape).toBe('coverage');
    expect(r.emptiness).toBe('declared-absent');
    expect(r.absence?.lookedFor).toBe('backup jobs for srv-db-04');
    expect(r.period?.verdict).toBe('not-held');
    expect(r.coverage?.checked.map((c) => c.what)).toEqual(['site fra-1', 'the job scheduler of site fra-1', 'window: the last 30 days']);
  });

  it('a wrapped malformed absence is plain data inside a valid ledger', () => {
    const r = readToolResult({ af_coverage: lists, result: { af_absent: true, looked_for: 'jobs', checked: [] } });
    expect(r).toMatchObject({ emptiness: 'unknown', shape: 'coverage', coverage });
    expect(r.envelopeRefused).toMatch(/absence envelope/);
    expect(r.absence).toBeUndefined();
  });

  it(`nests to depth ${MAX_COVERAGE_NESTING}; one deeper is plain data`, () => {
    const wrap = (depth: number): unknown => {
      let v: unknown = [];
      for (let i = 0; i < depth; i++) v = { af_coverage: { checked: [{ what: `level ${depth - i}` }] }, result: v };
      return v;
    };
    const deep = readToolResult(wrap(MAX_COVERAGE_NESTING));
    expect(deep).toMatchObject({ emptiness: 'declared-absent', shape: 'coverage' });
    expect(deep.coverage?.checked).toHaveLength(MAX_COVERAGE_NESTING);
    expect(deep.envelopeRefused).toBeUndefined();
    const tooDeep = readToolResult(wrap(MAX_COVERAGE_NESTING + 1));
    expect(tooDeep.envelopeRefused).toMatch(/nested deeper than 8/);
    expect(tooDeep.emptiness).toBe('unknown');
  });

  const malformed: [string, Record<string, unknown>, RegExp][] = [
    ['result missing', { af_coverage: lists }, /result: the wrapped result is missing/],
    ['af_coverage not an object', { af_coverage: [], result: [] }, /af_coverage/],
    ['a mis-cased list', { af_coverage: { cannotCover: [] }, result: [] }, /cannotCover: unknown key \(did you mean "cannot_cover"\?\)/],
    ['a cannot_cover item without why', { af_coverage: { cannot_cover: [{ what: 'tapes' }] }, result: [] }, /cannot_cover\.0\.why/],
    ['an extra top-level key', { af_coverage: lists, result: [], total: 0 }, /total: unknown key/],
  ];
  for (const [name, envelope, reason] of malformed) {
    it(`malformed (${name}) is plain data with the reason, never half-read`, () => expectPlain(readToolResult(envelope), reason));
  }
});

describe('unit: the described result', () => {
  const provenance = { measured_at: '2026-09-26T10:00:00Z', source: 'backup API export' };

  it('flattens facts to (entity, field, value) rows, every column but entity, in order', () => {
    const r = readToolResult({
      af_semantics: true,
      facts: [
        { entity: 'srv-db-04', last_backup_status: 'failed', size_gb: 30 },
        { entity: 'srv-web-11', last_backup_status: 'ok' },
      ],
      provenance,
    });
    expect(r).toEqual({
      emptiness: 'non-empty',
      shape: 'described',
      rows: 2,
      facts: [
        { entity: 'srv-db-04', field: 'last_backup_status', value: 'failed', measuredAt: '2026-09-26T10:00:00Z' },
        { entity: 'srv-db-04', field: 'size_gb', value: 30, measuredAt: '2026-09-26T10:00:00Z' },
        { entity: 'srv-web-11', field: 'last_backup_status', value: 'ok', measuredAt: '2026-09-26T10:00:00Z' },
      ],
      provenance: { source: 'backup API export', measuredAt: '2026-09-26T10:00:00Z' },
    });
  });

  it('series points become (entity, metric, value) rows measured at t', () => {
    const r = readToolResult(JSON.stringify({ af_semantics: true, series: [{ t: '2026-09-26T09:30:00Z', entity: 'srv-db-04', metric: 'backup_duration_s', value: 1840 }], provenance }));
    expect(r.facts).toEqual([{ entity: 'srv-db-04', field: 'backup_duration_s', value: 1840, measuredAt: '2026-09-26T09:30:00Z' }]);
    expect(r).toMatchObject({ emptiness: 'non-empty', rows: 1 });
  });

  it('edges alone need no provenance and count as data; a clarify question alone is unknown', () => {
    const edges = readToolResult({ af_semantics: true, edges: [{ from: 'srv-db-04', to: 'vault-fra-1', kind: 'backs-up-to' }] });
    expect(edges).toEqual({ emptiness: 'non-empty', shape: 'described', rows: 1 });
    const clarify = readToolResult({ af_semantics: true, clarify: { question: 'Which srv-db machine?', candidates: ['srv-db-04', 'srv-db-05'] } });
    expect(clarify).toEqual({ emptiness: 'unknown', shape: 'described', rows: 0 });
  });

  it('the last fact per (entity, field) settles', () => {
    const r = readToolResult({ af_semantics: true, facts: [{ entity: 'srv-db-04', status: 'running' }, { entity: 'srv-db-04', status: 'failed' }], provenance });
    expect(settledFacts(r.facts!).get('srv-db-04\u0000status')?.value).toBe('failed');
  });

  it('its declared coverage is recorded', () => {
    const r = readToolResult({ af_semantics: true, facts: [{ entity: 'srv-db-04', status: 'ok' }], provenance, coverage: { not_checked: [{ what: 'site ams-2' }] } });
    expect(r.coverage).toEqual({ checked: [], notChecked: [{ what: 'site ams-2' }], cannotCover: [] });
  });

  const malformed: [string, Record<string, unknown>, RegExp][] = [
    ['facts without provenance', { af_semantics: true, facts: [{ entity: 'srv-db-04', status: 'ok' }] }, /provenance/],
    ['provenance without source', { af_semantics: true, facts: [{ entity: 'srv-db-04', status: 'ok' }], provenance: { measured_at: '2026-09-26T10:00:00Z' } }, /provenance\.source/],
    ['empty facts', { af_semantics: true, facts: [], provenance }, /facts: must not be empty/],
    ['no data at all', { af_semantics: true, provenance }, /must carry facts, series, edges or a clarify question/],
    ['a fact without entity', { af_semantics: true, facts: [{ status: 'ok' }], provenance }, /facts\.0\.entity/],
    ['a fact with no field', { af_semantics: true, facts: [{ entity: 'srv-db-04' }], provenance }, /at least one field/],
    ['a series point without metric', { af_semantics: true, series: [{ t: '2026-09-26T09:30:00Z', entity: 'srv-db-04', value: 1 }], provenance }, /series\.0\.metric/],
    ['an unknown key', { af_semantics: true, facts: [{ entity: 'srv-db-04', status: 'ok' }], provenance, measuredAt: 'x' }, /measuredAt: unknown key \(did you mean "measured_at"\?\)/],
    ['af_semantics not true', { af_semantics: 1, facts: [{ entity: 'srv-db-04', status: 'ok' }], provenance }, /af_semantics/],
  ];
  for (const [name, envelope, reason] of malformed) {
    it(`malformed (${name}) is plain data with the reason, never half-read`, () => expectPlain(readToolResult(envelope), reason));
  }
});

describe('unit: refusals the result states', () => {
  it('status denied | invalid | failure | failed | error | refused, any case, with its message', () => {
    expect(readToolResult({ status: 'denied', message: 'tenant acme may not read site ams-2' }).refusal).toBe('status "denied": tenant acme may not read site ams-2');
    for (const status of ['invalid', 'failure', 'failed', 'error', 'refused', 'DENIED', ' Error ']) {
      expect(readToolResult({ status }).refusal, status).toMatch(/^status "/);
    }
    expect(readToolResult('{"status":"invalid","reason":"machine_id must look like srv-*"}').refusal).toBe('status "invalid": machine_id must look like srv-*');
  });

  it('other statuses are not refusals', () => {
    for (const status of ['ok', 'success', 'running', 'failed_jobs_found']) expect(readToolResult({ status }).refusal, status).toBeUndefined();
  });

  it('an error key with a message; error null, false or without a message is not one', () => {
    expect(readToolResult({ error: 'backup API timed out after 30s' }).refusal).toBe('error: backup API timed out after 30s');
    expect(readToolResult({ error: { code: 503, message: 'backup API unavailable' } }).refusal).toBe('error: backup API unavailable');
    expect(readToolResult({ error: true, message: 'quota exceeded' }).refusal).toBe('error: quota exceeded');
    expect(readToolResult({ error: null, jobs: [] }).refusal).toBeUndefined();
    expect(readToolResult({ error: false }).refusal).toBeUndefined();
    // Issue 9 §3: an HTTP-style 5xx code is a failure even with no words beside it.
    expect(readToolResult({ error: { code: 503 } }).refusal).toBe('error.code 503');
    expect(readToolResult({ error: { code: 0 } }).refusal).toBeUndefined();
    expect(readToolResult({ error: '  ' }).refusal).toBeUndefined();
  });

  it('an MCP result with isError true', () => {
    expect(readToolResult({ content: [{ type: 'text', text: 'denied' }], isError: true }).refusal).toBe('isError: true');
  });

  it('a string starting "refused:" or "Error:" (any case, after blanks); elsewhere in the text it is not', () => {
    expect(readToolResult('refused: machine_id is required').refusal).toBe('refused: machine_id is required');
    expect(readToolResult('Error: connection reset by backup API').refusal).toBe('Error: connection reset by backup API');
    expect(readToolResult('  ERROR: quota').refusal).toBe('ERROR: quota');
    expect(readToolResult('No error: all 4 jobs succeeded.').refusal).toBeUndefined();
    expect(readToolResult('Errors: none').refusal).toBeUndefined();
  });

  it('an exception\'s name before a colon marks a failure, as "Error:" does; one whose words say nothing was found is a not-found', () => {
    expect(readToolResult("TypeError: list_slots() missing 1 required positional argument: 'clinic_id'").refusal).toBe("TypeError: list_slots() missing 1 required positional argument: 'clinic_id'");
    expect(readToolResult('ValueError: Patient P-77 already has a booking at 09:30').refusal).toBe('ValueError: Patient P-77 already has a booking at 09:30');
    const none = readToolResult('ValueError: No slots found. Try with a different query.', undefined, { arguments: { clinic_id: 'CL-3' } });
    expect(none.refusal).toBeUndefined();
    expect(none).toMatchObject({ emptiness: 'declared-absent', absence: { lookedFor: 'clinic_id CL-3', notFound: 'ValueError: No slots found. Try with a different query.' } });
    expect(readToolResult('KeyError: booking not found').absence?.notFound).toBe('KeyError: booking not found');
    // A quoted value with dots in it does not end the sentence.
    expect(readToolResult("ValueError: Patient with email 'ana.ruiz@clinic.example' not found in the patients list.").absence?.notFound).toContain('not found');
    // Prose that says nothing was found, with no error, stays unknown (never guessed).
    expect(readToolResult('No slots found for CL-3.')).toEqual({ emptiness: 'unknown', shape: 'text' });
  });

  it('refusals stay plain data (emptiness unknown), rows read beside them, text capped', () => {
    expect(readToolResult({ status: 'denied', jobs: [] }, { rowsAt: 'jobs' })).toMatchObject({ emptiness: 'undeclared-empty', refusal: 'status "denied"' });
    const long = readToolResult(`Error: ${'x'.repeat(2000)}`).refusal!;
    expect(Array.from(long)).toHaveLength(501);
    expect(long.endsWith('…')).toBe(true);
  });

  it('a refusal wrapped in a coverage ledger is seen', () => {
    expect(readToolResult({ af_coverage: {}, result: { status: 'failure', message: 'scheduler down' } }).refusal).toBe('status "failure": scheduler down');
  });
});
