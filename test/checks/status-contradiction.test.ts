// Pins check `status-contradiction` and its clause reader: a state word (available, sold out,
// active, cancelled, paid, unpaid; negation read) said of one served identifier, in a clause or in
// a list item under a stating header, against the latest row's field of that meaning (a status
// word, a flag, a count at zero, a field named for the variant the words name); and the fences:
// quantity talk, the row agreeing, fields disagreeing, another date, a later call naming the entity,
// a later served text saying the same state, two identifiers in one clause.
import { describe, it, expect } from 'vitest';
import { stateClaims, statesOf } from '../../src/checks/status-clauses.js';
import { stateFields, statusContradictions } from '../../src/checks/status-contradiction.js';
import { readServedRows, type ServedResult } from '../../src/checks/served-rows.js';

const span = { traceId: '4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90', spanId: '3c4d5e6f7a8b9c0d' };
const served = (toolName: string, result: unknown, args: unknown = {}, callId = `call_${toolName}`): ServedResult => ({ toolName, callId, arguments: args, result: typeof result === 'string' ? result : JSON.stringify(result), order: 0, thisTurn: true });

function run(answerText: string, results: ServedResult[]) {
  results.forEach((r, i) => (r.order = i));
  return statusContradictions({ span, answerText, served: () => results, rows: () => readServedRows(results), quotedValueChars: 64 });
}

const FLIGHTS = [
  { flight_no: 'NW-311', status: 'scheduled', seats_available: { economy: 0, business: 4 } },
  { flight_no: 'NW-315', status: 'scheduled', seats_available: { economy: 9, business: 0 } },
];

describe('state words', () => {
  it('reads concept and polarity, negation included', () => {
    expect(statesOf('R-204 is not available.')).toEqual([{ concept: 'availability', positive: false, said: 'not available' }]);
    expect(statesOf('SUB-2291 is no longer active.')).toEqual([{ concept: 'standing', positive: false, said: 'no longer active' }]);
    expect(statesOf('Size 42 is sold out.')).toEqual([{ concept: 'availability', positive: false, said: 'sold out' }]);
    expect(statesOf('INV-88 is unpaid.')).toEqual([{ concept: 'payment', positive: false, said: 'unpaid' }]);
  });
  it('asserts no state: quantity talk, what could be, questions, how something was paid', () => {
    for (const t of ['There are not enough seats available on NW-311.', 'Only 2 are available.', 'NW-311 may be available later.', 'Is NW-311 available?', 'It was paid with a gift card.']) expect(statesOf(t), t).toEqual([]);
  });
  it('a header ending with a colon gives its state to each list item, unless the item says its own', () => {
    const claims = stateClaims('Here are the available flights:\n\n1. **NW-311**\n   - Economy: $129\n2. NW-315, Business: Sold Out\n\nWhich one?');
    expect(claims.filter((c) => c.header).map((c) => c.text)).toEqual(['1. **NW-311**\n- Economy: $129']);
  });
  it('reads the row fields that carry a state, with the variant a field is named for', () => {
    expect(stateFields(FLIGHTS[0]!).map((f) => [f.path, f.concept, f.positive, f.variant])).toEqual([
      ['status', 'standing', true, []],
      ['seats_available.economy', 'availability', false, ['economy']],
      ['seats_available.business', 'availability', true, ['business']],
    ]);
    expect(stateFields({ sku: 'X', in_stock: false, sold_out: true, paid: 'no', is_cancelled: false }).map((f) => [f.path, f.concept, f.positive])).toEqual([
      ['in_stock', 'availability', false],
      ['sold_out', 'availability', false],
      ['paid', 'payment', false],
      ['is_cancelled', 'standing', true],
    ]);
  });
});

describe('status-contradiction: verdicts', () => {
  it('a state the row contradicts is a finding naming the field and its value', () => {
    const out = run('Yes, SUB-2291 is active on the Team plan.', [served('get_subscription', { subscription_id: 'SUB-2291', status: 'cancelled' })]);
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]).toMatchObject({ kind: 'status-contradiction', seam: 'answer', predicate: 'status', value: 'active', subjects: [{ kind: 'entity', id: 'SUB-2291' }], armedBy: 'inferred' });
    expect(out.findings[0]!.message).toContain('has status = cancelled');
  });
  it('the variant the words name is the field read: economy of NW-311 is sold out', () => {
    const out = run('Here are the available flights:\n1. NW-311 - Economy: $129\n2. NW-315 - Economy: $139', [served('search_flights', FLIGHTS, { date: '2026-12-20' })]);
    expect(out.findings.map((f) => [f.subjects[0]!.id, f.predicate])).toEqual([['NW-311', 'seats_available.economy']]);
  });
  it('a flag and a zero count say "not available" or "not paid"', () => {
    expect(run('R-204 is available from 2026-12-18.', [served('room_availability', [{ room_id: 'R-204', available: false }], { check_in: '2026-12-18' })]).findings).toHaveLength(1);
    expect(run('LH-55131 is paid.', [served('get_booking', { booking_ref: 'LH-55131', paid: false })]).findings).toHaveLength(1);
  });
});

describe('status-contradiction: fences', () => {
  it('the row agreeing, fields disagreeing among themselves, or no field of that meaning: no finding', () => {
    expect(run('NW-311 is available.', [served('search_flights', FLIGHTS)]).findings).toEqual([]);
    expect(run('SKU-7 is in stock.', [served('search', [{ sku: 'SKU-7', in_stock: true, stock: 0 }])]).findings).toEqual([]);
    expect(run('SUB-2291 is active.', [served('get_subscription', { subscription_id: 'SUB-2291', plan: 'Team' })]).findings).toEqual([]);
  });
  it('another date than the row and its call hold: another instance, silent', () => {
    expect(run('R-204 is available on 2026-12-26.', [served('room_availability', [{ room_id: 'R-204', available: false }], { check_in: '2026-12-18' })]).findings).toEqual([]);
  });
  it('a later call that names the entity may have changed it; a later text saying the same state is its source', () => {
    const read = served('get_appointment', { appointment_id: 'APT-88417', status: 'booked' });
    expect(run('APT-88417 is now cancelled.', [read]).findings).toHaveLength(1);
    expect(run('APT-88417 is now cancelled.', [read, served('cancel_appointment', { ok: true }, { appointment_id: 'APT-88417' })]).findings).toEqual([]);
    const search = served('search_flights', [{ flight_no: 'NW-320', status: 'available' }], { date: '2026-12-21' });
    expect(run('NW-320 is not available on 2026-12-21.', [search, served('change_flight', 'Error: flight NW-320 not available on date 2026-12-21', { flight_no: 'X' })]).findings).toEqual([]);
  });
  it('two identifiers in one clause, or none: not applicable', () => {
    const out = run('NW-311 and NW-315 are available.', [served('search_flights', FLIGHTS)]);
    expect(out.findings).toEqual([]);
    expect(out.tally.notApplicable).toBe(1);
  });
});
