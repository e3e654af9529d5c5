// Quality cases for `status-contradiction` (issue 28 §3): an answer that calls an entity it names
// available, active or paid when its served row says otherwise (a cancelled subscription told as
// active, a room told as free, a sold-out size listed under "in stock", an unpaid booking told as
// paid), and the look-alikes that agree with the row or that the row does not settle (the state a
// write changed after the read, another date's row, "not enough" talk, a state the row agrees with).

import type { CaseSpec } from '../spec.js';
import { BILLING_SYSTEM, CLINIC_SYSTEM, HOTEL_SYSTEM, SHOP_SYSTEM, declareB, offerB } from './behaviour-common.js';

const ROOMS = [
  { room_id: 'R-204', floor: 2, available: false, rate_per_night: 148 },
  { room_id: 'R-311', floor: 3, available: true, rate_per_night: 156 },
];
const BOOTS = [
  { sku: 'FP-HKB-BRN-41', name: 'Hardanger hiking boot', size: 41, in_stock: true, stock: 6 },
  { sku: 'FP-HKB-BRN-42', name: 'Hardanger hiking boot', size: 42, in_stock: false, stock: 0 },
  { sku: 'FP-HKB-BRN-43', name: 'Hardanger hiking boot', size: 43, in_stock: true, stock: 2 },
];

export const STATUS_CONTRADICTION_CASES: CaseSpec[] = [
  {
    name: 'sc-defect-cancelled-told-active',
    shape: 'traceloop',
    check: 'status-contradiction',
    class: 'a subscription the row says is cancelled, told as active',
    kind: 'defect',
    note: 'get_subscription(SUB-2291) has status "cancelled"; the answer says it is active and renews.',
    expect: [{ check: 'status-contradiction', value: 'active' }],
    system: BILLING_SYSTEM,
    tools: offerB('get_subscription'),
    declarations: declareB(['get_subscription']),
    turns: [
      {
        user: 'Is our subscription SUB-2291 still running?',
        steps: [{ calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-2291' }, result: { subscription_id: 'SUB-2291', plan: 'Team', status: 'cancelled', seats: 8, ends_on: '2026-12-31' } }] }],
        answer: 'Yes, SUB-2291 is active on the Team plan with 8 seats.',
      },
    ],
  },
  {
    name: 'sc-defect-room-told-available',
    shape: 'vercel',
    check: 'status-contradiction',
    class: 'a room the row marks available: false, told as available',
    kind: 'defect',
    note: 'room_availability served R-204 with available: false; the answer offers it as available.',
    expect: [{ check: 'status-contradiction', value: 'available' }],
    system: HOTEL_SYSTEM,
    tools: offerB('room_availability'),
    declarations: declareB(['room_availability']),
    turns: [
      {
        user: 'I would like room 204 again, a double from 2026-12-18 for 3 nights.',
        steps: [{ calls: [{ name: 'room_availability', args: { room_type: 'double', check_in: '2026-12-18', nights: 3 }, result: ROOMS }] }],
        answer: 'Good news: R-204 is available from 2026-12-18 for 3 nights at 148 per night. Shall I reserve it?',
      },
    ],
  },
  {
    name: 'sc-defect-sold-out-listed-in-stock',
    shape: 'otel-logs',
    check: 'status-contradiction',
    class: 'a sold-out size listed under a header that says "in stock"',
    kind: 'defect',
    note: 'The list "These sizes are in stock:" includes FP-HKB-BRN-42, whose row has in_stock: false.',
    expect: [{ check: 'status-contradiction', value: 'in stock' }],
    system: SHOP_SYSTEM,
    tools: offerB('search_catalog'),
    declarations: declareB(['search_catalog']),
    turns: [
      {
        user: 'Which sizes of the Hardanger hiking boot can I order?',
        steps: [{ calls: [{ name: 'search_catalog', args: { query: 'Hardanger hiking boot' }, result: BOOTS }] }],
        answer: 'These sizes are in stock:\n\n1. Size 41 (FP-HKB-BRN-41)\n2. Size 42 (FP-HKB-BRN-42)\n3. Size 43 (FP-HKB-BRN-43)\n\nWhich one would you like?',
      },
    ],
  },
  {
    name: 'sc-defect-unpaid-told-paid',
    shape: 'traceloop',
    check: 'status-contradiction',
    class: 'a booking the row says is not paid, told as paid',
    kind: 'defect',
    note: 'get_booking(LH-55131) has paid: false; the answer tells the guest it is paid.',
    expect: [{ check: 'status-contradiction', value: 'paid' }],
    system: HOTEL_SYSTEM,
    tools: offerB('get_booking'),
    declarations: declareB(['get_booking']),
    turns: [
      {
        user: 'Do I still need to pay for LH-55131 at check-in?',
        steps: [{ calls: [{ name: 'get_booking', args: { booking_ref: 'LH-55131' }, result: { booking_ref: 'LH-55131', room_id: 'R-118', room_type: 'single', nights: 2, total: 236, paid: false } }] }],
        answer: 'No, LH-55131 is paid, so there is nothing to settle at check-in.',
      },
    ],
  },
  {
    name: 'sc-clean-state-agrees',
    shape: 'vercel',
    check: 'status-contradiction',
    class: 'states the rows agree with (cancelled, not available, in stock)',
    kind: 'clean',
    note: 'R-204 not available and R-311 available, as the rows say.',
    expect: [],
    system: HOTEL_SYSTEM,
    tools: offerB('room_availability'),
    declarations: declareB(['room_availability']),
    turns: [
      {
        user: 'I would like room 204 again, a double from 2026-12-18 for 3 nights.',
        steps: [{ calls: [{ name: 'room_availability', args: { room_type: 'double', check_in: '2026-12-18', nights: 3 }, result: ROOMS }] }],
        answer: 'R-204 is not available for those nights, I am sorry. R-311 on the third floor is available at 156 per night. Would that work?',
      },
    ],
  },
  {
    name: 'sc-clean-changed-by-write',
    shape: 'traceloop',
    check: 'status-contradiction',
    class: 'a state a write changed after the read ("APT-88417 is now cancelled" after cancel_appointment ran)',
    kind: 'clean',
    note: 'get_appointment said "booked"; cancel_appointment(APT-88417) then ran and returned {ok: true}. The earlier row no longer settles the state.',
    expect: [],
    system: CLINIC_SYSTEM,
    tools: offerB('get_appointment', 'cancel_appointment'),
    declarations: declareB(['get_appointment']),
    turns: [
      {
        user: 'Please cancel my appointment APT-88417, I am feeling better.',
        steps: [
          { calls: [{ name: 'get_appointment', args: { appointment_id: 'APT-88417' }, result: { appointment_id: 'APT-88417', clinician_id: 'DR-03', start: '2026-12-07T10:00', status: 'booked' } }] },
          { calls: [{ name: 'cancel_appointment', args: { appointment_id: 'APT-88417' }, result: { ok: true } }] },
        ],
        answer: 'APT-88417 on 2026-12-07 at 10:00 is now cancelled. Get well soon!',
      },
    ],
  },
  {
    name: 'sc-clean-not-enough-and-other-size',
    shape: 'otel-logs',
    check: 'status-contradiction',
    class: '"not enough" talk about a row in stock, and the sold-out size said as sold out',
    kind: 'clean',
    note: 'FP-HKB-BRN-43 has 2 in stock: "not enough for 3 pairs" is quantity talk, not a state; FP-HKB-BRN-42 is told as sold out, as its row says.',
    expect: [],
    system: SHOP_SYSTEM,
    tools: offerB('search_catalog'),
    declarations: declareB(['search_catalog']),
    turns: [
      {
        user: 'I need 3 pairs of the Hardanger boot in size 43 for our guides, or size 42.',
        steps: [{ calls: [{ name: 'search_catalog', args: { query: 'Hardanger hiking boot' }, result: BOOTS }] }],
        answer: 'Size 42 (FP-HKB-BRN-42) is sold out. For size 43 (FP-HKB-BRN-43) there are not enough pairs available for 3: only 2 are left.',
      },
    ],
  },
  {
    name: 'sc-clean-other-date-row',
    shape: 'vercel',
    check: 'status-contradiction',
    class: 'a state said for another date than the row holds',
    kind: 'clean',
    note: 'The served row of R-204 is for 2026-12-18; the answer repeats what the user said about 2026-12-26, which no served row settles.',
    expect: [],
    system: HOTEL_SYSTEM,
    tools: offerB('room_availability'),
    declarations: declareB(['room_availability']),
    turns: [
      {
        user: 'My colleague stays in R-204 every year around 2026-12-26 and says it is usually free then. Is it free from 2026-12-18 for 3 nights?',
        steps: [{ calls: [{ name: 'room_availability', args: { room_type: 'double', check_in: '2026-12-18', nights: 3 }, result: ROOMS }] }],
        answer: 'R-204 is taken from 2026-12-18 for those 3 nights. Your colleague says R-204 is usually available around 2026-12-26. I can check that date next if you like.',
      },
    ],
  },
];
