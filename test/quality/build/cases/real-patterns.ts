// Quality cases from patterns seen on real agent runs (the tau-bench airline runs in
// test/real-traces, read for what healthy agents do), written for a domain of their own — a car
// rental desk — never as copies of those runs: confirmation turns that restate what was read
// minutes earlier, a write whose error names one argument, a read whose not-found names one of
// several served values, a payment id taken from a booking's own payment history, requests to
// double-check, and the stale answers that do deserve a look (a present-state question, a write in
// between). Data only; expectations come from docs/checks-*.md.

import type { CaseSpec, ToolDefinition } from '../spec.js';

const str = (description: string) => ({ type: 'string', description });
const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });

const RENTAL_SYSTEM =
  'You are the booking assistant of Rhône Car Rental (Lyon). Today is 2026-12-04. Before any change to a booking, list what will change and get an explicit yes. Quote booking ids, vehicle codes and amounts exactly as the tools return them.';

const RENTAL_TOOLS: Record<string, ToolDefinition> = {
  find_customer: { description: 'Find a customer by e-mail; returns the customer id and stored payment methods.', parameters: obj({ email: str('E-mail address.') }, ['email']) },
  get_booking: { description: 'Get one booking with its vehicle, dates, branch, price and payment history.', parameters: obj({ booking_id: str('Booking id, such as RB-10001.') }, ['booking_id']) },
  vehicle_availability: {
    description: 'Check whether one vehicle code can be rented at one branch.',
    parameters: obj({ branch_id: str('Branch id, such as LYS-PD.'), vehicle_code: str('Vehicle code, such as VX-2008.') }, ['branch_id', 'vehicle_code']),
  },
  modify_booking: {
    description: 'Change the vehicle of a booking and charge or refund the difference (writes).',
    parameters: obj({ booking_id: str('Booking id.'), vehicle_code: str('Vehicle code.'), payment_id: str('Payment method id, such as card_4410.') }, ['booking_id', 'vehicle_code', 'payment_id']),
  },
  cancel_booking: { description: 'Cancel a booking (writes).', parameters: obj({ booking_id: str('Booking id.') }, ['booking_id']) },
};

const offer = (...names: string[]): Record<string, ToolDefinition> => Object.fromEntries(names.map((n) => [n, RENTAL_TOOLS[n]!]));
const decl = (tools: Record<string, Record<string, unknown>>) => ({ tools, answers: { checkValues: true } });

const BOOKING = {
  booking_id: 'RB-40217',
  customer_id: 'cu_88412',
  vehicle_code: 'VX-2008',
  vehicle: 'Peugeot 2008',
  branch_id: 'LYS-PD',
  pickup: '2026-12-18',
  dropoff: '2026-12-22',
  status: 'confirmed',
  total_eur: 412.8,
  payment_history: [{ payment_id: 'card_4410', amount_eur: 412.8 }],
};

const readBooking = {
  user: 'Hello, I have booking RB-40217 and would like to switch to a bigger car.',
  steps: [{ calls: [{ name: 'get_booking', args: { booking_id: 'RB-40217' }, result: BOOKING }] }],
  answer: 'Your booking RB-40217 is for a Peugeot 2008 (VX-2008), picked up at LYS-PD on 2026-12-18 and returned on 2026-12-22, total 412.80 EUR. Which car would you like instead?',
};

export const REAL_PATTERN_CASES: CaseSpec[] = [
  {
    name: 'rp-pte-clean-confirmation-restates-read',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'real pattern: a confirmation turn restates what the previous turn read, with nothing in between that could change it',
    kind: 'clean',
    note: 'The user says yes to a plan; the agent lists the booking details it read a turn earlier before acting. Nothing wrote to the booking since, and the user asks about nothing current.',
    expect: [],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking', 'modify_booking'),
    declarations: decl({ get_booking: { readOnly: true } }),
    turns: [
      readBooking,
      {
        user: 'Yes, the SUV is fine. Please go ahead.',
        steps: [],
        answer: 'To confirm: booking RB-40217, pickup at LYS-PD on 2026-12-18, return on 2026-12-22, paid with card_4410. I will switch the car once you say yes.',
      },
    ],
  },
  {
    name: 'rp-pte-clean-order-with-now',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'real pattern: an order with "now" in it ("cancel it now, please") asks about nothing current',
    kind: 'clean',
    note: '"now" here is urgency in an order, not a question about the present; the answer restates the booking before cancelling, as the policy asks.',
    expect: [],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking', 'cancel_booking'),
    declarations: decl({ get_booking: { readOnly: true } }),
    turns: [readBooking, { user: 'Actually, cancel RB-40217 now, please.', steps: [], answer: 'Before I cancel: RB-40217, Peugeot 2008 from 2026-12-18 to 2026-12-22, 412.80 EUR. Do you confirm the cancellation?' }],
  },
  {
    name: 'rp-pte-clean-double-check-reconsidered',
    shape: 'otel-logs',
    check: 'prior-turn-evidence',
    class: 'real pattern: "could you double-check that?" asks to look at what was read again, not to read again',
    kind: 'clean',
    note: 'The user doubts the return date; the agent re-reads its own earlier result and restates it. Nothing changed the booking in between.',
    expect: [],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking'),
    declarations: decl({ get_booking: { readOnly: true } }),
    turns: [readBooking, { user: 'I thought I booked until the 23rd. Could you double-check the return date?', steps: [], answer: 'I checked again: RB-40217 is returned on 2026-12-22.' }],
  },
  {
    name: 'rp-pte-defect-still-available',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'real pattern: "is it still …?" answered from the previous turn\'s read, with no new lookup',
    kind: 'defect',
    note: 'The user asks about the present state of the booking an hour later; the answer repeats turn 1 without reading it again.',
    expect: [{ check: 'prior-turn-evidence', advisory: true }],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking'),
    declarations: decl({ get_booking: { readOnly: true } }),
    turns: [readBooking, { user: 'My partner may have changed it online. Is RB-40217 still confirmed?', steps: [], answer: 'Yes, RB-40217 is confirmed: Peugeot 2008, picked up at LYS-PD on 2026-12-18.' }],
  },
  {
    name: 'rp-pte-defect-restated-after-cancel',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'real pattern: a write in between (the booking was cancelled), then an answer restating the read from before it',
    kind: 'defect',
    note: 'cancel_booking(RB-40217) went through in turn 2; turn 3 restates turn 1\'s "confirmed" booking without reading it again. The user asks nothing about the present: the write is what makes it stale.',
    expect: [{ check: 'prior-turn-evidence', advisory: true }],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking', 'cancel_booking'),
    declarations: decl({ get_booking: { readOnly: true } }),
    turns: [
      readBooking,
      { user: 'Please cancel RB-40217.', steps: [{ calls: [{ name: 'cancel_booking', args: { booking_id: 'RB-40217' }, result: { ok: true } }] }], answer: 'Done, the booking is cancelled.' },
      { user: 'Thanks. Which car and dates was that for, for my records?', steps: [], answer: 'RB-40217: Peugeot 2008 (VX-2008), 2026-12-18 to 2026-12-22, 412.80 EUR, confirmed.' },
    ],
  },
  {
    name: 'rp-el-clean-write-error-names-argument',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'real pattern: a write\'s "… not found" error about one of its arguments is not an empty lookup',
    kind: 'clean',
    note: 'modify_booking is a write (its name says so); its error is about the payment method, and the agent asks for another. No lookup came back empty.',
    expect: [],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking', 'modify_booking'),
    declarations: decl({ get_booking: { readOnly: true }, modify_booking: { argumentsFrom: ['get_booking'] } }),
    turns: [
      readBooking,
      {
        user: 'The Peugeot 3008 please, VX-3008. Use the card I paid with.',
        steps: [{ calls: [{ name: 'modify_booking', args: { booking_id: 'RB-40217', vehicle_code: 'VX-3008', payment_id: 'card_4410' }, result: 'Error: payment method not found' }] }],
        answer: 'The card on the booking was not accepted for the change. Which other payment method would you like to use?',
      },
    ],
  },
  {
    name: 'rp-el-defect-not-found-names-one-value',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'real pattern: a read whose not-found names one of several served values: one finding, for that value',
    kind: 'defect',
    note: 'vehicle_availability is a read of two values get_booking served; its not-found names the vehicle code only, so the one place to look is VX-2008 (not the branch).',
    expect: [{ check: 'empty-lookup', tool: 'vehicle_availability', value: 'VX-2008', advisory: true }],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking', 'vehicle_availability'),
    declarations: decl({ get_booking: { readOnly: true }, vehicle_availability: { readOnly: true, argumentsFrom: ['get_booking'] } }),
    turns: [
      {
        user: 'Can I keep the same car for RB-40217 if I extend by two days?',
        steps: [
          { calls: [{ name: 'get_booking', args: { booking_id: 'RB-40217' }, result: BOOKING }] },
          { calls: [{ name: 'vehicle_availability', args: { branch_id: 'LYS-PD', vehicle_code: 'VX-2008' }, result: { error: 'not_found', status: 404, message: 'vehicle code VX-2008 not found at this branch' } }] },
        ],
        answer: 'I could not confirm that the Peugeot 2008 is available for the extension at LYS-PD; the branch did not find that vehicle code.',
      },
    ],
  },
  {
    name: 'rp-ua-clean-payment-from-booking-history',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'real pattern: a payment id taken from the booking\'s own payment history (same field name), not from the declared customer lookup',
    kind: 'clean',
    note: 'payment_id is declared to come from find_customer, which was not called; the user asked to pay with the card of the original booking, and get_booking served it under payment_id. Served, not of unknown standing.',
    expect: [],
    system: RENTAL_SYSTEM,
    memory: 'full',
    tools: offer('get_booking', 'modify_booking', 'find_customer'),
    declarations: decl({ get_booking: { readOnly: true }, find_customer: { readOnly: true }, modify_booking: { argumentsFrom: { booking_id: ['get_booking'], payment_id: ['find_customer'] } } }),
    turns: [
      readBooking,
      {
        user: 'Switch to the VX-3008 and charge the same card as the original booking.',
        steps: [{ calls: [{ name: 'modify_booking', args: { booking_id: 'RB-40217', vehicle_code: 'VX-3008', payment_id: 'card_4410' }, result: { booking_id: 'RB-40217', vehicle_code: 'VX-3008', charged_eur: 64.0, payment_id: 'card_4410' } }] }],
        answer: 'Done: RB-40217 now has the VX-3008; the difference of 64.00 EUR was charged to card_4410.',
      },
    ],
  },
];
