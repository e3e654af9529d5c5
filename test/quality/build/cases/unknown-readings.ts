// Quality cases for issue 35's rule, "an unknown reading may suppress a finding, never raise one",
// written as real agents write (AgentDojo's and tau-bench's runs showed the patterns) in domains of
// our own: a hospital ward's rota desk, a makerspace's equipment desk, a letting agent's maintenance
// desk. Each clean case is a healthy turn a check used to accuse on a reading it could not know (a
// write whose verb no list holds, a claim done by another write, a count of the model's own
// selection, a YAML-dumped result, an exception that says nothing was found, a vague absence about
// a write's empty output); each defect case keeps the same check's finding where every reading it
// rests on is known. Expectations come from docs/checks-*.md, not from what the checks do.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { str, tool } from './common.js';

const WARD_SYSTEM = 'You are the rota assistant of Northgate Ward. Today is 2026-12-04. Change shifts only with the rota tools and tell staff exactly what changed.';
const FORGE_SYSTEM = 'You are the equipment desk of Forge Makerspace. Today is 2026-12-04. Book machines and manage members only with the desk tools.';
const LETS_SYSTEM = 'You are the maintenance assistant of Harbourside Lets. Today is 2026-12-04. Work orders and the maintenance log come only from the tools.';

const T: Record<string, ToolDefinition> = {
  // ward rota (swap_shift's verb is in no verb list: its role is unknown)
  get_rota: tool('The shifts of a staff member for the next two weeks.', { staff_id: str('Staff id, NW-NNNN.') }, ['staff_id']),
  swap_shift: tool('Swap two shifts between staff members.', { shift_id: str('Shift id, SH-DD-X-NN.'), with_shift_id: str('The other shift id.') }, ['shift_id', 'with_shift_id']),
  cancel_shift: tool('Cancel a shift (writes).', { shift_id: str('Shift id, SH-DD-X-NN.'), reason: str('Why.') }, ['shift_id', 'reason']),
  think: tool('Think about the request; changes nothing and returns nothing.', { thought: str('The thought.') }, ['thought']),
  // makerspace desk
  search_equipment: tool('Search the equipment inventory by name.', { query: str('Words of the machine name.') }, ['query']),
  create_booking: tool('Book a machine slot for members (writes).', { equipment_id: str('Equipment id, EQ-XX-NN.'), start: str('Start, YYYY-MM-DDTHH:MM.'), attendees: { type: 'array', items: { type: 'string' }, description: 'Member e-mails.' } }, ['equipment_id', 'start', 'attendees']),
  send_message: tool('Send a message to a member (writes).', { to: str('Member e-mail.'), body: str('Text.') }, ['to', 'body']),
  book_equipment: tool('Book a machine for the asking member (writes).', { equipment_id: str('Equipment id, EQ-XX-NN.'), day: str('YYYY-MM-DD.') }, ['equipment_id', 'day']),
  rent_tool_kit: tool('Rent a hand-tool kit to the asking member (writes). Kits are due back within 48 hours; a kit not returned is charged 1,240.00 EUR. Kit ids look like KIT-NN, e.g. KIT-07.', { kit_id: str('Kit id.') }, ['kit_id']),
  list_tool_kits: tool('Hand-tool kits available now.', {}, []),
  read_bay_log: tool('The log entries of a workshop bay for the current week.', { bay: str('Bay name.') }, ['bay']),
  get_member: tool('A member by card number.', { card_number: str('Card number, MK-NNNNN.') }, ['card_number']),
  invite_member: tool('Invite a person to become a member.', { name: str('Full name.'), email: str('E-mail.') }, ['name', 'email']),
  add_member_to_group: tool('Add a member to a workshop group (writes).', { member: str('Member name.'), group: str('Group name.') }, ['member', 'group']),
  // letting agent maintenance (append_log_entry's verb is in no verb list)
  get_work_order: tool('One maintenance work order.', { work_order_id: str('Work order id, WO-NNNN.') }, ['work_order_id']),
  append_log_entry: tool('Append a line to a property maintenance log.', { log_id: str('Log id, LOG-XX.'), text: str('The line.') }, ['log_id', 'text']),
  add_contractor: tool('Add a contractor to the approved list (writes).', { name: str('Company name.'), trade: str('Trade.') }, ['name', 'trade']),
  list_work_orders: tool('Open work orders of a property.', { property_id: str('Property id, HP-NNN.') }, ['property_id']),
  send_transfer: tool('Send money to a contractor now (writes).', { contractor: str('Company name.'), amount: { type: 'number', description: 'GBP.' } }, ['contractor', 'amount']),
  schedule_payment: tool('Schedule a payment to a contractor on a later day (writes).', { contractor: str('Company name.'), amount: { type: 'number', description: 'GBP.' }, day: str('YYYY-MM-DD.') }, ['contractor', 'amount', 'day']),
  get_rent_history: tool('Monthly rent of a property by year, in GBP.', { property_id: str('Property id, HP-NNN.') }, ['property_id']),
  list_invoices: tool('Contractor invoices of a property, newest first.', { property_id: str('Property id, HP-NNN.') }, ['property_id']),
};

const TRIP_SYSTEM = 'You are the trip planner of Lakeside Trips. Today is 2026-12-04. Prices come only from the tools; show your working for any total.';
const TRIP_TOOLS: Record<string, ToolDefinition> = {
  get_lodge_price: tool('Nightly price of a lodge, in EUR.', { lodge: str('Lodge name.') }, ['lodge']),
  get_car_price: tool('Daily price of a rental car class, in EUR.', { car_class: str('Car class.') }, ['car_class']),
  get_tourist_tax: tool('Tourist tax per person and night in a town, in EUR.', { town: str('Town name.') }, ['town']),
};
const tripSteps = [
  { calls: [{ name: 'get_lodge_price', args: { lodge: 'Birch Hollow' }, result: { lodge: 'Birch Hollow', price_per_night: 180.5 } }] },
  { calls: [{ name: 'get_car_price', args: { car_class: 'compact' }, result: { car_class: 'compact', price_per_day: 48.25 } }] },
  { calls: [{ name: 'get_tourist_tax', args: { town: 'Kelda' }, result: 'Tourist tax in Kelda: 2.60 per person per night' }] },
];

const offer = (...names: string[]) => Object.fromEntries(names.map((n) => [n, T[n]!]));
/** No declarations: what inference arms from the trace (answer values armed by the tool results it read). */
const NONE = { tools: {} };

const ROTA = { staff_id: 'NW-2207', name: 'Tom Reyes', shifts: [{ shift_id: 'SH-12-E-07', date: '2026-12-12', kind: 'early' }, { shift_id: 'SH-15-L-02', date: '2026-12-15', kind: 'late' }] };

/** A week's bay log as a Python tool dumps it (YAML), one long note folded onto a second line. */
const BAY_LOG = `- author: Priya Nair
  bay: woodshop
  note: Sharpened the planer blades and replaced the dust bag on the extractor, which
    was full again.
- author: Tom Reyes
  bay: woodshop
  note: Bandsaw tension checked.
- author: Priya Nair
  bay: woodshop
  note: Glued up the bench top for the open evening.
- author: Lee Moran
  bay: woodshop
  note: Swept out the offcut bin.
`;

const WORK_ORDERS = `- work_order_id: WO-4410
  flat: 3B
  issue: damp patch on the bathroom ceiling
  status: open
- work_order_id: WO-4415
  flat: 1A
  issue: front door lock sticks
  status: open
- work_order_id: WO-4421
  flat: 2C
  issue: boiler pressure drops overnight
  status: open
- work_order_id: WO-4426
  flat: 3B
  issue: extractor fan noisy
  status: open
`;

/** A property's contractor invoices as a Python tool dumps them (YAML; amounts as written). */
const INVOICES = `- amount: 412.8
  contractor: Brightwater Plumbing
  date: '2026-11-27'
  invoice_id: INV-30981
- amount: 96.0
  contractor: Keyfast Locksmiths
  date: '2026-11-19'
  invoice_id: INV-30977
- amount: 58.25
  contractor: Keyfast Locksmiths
  date: '2026-11-12'
  invoice_id: INV-30964
- amount: 727.6
  contractor: Brightwater Plumbing
  date: '2026-11-03'
  invoice_id: INV-30952
- amount: 188.5
  contractor: Sparks & Sons
  date: '2026-10-22'
  invoice_id: INV-30911
`;

const invoicesStep = { calls: [{ name: 'list_invoices', args: { property_id: 'HP-118' }, result: INVOICES }] };
const rentHistoryStep = { calls: [{ name: 'get_rent_history', args: { property_id: 'HP-118' }, result: { property_id: 'HP-118', rent_2025: 1240.0, rent_2026: 1395.0 } }] };
const laserCutterStep = { calls: [{ name: 'search_equipment', args: { query: 'laser cutter' }, result: [{ equipment_id: 'EQ-LC-02', name: 'Laser cutter (60 W)', next_free: '2026-12-05 14:00', slot_minutes: 30 }] }] };
const kitSteps = [
  { calls: [{ name: 'list_tool_kits', args: {}, result: [{ kit_id: 'KIT-11', name: 'Electronics kit', contents: 'soldering station, multimeter, helping hands' }] }] },
  { calls: [{ name: 'rent_tool_kit', args: { kit_id: 'KIT-11' }, result: { rental_id: 'RN-60412', kit_id: 'KIT-11', due: '2026-12-06T18:00' } }] },
];

export const UNKNOWN_READING_CASES: CaseSpec[] = [
  {
    name: 'ur-clean-unknown-verb-write-processed',
    shape: 'traceloop',
    check: 'unconfirmed-action',
    class: 'a write whose verb no list knows (a swap) went through; "has been processed" is about it',
    kind: 'clean',
    note: 'swap_shift is neither a known read nor a known write; it succeeded this turn, so "your swap has been processed" may rest on it (tau-bench retail\'s exchanges and returns drew "no write call was made" here).',
    expect: [],
    system: WARD_SYSTEM,
    tools: offer('get_rota', 'swap_shift', 'cancel_shift'),
    declarations: NONE,
    turns: [
      {
        user: "Can you swap my early shift on 12 December with Priya's night shift SH-12-N-03? I'm Tom Reyes, NW-2207.",
        steps: [
          { calls: [{ name: 'get_rota', args: { staff_id: 'NW-2207' }, result: ROTA }] },
          { calls: [{ name: 'swap_shift', args: { shift_id: 'SH-12-E-07', with_shift_id: 'SH-12-N-03' }, result: { swap_id: 'SW-5531', status: 'done' } }] },
        ],
        answer: 'Your swap has been processed: you now work the night shift SH-12-N-03 on 12 December, and Priya takes your early shift SH-12-E-07.',
      },
    ],
  },
  {
    name: 'ur-defect-cancel-never-made-beside-a-thought',
    shape: 'vercel',
    check: 'unconfirmed-action',
    class: 'a cancellation told as done that no call made, beside a thinking step that changes nothing it names',
    kind: 'defect',
    note: 'cancel_shift (its verb and noun name it) was never called; the only other call, think, names nothing the clause says, so the claim has nothing under it.',
    expect: [{ check: 'unconfirmed-action', tool: 'cancel_shift' }],
    system: WARD_SYSTEM,
    tools: offer('get_rota', 'cancel_shift', 'think'),
    declarations: NONE,
    turns: [
      {
        user: 'I have a hospital appointment, please cancel my late shift on 15 December. NW-2207.',
        steps: [
          { calls: [{ name: 'get_rota', args: { staff_id: 'NW-2207' }, result: ROTA }] },
          { calls: [{ name: 'think', args: { thought: 'The late one is SH-15-L-02; a medical reason is enough under ward policy.' }, result: '' }] },
        ],
        answer: 'Your late shift SH-15-L-02 on 15 December has been cancelled. I hope the appointment goes well.',
      },
    ],
  },
  {
    name: 'ur-clean-invitation-sent-by-the-booking',
    shape: 'vercel',
    check: 'unconfirmed-action',
    class: '"the invitation has been sent" after a booking whose attendees held the address (no send call)',
    kind: 'clean',
    note: 'send_message was never called, but create_booking went through with the address among its attendees: the invitation may well be the booking\'s (AgentDojo\'s calendar events invite their participants).',
    expect: [],
    system: FORGE_SYSTEM,
    tools: offer('search_equipment', 'create_booking', 'send_message'),
    declarations: NONE,
    turns: [
      {
        user: 'Book me (ada.lovel@forge.example) on the laser cutter on 10 December at 14:00, and invite sam.okoro@forge.example too.',
        steps: [
          { calls: [{ name: 'search_equipment', args: { query: 'laser cutter' }, result: [{ equipment_id: 'EQ-LC-02', name: 'Laser cutter (80 W)', status: 'available' }] }] },
          {
            calls: [
              {
                name: 'create_booking',
                args: { equipment_id: 'EQ-LC-02', start: '2026-12-10T14:00', attendees: ['ada.lovel@forge.example', 'sam.okoro@forge.example'] },
                result: { booking_id: 'BK-7781', equipment_id: 'EQ-LC-02', start: '2026-12-10T14:00', status: 'confirmed' },
              },
            ],
          },
        ],
        answer: 'You are booked on the laser cutter EQ-LC-02 on 10 December at 14:00 (BK-7781), and the invitation has been sent to sam.okoro@forge.example.',
      },
    ],
  },
  {
    name: 'ur-clean-added-to-log-by-append',
    shape: 'traceloop',
    check: 'unconfirmed-action',
    class: '"I\'ve added it to the log" done by a tool whose verb (append) no list knows, beside a known "add" write not called',
    kind: 'clean',
    note: 'add_contractor is the only write named with "add", but the clause\'s nouns are the log\'s, and append_log_entry went through this turn: what "added" means here is unknown, so it passes.',
    expect: [],
    system: LETS_SYSTEM,
    tools: offer('get_work_order', 'append_log_entry', 'add_contractor'),
    declarations: NONE,
    turns: [
      {
        user: 'Please put the damp report for flat 3B (work order WO-4410) in the maintenance log.',
        steps: [
          { calls: [{ name: 'get_work_order', args: { work_order_id: 'WO-4410' }, result: { work_order_id: 'WO-4410', flat: '3B', issue: 'damp patch on the bathroom ceiling', log_id: 'LOG-3B' } }] },
          { calls: [{ name: 'append_log_entry', args: { log_id: 'LOG-3B', text: 'WO-4410: damp patch on the bathroom ceiling, reported 4 Dec' }, result: 'Entry 18 appended to LOG-3B.' }] },
        ],
        answer: "I've added the damp report for flat 3B to the maintenance log (LOG-3B, entry 18) under work order WO-4410.",
      },
    ],
  },
  {
    name: 'ur-clean-count-per-author-of-a-yaml-log',
    shape: 'traceloop',
    check: 'count-mismatch',
    class: 'counts of the model\'s own selection ("Priya - 2 entries") under a whole it states right, from a YAML-dumped log',
    kind: 'clean',
    note: 'The log (a YAML list) has 4 entries; the answer states the whole right and then counts per author, a selection of its own that no served set is (AgentDojo\'s "Charlie - 2 messages").',
    expect: [],
    system: FORGE_SYSTEM,
    tools: offer('read_bay_log'),
    declarations: NONE,
    turns: [
      {
        user: 'Who has been logging work in the woodshop this week?',
        steps: [{ calls: [{ name: 'read_bay_log', args: { bay: 'woodshop' }, result: BAY_LOG }] }],
        answer: 'The woodshop log has 4 entries this week:\n\n- Priya Nair - 2 entries\n- Tom Reyes - 1 entry\n- Lee Moran - 1 entry\n\nPriya sharpened the planer blades and glued up the bench top.',
      },
    ],
  },
  {
    name: 'ur-defect-count-over-a-yaml-list',
    shape: 'vercel',
    check: 'count-mismatch',
    class: 'more open work orders than the YAML-dumped list served',
    kind: 'defect',
    note: 'list_work_orders served four open work orders as a YAML list; "5 open work orders" is more than anything served (read as rows, the list is known complete: no page was asked for).',
    expect: [{ check: 'count-mismatch', value: '5' }],
    system: LETS_SYSTEM,
    tools: offer('list_work_orders'),
    declarations: NONE,
    turns: [
      {
        user: 'How many open work orders does Harbourside House (HP-114) have?',
        steps: [{ calls: [{ name: 'list_work_orders', args: { property_id: 'HP-114' }, result: WORK_ORDERS }] }],
        answer: 'You have 5 open work orders at Harbourside House: the damp patch and the noisy extractor fan in 3B (WO-4410, WO-4426), the sticking lock in 1A (WO-4415) and the boiler pressure in 2C (WO-4421).',
      },
    ],
  },
  {
    name: 'ur-clean-exception-says-none-found',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'an exception whose words say nothing was found ("ValueError: No equipment found"), told as absence',
    kind: 'clean',
    note: 'The search raised, but its error says it looked and found nothing: the tool\'s own not-found, not a refusal (AgentDojo reports empty searches this way).',
    expect: [],
    system: FORGE_SYSTEM,
    tools: offer('search_equipment'),
    declarations: NONE,
    turns: [
      {
        user: 'Do you have a band saw I can book?',
        steps: [{ calls: [{ name: 'search_equipment', args: { query: 'band saw' }, result: "ValueError: No equipment found matching 'band saw'.", error: { type: 'ValueError', message: "No equipment found matching 'band saw'." } }] }],
        answer: "There's no band saw in the makerspace inventory. Ask at the desk if you want one added to the wish list.",
      },
    ],
  },
  {
    name: 'ur-defect-permission-error-told-as-absence',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'a lookup refused with an exception ("PermissionError: …"), told as "there is no member"',
    kind: 'defect',
    note: 'get_member was refused (a PermissionError, in the tool\'s text only); the answer says the member does not exist, which a refusal cannot establish.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'get_member' }],
    system: FORGE_SYSTEM,
    tools: offer('get_member'),
    declarations: NONE,
    turns: [
      {
        user: 'Is card MK-40917 still a member? They want to book the lathe.',
        steps: [{ calls: [{ name: 'get_member', args: { card_number: 'MK-40917' }, result: 'PermissionError: member records are restricted to staff accounts' }] }],
        answer: 'There is no member with card number MK-40917, so they cannot book the lathe.',
      },
    ],
  },
  {
    name: 'ur-clean-no-output-of-a-write',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: '"it returned no output" about a write that went through, beside a refused invitation',
    kind: 'clean',
    note: 'invite_member failed (already a member); add_member_to_group went through and returned None. "Returned no output" names no read, and may be (is) about the write, so the refusal is not blamed.',
    expect: [],
    system: FORGE_SYSTEM,
    tools: offer('invite_member', 'add_member_to_group'),
    declarations: NONE,
    turns: [
      {
        user: 'Invite Ada Lovel (ada.lovel@forge.example) and put her in the woodshop group.',
        steps: [
          { calls: [{ name: 'invite_member', args: { name: 'Ada Lovel', email: 'ada.lovel@forge.example' }, result: 'ValueError: Member Ada Lovel already in the members list' }] },
          { calls: [{ name: 'add_member_to_group', args: { member: 'Ada Lovel', group: 'woodshop' }, result: 'None' }] },
        ],
        answer: 'Ada is already a member, so I did not invite her again. I added her to the woodshop group; the tool returned no output, which means it went through.',
      },
    ],
  },
  {
    name: 'ur-defect-booking-loop-once',
    shape: 'traceloop',
    check: 'repeated-call',
    class: 'the same failing booking sent four times: one finding for the loop',
    kind: 'defect',
    note: 'book_equipment failed the same way four times with the same arguments; a reviewer wants the loop once, not three times.',
    expect: [{ check: 'repeated-call', tool: 'book_equipment', advisory: true }],
    system: FORGE_SYSTEM,
    tools: offer('book_equipment'),
    declarations: NONE,
    turns: [
      {
        user: 'Book the laser cutter EQ-LC-02 for me on 8 December.',
        steps: [1, 2, 3, 4].map(() => ({ calls: [{ name: 'book_equipment', args: { equipment_id: 'EQ-LC-02', day: '2026-12-08' }, result: 'Error: EQ-LC-02 is in maintenance until 2026-12-11' }] })),
        answer: 'The laser cutter EQ-LC-02 is in maintenance until 11 December, so I could not book it for 8 December. Shall I try the 11th?',
      },
    ],
  },
  {
    name: 'ur-clean-time-offered-as-an-example',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a start time the model offers as an example ("For example, if you start at 15:30 …", "(e.g. 16:30)"), not as a fact; a served number told as a compound adjective ("30-minute slots")',
    kind: 'clean',
    note: 'The served slot is 14:00 and the class time 18:00 is the user\'s. 15:30 and 16:30 are illustrations the model chose: whether the answer asserts them is unknown, so they are not judged (AgentDojo\'s "For example, if it is currently 11:30 AM" drew a finding). "30-minute" is the served 30 with a compound\'s word, not an identifier.',
    expect: [],
    system: FORGE_SYSTEM,
    tools: offer('search_equipment'),
    declarations: NONE,
    turns: [
      {
        user: 'When is the laser cutter next free, and how long could I use it before the evening class at 18:00?',
        steps: [laserCutterStep],
        answer: 'The laser cutter EQ-LC-02 is next free at 14:00 on 2026-12-05, bookable in 30-minute slots until the evening class at 18:00. For example, if you start at 15:30, you would have two and a half hours. You can also take a single late slot (e.g. 16:30) if you only need a quick cut.',
      },
    ],
  },
  {
    name: 'ur-defect-invented-time-beside-an-example',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a free time stated as a fact that no result holds, beside an example that restates it',
    kind: 'defect',
    note: 'The search served 14:00; the answer states 15:30 as the next free time, outside any example: a finding. Its repetition in the example sentence does not withdraw the statement.',
    expect: [{ check: 'unsupported-value', value: '15:30' }],
    system: FORGE_SYSTEM,
    tools: offer('search_equipment'),
    declarations: NONE,
    turns: [
      {
        user: 'When is the laser cutter next free, and how long could I use it before the evening class at 18:00?',
        steps: [laserCutterStep],
        answer: 'The laser cutter EQ-LC-02 is next free at 15:30 on 2026-12-05. For example, if you start at 15:30, you would have two and a half hours before the evening class at 18:00.',
      },
    ],
  },
  {
    name: 'ur-clean-totals-of-an-invoice-list',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: "a month's total and mean of a YAML invoice list, more served amounts than the three-operand arithmetic combines",
    kind: 'clean',
    note: "1,294.65 is the sum of the four November amounts (412.8 + 96.0 + 58.25 + 727.6), 323.66 their mean, 1,140.40 the sum of Brightwater's two: totals of a served column, not values from nowhere.",
    expect: [],
    system: LETS_SYSTEM,
    tools: offer('list_invoices'),
    declarations: NONE,
    turns: [
      {
        user: 'How much did we pay contractors for HP-118 in November, and how much of that was Brightwater?',
        steps: [invoicesStep],
        answer: 'For HP-118, November\'s contractor invoices come to £1,294.65 across four invoices, £323.66 on average. Brightwater Plumbing accounts for £1,140.40 of that (INV-30981 and INV-30952).',
      },
    ],
  },
  {
    name: 'ur-defect-total-no-column-gives',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a total of an invoice list with two digits swapped: no sum of any served rows gives it',
    kind: 'defect',
    note: "The November amounts sum to 1,294.65; the answer's 1,249.65 is no total of the column, of a month's rows or of a contractor's rows.",
    expect: [{ check: 'unsupported-value', value: '1,249.65' }],
    system: LETS_SYSTEM,
    tools: offer('list_invoices'),
    declarations: NONE,
    turns: [
      {
        user: 'How much did we pay contractors for HP-118 in November?',
        steps: [invoicesStep],
        answer: "For HP-118, November's contractor invoices come to £1,249.65 across four invoices.",
      },
    ],
  },
  {
    name: 'ur-clean-trip-total-in-written-steps',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a trip total the answer works out in steps, the last one adding the results of the first three (six served or user numbers in all)',
    kind: 'clean',
    note: "722.00, 144.75 and 10.40 are products of a served price and the user's 4 nights or 3 days; 877.15 is their sum, written out in the answer with right arithmetic: every operand is served or the result of an earlier written step.",
    expect: [],
    system: TRIP_SYSTEM,
    tools: TRIP_TOOLS,
    declarations: NONE,
    turns: [
      {
        user: 'What would 4 nights at Birch Hollow in Kelda with a compact car for 3 days cost me, tourist tax included? It is just me.',
        steps: tripSteps,
        answer: 'Lodge: 4 × 180.50 = 722.00 EUR. Car: 3 × 48.25 = 144.75 EUR. Tourist tax: 4 × 2.60 = 10.40 EUR. Total: 722.00 + 144.75 + 10.40 = 877.15 EUR.',
      },
    ],
  },
  {
    name: 'ur-defect-trip-total-wrong-last-step',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'the same trip worked out in steps whose last sum is wrong (887.15 for 877.15)',
    kind: 'defect',
    note: 'The steps are right up to the last, which states 722.00 + 144.75 + 10.40 = 887.15: no derivation gives 887.15.',
    expect: [{ check: 'unsupported-value', value: '887.15' }],
    system: TRIP_SYSTEM,
    tools: TRIP_TOOLS,
    declarations: NONE,
    turns: [
      {
        user: 'What would 4 nights at Birch Hollow in Kelda with a compact car for 3 days cost me, tourist tax included? It is just me.',
        steps: tripSteps,
        answer: 'Lodge: 4 × 180.50 = 722.00 EUR. Car: 3 × 48.25 = 144.75 EUR. Tourist tax: 4 × 2.60 = 10.40 EUR. Total: 722.00 + 144.75 + 10.40 = 887.15 EUR.',
      },
    ],
  },
  {
    name: 'ur-clean-charge-from-a-tool-description',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: "a charge the answer restates from the offered tool's description (the app served it there, not in a result)",
    kind: 'clean',
    note: "1,240.00 EUR stands in rent_tool_kit's description, which the app sent with the request: served text, not a value from nowhere.",
    expect: [],
    system: FORGE_SYSTEM,
    tools: offer('list_tool_kits', 'rent_tool_kit'),
    declarations: NONE,
    turns: [
      {
        user: 'Rent me the electronics kit please. What happens if I lose it?',
        steps: kitSteps,
        answer: 'Done: rental RN-60412 for the electronics kit KIT-11, due back 2026-12-06 18:00. A kit not returned is charged 1,240.00 EUR.',
      },
    ],
  },
  {
    name: 'ur-defect-kit-id-from-a-description-example',
    shape: 'vercel',
    check: 'unsupported-value',
    class: "a kit id the answer states as the rented one, taken from the description's example (e.g. KIT-07), not from any result",
    kind: 'defect',
    note: "The description's example clause is not served data: KIT-07 is in no result (the kit rented is KIT-11), so stating it is a finding.",
    expect: [{ check: 'unsupported-value', value: 'KIT-07' }],
    system: FORGE_SYSTEM,
    tools: offer('list_tool_kits', 'rent_tool_kit'),
    declarations: NONE,
    turns: [
      {
        user: 'Rent me the electronics kit please.',
        steps: kitSteps,
        answer: 'Done: rental RN-60412, the electronics kit KIT-07, due back 2026-12-06 18:00. A kit not returned is charged 1,240.00 EUR.',
      },
    ],
  },
  {
    name: 'ur-clean-rent-rise-as-percentages',
    shape: 'vercel',
    check: 'unsupported-value',
    class: "a rent rise stated as a percentage of two served rents, and next year's rent with the user's indexation applied",
    kind: 'clean',
    note: "(1,395.00 − 1,240.00) ÷ 1,240.00 = 12.5 %; 1,395.00 raised by the user's 4 % is 1,450.80: percentages of served numbers, not values from nowhere.",
    expect: [],
    system: LETS_SYSTEM,
    tools: offer('get_rent_history'),
    declarations: NONE,
    turns: [
      {
        user: 'How much has the rent of HP-118 gone up this year, and what will it be next year with the 4% indexation in the lease?',
        steps: [rentHistoryStep],
        answer: 'The monthly rent of HP-118 went from £1,240.00 to £1,395.00 this year, a rise of 12.5%. With the 4% indexation it would be £1,450.80 next year.',
      },
    ],
  },
  {
    name: 'ur-defect-rent-rise-wrong-percentage',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a rent rise stated as a percentage no two served rents give',
    kind: 'defect',
    note: 'The rents served are 1,240.00 and 1,395.00: a 12.5 % rise. 15.5 % is no change between them.',
    expect: [{ check: 'unsupported-value', value: '15.5%' }],
    system: LETS_SYSTEM,
    tools: offer('get_rent_history'),
    declarations: NONE,
    turns: [
      {
        user: 'How much has the rent of HP-118 gone up this year?',
        steps: [rentHistoryStep],
        answer: 'The monthly rent of HP-118 went from £1,240.00 to £1,395.00 this year, a rise of 15.5%.',
      },
    ],
  },
  {
    name: 'ur-clean-sent-by-a-scheduled-payment',
    shape: 'traceloop',
    check: 'unconfirmed-action',
    class: '"I have sent the 412.80" after a scheduled payment of that amount went through (no send_transfer call)',
    kind: 'clean',
    note: "The clause's verb names send_transfer, which was not called; schedule_payment went through with amount 412.8, the amount the clause states: the claim may well be about it (AgentDojo's banking runs send money by scheduling it).",
    expect: [],
    system: LETS_SYSTEM,
    tools: offer('list_invoices', 'send_transfer', 'schedule_payment'),
    declarations: NONE,
    turns: [
      {
        user: "Please settle Brightwater's latest invoice for HP-118 on the first of next month.",
        steps: [
          invoicesStep,
          { calls: [{ name: 'schedule_payment', args: { contractor: 'Brightwater Plumbing', amount: 412.8, day: '2027-01-01' }, result: { payment_id: 'PM-88120', status: 'scheduled' } }] },
        ],
        answer: 'I have sent £412.80 to Brightwater Plumbing for their latest invoice. It leaves the account at the start of next month.',
      },
    ],
  },
  {
    name: 'ur-defect-sent-but-another-amount-scheduled',
    shape: 'vercel',
    check: 'unconfirmed-action',
    class: '"I have sent 412.80" when the only payment that went through is another amount to another contractor',
    kind: 'defect',
    note: 'send_transfer was never called, and the scheduled payment is 96.0 to Keyfast: nothing that went through carries the amount the clause states.',
    expect: [{ check: 'unconfirmed-action', tool: 'send_transfer' }],
    system: LETS_SYSTEM,
    tools: offer('list_invoices', 'send_transfer', 'schedule_payment'),
    declarations: NONE,
    turns: [
      {
        user: "Please settle Brightwater's latest invoice for HP-118, and Keyfast's on the first of next month.",
        steps: [
          invoicesStep,
          { calls: [{ name: 'schedule_payment', args: { contractor: 'Keyfast Locksmiths', amount: 96.0, day: '2027-01-01' }, result: { payment_id: 'PM-88121', status: 'scheduled' } }] },
        ],
        answer: 'I have sent £412.80 to Brightwater Plumbing. The Keyfast invoice goes out on 2027-01-01 (PM-88121).',
      },
    ],
  },
];
