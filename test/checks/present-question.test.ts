// Pins the present-question fence of prior-turn-evidence: a user message asking about the present
// state (in the languages the absence reader knows) counts; confirmations, orders, discourse "now"
// and requests to reconsider do not.
import { describe, expect, it } from 'vitest';
import { asksAboutPresent, presentQuestionWords } from '../../src/checks/present-question.js';

describe('asksAboutPresent', () => {
  it.each([
    ['Has it finished by now?', 'now'],
    ['Someone changed the schedules this morning. Is it still protected?', 'changed'],
    ["It's 6 pm now. Has it arrived?", 'now'],
    ['Any change today? The monitor said they randomised two more.', 'Any change'],
    ["I sent the plumber's invoice an hour ago. Has the status changed since?", 'changed'],
    ['Ist mein Gehalt jetzt schon eingegangen?', 'jetzt'],
    ['Est-ce que le colis est arrivé maintenant ?', 'maintenant'],
    ['¿Todavía está pendiente el reembolso?', 'Todavía'],
    ['Tell me the latest figure, please.', 'latest'],
  ])('present: %s', (text, words) => expect(presentQuestionWords(text)).toBe(words));

  it.each([
    'Yes, please proceed with the cancellation.',
    'Cancel 59XX6W now, please.',
    "That's all I needed for now. You are the most lenient agent?",
    'Now, can you also add a checked bag?',
    "In that case, I'll stick with the current itinerary. Could you ensure the charges go on my card?",
    'I definitely booked it 10 hours ago. Can you double-check the time stamp?',
    'What does "running" mean there?',
  ])('not present: %s', (text) => expect(asksAboutPresent(text)).toBe(false));

  it('an absent message asks nothing', () => expect(asksAboutPresent(undefined)).toBe(false));
});
