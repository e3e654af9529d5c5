// Pins the still-to-come rule of the absence-clause reader's hedges (absence-clauses.ts;
// docs/checks-answer.md): "it may still be on its way", "may still arrive" say the thing is yet to
// come, which keeps the absence asserted before it; "may still" with anything else ("may still be
// incomplete", "there may still be some") withdraws it as before. Realistic freight answers.
import { describe, it, expect } from 'vitest';
import { readAnswer } from '../../src/checks/absence-clauses.js';

const said = (answer: string) => readAnswer(answer).absences.map((a) => a.said);

describe('"may still" in the sentence after an absence', () => {
  it('keeps the absence when it says the thing is yet to come', () => {
    expect(said('No, there have been no deliveries to CN-40771 this week. If you are waiting for a pallet, it may still be on its way.')).toHaveLength(1);
    expect(said('There were no direct debits from Stadtwerke Hamburg last month. Their payment may still arrive next week.')).toHaveLength(1);
    expect(said('I found no credit notes for RE-2026-20931; the refund might still be pending at the bank.')).toHaveLength(1);
  });

  it('still withdraws the absence when it hedges what exists', () => {
    expect(said('I see no deliveries to CN-40771 this week, though the list may still be incomplete.')).toEqual([]);
    expect(said('There are no open claims on file. There may still be some that the broker filed on paper.')).toEqual([]);
    expect(said('No shipments are listed for CN-40771. Some may still exist in the old depot system.')).toEqual([]);
  });
});
