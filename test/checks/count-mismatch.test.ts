// Pins check `count-mismatch` and its clause reader: which words state a count (and which are a
// limit, a part, money, a rate, a plan or a question), what narrows a count to a kind, and the
// verdicts — more items than served, the whole miscounted, a kind counted over a list whose items
// were partly read — with the fences: a count the user gave, a count served as a field, pages of
// one tool added up, a kind within what was read in full, no served rows of that noun.
import { describe, it, expect } from 'vitest';
import { countClauses, statesCount } from '../../src/checks/count-clauses.js';
import { countMismatches } from '../../src/checks/count-mismatch.js';
import { readServedRows, type ServedResult } from '../../src/checks/served-rows.js';

const span = { traceId: '3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f', spanId: '2b3c4d5e6f7a8b9c' };

const TICKETS = ['HD-40112', 'HD-40187', 'HD-40230', 'HD-40311'].map((ticket_id, i) => ({ ticket_id, state: 'open', priority: i === 2 ? 'high' : 'normal' }));
const served = (toolName: string, result: unknown, callId = `call_${toolName}`, args: unknown = {}): ServedResult => ({ toolName, callId, arguments: args, result: JSON.stringify(result), order: 0, thisTurn: true });

function run(answerText: string, results: ServedResult[], userTexts: string[] = []) {
  results.forEach((r, i) => (r.order = i));
  return countMismatches({ span, answerText, rows: () => readServedRows(results), userTexts, quotedValueChars: 64 });
}

describe('count clauses', () => {
  const read = (t: string) => countClauses(t).map((c) => [c.n, c.noun, c.narrowed]);
  it('reads counts of items, whole or narrowed to a kind', () => {
    expect(read('You have 4 open tickets.')).toEqual([[4, 'ticket', true]]);
    expect(read('I found three reservations under your profile: A, B and C.')).toEqual([[3, 'reservation', false]]);
    expect(read('You have 2 devices registered to your account.')).toEqual([[2, 'device', false]]);
    expect(read('There are 11 options in total.')).toEqual([[11, 'option', false]]);
    expect(read('Additionally, one checked bag has been added.')).toEqual([[1, 'bag', true]]);
  });
  it('no count: limits, parts, money, rates, plans, questions, units', () => {
    for (const t of ['You can use up to three gift cards.', 'Would you like one of these options?', 'Pay $120 for 2 nights.', 'You get 2 free bags per passenger.', 'I will book two rooms once you confirm.', 'Which of the 3 flights do you want?', 'It takes 3 hours.', 'One of the tickets is high priority.']) {
      expect(countClauses(t), t).toEqual([]);
    }
  });
  it('statesCount finds the same count of the same noun in user text', () => {
    expect(statesCount('We are 3 guests now.', 3, 'guest')).toBe(true);
    expect(statesCount('We are three guests now.', 3, 'guest')).toBe(true);
    expect(statesCount('We are 3 people and 2 guests.', 3, 'guest')).toBe(false);
  });
});

describe('count-mismatch: verdicts', () => {
  it('more items than served is a finding (more-than-served), naming the set and its size', () => {
    const out = run('You have 5 open tickets right now.', [served('list_tickets', TICKETS)]);
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]).toMatchObject({ kind: 'count-mismatch', seam: 'answer', predicate: 'ticket', value: '5', grounding: 'more-than-served', toolName: 'list_tickets', armedBy: 'inferred' });
    expect(out.findings[0]!.message).toContain('the run served at most 4 (the result in list_tickets (call call_list_tickets): 4)');
  });

  it('the whole miscounted (no narrowing words) is a finding (whole-not-served)', () => {
    const devices = [{ device_id: 'AT-1' }, { device_id: 'AT-2' }, { device_id: 'AT-3' }];
    const out = run('You have 2 devices registered to your account: AT-1 and AT-2.', [served('list_devices', devices)]);
    expect(out.findings.map((f) => f.grounding)).toEqual(['whole-not-served']);
  });

  it('a kind counted over a list whose items were only partly read is a finding (partial), naming the unread ones', () => {
    const account = { account_id: 'ACC-3340', subscriptions: ['SUB-6101', 'SUB-6102', 'SUB-6103', 'SUB-6104'] };
    const out = run('You have two annual subscriptions.', [
      served('find_customer_account', account),
      served('get_subscription', { subscription_id: 'SUB-6101', billing: 'annual' }, 'c1'),
      served('get_subscription', { subscription_id: 'SUB-6102', billing: 'annual' }, 'c2'),
    ]);
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]).toMatchObject({ grounding: 'partial', value: 'two' });
    expect(out.findings[0]!.message).toContain('only 2 of the 4 the run listed');
    expect(out.findings[0]!.message).toContain('"SUB-6103", "SUB-6104" were never read');
  });
});

describe('count-mismatch: fences', () => {
  it('the right whole count, and a kind within rows read in full, pass', () => {
    expect(run('You have four open tickets.', [served('list_tickets', TICKETS)]).findings).toEqual([]);
    expect(run('You have 1 high-priority ticket.', [served('list_tickets', TICKETS)]).findings).toEqual([]);
  });
  it('a count the user gave is theirs', () => {
    const booking = { booking_ref: 'LH-55102', guests: [{ name: 'Ines' }, { name: 'Tomas' }] };
    expect(run('For 3 guests you need a larger room.', [served('get_booking', booking)]).findings).toHaveLength(1);
    expect(run('For 3 guests you need a larger room.', [served('get_booking', booking)], ['We will be 3 guests.']).findings).toEqual([]);
  });
  it('a count served as a field under a key naming the noun, and pages of one tool added up, pass', () => {
    const zones = [{ zone_id: 'Z1', name: 'shop.example', records: 14 }, { zone_id: 'Z2', name: 'mail.example', records: 6 }];
    expect(run('shop.example has 14 records.', [served('list_zones', zones)]).findings).toEqual([]);
    expect(run('The search gave 8 results in total.', [served('search_catalog', [1, 2, 3, 4, 5], 'p1'), served('search_catalog', [6, 7, 8], 'p2')]).findings).toEqual([]);
  });
  it('no served rows of the counted noun: not applicable; answer not captured: unreachable', () => {
    const out = run('You have 3 pets.', [served('list_tickets', TICKETS)]);
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
    const none = countMismatches({ span, answerText: undefined, rows: () => readServedRows([]), userTexts: [], quotedValueChars: 64 });
    expect(none.tally.unreachable).toBe(1);
  });
  it('rows are read only when the answer counts something', () => {
    let asked = 0;
    countMismatches({ span, answerText: 'All set, see you tomorrow.', rows: () => (asked++, readServedRows([])), userTexts: [], quotedValueChars: 64 });
    expect(asked).toBe(0);
  });
});

describe('count-mismatch: unknown readings only suppress', () => {
  const MESSAGES = (n: number, channel: string) => Array.from({ length: n }, (_, i) => ({ sender: ['Ines', 'Tomas', 'Ravi'][i % 3], recipient: channel, body: `note ${i}` }));
  const channels = [served('read_channel_messages', MESSAGES(3, 'dispatch'), 'c1', { channel: 'dispatch' }), served('read_channel_messages', MESSAGES(1, 'yard'), 'c2', { channel: 'yard' })];

  it('what the clause counts is known only after words that name no subject of their own', () => {
    const counts = (t: string) => countClauses(t).map((c) => c.counts.known);
    expect(counts('You have 4 open tickets.')).toEqual([true]);
    expect(counts('I found three reservations under your profile.')).toEqual([true]);
    expect(counts('- 2 devices registered to your account')).toEqual([true]);
    expect(counts('Ines - 2 messages')).toEqual([false]);
    expect(counts('dispatch: 3 messages')).toEqual([false]);
    expect(counts('There is a gap of an hour between those two meetings.')).toEqual([false]);
    expect(counts('I sent 3 messages to the yard channel.')).toEqual([false]);
  });

  it('a count after a label, a demonstrative or an action is of the model\'s own selection: it passes', () => {
    expect(run('Ines - 2 messages', channels).findings).toEqual([]);
    expect(run('I sent 2 messages to the team.', channels).findings).toEqual([]);
    // The same number stated of the whole is judged.
    expect(run('You have 2 messages.', channels).findings.map((f) => f.grounding)).toEqual(['whole-not-served']);
  });

  it('more than served only against sets known complete: a page asked for, or a result that says there is more, passes', () => {
    const page = served('list_tickets', { tickets: TICKETS, has_more: true });
    expect(run('You have 7 tickets.', [page]).findings).toEqual([]);
    const limited = served('list_tickets', TICKETS, 'c3', { requester: 'j.okafor', limit: 4 });
    expect(run('You have 7 tickets.', [limited]).findings).toEqual([]);
    expect(run('You have 7 tickets.', [served('list_tickets', TICKETS)]).findings.map((f) => f.grounding)).toEqual(['more-than-served']);
  });

  it('a kind counted over a list none of whose items was read passes (the list may be of values that have no details)', () => {
    const attendees = served('add_event_attendees', { event_id: 'EV-9', attendees: ['ana@lumen.io', 'bo@lumen.io', 'cy@lumen.io'] });
    expect(run('I added two new attendees.', [attendees]).findings).toEqual([]);
    expect(run('There are two new attendees.', [attendees]).findings).toEqual([]);
  });
});
