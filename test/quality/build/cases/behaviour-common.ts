// Shared pieces of the behaviour cases (argument-schema, repeated-call, count-mismatch,
// status-contradiction, unconfirmed-action): agents whose failures are what real agents do — a
// write that failed and is told as done, a miscount, a state the row contradicts, a call the schema
// forbids, a loop — in domains none of these checks was written against the real runs of (a SaaS
// billing desk, a clinic's scheduling agent, an IT helpdesk, an online shop, a hotel desk, a data
// export service). System prompts, tool definitions, declaration builders and served data. Data only;
// never encodes what a check does: every case states its own expectations, from docs/checks-*.md.

import type { ToolDefinition } from '../spec.js';

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', description });
const obj = (properties: Record<string, unknown>, required: string[], closed = true) => ({ type: 'object', properties, required, ...(closed ? { additionalProperties: false } : {}) });

export const BILLING_SYSTEM = 'You are the billing assistant of Cloudlane, a SaaS company. Today is 2026-12-04. Use the billing tools; never promise a change the tools did not make.';
export const CLINIC_SYSTEM = 'You are the scheduling assistant of Riverside Family Clinic. Today is 2026-12-04. Book, move and cancel appointments only with the scheduling tools.';
export const HELPDESK_SYSTEM = 'You are the IT helpdesk assistant of Meridian Logistics. Today is 2026-12-04. Work tickets and devices with the helpdesk tools.';
export const SHOP_SYSTEM = 'You are the customer assistant of Fjord & Pine, an outdoor clothing shop. Today is 2026-12-04. Stock and orders come only from the shop tools.';
export const HOTEL_SYSTEM = 'You are the front-desk assistant of Hotel Lindenhof. Today is 2026-12-04. Room availability and bookings come only from the property system tools.';
export const EXPORT_SYSTEM = 'You are the data assistant of Quarry Analytics. Today is 2026-12-04. Exports run as jobs; check a job with its id.';

export const BEHAVIOUR_TOOLS: Record<string, ToolDefinition> = {
  // billing desk
  find_customer_account: { description: 'Find a customer account by e-mail; returns its id and subscription ids.', parameters: obj({ email: str('Account e-mail.') }, ['email']) },
  get_subscription: { description: 'One subscription: plan, status, seats, renewal date.', parameters: obj({ subscription_id: str('Subscription id, SUB-NNNN.') }, ['subscription_id']) },
  list_invoices: { description: 'Invoices of a customer account.', parameters: obj({ account_id: str('Account id, ACC-NNNN.'), status: { type: 'string', enum: ['open', 'paid', 'void'] } }, ['account_id']) },
  cancel_subscription: { description: 'Cancel a subscription at the end of its term (writes).', parameters: obj({ subscription_id: str('Subscription id.'), reason: { type: 'string', enum: ['too_expensive', 'missing_features', 'switching', 'other'] } }, ['subscription_id', 'reason']) },
  change_seats: { description: 'Change the seat count of a subscription (writes).', parameters: obj({ subscription_id: str('Subscription id.'), seats: { type: 'integer', minimum: 1, maximum: 500 } }, ['subscription_id', 'seats']) },
  send_invoice_copy: { description: 'E-mail a copy of an invoice to the account owner (writes).', parameters: obj({ invoice_id: str('Invoice id, INV-NNNN.') }, ['invoice_id']) },
  // clinic scheduling
  find_patient: { description: 'Find a patient by name and date of birth.', parameters: obj({ name: str('Full name.'), dob: { type: 'string', format: 'date', description: 'Date of birth, YYYY-MM-DD.' } }, ['name', 'dob']) },
  list_slots: {
    description: 'Free appointment slots of a clinician on a day.',
    parameters: obj({ clinician_id: str('Clinician id, DR-NN.'), date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Day, YYYY-MM-DD.' } }, ['clinician_id', 'date']),
  },
  book_appointment: {
    description: 'Book an appointment in a free slot (writes).',
    parameters: obj({ patient_id: str('Patient id, P-NNNNN.'), slot_id: str('Slot id as returned by list_slots.'), visit_type: { type: 'string', enum: ['checkup', 'follow_up', 'vaccination', 'consultation'] } }, ['patient_id', 'slot_id', 'visit_type']),
  },
  cancel_appointment: { description: 'Cancel an appointment (writes).', parameters: obj({ appointment_id: str('Appointment id, APT-NNNNN.') }, ['appointment_id']) },
  get_appointment: { description: 'One appointment with its status.', parameters: obj({ appointment_id: str('Appointment id, APT-NNNNN.') }, ['appointment_id']) },
  // IT helpdesk
  list_tickets: { description: 'Tickets of a requester.', parameters: obj({ requester: str('Requester e-mail.'), state: { type: 'string', enum: ['open', 'pending', 'closed'] } }, ['requester']) },
  create_ticket: {
    description: 'Open a helpdesk ticket (writes).',
    parameters: obj({ requester: str('Requester e-mail.'), summary: str('One-line summary.'), priority: { type: 'string', enum: ['low', 'normal', 'high'] }, device_id: str('Device asset tag, AT-NNNNN.') }, ['requester', 'summary', 'priority']),
  },
  escalate_ticket: { description: 'Escalate a ticket to a second-level team (writes).', parameters: obj({ ticket_id: str('Ticket id, HD-NNNNN.'), team: { type: 'string', enum: ['network', 'identity', 'hardware'] } }, ['ticket_id', 'team']) },
  list_devices: { description: 'Devices assigned to an employee.', parameters: obj({ employee: str('Employee e-mail.') }, ['employee']) },
  reset_password: { description: 'Send a password reset link to the employee (writes).', parameters: obj({ employee: str('Employee e-mail.') }, ['employee']) },
  // online shop
  search_catalog: { description: 'Search products; returns variants with stock.', parameters: obj({ query: str('Search words.'), page: int('Result page, from 1.') }, ['query'], false) },
  get_order: { description: 'One order with its status and lines.', parameters: obj({ order_id: str('Order number, FP-NNNNNN.') }, ['order_id']) },
  update_shipping_address: {
    description: 'Change the shipping address of an order that has not shipped (writes).',
    parameters: obj({ order_id: str('Order number.'), street: str('Street and number.'), city: str('City.'), postcode: str('Postcode.') }, ['order_id', 'street', 'city', 'postcode']),
  },
  cancel_order: { description: 'Cancel an order that has not shipped (writes).', parameters: obj({ order_id: str('Order number.') }, ['order_id']) },
  refund_order: { description: 'Refund an order to its payment method (writes).', parameters: obj({ order_id: str('Order number.'), amount: { type: 'number', exclusiveMinimum: 0 } }, ['order_id', 'amount']) },
  // hotel desk
  room_availability: { description: 'Rooms of a type and their availability for a stay.', parameters: obj({ room_type: { type: 'string', enum: ['single', 'double', 'suite'] }, check_in: str('YYYY-MM-DD.'), nights: int('Nights.') }, ['room_type', 'check_in', 'nights']) },
  get_booking: { description: 'One booking with its rooms and payment status.', parameters: obj({ booking_ref: str('Booking reference, LH-NNNNN.') }, ['booking_ref']) },
  // data exports
  start_export: { description: 'Start an export job for a dataset (writes).', parameters: obj({ dataset: str('Dataset name.'), format: { type: 'string', enum: ['csv', 'parquet'] } }, ['dataset', 'format']) },
  export_status: { description: 'Status of an export job.', parameters: obj({ job_id: str('Job id, EXP-NNNN.') }, ['job_id']) },
  list_datasets: { description: 'Datasets of a workspace.', parameters: obj({ workspace: str('Workspace name.') }, ['workspace']) },
};

/** The tool definitions of the named tools, for a case's `tools`. */
export function offerB(...names: string[]): Record<string, ToolDefinition> {
  return Object.fromEntries(names.map((n) => [n, BEHAVIOUR_TOOLS[n]!]));
}

/** Declarations a careful user writes: reads marked readOnly (writes left to what their names show), input schemas copied. */
export function declareB(reads: string[], writes: string[] = [], more: Record<string, unknown> = {}): Record<string, unknown> {
  const tools: Record<string, unknown> = {};
  for (const r of reads) tools[r] = { readOnly: true, inputSchema: BEHAVIOUR_TOOLS[r]!.parameters };
  for (const w of writes) tools[w] = { inputSchema: BEHAVIOUR_TOOLS[w]!.parameters };
  return { tools, ...more };
}
