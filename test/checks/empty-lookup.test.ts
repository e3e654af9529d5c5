// Pins check `empty-lookup` (advisory) and every fence: an empty result ([] or a declared absence)
// with a string argument a declared producer served earlier is an advisory finding whose message
// says an empty result can be true and this is a place to look; non-strings and trimmed values
// under 4 characters are never checked; the whole-token match is case-insensitive; only declared
// producers count; errored and refused calls, and results of unknown emptiness, are not
// applicable; a non-empty result is a pass; no producer result or uncaptured content is
// unreachable; and no declaration means no finding at all.
import { describe, it, expect } from 'vitest';
import { emptyLookups, EMPTY_LOOKUP_CEILING, type EmptyLookupInput, type ProducerResult } from '../../src/checks/empty-lookup.js';
import { ledgerRowOf } from '../../src/runs/ledger-row.js';
import type { ToolExecution } from '../../src/model/agent.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';
import { findingToEvent } from '../../src/findings/events.js';

const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '9a1c2b3d4e5f6071' };
const DECL: ToolDeclaration = { argumentsFrom: ['list_machines'] };
const MACHINES: ProducerResult = {
  toolName: 'list_machines',
  callId: 'call_lm_001',
  request: 1,
  text: '[{"machine_id":"srv-db-04","site":"fra-1"},{"machine_id":"srv-web-11","site":"fra-1"}]',
};

function row(over: Partial<ToolExecution> = {}, declaration: ToolDeclaration | undefined = DECL) {
  const execution: ToolExecution = {
    kind: 'tool-execution',
    span,
    convention: 'genai-semconv',
    tenant: 'acme',
    conversationId: 'conv_7f3a',
    callId: 'call_bj_002',
    toolName: 'backup_jobs',
    arguments: { machine_id: 'srv-db-04' },
    result: '[]',
    status: 'ok',
    startTimeUnixNano: 1_790_000_000_000_000_000n,
    endTimeUnixNano: 1_790_000_000_300_000_000n,
    ...over,
  };
  return ledgerRowOf(execution, declaration, 2);
}

function run(over: Partial<ToolExecution> = {}, input: Partial<EmptyLookupInput> = {}) {
  return emptyLookups({ row: row(over), declaration: DECL, producerResults: [MACHINES], ...input });
}

const ABSENCE = {
  af_absent: true,
  looked_for: 'backup jobs for srv-db-04',
  checked: [{ what: 'the job scheduler of site fra-1' }],
  not_checked: [{ what: 'the archived job history', why: 'older than 30 days' }],
};

describe('unit: empty-lookup and every fence', () => {
  it('an empty list for a value a declared producer served: an advisory finding, a place to look', () => {
    const out = run();
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({
      kind: 'empty-lookup',
      seam: 'write',
      advisory: true,
      subjects: [{ kind: 'tool', id: 'backup_jobs' }, { kind: 'producer', id: 'list_machines' }],
      predicate: 'args.machine_id',
      value: 'srv-db-04',
      toolName: 'backup_jobs',
      toolCallId: 'call_bj_002',
      span,
    });
    expect(f.message).toBe(
      `'backup_jobs' (call call_bj_002) returned an empty list for machine_id = "srv-db-04", a value 'list_machines' served earlier in this conversation (call call_lm_001, chosen in request 1). ${EMPTY_LOOKUP_CEILING} Nothing here blocked the call.`,
    );
    expect(EMPTY_LOOKUP_CEILING).toContain('can be perfectly true');
    expect(EMPTY_LOOKUP_CEILING).toContain('a place to look, not a verdict');
    expect(f.witnesses.map((w) => w.stratum)).toEqual(['chosen', 'served', 'absent']);
    expect(out.tally).toMatchObject({ check: 'empty-lookup', seam: 'write', checked: 1, findings: 1, notApplicable: 0, unreachable: 0 });
  });

  it('a declared absence is empty too, and its message says what it looked for and its gaps', () => {
    const f = run({ result: ABSENCE }).findings[0]!;
    expect(f.message).toContain('returned a declared absence (looked for "backup jobs for srv-db-04", with 1 thing(s) it says it did not or cannot check)');
    expect(f.witnesses[2]!.provenance).toContain('a declared absence');
  });

  it('an empty list inside a coverage ledger is a declared absence', () => {
    const f = run({ result: { af_coverage: { checked: [{ what: 'site fra-1' }] }, result: [] } }).findings[0]!;
    expect(f.message).toContain('an empty list inside its declared coverage ledger');
  });

  it('an empty list at a declared rowsAt key', () => {
    const decl: ToolDeclaration = { argumentsFrom: ['list_machines'], rowsAt: 'jobs' };
    const out = emptyLookups({ row: row({ result: { machine_id: 'srv-db-04', jobs: [] } }, decl), declaration: decl, producerResults: [MACHINES] });
    expect(out.findings).toHaveLength(1);
  });

  it('fence: a value no producer served is silent (a checked pass)', () => {
    const out = run({ arguments: { machine_id: 'srv-db-99' } });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
  });

  it('fence: a whole token of the producer result, case-insensitive; a proper part is a fragment', () => {
    expect(run({ arguments: { machine_id: 'SRV-DB-04' } }).findings.map((f) => f.grounding)).toEqual([undefined]);
    expect(run({ arguments: { machine_id: 'srv-db' } }).findings.map((f) => f.grounding)).toEqual(['fragment']);
  });

  it('fence: booleans, null and integers that are not identifiers are never checked', () => {
    const out = run({ arguments: { since: { days: 7 }, limit: 5000, full: true, site: null } });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
  });

  it('an integer identifier is judged against served numbers, and a digit inside a served id is no match', () => {
    // `4` appears only inside "srv-db-04": not a served number, so no producer served it.
    const out = run({ arguments: { machine_id: 4 } });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
    const numbered: ProducerResult = { ...MACHINES, text: '[{"machine_id":40213,"site":"fra-1"}]' };
    const hit = run({ arguments: { machine_id: 40213 } }, { producerResults: [numbered] });
    expect(hit.findings.map((f) => [f.value, f.grounding])).toEqual([['40213', undefined]]);
  });

  it('fence: trimmed values under 4 characters are never checked, 4 are', () => {
    expect(run({ arguments: { site: 'fra' } }).findings).toEqual([]);
    expect(run({ arguments: { site: '  fra  ' } }).findings).toEqual([]);
    expect(run({ arguments: { site: 'fra-' } }).findings).toHaveLength(1);
  });

  it('fence: only declared producers ground; another tool serving the value is no producer', () => {
    const other: ProducerResult = { toolName: 'search_tickets', callId: 'call_st_001', text: 'ticket INC-4411 mentions srv-db-04' };
    const out = run({}, { producerResults: [other] });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, unreachable: 1, unreachableReasons: { 'no declared producer had returned a result earlier in the conversation': 1 } });
  });

  it('fence: a producer result of blank text is no producer result', () => {
    expect(run({}, { producerResults: [{ toolName: 'list_machines', text: '  ' }] }).tally.unreachable).toBe(1);
  });

  it('the latest producer result holding the value is named', () => {
    const later: ProducerResult = { toolName: 'list_machines', callId: 'call_lm_007', request: 4, text: '[{"machine_id":"srv-db-04"}]' };
    const f = run({}, { producerResults: [MACHINES, later] }).findings[0]!;
    expect(f.message).toContain('(call call_lm_007, chosen in request 4)');
  });

  it('several matching arguments: every one judged, one finding for the call (the first)', () => {
    const out = run({ arguments: { machine_id: 'srv-db-04', also: ['srv-web-11', 'srv-zz-99'] } });
    expect(out.findings.map((f) => f.predicate)).toEqual(['args.machine_id']);
    expect(out.tally).toMatchObject({ checked: 3, findings: 1 });
  });

  it('non-empty result: a checked pass', () => {
    const out = run({ result: '[{"job":"nightly-db-full","machine_id":"srv-db-04","status":"ok"}]' });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0, notApplicable: 0 });
  });

  it('errored and refused calls are not applicable: a failure says nothing about existence', () => {
    for (const over of [{ status: 'error' as const }, { result: { status: 'denied', jobs: [] } }, { result: 'Error: scheduler unavailable' }]) {
      const out = run(over);
      expect(out.findings).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
    }
  });

  it('unknown emptiness (prose, unknown objects, malformed envelopes) is not applicable', () => {
    for (const result of ['No jobs found for srv-db-04.', { jobs: [] }, { af_absent: true, looked_for: 'jobs', checked: [] }]) {
      const out = run({ result });
      expect(out.findings).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
    }
  });

  it('result not captured: unreachable, never a pass', () => {
    const out = run({ result: undefined });
    expect(out.tally).toMatchObject({ checked: 0, unreachable: 1, unreachableReasons: { 'the tool result was not captured': 1 } });
  });

  it('arguments not captured: unreachable', () => {
    const out = run({ arguments: undefined });
    expect(out.tally).toMatchObject({ unreachable: 1, unreachableReasons: { 'the tool-call arguments were not captured': 1 } });
  });

  it('bounds the leaves it walks and says so', () => {
    const args = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'srv-db-04']));
    const out = run({ arguments: args }, { maxArgumentLeaves: 3 });
    expect(out.findings).toHaveLength(1);
    expect(out.tally.checked).toBe(3);
    expect(Object.keys(out.tally.unreachableReasons)[0]).toContain('more than 3 leaves');
  });

  it('quotes the value in the message, capped', () => {
    const long = `srv-db-04-${'x'.repeat(100)}`;
    const f = run({ arguments: { machine_id: long } }, { producerResults: [{ ...MACHINES, text: long }], quotedValueChars: 16 }).findings[0]!;
    expect(f.value).toBe(long);
    expect(f.message).toContain('"srv-db-04-xxxxxx…"');
  });

  it('as an event: advisory, the value hashed everywhere under redaction hash', () => {
    const f = run({ result: ABSENCE }).findings[0]!;
    const attrs = findingToEvent(f, 0n, { redaction: 'hash', quotedValueChars: 64, maxAttributeBytes: 2000 }).attributes;
    expect(attrs['footprint.finding.advisory']).toBe(true);
    expect(attrs['footprint.finding.kind']).toBe('empty-lookup');
    expect(String(attrs['footprint.finding.message'])).not.toContain('srv-db-04');
    expect(String(attrs['footprint.finding.witnesses'])).not.toContain('srv-db-04');
  });

  it('zero delta: with no declaration there is no finding, not applicable', () => {
    const out = emptyLookups({ row: row({}, undefined), declaration: undefined, producerResults: [MACHINES] });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 1, unreachable: 0, unreachableReasons: {} });
    expect(emptyLookups({ row: row({}, { readOnly: true }), declaration: { readOnly: true }, producerResults: [MACHINES] }).tally.notApplicable).toBe(1);
  });
});

describe('unit: empty-lookup on writes and calls with several judged arguments', () => {
  const FLIGHTS: ProducerResult = {
    toolName: 'get_reservation_details',
    callId: 'call_rd_001',
    request: 3,
    text: '{"reservation_id":"M20IZO","flights":[{"flight_number":"HAT268","date":"2024-05-24"},{"flight_number":"HAT010","date":"2024-05-25"}]}',
  };
  const decl: ToolDeclaration = { argumentsFrom: ['get_reservation_details'] };
  const args = { reservation_id: 'M20IZO', flights: [{ flight_number: 'HAT268' }, { flight_number: 'HAT010' }] };

  it("a write's not-found error is about an action, not an empty lookup: not applicable", () => {
    const out = emptyLookups({
      row: row({ toolName: 'update_reservation_flights', arguments: args, result: 'Error: flight HAT010 not found' }, decl),
      declaration: { ...decl, readOnly: false },
      producerResults: [FLIGHTS],
    });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 1 });
  });

  it('a read that finds nothing for several served values: one finding, for the value its own words name', () => {
    const out = emptyLookups({
      row: row({ toolName: 'flight_status', arguments: args, result: 'Error: flight HAT010 not found' }, decl),
      declaration: decl,
      producerResults: [FLIGHTS],
    });
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]).toMatchObject({ predicate: 'args.flights.1.flight_number', value: 'HAT010' });
    expect(out.tally).toMatchObject({ checked: 3, findings: 1 });
    // Words that name none of them: the first judged argument.
    const plain = emptyLookups({ row: row({ toolName: 'flight_status', arguments: args, result: '[]' }, decl), declaration: decl, producerResults: [FLIGHTS] });
    expect(plain.findings.map((f) => f.value)).toEqual(['M20IZO']);
  });
});
