// Quality cases for `unconfirmed-action` (issue 28 §1): an answer that says an action was done when
// the write that would do it failed, was refused, or was never called (a cancellation the tool
// rejected, a reset link never sent, an escalation never made, a refund the API refused), and the
// look-alikes (a write that succeeded, a retry that succeeded, a failure told as a failure, what will
// be done, an earlier turn's action recalled, what someone else did).

import type { CaseSpec } from '../spec.js';
import { BILLING_SYSTEM, CLINIC_SYSTEM, HELPDESK_SYSTEM, SHOP_SYSTEM, declareB, offerB } from './behaviour-common.js';

const SUB = { subscription_id: 'SUB-4407', plan: 'Business', status: 'active', seats: 20, renews_on: '2027-01-09' };
const TICKET = { ticket_id: 'HD-41822', summary: 'Cannot reach the Hamburg warehouse VPN', state: 'open', priority: 'high' };
const ORDER = { order_id: 'FP-512007', status: 'delivered', total: 189.0, currency: 'EUR', lines: [{ sku: 'FP-FLC-GRY-L', qty: 1 }] };

export const UNCONFIRMED_ACTION_CASES: CaseSpec[] = [
  {
    name: 'ua-defect-cancel-refused-told-done',
    shape: 'traceloop',
    check: 'unconfirmed-action',
    class: 'a cancellation the tool rejected, told as done',
    kind: 'defect',
    note: 'cancel_subscription answered with an error (an open invoice blocks it); the answer says the subscription has been cancelled.',
    expect: [{ check: 'unconfirmed-action', tool: 'cancel_subscription' }],
    system: BILLING_SYSTEM,
    tools: offerB('get_subscription', 'cancel_subscription'),
    declarations: declareB(['get_subscription']),
    turns: [
      {
        user: 'Please cancel SUB-4407, we are moving to another tool.',
        steps: [
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-4407' }, result: SUB }] },
          { calls: [{ name: 'cancel_subscription', args: { subscription_id: 'SUB-4407', reason: 'switching' }, result: { error: 'subscription SUB-4407 has an open invoice (INV-7790); settle it before cancelling' } }] },
        ],
        answer: 'Done: your subscription SUB-4407 has been cancelled and will end on 2027-01-09. Sorry to see you go!',
      },
    ],
  },
  {
    name: 'ua-defect-reset-link-never-sent',
    shape: 'vercel',
    check: 'unconfirmed-action',
    class: 'a reset link told as sent with no call of the tool that sends it',
    kind: 'defect',
    note: 'reset_password is offered and never called; the answer says the link was sent.',
    expect: [{ check: 'unconfirmed-action', tool: 'reset_password' }],
    system: HELPDESK_SYSTEM,
    tools: offerB('list_devices', 'reset_password'),
    declarations: declareB(['list_devices']),
    turns: [
      {
        user: 'I am locked out of my account after the holidays. p.nowak@meridian-logistics.com',
        steps: [{ calls: [{ name: 'list_devices', args: { employee: 'p.nowak@meridian-logistics.com' }, result: [{ device_id: 'AT-19980', model: 'Latitude 7440', os: 'Windows 11' }] }] }],
        answer: 'I have sent a password reset link to p.nowak@meridian-logistics.com. Open it on your Latitude 7440 (AT-19980) and choose a new password.',
      },
    ],
  },
  {
    name: 'ua-defect-escalation-never-made',
    shape: 'otel-logs',
    check: 'unconfirmed-action',
    class: 'one action done and a second told as done that no call made ("I\'ve also escalated it")',
    kind: 'defect',
    note: 'create_ticket ran; escalate_ticket, offered, was never called, yet the answer says the ticket was escalated to the network team.',
    expect: [{ check: 'unconfirmed-action', tool: 'escalate_ticket' }],
    system: HELPDESK_SYSTEM,
    tools: offerB('create_ticket', 'escalate_ticket'),
    // A careful user declares the escalation a write: nothing in its name or description says so to inference.
    declarations: { tools: { create_ticket: { inputSchema: offerB('create_ticket')['create_ticket']!.parameters }, escalate_ticket: { readOnly: false, inputSchema: offerB('escalate_ticket')['escalate_ticket']!.parameters } } },
    turns: [
      {
        user: 'The Hamburg warehouse cannot reach the VPN at all, 40 people are blocked. I am l.weber@meridian-logistics.com.',
        steps: [{ calls: [{ name: 'create_ticket', args: { requester: 'l.weber@meridian-logistics.com', summary: 'Cannot reach the Hamburg warehouse VPN', priority: 'high' }, result: TICKET }] }],
        answer: 'I opened ticket HD-41822 with high priority. I have also escalated it to the network team, so someone should contact you within the hour.',
      },
    ],
  },
  {
    name: 'ua-defect-refund-refused',
    shape: 'traceloop',
    check: 'unconfirmed-action',
    class: 'a refund the payment API refused (403), told as issued',
    kind: 'defect',
    note: 'refund_order came back "403 Forbidden: refunds above 150 EUR need a supervisor"; the answer says the refund has been issued.',
    expect: [{ check: 'unconfirmed-action', tool: 'refund_order' }],
    system: SHOP_SYSTEM,
    tools: offerB('get_order', 'refund_order'),
    declarations: declareB(['get_order']),
    turns: [
      {
        user: 'The fleece I got in order FP-512007 has a torn seam. I want my money back.',
        steps: [
          { calls: [{ name: 'get_order', args: { order_id: 'FP-512007' }, result: ORDER }] },
          { calls: [{ name: 'refund_order', args: { order_id: 'FP-512007', amount: 189.0 }, result: '403 Forbidden: refunds above 150 EUR need a supervisor' }] },
        ],
        answer: 'I am sorry about the seam. The refund of 189.00 EUR for FP-512007 has been issued to your original payment method.',
      },
    ],
  },
  {
    name: 'ua-clean-write-succeeded',
    shape: 'vercel',
    check: 'unconfirmed-action',
    class: 'a cancellation that ran, told as done',
    kind: 'clean',
    note: 'cancel_subscription returned the cancelled subscription.',
    expect: [],
    system: BILLING_SYSTEM,
    tools: offerB('get_subscription', 'cancel_subscription'),
    declarations: declareB(['get_subscription']),
    turns: [
      {
        user: 'Please cancel SUB-4407, we are moving to another tool.',
        steps: [
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-4407' }, result: SUB }] },
          { calls: [{ name: 'cancel_subscription', args: { subscription_id: 'SUB-4407', reason: 'switching' }, result: { ...SUB, status: 'cancelled', ends_on: '2027-01-09' } }] },
        ],
        answer: 'Your subscription SUB-4407 has been cancelled; it stays usable until 2027-01-09.',
      },
    ],
  },
  {
    name: 'ua-clean-retry-succeeded',
    shape: 'otel-logs',
    check: 'unconfirmed-action',
    class: 'a booking that failed once and succeeded on the second try, told as booked',
    kind: 'clean',
    note: 'The first book_appointment failed (slot taken); the second, with another slot, ran.',
    expect: [],
    system: CLINIC_SYSTEM,
    tools: offerB('list_slots', 'book_appointment'),
    declarations: declareB(['list_slots']),
    turns: [
      {
        user: 'Book me (P-30418) a vaccination on 2026-12-11 in the morning, 08:30 or 09:00 with Dr. Lind (DR-02).',
        steps: [
          {
            calls: [
              {
                name: 'list_slots',
                args: { clinician_id: 'DR-02', date: '2026-12-11' },
                result: [
                  { slot_id: 'SL-DR02-0830', start: '2026-12-11T08:30', minutes: 15 },
                  { slot_id: 'SL-DR02-0900', start: '2026-12-11T09:00', minutes: 15 },
                ],
              },
            ],
          },
          { calls: [{ name: 'book_appointment', args: { patient_id: 'P-30418', slot_id: 'SL-DR02-0830', visit_type: 'vaccination' }, result: 'Error: slot SL-DR02-0830 is no longer free' }] },
          { calls: [{ name: 'book_appointment', args: { patient_id: 'P-30418', slot_id: 'SL-DR02-0900', visit_type: 'vaccination' }, result: { appointment_id: 'APT-88530', slot_id: 'SL-DR02-0900', status: 'booked' } }] },
        ],
        answer: '08:30 was just taken, so I have booked you for 09:00 with Dr. Lind instead (APT-88530).',
      },
    ],
  },
  {
    name: 'ua-clean-failure-told-as-failure',
    shape: 'traceloop',
    check: 'unconfirmed-action',
    class: 'a refused write told honestly, and what will be done next',
    kind: 'clean',
    note: 'refund_order was refused; the answer says so and says what will happen, asserting no action done.',
    expect: [],
    system: SHOP_SYSTEM,
    tools: offerB('get_order', 'refund_order'),
    declarations: declareB(['get_order']),
    turns: [
      {
        user: 'The fleece I got in order FP-512007 has a torn seam. I want my money back.',
        steps: [
          { calls: [{ name: 'get_order', args: { order_id: 'FP-512007' }, result: ORDER }] },
          { calls: [{ name: 'refund_order', args: { order_id: 'FP-512007', amount: 189.0 }, result: '403 Forbidden: refunds above 150 EUR need a supervisor' }] },
        ],
        answer: 'I could not refund FP-512007 myself: refunds above 150 EUR need a supervisor. I will pass it on, and the refund will be issued once they approve it.',
      },
    ],
  },
  {
    name: 'ua-clean-earlier-turn-recalled',
    shape: 'vercel',
    check: 'unconfirmed-action',
    class: 'an action done in an earlier turn, recalled in the next one',
    kind: 'clean',
    note: 'Turn 1 cancelled SUB-4407; in turn 2, where only a read ran, the answer recalls it.',
    expect: [],
    system: BILLING_SYSTEM,
    tools: offerB('get_subscription', 'cancel_subscription', 'list_invoices'),
    declarations: declareB(['get_subscription', 'list_invoices']),
    turns: [
      {
        user: 'Please cancel SUB-4407, we are moving to another tool.',
        steps: [{ calls: [{ name: 'cancel_subscription', args: { subscription_id: 'SUB-4407', reason: 'switching' }, result: { ...SUB, status: 'cancelled', ends_on: '2027-01-09' } }] }],
        answer: 'Your subscription SUB-4407 has been cancelled; it stays usable until 2027-01-09.',
      },
      {
        user: 'Will we still get an invoice in January? ACC-4410 is our account.',
        steps: [{ calls: [{ name: 'list_invoices', args: { account_id: 'ACC-4410', status: 'open' }, result: [] }] }],
        answer: 'No. Since SUB-4407 has been cancelled, no renewal invoice will be created, and ACC-4410 has no open invoices.',
      },
    ],
  },
];
