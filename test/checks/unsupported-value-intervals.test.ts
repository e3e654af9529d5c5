// Pins unsupported-value on values as users write them (issue 35): a served instant grounds its
// time at any precision and in 12- or 24-hour form; a time range is judged by its two ends (never
// as one opaque token), the end's meridiem implied by the start; a price range by its two prices;
// a rating by the number before its scale; hours and minutes that are the time between two served
// times pass as derived, with the subtraction as witness. And the other side, kept: a range end,
// a time or a rating no source holds is a finding, quoted as written, and one only the model's own
// earlier prose held is `assistant-only`.
import { describe, it, expect } from 'vitest';
import { unsupportedValues, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';

const span = { traceId: '0c1d2e3f40516273849a5b6c7d8e9f00', spanId: '1a2b3c4d5e6f7081' };

/** A clinic's free slots, as a YAML-like text dump (a program's output, not JSON). */
const SLOTS: WindowResult = {
  text: [
    '- slot_id: HP-5531',
    '  starts: 2026-04-14 09:30:00',
    '  ends: 2026-04-14 10:15:00',
    '  therapist: R. Osei',
    '- slot_id: HP-5532',
    '  starts: 2026-04-14 13:00:00',
    '  ends: 2026-04-14 13:45:00',
    '  therapist: R. Osei',
    '- slot_id: HP-5540',
    '  starts: 2026-04-14 16:30:00',
    '  ends: 2026-04-14 17:15:00',
    '  therapist: M. Varga',
  ].join('\n'),
  toolName: 'free_slots',
  callId: 'call_fs_01',
  request: 2,
};
/** A hotel search, as JSON. */
const HOTELS: WindowResult = {
  text: JSON.stringify({
    city: 'Lisbon',
    hotels: [
      { name: 'Casa Lumen', rating: 4.6, price_min: 128.0, price_max: 214.0, reviews: 1342 },
      { name: 'Hotel Brisa', rating: 3.9, price_min: 89.0, price_max: 131.0, reviews: 287 },
    ],
  }),
  toolName: 'search_hotels',
  callId: 'call_sh_01',
  request: 2,
};

function run(answerText: string, windowResults: WindowResult[], writtenTexts: string[] = []) {
  return unsupportedValues({
    span,
    answerText,
    windowResults,
    exemptTexts: ['You are the booking assistant. Answer from the tools.', 'Which slots are free on April 14?'],
    writtenTexts,
    bounds: { ...DEFAULT_EVIDENCE_BOUNDS },
  });
}
const values = (o: ReturnType<typeof run>) => o.findings.map((f) => f.value);

describe('times and time ranges', () => {
  it('served instants ground their times in 12- and 24-hour ranges, the meridiem written once or on both ends', () => {
    for (const answer of [
      'Free on April 14: 9:30 AM - 10:15 AM with R. Osei, 1:00-1:45 PM, and 4:30 to 5:15 PM with M. Varga.',
      'Free slots: 09:30-10:15, 13:00-13:45 and 16:30-17:15.',
      'The morning slot runs from 9:30 to 10:15; the afternoon ones are 1:00 - 1:45 and 4:30 - 5:15.',
      '| Slot | Time |\n|---|---|\n| HP-5531 | 09:30–10:15 |\n| HP-5532 | 13:00–13:45 |',
    ]) {
      const o = run(answer, [SLOTS]);
      expect([answer, values(o)]).toEqual([answer, []]);
      expect(o.tally.checked).toBeGreaterThan(0);
    }
  });

  it('a range end no source holds is a finding on that end, the served end still grounded', () => {
    const o = run('Free slots: 09:30-10:45 and 13:00-13:45.', [SLOTS]);
    expect(values(o)).toEqual(['10:45']);
    expect(o.grounded.map((g) => g.raw)).toContain('09:30');
  });

  it('a time no source holds is a finding in either form', () => {
    expect(values(run('You could come at 2:15 PM.', [SLOTS]))).toEqual(['2:15 PM']);
    expect(values(run('You could come at 14:15.', [SLOTS]))).toEqual(['14:15']);
    // The 12-hour reading of 3:30 is 15:30, which no slot holds either.
    expect(values(run('You could come at 3:30.', [SLOTS]))).toEqual(['3:30']);
  });

  it('a token read only in part is judged by what was read, unless the rest is data of its own', () => {
    // `10-11:30`: chrono reads 11:30; the bare `10-` before it is no value of its own.
    expect(values(run('Two options: 9:30 ~ 10:15, or 13:00/13:45.', [SLOTS]))).toEqual([]);
    expect(values(run('Ask for 16-17:15 at the desk.', [SLOTS]))).toEqual([]);
    expect(values(run('Ask for 16-17:25 at the desk.', [SLOTS]))).toEqual(['17:25']);
    // An id with a served date inside is still an id: its letters are data of their own.
    expect(values(run('Your booking HP-2026-04-14 is confirmed for 09:30.', [SLOTS]))).toEqual(['HP-2026-04-14']);
  });

  it('hours and minutes between two served times pass as derived, with the subtraction as witness', () => {
    const o = run('Each session lasts 00:45.', [SLOTS]);
    expect(values(o)).toEqual([]);
    expect(o.derived.map((d) => [d.raw, d.formula])).toEqual([['00:45', '10:15 − 9:30 = 0:45 (hours:minutes between two served times)']]);
    expect(o.derived[0]!.from).toContain('a result of free_slots, call call_fs_01');
    // No two served times are 02:10 apart.
    expect(values(run('Each session lasts 02:10.', [SLOTS]))).toEqual(['02:10']);
  });

  it('a served time moved by a length the user wrote passes as derived; by one nobody wrote, a finding', () => {
    const book = (answer: string, user: string) =>
      unsupportedValues({ span, answerText: answer, windowResults: [SLOTS], exemptTexts: ['You are the booking assistant.', user], bounds: { ...DEFAULT_EVIDENCE_BOUNDS } });
    const o = book('Booked: 13:00-14:30 with Rachel Osei.', 'Book me the 13:00 slot for an hour and a half please.');
    expect(o.findings).toEqual([]);
    expect(o.derived.map((d) => d.formula)).toEqual(['13:00 + 90 min ("an hour and a half") = 14:30']);
    expect(book('Booked: 13:00-14:30 with Rachel Osei.', 'Book me the 13:00 slot please.').findings.map((f) => f.value)).toEqual(['14:30']);
  });

  it("a time only the model's own earlier prose held is assistant-only", () => {
    const o = run('As planned, your slot is 11:40-12:25.', [SLOTS], ['I have pencilled you in for 11:40-12:25 tomorrow.']);
    expect(o.findings.map((f) => [f.value, f.grounding])).toEqual([
      ['11:40', 'assistant-only'],
      ['12:25', 'assistant-only'],
    ]);
  });
});

describe('date ranges', () => {
  const STAY: WindowResult = { text: JSON.stringify({ booking: 'LX-88412', check_in: '2026-05-03', check_out: '2026-05-05', nights: 2 }), toolName: 'get_booking', callId: 'call_gb_01', request: 2 };
  it('a year written once makes both ends data: each is judged, and a wrong start is a finding', () => {
    expect(values(run('You stay May 3 - May 5, 2026 (booking LX-88412).', [STAY]))).toEqual([]);
    expect(values(run('You stay May 4 - May 5, 2026 (booking LX-88412).', [STAY]))).toEqual(['May 4']);
  });
});

describe('prices and ratings', () => {
  it('price ranges and ratings re-formatted from served numbers pass', () => {
    const answer = 'Casa Lumen is rated 4.6/5 (1,342 reviews), rooms $128-$214 per night; Hotel Brisa scores 3.9 out of 5, from €89.00 to €131.00.';
    expect(values(run(answer, [HOTELS]))).toEqual([]);
  });

  it('a rating no source holds is a finding, quoted with its scale, never met by a chance ratio; a rounded one passes', () => {
    // 14 (the user's "April 14") ÷ 287 × 100 = 4.87…: arithmetic never derives a rating.
    expect(values(run('Casa Lumen is rated 4.8/5.', [HOTELS]))).toEqual(['4.8/5']);
    expect(values(run('Hotel Brisa: 4.2 out of 5 stars.', [HOTELS]))).toEqual(['4.2 out of 5']);
    expect(values(run('Casa Lumen (4.60/5.0 would be the same).', [HOTELS]))).toEqual([]);
  });

  it('a range of prices no source holds is a finding on each end', () => {
    expect(values(run('A week at Casa Lumen costs $1,240-$1,820.', [HOTELS]))).toEqual(['1,240', '1,820']);
  });
});
