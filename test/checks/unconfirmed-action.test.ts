// Pins check `unconfirmed-action` and its clause reader: what counts as saying an action was done
// (and what is planned, denied, asked or someone else's), the write a clause is attributed to (its
// verb first, then the nouns it shares with the tool's name, a noun every write shares weighing
// little), and the verdicts — this turn's calls of it all failed, or none was ever made — with the
// fences: a call of it succeeded this turn or earlier, a successful write the clause's nouns name
// as well, money-moved verbs standing for the turn's writes, no write known.
import { describe, it, expect } from 'vitest';
import { actionClauses } from '../../src/checks/action-clauses.js';
import { unconfirmedActions, type ActionCall, type ActionTool, type WriteTool } from '../../src/checks/unconfirmed-action.js';

const span = { traceId: '5e6f7a8b9c0d1e2f3a4b5c6d7e8f9011', spanId: '4d5e6f7a8b9c0d1e' };
const w = (name: string, armedBy: 'declared' | 'inferred' = 'inferred'): WriteTool => ({ name, role: 'write', armedBy, evidence: armedBy === 'declared' ? 'declared readOnly: false' : `its name has the write verb '${name.split('_')[0]}'` });
const WRITES = ['book_reservation', 'cancel_reservation', 'update_reservation_flights', 'update_reservation_baggage', 'send_voucher'].map((n) => w(n));
const c = (toolName: string, ending: ActionCall['ending'], thisTurn = true, args: unknown = { reservation_id: 'RX7Q2P' }, said?: string): ActionCall => ({ toolName, callId: `call_${toolName}_${ending}`, arguments: args, ending, thisTurn, ...(said ? { said } : {}) });

/** A tool nothing says reads or writes. */
const u = (name: string): ActionTool => ({ name, role: 'unknown', armedBy: 'inferred', evidence: 'nothing declared or recorded says whether it reads or writes' });

function run(answerText: string, calls: ActionCall[], tools: ActionTool[] = WRITES) {
  return unconfirmedActions({ span, answerText, tools: () => tools, calls: () => calls, quotedValueChars: 64 });
}

describe('action clauses', () => {
  const verbs = (t: string) => actionClauses(t).map((a) => a.verb);
  it('reads actions said done: passive perfect, "now"/"successfully", first person, "went ahead and"', () => {
    expect(verbs('Your reservation has been cancelled.')).toEqual(['cancel']);
    expect(verbs('You are now booked on flight NW-311.')).toEqual(['book']);
    expect(verbs("I've sent the voucher to your e-mail.")).toEqual(['send']);
    expect(verbs('I went ahead and booked the 9:05 flight.')).toEqual(['book']);
    expect(verbs('The refund was successfully processed.')).toEqual(['process']);
    expect(actionClauses('Your flights have been changed, and one checked bag has been added.').map((a) => [a.verb, a.clause])).toEqual([
      ['change', 'Your flights have been changed'],
      ['add', 'one checked bag has been added.'],
    ]);
  });
  it('asserts no action: plans, denials, questions, conditions, someone else', () => {
    for (const t of ['I will cancel it once you confirm.', 'The reservation has not been cancelled yet.', 'Should I cancel it?', 'Bags cannot be removed once they have been added.', 'Your flight was cancelled by the airline.', 'I could not book it.']) expect(actionClauses(t), t).toEqual([]);
  });
});

describe('unconfirmed-action: verdicts', () => {
  it('the write that would do it failed this turn: a finding quoting the error', () => {
    const out = run('Your reservation RX7Q2P has been cancelled.', [c('cancel_reservation', 'refused', true, { reservation_id: 'RX7Q2P' }, 'Error: reservation RX7Q2P is basic economy and cannot be cancelled')]);
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]).toMatchObject({ kind: 'unconfirmed-action', seam: 'answer', toolName: 'cancel_reservation', grounding: 'failed', predicate: 'cancel', armedBy: 'inferred' });
    expect(out.findings[0]!.message).toContain('Error: reservation RX7Q2P is basic economy and cannot be cancel');
  });
  it('a second action no call made, beside one that ran: attributed by the noun only one write has', () => {
    const out = run('Your flights have been changed, and one checked bag has been added to the reservation.', [c('update_reservation_flights', 'ok')]);
    expect(out.findings.map((f) => [f.toolName, f.grounding])).toEqual([['update_reservation_baggage', 'never']]);
  });
  it('a write told done with no call at all: never made; armed as declared when declared', () => {
    const out = run('I have sent you a voucher for the delay.', [], [w('send_voucher', 'declared')]);
    expect(out.findings[0]).toMatchObject({ toolName: 'send_voucher', grounding: 'never', armedBy: 'declared' });
  });
  it('a clause naming an id is judged by the calls that name it', () => {
    const calls = [c('cancel_reservation', 'ok', true, { reservation_id: 'AB12CD' }), c('cancel_reservation', 'refused', true, { reservation_id: 'RX7Q2P' }, 'Error: cannot cancel')];
    expect(run('Reservation RX7Q2P has been cancelled.', calls).findings).toHaveLength(1);
    expect(run('Reservation AB12CD has been cancelled.', calls).findings).toEqual([]);
  });
});

describe('unconfirmed-action: fences', () => {
  it('a call of the write that succeeded this turn (after a failure too) passes', () => {
    expect(run('Your reservation has been cancelled.', [c('cancel_reservation', 'refused'), c('cancel_reservation', 'ok')]).findings).toEqual([]);
  });
  it('an action done in an earlier turn, recalled, passes', () => {
    expect(run('Since your reservation has been cancelled, no refund is due.', [c('cancel_reservation', 'ok', false)]).findings).toEqual([]);
  });
  it('a successful write the nouns name as well may be what the clause describes ("booked on" after the flights were updated)', () => {
    expect(run('You are now booked on flight NW-311.', [c('update_reservation_flights', 'ok')]).findings).toEqual([]);
  });
  it('money-moved verbs stand for the turn\'s writes: pass when one ran, a finding when all failed', () => {
    expect(run('The difference has been refunded to your card.', [c('update_reservation_flights', 'ok')]).findings).toEqual([]);
    const failed = run('The difference has been refunded to your card.', [c('update_reservation_flights', 'failed', true, {}, 'Error: not enough seats')]);
    expect(failed.findings.map((f) => f.grounding)).toEqual(['failed']);
  });
  it('no write known: not applicable, even with tools of unknown role (they only ever suppress)', () => {
    expect(run('Your booking has been moved.', [], [u('move_booking')]).tally).toMatchObject({ notApplicable: 1, checked: 0 });
  });
  it('no write known: not applicable, whatever the answer says; rows are asked for only when an action is said', () => {
    expect(run('Your reservation has been cancelled.', [], []).tally).toMatchObject({ notApplicable: 1, checked: 0 });
    let asked = 0;
    unconfirmedActions({ span, answerText: 'Here is your itinerary.', tools: () => (asked++, WRITES), calls: () => (asked++, []), quotedValueChars: 64 });
    expect(asked).toBe(0);
  });
});

describe('unconfirmed-action: unknown readings only suppress', () => {
  const SHOP = [w('send_receipt'), w('cancel_order'), u('exchange_order_items'), u('think')];
  it('a tool of unknown role that went through this turn and whose name the clause names passes (an exchange the verb lists do not know)', () => {
    expect(run('Your exchange has been processed, and the new size ships tomorrow.', [c('exchange_order_items', 'ok', true, { order_id: '#W4417' })], SHOP).findings).toEqual([]);
  });
  it('a clause that names no write with certainty is judged against every tool that may have done it', () => {
    // "invited" names no write; the call that went through may be it.
    expect(run('I have completed the tasks you asked for.', [c('think', 'ok')], SHOP).findings).toEqual([]);
    // All of them failed this turn: the action was not done.
    const out = run('I have completed the tasks you asked for.', [c('exchange_order_items', 'failed', true, {}, 'ValueError: order is not delivered')], SHOP);
    expect(out.findings.map((f) => f.grounding)).toEqual(['failed']);
    // None was made, this turn or before: never.
    expect(run('I have completed the tasks you asked for.', [], SHOP).findings.map((f) => f.grounding)).toEqual(['never']);
  });
  it('a write named only by its verb is not certain: another call that went through passes ("sent" the invitation, made by a calendar event with participants)', () => {
    const tools = [w('send_direct_message'), w('create_calendar_event')];
    const calls = [c('create_calendar_event', 'ok', true, { title: 'Kickoff', participants: ['dana@studio-nine.io'] })];
    expect(run('The invitation has been sent to dana@studio-nine.io.', calls, tools).findings).toEqual([]);
  });
  it('a certain attribution passes when another call that went through names the clause\'s noun in its arguments', () => {
    const tools = [w('add_event_participants'), w('create_event')];
    const calls = [c('create_event', 'ok', true, { title: 'Reunion', participants: ['james@example.org'] })];
    expect(run("I've also added James as a participant.", calls, tools).findings).toEqual([]);
  });
  it('a certain attribution stands beside unrelated calls that went through, of known or unknown role (a bag never added)', () => {
    const tools = [...WRITES, u('think')];
    const calls = [c('think', 'ok', true, { thought: 'reasoning about the upgrade' }), c('update_reservation_flights', 'ok')];
    const out = run('One checked bag has been added to your reservation.', calls, tools);
    expect(out.findings.map((f) => [f.toolName, f.grounding])).toEqual([['update_reservation_baggage', 'never']]);
  });
});
