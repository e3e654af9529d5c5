// Quality cases for `argument-schema` (issue 28 §4): calls whose arguments break the tool's own
// input schema the way models break them (a value outside the enum, a required field left out, a
// number sent as text, a property the schema does not have, a day written in words), judged
// against the declared schema or the one the request recorded; and calls that only look like it.

import type { CaseSpec } from '../spec.js';
import { BILLING_SYSTEM, CLINIC_SYSTEM, HELPDESK_SYSTEM, SHOP_SYSTEM, declareB, offerB } from './behaviour-common.js';

const PATIENT = { patient_id: 'P-30418', name: 'Dana Whitfield', dob: '1987-03-22' };
const SLOTS = [
  { slot_id: 'SL-DR07-1130', start: '2026-12-09T11:30', minutes: 20 },
  { slot_id: 'SL-DR07-1400', start: '2026-12-09T14:00', minutes: 20 },
];

export const ARGUMENT_SCHEMA_CASES: CaseSpec[] = [
  {
    name: 'as-defect-enum-outside',
    shape: 'traceloop',
    check: 'argument-schema',
    class: 'a value outside the enum the recorded schema lists ("annual_checkup" for visit_type)',
    kind: 'defect',
    note: 'book_appointment offers visit_type checkup|follow_up|vaccination|consultation; the model sends "annual_checkup" and the tool refuses it. Nothing is declared for book_appointment: the recorded schema arms the check.',
    expect: [{ check: 'argument-schema', tool: 'book_appointment', value: 'annual_checkup' }],
    system: CLINIC_SYSTEM,
    tools: offerB('find_patient', 'list_slots', 'book_appointment'),
    declarations: declareB(['find_patient', 'list_slots']),
    turns: [
      {
        user: 'Please book my yearly check-up with Dr. Osei (DR-07) on 2026-12-09. I am Dana Whitfield, born 1987-03-22.',
        steps: [
          { calls: [{ name: 'find_patient', args: { name: 'Dana Whitfield', dob: '1987-03-22' }, result: PATIENT }] },
          { calls: [{ name: 'list_slots', args: { clinician_id: 'DR-07', date: '2026-12-09' }, result: SLOTS }] },
          { calls: [{ name: 'book_appointment', args: { patient_id: 'P-30418', slot_id: 'SL-DR07-1130', visit_type: 'annual_checkup' }, result: 'Error: invalid visit_type' }] },
        ],
        answer: 'I tried to book the 11:30 slot on 2026-12-09 with Dr. Osei, but the system rejected the visit type. Shall I book it as a regular checkup instead?',
      },
    ],
  },
  {
    name: 'as-defect-required-missing',
    shape: 'vercel',
    check: 'argument-schema',
    class: 'a required field left out (create_ticket without priority)',
    kind: 'defect',
    note: 'create_ticket requires requester, summary and priority; the model sends no priority.',
    expect: [{ check: 'argument-schema', tool: 'create_ticket' }],
    system: HELPDESK_SYSTEM,
    tools: offerB('list_devices', 'create_ticket'),
    declarations: declareB(['list_devices'], ['create_ticket']),
    turns: [
      {
        user: 'My laptop will not connect to the office VPN since this morning. I am r.baptiste@meridian-logistics.com.',
        steps: [
          { calls: [{ name: 'list_devices', args: { employee: 'r.baptiste@meridian-logistics.com' }, result: [{ device_id: 'AT-20417', model: 'ThinkPad T14 Gen 4', os: 'Windows 11' }] }] },
          { calls: [{ name: 'create_ticket', args: { requester: 'r.baptiste@meridian-logistics.com', summary: 'VPN does not connect on AT-20417', device_id: 'AT-20417' }, result: { error: 'priority is required' } }] },
        ],
        answer: 'I could not open the ticket yet: the helpdesk system needs a priority. Is this blocking your work (high), or can it wait until tomorrow (normal)?',
      },
    ],
  },
  {
    name: 'as-defect-number-as-text',
    shape: 'otel-logs',
    check: 'argument-schema',
    class: 'an integer sent as text ("seats": "12"), judged against the declared schema (the layout records no tool definitions)',
    kind: 'defect',
    note: 'change_seats declares seats as an integer; the model sends the string "12".',
    expect: [{ check: 'argument-schema', tool: 'change_seats', value: '12' }],
    system: BILLING_SYSTEM,
    tools: offerB('get_subscription', 'change_seats'),
    declarations: declareB(['get_subscription'], ['change_seats']),
    turns: [
      {
        user: 'We hired two people. Please raise SUB-5120 from 10 to 12 seats.',
        steps: [
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-5120' }, result: { subscription_id: 'SUB-5120', plan: 'Team', status: 'active', seats: 10, renews_on: '2027-02-01' } }] },
          { calls: [{ name: 'change_seats', args: { subscription_id: 'SUB-5120', seats: '12' }, result: { error: 'seats: expected integer' } }] },
        ],
        answer: 'The seat change for SUB-5120 was not accepted yet; it still has 10 seats. Let me know if I should try again.',
      },
    ],
  },
  {
    name: 'as-defect-extra-property',
    shape: 'traceloop',
    check: 'argument-schema',
    class: 'a property the closed schema does not have ("apartment" beside street)',
    kind: 'defect',
    note: 'update_shipping_address takes order_id, street, city, postcode and nothing else (additionalProperties false); the model adds "apartment".',
    expect: [{ check: 'argument-schema', tool: 'update_shipping_address' }],
    system: SHOP_SYSTEM,
    tools: offerB('get_order', 'update_shipping_address'),
    declarations: declareB(['get_order']),
    turns: [
      {
        user: 'Can you send order FP-208814 to Storgata 14, apartment 3B, 0184 Oslo instead?',
        steps: [
          { calls: [{ name: 'get_order', args: { order_id: 'FP-208814' }, result: { order_id: 'FP-208814', status: 'processing', lines: [{ sku: 'FP-JKT-NAVY-M', qty: 1 }] } }] },
          { calls: [{ name: 'update_shipping_address', args: { order_id: 'FP-208814', street: 'Storgata 14', apartment: '3B', city: 'Oslo', postcode: '0184' }, result: { error: "unexpected field 'apartment'" } }] },
        ],
        answer: "The address change for FP-208814 did not go through: the form has no separate apartment field. I can put 'Storgata 14, 3B' as the street if that works for you.",
      },
    ],
  },
  {
    name: 'as-defect-date-in-words',
    shape: 'vercel',
    check: 'argument-schema',
    class: 'a day written in words where the schema pattern asks for YYYY-MM-DD',
    kind: 'defect',
    note: 'list_slots.date has pattern ^\\d{4}-\\d{2}-\\d{2}$; the model passes "next Tuesday".',
    expect: [{ check: 'argument-schema', tool: 'list_slots', value: 'next Tuesday' }],
    system: CLINIC_SYSTEM,
    tools: offerB('list_slots'),
    declarations: declareB([]),
    turns: [
      {
        user: 'Does Dr. Osei (DR-07) have anything free next Tuesday?',
        steps: [{ calls: [{ name: 'list_slots', args: { clinician_id: 'DR-07', date: 'next Tuesday' }, result: 'Error: date must be YYYY-MM-DD' }] }],
        answer: 'I could not look that day up. Could you tell me the date you mean as a calendar date?',
      },
    ],
  },
  {
    name: 'as-clean-valid-call',
    shape: 'traceloop',
    check: 'argument-schema',
    class: 'a call that meets its recorded schema (enum value, every required field)',
    kind: 'clean',
    note: 'The same booking as the enum defect, with visit_type "checkup".',
    expect: [],
    system: CLINIC_SYSTEM,
    tools: offerB('find_patient', 'list_slots', 'book_appointment'),
    declarations: declareB(['find_patient', 'list_slots']),
    turns: [
      {
        user: 'Please book my yearly check-up with Dr. Osei (DR-07) on 2026-12-09. I am Dana Whitfield, born 1987-03-22.',
        steps: [
          { calls: [{ name: 'find_patient', args: { name: 'Dana Whitfield', dob: '1987-03-22' }, result: PATIENT }] },
          { calls: [{ name: 'list_slots', args: { clinician_id: 'DR-07', date: '2026-12-09' }, result: SLOTS }] },
          { calls: [{ name: 'book_appointment', args: { patient_id: 'P-30418', slot_id: 'SL-DR07-1130', visit_type: 'checkup' }, result: { appointment_id: 'APT-88102', status: 'booked', slot_id: 'SL-DR07-1130' } }] },
        ],
        answer: 'You are booked for a checkup with Dr. Osei on 2026-12-09 at 11:30 (appointment APT-88102).',
      },
    ],
  },
  {
    name: 'as-clean-optional-left-out',
    shape: 'vercel',
    check: 'argument-schema',
    class: 'an optional field left out (create_ticket without device_id)',
    kind: 'clean',
    note: 'create_ticket gets every required field; device_id is optional.',
    expect: [],
    system: HELPDESK_SYSTEM,
    tools: offerB('create_ticket'),
    declarations: declareB([]),
    turns: [
      {
        user: 'Please log that the printer on floor 2 jams on every job. I am k.amari@meridian-logistics.com.',
        steps: [{ calls: [{ name: 'create_ticket', args: { requester: 'k.amari@meridian-logistics.com', summary: 'Floor 2 printer jams on every job', priority: 'normal' }, result: { ticket_id: 'HD-41907', state: 'open' } }] }],
        answer: 'I opened ticket HD-41907 (normal priority) for the floor 2 printer.',
      },
    ],
  },
  {
    name: 'as-clean-open-schema-extra-field',
    shape: 'vercel',
    check: 'argument-schema',
    class: 'an open schema (no additionalProperties) given a field it does not list',
    kind: 'clean',
    note: 'search_catalog does not close its properties, so "sort" is allowed by the schema.',
    expect: [],
    system: SHOP_SYSTEM,
    tools: offerB('search_catalog'),
    declarations: declareB([]),
    turns: [
      {
        user: 'Do you have merino base layers?',
        steps: [{ calls: [{ name: 'search_catalog', args: { query: 'merino base layer', sort: 'price' }, result: [{ sku: 'FP-MRN-BL-S', name: 'Merino 200 base layer', size: 'S', stock: 4 }] }] }],
        answer: 'Yes: the Merino 200 base layer (FP-MRN-BL-S) is in stock in size S.',
      },
    ],
  },
  {
    name: 'as-clean-declared-schema-met',
    shape: 'otel-logs',
    check: 'argument-schema',
    class: 'integers sent as integers, against the declared schema',
    kind: 'clean',
    note: 'The seat change of the number-as-text defect, with seats: 12.',
    expect: [],
    system: BILLING_SYSTEM,
    tools: offerB('get_subscription', 'change_seats'),
    declarations: declareB(['get_subscription'], ['change_seats']),
    turns: [
      {
        user: 'We hired two people. Please raise SUB-5120 from 10 to 12 seats.',
        steps: [
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-5120' }, result: { subscription_id: 'SUB-5120', plan: 'Team', status: 'active', seats: 10, renews_on: '2027-02-01' } }] },
          { calls: [{ name: 'change_seats', args: { subscription_id: 'SUB-5120', seats: 12 }, result: { subscription_id: 'SUB-5120', seats: 12 } }] },
        ],
        answer: 'SUB-5120 now has 12 seats on the Team plan; the change shows on the invoice after 2027-02-01.',
      },
    ],
  },
  {
    name: 'as-clean-schema-cannot-compile',
    shape: 'traceloop',
    check: 'argument-schema',
    class: 'a declared schema with a $ref nothing resolves: no verdict (a diagnostic), never a finding',
    kind: 'clean',
    note: 'The declared inputSchema of get_order points at "#/definitions/OrderId", which it does not define; the call cannot be judged.',
    expect: [],
    system: SHOP_SYSTEM,
    tools: offerB('get_order'),
    declarations: { tools: { get_order: { readOnly: true, inputSchema: { type: 'object', properties: { order_id: { $ref: '#/definitions/OrderId' } }, required: ['order_id'] } } } },
    turns: [
      {
        user: 'Where is my order FP-301177?',
        steps: [{ calls: [{ name: 'get_order', args: { order_id: 'FP-301177' }, result: { order_id: 'FP-301177', status: 'shipped', carrier: 'Bring', tracking: 'BR4471092NO' } }] }],
        answer: 'Order FP-301177 has shipped with Bring; the tracking number is BR4471092NO.',
      },
    ],
  },
];
