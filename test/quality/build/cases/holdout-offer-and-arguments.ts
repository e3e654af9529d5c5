// HELD-OUT quality cases for `dangling-reference` and `unsupported-argument`, written blind (no
// check was changed with them in view): new domains, multi-turn memory, ids copied or cut from the
// model's own prose, transposed characters, and the hard clean cases around them.

import type { CaseSpec } from '../spec.js';
import {
  ACCOUNTS, BILLING_SYSTEM, BOOKINGS, CI_RUNS, EMPLOYEES, ISSUES, ITINERARY_K7, PARCEL_SYSTEM, PAYROLL_SYSTEM, SHIPMENTS, TRACKER_SYSTEM, TRAVEL_SYSTEM, TRIAL_SYSTEM,
  declarationsH, declareH, offerH,
} from './holdout-common.js';

const travel = {
  system: TRAVEL_SYSTEM,
  tools: offerH('find_booking', 'get_itinerary', 'flight_status'),
  declarations: declarationsH([declareH('find_booking'), declareH('get_itinerary', { argumentsFrom: ['find_booking'] }), declareH('flight_status', { argumentsFrom: ['get_itinerary'] })]),
};
const findDana = { name: 'find_booking', args: { surname: 'Whitfield', email: 'dana.whitfield@contoso.com' }, result: BOOKINGS };
const danaTurn1 = {
  user: "Can you pull up Dana Whitfield's bookings? Her e-mail is dana.whitfield@contoso.com.",
  steps: [{ calls: [findDana] }],
  answer: 'Dana has two ticketed bookings:\n\n- **K7Q2XM**, created 18 Nov\n- **R4WZ9T**, created 25 Nov\n\nWant me to open either itinerary?',
};

const tracker = {
  system: TRACKER_SYSTEM,
  tools: offerH('search_issues', 'get_issue'),
  declarations: declarationsH([declareH('search_issues'), declareH('get_issue', { argumentsFrom: ['search_issues'] })]),
};

const usageProd = {
  account_id: '004518822391',
  month: '2026-11',
  rows: [
    { service: 'compute', cost_usd: 8412.37 },
    { service: 'object-storage', usage_gib: 51200, cost_usd: 1177.6 },
    { service: 'egress', usage_gib: 9830.4, cost_usd: 884.74 },
  ],
  total_usd: 10474.71,
};

export const HOLDOUT_OFFER_ARGUMENT_CASES: CaseSpec[] = [
  // ---- dangling-reference ----
  {
    name: 'holdout-dr-defect-pnr-from-own-answer',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'held-out: travel desk keeps only answers; turn 2 opens the itinerary with a PNR the model recalls',
    kind: 'defect',
    note: 'find_booking left the window after turn 1 (answers-only memory); get_itinerary is called in turn 2 with K7Q2XM, which only the model\'s own turn-1 answer holds. Rules: dangling on the call (non-advisory) and unsupported-argument assistant-only.',
    expect: [
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-argument', tool: 'get_itinerary', value: 'K7Q2XM' },
    ],
    ...travel,
    memory: 'answers-only',
    turns: [
      danaTurn1,
      {
        user: 'Yes, the older one please.',
        steps: [{ calls: [{ name: 'get_itinerary', args: { pnr: 'K7Q2XM' }, result: ITINERARY_K7 }] }],
        answer: 'Booking K7Q2XM:\n\n| Flight | Route | Departs | Seat |\n|---|---|---|---|\n| LH2024 | MUC → LHR | 3 Dec, 14:05 | 14C |\n| BA0917 | LHR → MUC | 6 Dec, 18:40 | 22A |',
      },
    ],
  },
  {
    name: 'holdout-dr-defect-three-turn-issue-recall',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'held-out: issue tracker, 3 turns; an idle turn offers get_issue (warning), the third calls it from memory',
    kind: 'defect',
    note: 'Dialogue memory drops the search result. Turn 2 offers get_issue without calling it (advisory finding), turn 3 calls it with #4821 taken from the model\'s own turn-1 answer (finding on the call, and the argument is assistant-only).',
    expect: [
      { check: 'dangling-reference', advisory: true },
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-argument', tool: 'get_issue', value: '4821' },
    ],
    ...tracker,
    turns: [
      {
        user: 'Any open regressions in acme-eng/storefront?',
        steps: [{ calls: [{ name: 'search_issues', args: { repo: 'acme-eng/storefront', query: 'is:open label:regression' }, result: [ISSUES[0]] }] }],
        answer: 'One open regression: #4821 — "Checkout fails with 502 behind the new ingress" (labels: bug, regression).',
      },
      { user: 'Who usually triages those?', steps: [], answer: "I don't have ownership data in these tools — the issue's assignee, if one is set, would be the best lead." },
      {
        user: 'OK, is it still open? Give me its labels too.',
        steps: [{ calls: [{ name: 'get_issue', args: { repo: 'acme-eng/storefront', issue_number: 4821 }, result: { number: 4821, title: 'Checkout fails with 502 behind the new ingress', state: 'open', labels: ['bug', 'regression', 'p1'], assignee: null } }] }],
        answer: 'Yes — #4821 is still open, now labelled bug, regression and p1. Nobody is assigned yet.',
      },
    ],
  },
  {
    name: 'holdout-dr-defect-transposed-tracking-number',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'held-out: parcel tracker; turn 2 tracks a tracking number recalled with two digits swapped',
    kind: 'defect',
    note: 'find_shipments left the window (dialogue memory); track_parcel is called with JJD0003900071243 where JJD0003900071234 was served. Rules: dangling on the call, and the argument is nowhere (the model\'s own answer has the right number, not this one). The not-found result echoes the wrong number, so the answer quoting it is grounded.',
    expect: [
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-argument', tool: 'track_parcel', value: 'JJD0003900071243' },
    ],
    system: PARCEL_SYSTEM,
    tools: offerH('find_shipments', 'track_parcel'),
    declarations: declarationsH([declareH('find_shipments'), declareH('track_parcel', { argumentsFrom: ['find_shipments'] })]),
    turns: [
      {
        user: 'Where are the parcels for order WO-559183?',
        steps: [{ calls: [{ name: 'find_shipments', args: { customer_ref: 'WO-559183' }, result: SHIPMENTS }] }],
        answer: 'Order WO-559183 went out in two parcels: JJD0003900071234 (express, 2.4 kg) and JJD0003900071290 (standard, 11.8 kg).',
      },
      {
        user: 'Track the express one.',
        steps: [{ calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071243' }, result: 'Parcel JJD0003900071243 not found' }] }],
        answer: "Hmm, I couldn't find a parcel with tracking number JJD0003900071243. Could you double-check it against your shipping confirmation?",
      },
    ],
  },
  {
    name: 'holdout-dr-clean-refetch-before-itinerary',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'held-out: travel desk; turn 2 searches the bookings again before opening the itinerary',
    kind: 'clean',
    note: 'Answers-only memory, but the model calls find_booking again first; the id it then passes is in the window. The first request of turn 2 offers get_itinerary before the refetch (an advisory warning the rules allow).',
    expect: [],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    ...travel,
    memory: 'answers-only',
    turns: [
      danaTurn1,
      {
        user: 'Yes, the older one please.',
        steps: [{ calls: [findDana] }, { calls: [{ name: 'get_itinerary', args: { pnr: 'K7Q2XM' }, result: ITINERARY_K7 }] }],
        answer: "Here's K7Q2XM: LH2024 Munich → London on Thu 3 Dec at 14:05, then BA0917 back on Sun 6 Dec at 18:40 (seats 14C and 22A).",
      },
    ],
  },
  {
    name: 'holdout-dr-clean-full-memory-billing',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'held-out: cloud billing, full history kept; turn 2 asks for the second account',
    kind: 'clean',
    note: 'The app keeps tool results between turns, so list_accounts is still in the window when usage_report is called for 771203948856 in turn 2.',
    expect: [],
    system: BILLING_SYSTEM,
    memory: 'full',
    tools: offerH('list_accounts', 'usage_report'),
    declarations: declarationsH([declareH('list_accounts'), declareH('usage_report', { argumentsFrom: ['list_accounts'] })]),
    turns: [
      {
        user: 'What did our prod account cost in 2026-11?',
        steps: [
          { calls: [{ name: 'list_accounts', args: { org: 'tailspin' }, result: ACCOUNTS }] },
          { calls: [{ name: 'usage_report', args: { account_id: '004518822391', month: '2026-11' }, result: usageProd }] },
        ],
        answer: 'tailspin-prod (004518822391) cost **$10,474.71** in 2026-11. Compute was the bulk at $8,412.37; object storage came to $1,177.60 and egress to $884.74.',
      },
      {
        user: 'And the analytics account?',
        steps: [
          {
            calls: [
              {
                name: 'usage_report',
                args: { account_id: '771203948856', month: '2026-11' },
                result: { account_id: '771203948856', month: '2026-11', rows: [{ service: 'compute', cost_usd: 2306.1 }, { service: 'warehouse', cost_usd: 4090.55 }], total_usd: 6396.65 },
              },
            ],
          },
        ],
        answer: 'tailspin-analytics came to $6,396.65 for the same month — $4,090.55 of that is the warehouse, the rest ($2,306.10) compute.',
      },
    ],
  },
  {
    name: 'holdout-dr-clean-dependent-tool-not-offered',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'held-out: issue tracker; turn 2 offers only the search tool, so nothing dangles',
    kind: 'clean',
    note: 'Dialogue memory drops the turn-1 search, but the app offers only search_issues in turn 2 and the model searches again; get_issue is not offered, so no value can be passed from memory.',
    expect: [],
    ...tracker,
    turns: [
      {
        user: 'Any open regressions in acme-eng/storefront?',
        steps: [{ calls: [{ name: 'search_issues', args: { repo: 'acme-eng/storefront', query: 'is:open label:regression' }, result: [ISSUES[0]] }] }],
        answer: 'Just one: #4821, "Checkout fails with 502 behind the new ingress".',
      },
      {
        user: 'And anything flaky?',
        tools: ['search_issues'],
        steps: [{ calls: [{ name: 'search_issues', args: { repo: 'acme-eng/storefront', query: 'is:open label:flaky-test' }, result: [ISSUES[1]] }] }],
        answer: 'Yes, one open flaky-test issue: #4790 ("Flaky test: payment webhook retries").',
      },
    ],
  },
  {
    name: 'holdout-dr-clean-user-typed-tracking-number',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'held-out: parcel tracker; the user types the tracking number, the producer is never called',
    kind: 'clean',
    note: 'A ground that was never fetched is ordinary sequencing; the depot lookup\'s ground (track_parcel) is in the window when it is called.',
    expect: [],
    system: PARCEL_SYSTEM,
    tools: offerH('find_shipments', 'track_parcel', 'depot_info'),
    declarations: declarationsH([declareH('find_shipments'), declareH('track_parcel', { argumentsFrom: ['find_shipments'] }), declareH('depot_info', { argumentsFrom: ['track_parcel'] })]),
    turns: [
      {
        user: 'Where is JJD0003900071234 and when is the depot open?',
        steps: [
          {
            calls: [
              {
                name: 'track_parcel',
                args: { tracking_no: 'JJD0003900071234' },
                result: { tracking_no: 'JJD0003900071234', events: [{ at: '2026-12-02T21:14:00Z', depot: 'LEJ-2', event: 'arrived at depot' }, { at: '2026-12-03T06:02:00Z', depot: 'LEJ-2', event: 'held: address query' }] },
              },
            ],
          },
          { calls: [{ name: 'depot_info', args: { depot: 'LEJ-2' }, result: { depot: 'LEJ-2', city: 'Leipzig', hours: 'Mon–Fri 08:00–18:00', phone: '+49 341 5550192' } }] },
        ],
        answer: 'JJD0003900071234 reached the Leipzig depot (LEJ-2) last night and has been on hold since 06:02 this morning because of an address query. The depot is open Mon–Fri 08:00–18:00; their number is +49 341 5550192.',
      },
    ],
  },
  // ---- unsupported-argument ----
  {
    name: 'holdout-ua-defect-employee-id-cut',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'held-out: payroll; the employee id is passed without its "-DE" suffix',
    kind: 'defect',
    note: 'find_employee served E-40217-DE; payslips was called with E-40217, a proper part of it (fragment). The empty not-found that follows is the advisory empty-lookup the rules also allow (fragment grounding).',
    expect: [{ check: 'unsupported-argument', tool: 'payslips', value: 'E-40217' }],
    acceptable: [{ check: 'empty-lookup', advisory: true }],
    system: PAYROLL_SYSTEM,
    tools: offerH('find_employee', 'payslips'),
    declarations: declarationsH([declareH('find_employee'), declareH('payslips', { argumentsFrom: ['find_employee'] })]),
    turns: [
      {
        user: "Can you show me Anna Schäfer's last payslip?",
        steps: [
          { calls: [{ name: 'find_employee', args: { query: 'Anna Schäfer' }, result: [EMPLOYEES[0]] }] },
          { calls: [{ name: 'payslips', args: { employee_id: 'E-40217', limit: 1 }, result: 'Employee E-40217 not found' }] },
        ],
        answer: "I couldn't find any payslips for Anna Schäfer (E-40217). She may not have been paid through this payroll system yet.",
      },
    ],
  },
  {
    name: 'holdout-ua-defect-pnr-letters-swapped',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'held-out: travel; the PNR is called with its last two letters swapped (K7Q2MX for K7Q2XM)',
    kind: 'defect',
    note: 'find_booking served K7Q2XM and R4WZ9T; K7Q2MX is in no served text. The not-found message echoes it, so the answer quoting it is grounded; the answer\'s "couldn\'t find" follows a not-found, not a refusal.',
    expect: [{ check: 'unsupported-argument', tool: 'get_itinerary', value: 'K7Q2MX' }],
    ...travel,
    turns: [
      {
        user: 'Pull up the itinerary of Dana Whitfield’s first booking, please.',
        steps: [
          { calls: [{ name: 'find_booking', args: { surname: 'Whitfield' }, result: BOOKINGS }] },
          { calls: [{ name: 'get_itinerary', args: { pnr: 'K7Q2MX' }, result: { error: 'not_found', message: 'No booking K7Q2MX' } }] },
        ],
        answer: "I couldn't find booking K7Q2MX in the reservation system. Dana's other booking is R4WZ9T — should I check that one instead?",
      },
    ],
  },
  {
    name: 'holdout-ua-defect-run-id-from-own-typo',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'held-out: CI; the model mistypes a run id in turn 1 and fetches its logs with the typo in turn 2',
    kind: 'defect',
    note: 'list_ci_runs served 88123457; the turn-1 answer says 88123475 (unsupported value), and turn 2 passes 88123475 to get_run_logs from that prose (assistant-only) while the run list has left the window (dangling on the call). The turn-2 answer repeats the id, which only the model\'s own text and arguments hold.',
    expect: [
      { check: 'unsupported-value', value: '88123475' },
      { check: 'unsupported-value', value: '88123475' },
      { check: 'unsupported-argument', tool: 'get_run_logs', value: '88123475' },
      { check: 'dangling-reference', advisory: false },
    ],
    system: TRACKER_SYSTEM,
    tools: offerH('list_ci_runs', 'get_run_logs'),
    declarations: declarationsH([declareH('list_ci_runs'), declareH('get_run_logs', { argumentsFrom: ['list_ci_runs'] })]),
    turns: [
      {
        user: 'Why is main red on acme-eng/storefront?',
        steps: [{ calls: [{ name: 'list_ci_runs', args: { repo: 'acme-eng/storefront', branch: 'main' }, result: CI_RUNS }] }],
        answer: 'The latest run on main, **88123475** (ci.yml on commit 9f3c2e1), failed; it started at 07:12 UTC. The run before it (88123391) passed.',
      },
      {
        user: 'Can you get me the logs of the failing run?',
        steps: [{ calls: [{ name: 'get_run_logs', args: { repo: 'acme-eng/storefront', run_id: 88123475 }, result: { message: 'Not Found', status: 404 } }] }],
        answer: 'GitHub returns 404 for run 88123475 — it may have been deleted, or the id is off. Want me to list the recent runs again?',
      },
    ],
  },
  {
    name: 'holdout-ua-clean-id-from-earlier-turn-result',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'held-out: cloud billing, full history; turn 2 uses an account id from turn 1\'s tool result',
    kind: 'clean',
    note: 'The id 771203948856 was served by list_accounts in turn 1 and the app keeps tool results, so it is in the window of turn 2; the answer rests on turn 2\'s budget result.',
    expect: [],
    system: BILLING_SYSTEM,
    memory: 'full',
    tools: offerH('list_accounts', 'budget_check'),
    declarations: declarationsH([declareH('list_accounts'), declareH('budget_check', { argumentsFrom: ['list_accounts'] })]),
    turns: [
      {
        user: 'Which cloud accounts do we have?',
        steps: [{ calls: [{ name: 'list_accounts', args: { org: 'tailspin' }, result: ACCOUNTS }] }],
        answer: 'Two:\n1. tailspin-prod — 004518822391 (platform team)\n2. tailspin-analytics — 771203948856 (data team)',
      },
      {
        user: "How's the analytics one doing against budget?",
        steps: [{ calls: [{ name: 'budget_check', args: { account_id: '771203948856' }, result: { account_id: '771203948856', month: '2026-12', budget_usd: 7500, spent_usd: 1912.4, forecast_usd: 6870.15, status: 'on_track' } }] }],
        answer: 'tailspin-analytics has spent $1,912.40 of its $7,500 December budget so far and is forecast to land at $6,870.15, so it is on track.',
      },
    ],
  },
  {
    name: 'holdout-ua-clean-enum-and-second-match',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'held-out: HR; two employees match, the model picks the right id and an enum status filter',
    kind: 'clean',
    note: 'find_employee served both Annas; E-40221-DE is whole in it and "pending" is declared by the schema enum.',
    expect: [],
    system: PAYROLL_SYSTEM,
    tools: offerH('find_employee', 'leave_requests'),
    declarations: declarationsH([declareH('find_employee'), declareH('leave_requests', { argumentsFrom: ['find_employee'] })]),
    turns: [
      {
        user: 'Does Anna from Finance have any leave waiting for approval?',
        steps: [
          { calls: [{ name: 'find_employee', args: { query: 'Anna' }, result: EMPLOYEES }] },
          { calls: [{ name: 'leave_requests', args: { employee_id: 'E-40221-DE', status: 'pending' }, result: [{ request_id: 'LR-20931', from: '2026-12-21', to: '2027-01-02', days: 8, status: 'pending' }] }] },
        ],
        answer: 'Yes — Anna Schneider (Finance) has one pending request, LR-20931: 21 Dec 2026 to 2 Jan 2027, 8 working days.',
      },
    ],
  },
  {
    name: 'found-ua-clean-last-month-as-yyyy-mm',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'held-out: billing; "last month" asked on 2026-12-04 becomes month = "2026-11"',
    kind: 'clean',
    note: 'Reviewer expectation: the month is the right reading of the user\'s "last month" against today\'s date in the system prompt, so no (non-advisory) finding; an advisory derived one is acceptable. docs/checks-arguments.md derives ISO dates only, so a YYYY-MM month may not be covered by the documented rule.',
    expect: [],
    acceptable: [{ check: 'unsupported-argument', advisory: true }],
    system: BILLING_SYSTEM,
    tools: offerH('list_accounts', 'usage_report'),
    declarations: declarationsH([declareH('list_accounts'), declareH('usage_report', { argumentsFrom: ['list_accounts'] })]),
    turns: [
      {
        user: 'How much egress did tailspin-prod use last month?',
        steps: [
          { calls: [{ name: 'list_accounts', args: { org: 'tailspin' }, result: ACCOUNTS }] },
          { calls: [{ name: 'usage_report', args: { account_id: '004518822391', month: '2026-11' }, result: usageProd }] },
        ],
        answer: 'tailspin-prod pushed 9,830.4 GiB of egress in 2026-11 (≈9.6 TiB), which cost $884.74.',
      },
    ],
  },
  {
    name: 'holdout-ua-clean-site-id-inside-ref',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'held-out: trial sites; the site id is served only inside "NCT05512345/DE-017"',
    kind: 'clean',
    note: 'DE-017 is whole in the served reference ("/" separates segments), so the call is grounded; the answer restates the activation date in words.',
    expect: [],
    system: TRIAL_SYSTEM,
    tools: offerH('find_sites', 'site_status'),
    declarations: declarationsH([declareH('find_sites'), declareH('site_status', { argumentsFrom: ['find_sites'] })]),
    turns: [
      {
        user: 'Is the Charité site in Germany active yet?',
        steps: [
          { calls: [{ name: 'find_sites', args: { country: 'DE' }, result: [{ site_ref: 'NCT05512345/DE-017', name: 'Charité Berlin, Cardiology' }, { site_ref: 'NCT05512345/DE-023', name: 'Uniklinik Köln, Heart Centre' }] }] },
          { calls: [{ name: 'site_status', args: { site_id: 'DE-017' }, result: { site_id: 'DE-017', status: 'active', activated: '2026-03-14' } }] },
        ],
        answer: 'Yes. Charité Berlin (site DE-017) is active; it was activated on 14 March 2026.',
      },
    ],
  },
];
