import { countClauses } from '../../src/checks/count-clauses.js';
import { it } from 'vitest';
it('x', () => {
  for (const t of ['You have two upcoming reservations in business class that can be downgraded to economy:', 'I found three reservations under your profile: DF89BM, COVE6R, and IIHXDG.', 'There are 11 options for your trip.', 'New York City is served by three major airports: JFK', 'you can take a total of 4 free checked bags.', 'Additionally, one checked bag has been added to your reservation.', 'I found one of your reservations with the ID 8C8K4E.', 'Would you like to proceed with one of these options?', 'The total cost for 3 Passengers: $957', 'Flight HAT088 has 0 seats', 'Please provide details for each of the three passengers.', 'You have 2 saved passengers and 3 payment methods on file.', 'It departs at 10 AM with 2 stops.'])
    console.log(t, '=>', JSON.stringify(countClauses(t).map((c) => [c.n, c.noun, c.modifiers, c.tail, c.narrowed])));
});
