// Quality cases for `count-mismatch` (issue 28 §2): an answer that states how many items there are
// when the rows it was served give another number (one more than listed, the whole miscounted, a
// kind counted over a list whose items were only partly read), and the counts that only look off (a
// kind of the rows, a number the user gave, a count the result states as a field, pages added up).

import type { CaseSpec } from '../spec.js';
import { BILLING_SYSTEM, HELPDESK_SYSTEM, HOTEL_SYSTEM, SHOP_SYSTEM, declareB, offerB } from './behaviour-common.js';

const TICKETS = [
  { ticket_id: 'HD-40112', summary: 'Outlook keeps asking for the password', state: 'open', priority: 'normal' },
  { ticket_id: 'HD-40187', summary: 'Second monitor flickers', state: 'open', priority: 'low' },
  { ticket_id: 'HD-40230', summary: 'No access to the finance share', state: 'open', priority: 'high' },
  { ticket_id: 'HD-40311', summary: 'Badge does not open door C', state: 'open', priority: 'normal' },
];
const JACKETS = [
  { sku: 'FP-SHL-RED-S', name: 'Fjellskall shell jacket', colour: 'red', size: 'S', stock: 3 },
  { sku: 'FP-SHL-RED-M', name: 'Fjellskall shell jacket', colour: 'red', size: 'M', stock: 0 },
  { sku: 'FP-SHL-BLU-M', name: 'Fjellskall shell jacket', colour: 'blue', size: 'M', stock: 7 },
  { sku: 'FP-SHL-BLU-L', name: 'Fjellskall shell jacket', colour: 'blue', size: 'L', stock: 2 },
  { sku: 'FP-INS-GRN-M', name: 'Vinter insulated jacket', colour: 'green', size: 'M', stock: 5 },
];
const ACCOUNT = { account_id: 'ACC-3340', owner: 'finance@brightwater.example', subscriptions: ['SUB-6101', 'SUB-6102', 'SUB-6103', 'SUB-6104'] };
const sub = (id: string, plan: string, billing: string, status = 'active') => ({ subscription_id: id, plan, billing, status, seats: 5 });

export const COUNT_MISMATCH_CASES: CaseSpec[] = [
  {
    name: 'cm-defect-whole-miscounted',
    shape: 'traceloop',
    check: 'count-mismatch',
    class: 'the whole list miscounted ("you have 5 open tickets" for 4 rows)',
    kind: 'defect',
    note: 'list_tickets served four tickets; the answer says five and lists four.',
    expect: [{ check: 'count-mismatch', value: '5' }],
    system: HELPDESK_SYSTEM,
    tools: offerB('list_tickets'),
    declarations: declareB(['list_tickets']),
    turns: [
      {
        user: 'What tickets do I have open? j.okafor@meridian-logistics.com',
        steps: [{ calls: [{ name: 'list_tickets', args: { requester: 'j.okafor@meridian-logistics.com', state: 'open' }, result: TICKETS }] }],
        answer:
          'You have 5 open tickets:\n\n- HD-40112: Outlook keeps asking for the password\n- HD-40187: Second monitor flickers\n- HD-40230: No access to the finance share (high)\n- HD-40311: Badge does not open door C',
      },
    ],
  },
  {
    name: 'cm-defect-more-than-served',
    shape: 'vercel',
    check: 'count-mismatch',
    class: 'more options than the search returned ("I found 6 options" for 5 rows)',
    kind: 'defect',
    note: 'search_catalog served five variants; "6 options" is more than anything served.',
    expect: [{ check: 'count-mismatch', value: '6' }],
    system: SHOP_SYSTEM,
    tools: offerB('search_catalog'),
    declarations: declareB(['search_catalog']),
    turns: [
      {
        user: 'Which rain jackets do you have in stock?',
        steps: [{ calls: [{ name: 'search_catalog', args: { query: 'rain jacket' }, result: JACKETS }] }],
        answer: 'I found 6 options for rain jackets. The Fjellskall shell jacket comes in red (S) and blue (M, L), and the Vinter insulated jacket in green (M).',
      },
    ],
  },
  {
    name: 'cm-defect-kind-over-partly-read-list',
    shape: 'otel-logs',
    check: 'count-mismatch',
    class: 'a kind counted over a list whose items were only partly read ("two annual subscriptions" after reading 2 of 4)',
    kind: 'defect',
    note: 'The account lists four subscriptions; only SUB-6101 and SUB-6102 were read, yet the answer says how many of them are annual.',
    expect: [{ check: 'count-mismatch', value: 'two' }],
    system: BILLING_SYSTEM,
    tools: offerB('find_customer_account', 'get_subscription'),
    declarations: declareB(['find_customer_account', 'get_subscription']),
    turns: [
      {
        user: 'How many of our subscriptions are billed annually? We are finance@brightwater.example.',
        steps: [
          { calls: [{ name: 'find_customer_account', args: { email: 'finance@brightwater.example' }, result: ACCOUNT }] },
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-6101' }, result: sub('SUB-6101', 'Team', 'annual') }] },
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-6102' }, result: sub('SUB-6102', 'Team', 'annual') }] },
        ],
        answer: 'You have two annual subscriptions: SUB-6101 and SUB-6102, both on the Team plan.',
      },
    ],
  },
  {
    name: 'cm-defect-devices-undercounted',
    shape: 'traceloop',
    check: 'count-mismatch',
    class: 'the whole list undercounted ("2 devices registered to you" for 3 rows)',
    kind: 'defect',
    note: 'list_devices served three devices; the answer states the whole as two.',
    expect: [{ check: 'count-mismatch', value: '2' }],
    system: HELPDESK_SYSTEM,
    tools: offerB('list_devices'),
    declarations: declareB(['list_devices']),
    turns: [
      {
        user: 'Which devices are registered to me? m.haddad@meridian-logistics.com',
        steps: [
          {
            calls: [
              {
                name: 'list_devices',
                args: { employee: 'm.haddad@meridian-logistics.com' },
                result: [
                  { device_id: 'AT-20991', model: 'ThinkPad X1 Carbon', os: 'Windows 11' },
                  { device_id: 'AT-21004', model: 'iPhone 15', os: 'iOS 18' },
                  { device_id: 'AT-21377', model: 'Dell U2723QE monitor', os: null },
                ],
              },
            ],
          },
        ],
        answer: 'You have 2 devices registered to your account: a ThinkPad X1 Carbon (AT-20991) and an iPhone 15 (AT-21004).',
      },
    ],
  },
  {
    name: 'cm-clean-right-count',
    shape: 'vercel',
    check: 'count-mismatch',
    class: 'the whole list counted right',
    kind: 'clean',
    note: 'Four tickets served, four said.',
    expect: [],
    system: HELPDESK_SYSTEM,
    tools: offerB('list_tickets'),
    declarations: declareB(['list_tickets']),
    turns: [
      {
        user: 'What tickets do I have open? j.okafor@meridian-logistics.com',
        steps: [{ calls: [{ name: 'list_tickets', args: { requester: 'j.okafor@meridian-logistics.com', state: 'open' }, result: TICKETS }] }],
        answer: 'You have four open tickets: HD-40112, HD-40187, HD-40230 and HD-40311. HD-40230 (no access to the finance share) is the high-priority one.',
      },
    ],
  },
  {
    name: 'cm-clean-kind-of-read-rows',
    shape: 'traceloop',
    check: 'count-mismatch',
    class: 'a kind of the served rows counted ("3 options in stock" of 4 rows)',
    kind: 'clean',
    note: 'Three of the four variants have stock; the answer counts a kind of the rows it read in full, which is not more than served.',
    expect: [],
    system: SHOP_SYSTEM,
    tools: offerB('search_catalog'),
    declarations: declareB(['search_catalog']),
    turns: [
      {
        user: 'Which Fjellskall shell jackets can I get right now?',
        steps: [{ calls: [{ name: 'search_catalog', args: { query: 'Fjellskall shell jacket' }, result: JACKETS.slice(0, 4) }] }],
        answer: 'I found 3 options in stock for the Fjellskall shell jacket: red S, blue M and blue L. Red M is sold out.',
      },
    ],
  },
  {
    name: 'cm-clean-user-stated-count',
    shape: 'otel-logs',
    check: 'count-mismatch',
    class: 'a count the user gave ("3 guests") that the served booking does not have yet',
    kind: 'clean',
    note: 'The booking lists two guests; the user says a third joins. "For 3 guests" is the user\'s number, not a miscount of the guest list.',
    expect: [],
    system: HOTEL_SYSTEM,
    tools: offerB('get_booking'),
    declarations: declareB(['get_booking']),
    turns: [
      {
        user: 'My sister is joining us, so we will be 3 guests on booking LH-55102. Is the room big enough?',
        steps: [
          {
            calls: [
              {
                name: 'get_booking',
                args: { booking_ref: 'LH-55102' },
                result: { booking_ref: 'LH-55102', room_id: 'R-204', room_type: 'double', max_occupancy: 2, guests: [{ name: 'Ines Carvalho' }, { name: 'Tomas Carvalho' }], paid: true },
              },
            ],
          },
        ],
        answer: 'Room R-204 on LH-55102 is a double for at most 2 people, so for 3 guests you would need an extra bed or a larger room. Shall I look for a suite?',
      },
    ],
  },
  {
    name: 'cm-clean-count-served-as-field',
    shape: 'vercel',
    check: 'count-mismatch',
    class: 'a count the result states as a field ("seats": 25 -> "25 seats"), and pages of one search added up',
    kind: 'clean',
    note: 'The seat count is a served number, not a list; two pages of search_catalog (5 + 3 rows) make the 8 results the answer states.',
    expect: [],
    system: BILLING_SYSTEM,
    tools: { ...offerB('get_subscription'), ...offerB('search_catalog') },
    declarations: declareB(['get_subscription', 'search_catalog']),
    turns: [
      {
        user: 'How many seats does SUB-7010 have, and how many add-ons match "sso"?',
        steps: [
          { calls: [{ name: 'get_subscription', args: { subscription_id: 'SUB-7010' }, result: { subscription_id: 'SUB-7010', plan: 'Business', status: 'active', seats: 25 } }] },
          { calls: [{ name: 'search_catalog', args: { query: 'sso', page: 1 }, result: ['ADD-SSO-BASIC', 'ADD-SSO-PLUS', 'ADD-SCIM', 'ADD-SAML-EU', 'ADD-SAML-US'] }] },
          { calls: [{ name: 'search_catalog', args: { query: 'sso', page: 2 }, result: ['ADD-OIDC', 'ADD-MFA-HW', 'ADD-AUDIT-SSO'] }] },
        ],
        answer: 'SUB-7010 has 25 seats on the Business plan. The add-on search for "sso" gave 8 results in total, across two pages.',
      },
    ],
  },
];
