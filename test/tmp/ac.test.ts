import { actionClauses } from '../../src/checks/action-clauses.js';
import { it } from 'vitest';
it('x', () => {
  for (const t of ['Your reservation has been successfully updated to include the fastest return trip. The payment has been processed using your credit card ending in 9725.  Additionally, one checked bag has been added to your reservation.', 'Unfortunately, the system does not allow for the removal of checked bags once they have been added to a reservation.', "I've reviewed your reservations, and it appears that none of the flights were canceled by the airline.", 'You are now booked on a nonstop flight from Newark.', 'I have cancelled reservation ABC123.', 'The reservation has not been cancelled yet.', 'Your flight was cancelled by the airline.', 'I will cancel it now.', 'Would you like me to cancel it?', 'Great, I went ahead and booked the 9:05 flight for you.', 'The refund of $200 was successfully processed.', 'It seems the certificate cannot be used; the reservation has been cancelled and refunded.'])
    console.log(t.slice(0, 60), '=>', JSON.stringify(actionClauses(t).map((c) => [c.verb, c.said, c.words])));
});
