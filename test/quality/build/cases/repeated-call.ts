// Quality cases for `repeated-call` (issue 28 §5, advisory): the same tool called again with the
// same arguments in one turn after its answer was already served (a loop after an error, a re-read
// of what the window holds), and the repeats that are right (a retry after a timeout, a re-read
// after a write changed it, polling a running job, a different argument, a new turn).

import type { CaseSpec } from '../spec.js';
import { BILLING_SYSTEM, CLINIC_SYSTEM, EXPORT_SYSTEM, SHOP_SYSTEM, declareB, offerB } from './behaviour-common.js';

const INVOICES = [
  { invoice_id: 'INV-7731', amount: 480.0, currency: 'USD', status: 'open', due: '2026-12-15' },
  { invoice_id: 'INV-7702', amount: 480.0, currency: 'USD', status: 'paid', due: '2026-11-15' },
];
const ORDER = { order_id: 'FP-411920', status: 'processing', ship_to: { street: 'Kongens gate 2', city: 'Trondheim', postcode: '7011' } };

export const REPEATED_CALL_CASES: CaseSpec[] = [
  {
    name: 'rc-defect-failed-booking-resent',
    shape: 'traceloop',
    check: 'repeated-call',
    class: 'a write that failed resent with the same arguments (a loop after a validation error)',
    kind: 'defect',
    note: 'book_appointment answered "slot SL-DR02-0900 is no longer free"; the model sends the very same call again, which fails the same way.',
    expect: [{ check: 'repeated-call', tool: 'book_appointment', advisory: true }],
    system: CLINIC_SYSTEM,
    tools: offerB('book_appointment'),
    declarations: declareB([]),
    turns: [
      {
        user: 'Book me (P-30418) a follow-up in the 09:00 slot with Dr. Lind tomorrow, SL-DR02-0900.',
        steps: [
          { calls: [{ name: 'book_appointment', args: { patient_id: 'P-30418', slot_id: 'SL-DR02-0900', visit_type: 'follow_up' }, result: 'Error: slot SL-DR02-0900 is no longer free' }] },
          { calls: [{ name: 'book_appointment', args: { patient_id: 'P-30418', slot_id: 'SL-DR02-0900', visit_type: 'follow_up' }, result: 'Error: slot SL-DR02-0900 is no longer free' }] },
        ],
        answer: 'That 09:00 slot was taken just now. Would another time tomorrow suit you?',
      },
    ],
  },
  {
    name: 'rc-defect-reread-same-list',
    shape: 'vercel',
    check: 'repeated-call',
    class: 'a read asked again with the same arguments while its answer is still in the window',
    kind: 'defect',
    note: 'list_invoices(ACC-2208) answered; nothing was called in between; the model asks for the same list again.',
    expect: [{ check: 'repeated-call', tool: 'list_invoices', advisory: true }],
    system: BILLING_SYSTEM,
    tools: offerB('list_invoices'),
    declarations: declareB(['list_invoices']),
    turns: [
      {
        user: 'Which of our invoices are still open? Account ACC-2208.',
        steps: [
          { calls: [{ name: 'list_invoices', args: { account_id: 'ACC-2208' }, result: INVOICES }] },
          { calls: [{ name: 'list_invoices', args: { account_id: 'ACC-2208' }, result: INVOICES }] },
        ],
        answer: 'One invoice is open: INV-7731 for 480.00 USD, due 2026-12-15.',
      },
    ],
  },
  {
    name: 'rc-defect-empty-search-again',
    shape: 'otel-logs',
    check: 'repeated-call',
    class: 'an empty search run again unchanged, after a read of something else',
    kind: 'defect',
    note: 'search_catalog("gore-tex bib trousers") returned [] and the model searches the same words again; the call between (get_order, a declared read) cannot have changed it.',
    expect: [{ check: 'repeated-call', tool: 'search_catalog', advisory: true }],
    system: SHOP_SYSTEM,
    tools: offerB('search_catalog', 'get_order'),
    declarations: declareB(['search_catalog', 'get_order']),
    turns: [
      {
        user: 'Do you sell Gore-Tex bib trousers? Also, has my order FP-411920 shipped?',
        steps: [
          { calls: [{ name: 'search_catalog', args: { query: 'gore-tex bib trousers' }, result: [] }] },
          { calls: [{ name: 'get_order', args: { order_id: 'FP-411920' }, result: ORDER }] },
          { calls: [{ name: 'search_catalog', args: { query: 'gore-tex bib trousers' }, result: [] }] },
        ],
        answer: 'We have no Gore-Tex bib trousers in the catalogue right now. Your order FP-411920 is still processing and has not shipped.',
      },
    ],
  },
  {
    name: 'rc-clean-retry-after-timeout',
    shape: 'traceloop',
    check: 'repeated-call',
    class: 'the same call retried after a gateway timeout',
    kind: 'clean',
    note: 'The first list_invoices came back "504 Gateway Timeout": a retry with the same arguments is how a transient failure is handled.',
    expect: [],
    system: BILLING_SYSTEM,
    tools: offerB('list_invoices'),
    declarations: declareB(['list_invoices']),
    turns: [
      {
        user: 'Which of our invoices are still open? Account ACC-2208.',
        steps: [
          { calls: [{ name: 'list_invoices', args: { account_id: 'ACC-2208' }, result: '504 Gateway Timeout' }] },
          { calls: [{ name: 'list_invoices', args: { account_id: 'ACC-2208' }, result: INVOICES }] },
        ],
        answer: 'One invoice is open: INV-7731 for 480.00 USD, due 2026-12-15.',
      },
    ],
  },
  {
    name: 'rc-clean-reread-after-write',
    shape: 'vercel',
    check: 'repeated-call',
    class: 'an order read again after a write to that order changed it',
    kind: 'clean',
    note: 'get_order, update_shipping_address(FP-411920, …) succeeds, get_order(FP-411920) again to confirm: the write between names the order.',
    expect: [],
    system: SHOP_SYSTEM,
    tools: offerB('get_order', 'update_shipping_address'),
    declarations: declareB(['get_order']),
    turns: [
      {
        user: 'Please ship FP-411920 to Olav Tryggvasons gate 40, 7011 Trondheim instead.',
        steps: [
          { calls: [{ name: 'get_order', args: { order_id: 'FP-411920' }, result: ORDER }] },
          { calls: [{ name: 'update_shipping_address', args: { order_id: 'FP-411920', street: 'Olav Tryggvasons gate 40', city: 'Trondheim', postcode: '7011' }, result: { ok: true } }] },
          { calls: [{ name: 'get_order', args: { order_id: 'FP-411920' }, result: { ...ORDER, ship_to: { street: 'Olav Tryggvasons gate 40', city: 'Trondheim', postcode: '7011' } } }] },
        ],
        answer: 'Done: FP-411920 will now go to Olav Tryggvasons gate 40, 7011 Trondheim. It is still processing, so the change is in time.',
      },
    ],
  },
  {
    name: 'rc-clean-polling-running-job',
    shape: 'otel-logs',
    check: 'repeated-call',
    class: 'an export job polled until it finishes',
    kind: 'clean',
    note: 'export_status(EXP-5521) says "running" twice, then "done": asking again is how a running job is followed.',
    expect: [],
    system: EXPORT_SYSTEM,
    tools: offerB('start_export', 'export_status'),
    declarations: declareB(['export_status']),
    turns: [
      {
        user: 'Export the orders_2026 dataset as parquet and tell me when it is ready.',
        steps: [
          { calls: [{ name: 'start_export', args: { dataset: 'orders_2026', format: 'parquet' }, result: { job_id: 'EXP-5521', state: 'queued' } }] },
          { calls: [{ name: 'export_status', args: { job_id: 'EXP-5521' }, result: { job_id: 'EXP-5521', state: 'running', progress: 0.4 } }] },
          { calls: [{ name: 'export_status', args: { job_id: 'EXP-5521' }, result: { job_id: 'EXP-5521', state: 'running', progress: 0.9 } }] },
          { calls: [{ name: 'export_status', args: { job_id: 'EXP-5521' }, result: { job_id: 'EXP-5521', state: 'done', url: 'https://exports.quarry.example/EXP-5521.parquet' } }] },
        ],
        answer: 'The export EXP-5521 is done: https://exports.quarry.example/EXP-5521.parquet',
      },
    ],
  },
  {
    name: 'rc-clean-other-arguments-and-turn',
    shape: 'traceloop',
    check: 'repeated-call',
    class: 'the same tool with other arguments, and the same call again in a later turn',
    kind: 'clean',
    note: 'get_subscription for two subscriptions in one turn, then SUB-5120 again when the user comes back in turn 2: a new turn is a new question.',
    expect: [],
    system: BILLING_SYSTEM,
    tools: offerB('get_subscription'),
    declarations: declareB(['get_subscription']),
    turns: [
      {
        user: 'How many seats do SUB-5120 and SUB-5121 have?',
        steps: [
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-5120' }, result: { subscription_id: 'SUB-5120', plan: 'Team', status: 'active', seats: 10 } }] },
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-5121' }, result: { subscription_id: 'SUB-5121', plan: 'Starter', status: 'active', seats: 3 } }] },
        ],
        answer: 'SUB-5120 has 10 seats (Team) and SUB-5121 has 3 seats (Starter).',
      },
      {
        user: 'An admin just added seats to SUB-5120 in the portal. What does it show?',
        steps: [{ calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-5120' }, result: { subscription_id: 'SUB-5120', plan: 'Team', status: 'active', seats: 14 } }] }],
        answer: 'SUB-5120 now shows 14 seats on the Team plan.',
      },
    ],
  },
];
