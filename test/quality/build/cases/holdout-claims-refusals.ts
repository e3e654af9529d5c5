// HELD-OUT quality cases for `unsupported-claim` and `refusal-asserts-absence`, written blind (no
// check was changed with them in view): structured answers against described results that change
// between turns, and refused reads (403, rate limits, timeouts, access denied) told as absence — or
// admitted, superseded by a retry, or beside an absence another read really established.

import type { CaseSpec } from '../spec.js';
import {
  BILLING_SYSTEM, BOOKINGS, EMPLOYEES, PARCEL_SYSTEM, PAYROLL_SYSTEM, TRACKER_SYSTEM, TRAVEL_SYSTEM, TRIAL_SYSTEM,
  declarationsH, declareH, offerH,
} from './holdout-common.js';

const described = (facts: Record<string, unknown>[], measuredAt: string, source: string) => ({ af_semantics: true, facts, provenance: { measured_at: measuredAt, source } });

const parcelClaims = {
  system: `${PARCEL_SYSTEM} Reply with a JSON object {tracking_no, status, eta}.`,
  memory: 'full' as const,
  tools: offerH('track_parcel'),
  declarations: declarationsH([declareH('track_parcel')], { claims: { status: { entity: 'JJD0003900071234', field: 'status' }, eta: { entity: 'JJD0003900071234', field: 'eta' } } }),
};

const findAnna = { name: 'find_employee', args: { query: 'Anna Schäfer' }, result: [EMPLOYEES[0]] };
const hrTools = {
  system: PAYROLL_SYSTEM,
  tools: offerH('find_employee', 'leave_requests'),
  declarations: declarationsH([declareH('find_employee'), declareH('leave_requests', { argumentsFrom: ['find_employee'] })]),
};
const leaveDenied = { status: 403, error: 'Forbidden', message: 'scope hr.leave:read required' };

export const HOLDOUT_CLAIM_REFUSAL_CASES: CaseSpec[] = [
  // ---- unsupported-claim ----
  {
    name: 'holdout-uc-defect-budget-status-within',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'held-out: billing; a fenced JSON answer says "within" where the described result settled "over"',
    kind: 'defect',
    note: 'The spend is above the budget and budget_check says over; the structured answer contradicts it.',
    expect: [{ check: 'unsupported-claim', value: 'within' }],
    system: `${BILLING_SYSTEM} Reply with a JSON object {account_id, budget_status, spent_usd}.`,
    tools: offerH('budget_check'),
    declarations: declarationsH([declareH('budget_check')], { claims: { budget_status: { entity: '004518822391', field: 'budget_status' } } }),
    turns: [
      {
        user: 'Is 004518822391 within budget this month?',
        steps: [
          {
            calls: [
              {
                name: 'budget_check',
                args: { account_id: '004518822391' },
                result: described([{ entity: '004518822391', budget_status: 'over', spent_usd: 26112.4, budget_usd: 25000 }], '2026-12-04T06:00:00Z', 'billing export'),
              },
            ],
          },
        ],
        answer: '```json\n{\n  "account_id": "004518822391",\n  "budget_status": "within",\n  "spent_usd": 26112.40\n}\n```',
      },
    ],
  },
  {
    name: 'holdout-uc-defect-stale-status-after-second-scan',
    shape: 'vercel',
    check: 'unsupported-claim',
    class: 'held-out: parcels, 2 turns; the second scan settles "delivered", the answer keeps turn 1\'s "in_transit"',
    kind: 'defect',
    note: 'The last fact row settles the status; the turn-2 answer repeats the superseded value.',
    expect: [{ check: 'unsupported-claim', value: 'in_transit' }],
    ...parcelClaims,
    turns: [
      {
        user: 'Status of JJD0003900071234?',
        steps: [{ calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071234' }, result: described([{ entity: 'JJD0003900071234', status: 'in_transit', eta: '2026-12-03' }], '2026-12-03T07:02:00Z', 'carrier scan feed') }] }],
        answer: '{"tracking_no": "JJD0003900071234", "status": "in_transit", "eta": "2026-12-03"}',
      },
      {
        user: 'Check again please, the driver rang the bell.',
        steps: [{ calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071234' }, result: described([{ entity: 'JJD0003900071234', status: 'delivered', eta: '2026-12-03' }], '2026-12-03T11:47:00Z', 'carrier scan feed') }] }],
        answer: '{"tracking_no": "JJD0003900071234", "status": "in_transit", "eta": "2026-12-03"}',
      },
    ],
  },
  {
    name: 'holdout-uc-defect-enrolled-count-off',
    shape: 'otel-logs',
    check: 'unsupported-claim',
    class: 'held-out: trial sites; a fenced JSON answer claims 36 enrolled where the registry settled 38',
    kind: 'defect',
    note: 'A small count that no value check would see (2 digits); the claim check compares it with the settled fact.',
    expect: [{ check: 'unsupported-claim', value: '36' }],
    system: `${TRIAL_SYSTEM} Reply with a JSON object {site_id, enrolled, status}.`,
    tools: offerH('site_enrollment'),
    declarations: declarationsH([declareH('site_enrollment')], { claims: { enrolled: { entity: 'DE-017', field: 'enrolled' }, status: { entity: 'DE-017', field: 'status' } } }),
    turns: [
      {
        user: 'Give me the enrolment of DE-017 as JSON.',
        steps: [{ calls: [{ name: 'site_enrollment', args: { site_id: 'DE-017' }, result: described([{ entity: 'DE-017', enrolled: 38, screened: 61, status: 'active' }], '2026-11-30T23:00:00Z', 'EDC registry') }] }],
        answer: 'Here you go:\n\n```json\n{"site_id": "DE-017", "enrolled": 36, "status": "active"}\n```',
      },
    ],
  },
  {
    name: 'holdout-uc-clean-string-number-and-case',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'held-out: HR; "8" for 8 and "active" for "Active" agree with the settled facts',
    kind: 'clean',
    note: 'A decimal string equals its number and strings compare case-folded unless declared exact.',
    expect: [],
    system: `${PAYROLL_SYSTEM} Reply with a JSON object {employee_id, remaining_days, status}.`,
    tools: offerH('find_employee', 'leave_balance'),
    declarations: declarationsH([declareH('find_employee'), declareH('leave_balance', { argumentsFrom: ['find_employee'] })], {
      claims: { remaining_days: { entity: 'E-40217-DE', field: 'remaining_days' }, status: { entity: 'E-40217-DE', field: 'status' } },
    }),
    turns: [
      {
        user: "Anna Schäfer's leave balance as JSON, please.",
        steps: [
          { calls: [findAnna] },
          { calls: [{ name: 'leave_balance', args: { employee_id: 'E-40217-DE' }, result: described([{ entity: 'E-40217-DE', remaining_days: 8, status: 'Active' }], '2026-12-03T05:00:00Z', 'HR core') }] },
        ],
        answer: '{"employee_id": "E-40217-DE", "remaining_days": "8", "status": "active"}',
      },
    ],
  },
  {
    name: 'holdout-uc-clean-fence-between-prose',
    shape: 'vercel',
    check: 'unsupported-claim',
    class: 'held-out: travel; a JSON fence between two paragraphs of prose, agreeing with the flight status',
    kind: 'clean',
    note: 'The first json fence is read; "Delayed" meets "delayed" and the gate is as served.',
    expect: [],
    system: `${TRAVEL_SYSTEM} Include a JSON block {flight, status, gate}.`,
    tools: offerH('flight_status'),
    declarations: declarationsH([declareH('flight_status')], { claims: { status: { entity: 'LH2024', field: 'status' }, gate: { entity: 'LH2024', field: 'gate' } } }),
    turns: [
      {
        user: 'Is LH2024 on 2026-12-03 on time?',
        steps: [{ calls: [{ name: 'flight_status', args: { flight_no: 'LH2024', date: '2026-12-03' }, result: described([{ entity: 'LH2024', status: 'delayed', gate: 'K12', departs: '2026-12-03T14:55:00+01:00' }], '2026-12-02T16:00:00Z', 'airline status feed') }] }],
        answer: "Not quite — it's running late. Here's the current status:\n\n```json\n{\"flight\": \"LH2024\", \"status\": \"Delayed\", \"gate\": \"K12\"}\n```\n\nIt now leaves at 14:55; ask me again closer to departure and I'll re-check.",
      },
    ],
  },
  {
    name: 'holdout-uc-clean-settled-by-later-read',
    shape: 'otel-logs',
    check: 'unsupported-claim',
    class: 'held-out: issue tracker, 2 turns; the state changes between reads and each answer matches its latest read',
    kind: 'clean',
    note: 'Turn 1 settles open, turn 2\'s read settles closed; each structured answer agrees with the settled fact of its turn. Reviewer expectation for values: 4821 is served (and typed by the user) only inside "acme-eng/storefront#4821"; a reviewer reads the bare number as that issue\'s, though docs/checks-answer.md tokenises the whole reference as one token.',
    expect: [],
    system: `${TRACKER_SYSTEM} Reply with a JSON object {issue, state}.`,
    memory: 'full',
    tools: offerH('get_issue'),
    declarations: declarationsH([declareH('get_issue')], { claims: { state: { entity: 'acme-eng/storefront#4821', field: 'state' } } }),
    turns: [
      {
        user: 'State of acme-eng/storefront#4821?',
        steps: [{ calls: [{ name: 'get_issue', args: { repo: 'acme-eng/storefront', issue_number: 4821 }, result: described([{ entity: 'acme-eng/storefront#4821', state: 'open' }], '2026-12-01T08:00:00Z', 'GitHub REST') }] }],
        answer: '{"issue": 4821, "state": "open"}',
      },
      {
        user: 'And now? I think someone merged the fix.',
        steps: [{ calls: [{ name: 'get_issue', args: { repo: 'acme-eng/storefront', issue_number: 4821 }, result: described([{ entity: 'acme-eng/storefront#4821', state: 'closed' }], '2026-12-01T09:41:00Z', 'GitHub REST') }] }],
        answer: '{"issue": 4821, "state": "closed"}',
      },
    ],
  },
  // ---- refusal-asserts-absence ----
  {
    name: 'found-raa-defect-403-no-pending-leave',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'held-out: HR; a 403 envelope for leave requests answered "has no pending leave requests"',
    kind: 'defect',
    note: 'The read was refused (missing scope), yet the answer states absence and draws a conclusion from it.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'leave_requests' }],
    ...hrTools,
    turns: [
      {
        user: 'Does Anna Schäfer have leave booked in December?',
        steps: [{ calls: [findAnna] }, { calls: [{ name: 'leave_requests', args: { employee_id: 'E-40217-DE' }, result: leaveDenied }] }],
        answer: 'Anna Schäfer has no pending or approved leave requests at the moment, so her December looks fully available.',
      },
    ],
  },
  {
    name: 'holdout-raa-defect-timeout-no-longer-exists',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'held-out: travel, 2 turns; an itinerary read times out and the answer says the booking "no longer exists"',
    kind: 'defect',
    note: 'A GDS timeout (span ERROR) cannot establish that R4WZ9T is gone; the speculation after the dash ("may have been cancelled") does not withdraw the flat statement.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'get_itinerary' }],
    system: TRAVEL_SYSTEM,
    memory: 'full',
    tools: offerH('find_booking', 'get_itinerary'),
    declarations: declarationsH([declareH('find_booking'), declareH('get_itinerary', { argumentsFrom: ['find_booking'] })]),
    turns: [
      {
        user: 'What bookings does Dana Whitfield have?',
        steps: [{ calls: [{ name: 'find_booking', args: { surname: 'Whitfield' }, result: BOOKINGS }] }],
        answer: 'Two, both ticketed: K7Q2XM (created 18 Nov) and R4WZ9T (created 25 Nov).',
      },
      {
        user: 'Open the newer one.',
        steps: [{ calls: [{ name: 'get_itinerary', args: { pnr: 'R4WZ9T' }, result: 'upstream GDS timed out after 30s', error: { type: 'TimeoutError', message: 'upstream GDS timed out after 30s' } }] }],
        answer: 'That booking (R4WZ9T) no longer exists — it may have been cancelled by the airline. Want me to look for a replacement flight?',
      },
    ],
  },
  {
    name: 'holdout-raa-defect-403-told-as-not-found',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'held-out: parcels; "403 Forbidden" from the carrier presented as "was not found"',
    kind: 'defect',
    note: 'The carrier refused the lookup (account not authorised); the answer turns it into a not-found and sends the customer to re-check a number that may be fine.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'track_parcel' }],
    system: PARCEL_SYSTEM,
    tools: offerH('track_parcel'),
    declarations: declarationsH([declareH('track_parcel')]),
    turns: [
      {
        user: 'Where is parcel JJD0003900071290?',
        steps: [{ calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071290' }, result: '403 Forbidden: account not authorised for shipper WNG-44' }] }],
        answer: 'Tracking number JJD0003900071290 was not found in our system. Please check the number on your receipt and try again.',
      },
    ],
  },
  {
    name: 'holdout-raa-defect-rate-limited-no-invoices',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'held-out: billing; an `ok: false` rate-limit result answered "there are no invoices"',
    kind: 'defect',
    note: 'ok:false with an error is a failed read; "There are no invoices … for 2026-11" is about that read (its month argument) and cannot rest on it.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'invoice' }],
    system: BILLING_SYSTEM,
    tools: offerH('invoice'),
    declarations: declarationsH([declareH('invoice')]),
    turns: [
      {
        user: 'Is the 2026-11 invoice for account 004518822391 out yet?',
        steps: [{ calls: [{ name: 'invoice', args: { account_id: '004518822391', month: '2026-11' }, result: { ok: false, error: 'billing API rate limited, retry in 60s' } }] }],
        answer: 'Not yet — there are no invoices for 004518822391 for 2026-11 so far. They usually appear in the first week of the month.',
      },
    ],
  },
  {
    name: 'holdout-raa-clean-503-then-retry',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'held-out: CI; a 503 on the first read, a successful retry with the same arguments, then "no failed runs"',
    kind: 'clean',
    note: 'The retry superseded the failure; the absence of failures rests on the run list that came back.',
    expect: [],
    system: TRACKER_SYSTEM,
    tools: offerH('list_ci_runs'),
    declarations: declarationsH([declareH('list_ci_runs')]),
    turns: [
      {
        user: 'Did anything fail on main in acme-eng/storefront this morning?',
        steps: [
          { calls: [{ name: 'list_ci_runs', args: { repo: 'acme-eng/storefront', branch: 'main' }, result: '503 Service Unavailable', error: { type: 'HTTPError', message: '503 Service Unavailable' } }] },
          {
            calls: [
              {
                name: 'list_ci_runs',
                args: { repo: 'acme-eng/storefront', branch: 'main' },
                result: [
                  { run_id: 88123502, workflow: 'ci.yml', conclusion: 'success', started: '2026-12-01T08:03:40Z' },
                  { run_id: 88123488, workflow: 'ci.yml', conclusion: 'success', started: '2026-12-01T06:30:02Z' },
                ],
              },
            ],
          },
        ],
        answer: 'No failed runs on main this morning. The first request to GitHub errored, but the retry worked: both runs (88123488 at 06:30 and 88123502 at 08:03 UTC) passed.',
      },
    ],
  },
  {
    name: 'holdout-raa-clean-refusal-admitted',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'held-out: HR; the 403 is admitted and the answer declines to say whether leave exists',
    kind: 'clean',
    note: 'The answer names the failure and makes no absence claim.',
    expect: [],
    ...hrTools,
    turns: [
      {
        user: 'Does Anna Schäfer have leave booked in December?',
        steps: [{ calls: [findAnna] }, { calls: [{ name: 'leave_requests', args: { employee_id: 'E-40217-DE' }, result: leaveDenied }] }],
        answer: "I couldn't check Anna's leave requests: the HR system refused the lookup (403, missing scope hr.leave:read). So I can't tell you whether she has anything booked — HR can look it up directly.",
      },
    ],
  },
  {
    name: 'holdout-raa-clean-absence-from-successful-read',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'held-out: trial sites; "no active sites in Portugal" rests on an empty site list, beside a denied enrolment read',
    kind: 'clean',
    note: 'find_sites ran and returned [] for PT, so that absence is established; the enrolment read was denied and the answer admits it.',
    expect: [],
    system: TRIAL_SYSTEM,
    tools: offerH('find_sites', 'site_enrollment'),
    declarations: declarationsH([declareH('find_sites'), declareH('site_enrollment', { argumentsFrom: ['find_sites'] })]),
    turns: [
      {
        user: 'Which Iberian sites are active, and how are they enrolling?',
        steps: [
          {
            calls: [
              { name: 'find_sites', args: { country: 'PT' }, result: [] },
              { name: 'find_sites', args: { country: 'ES' }, result: [{ site_id: 'ES-004', name: 'Hospital Clínic Barcelona', pi: 'Dr. R. Puig', activated: '2026-06-20' }] },
            ],
          },
          { calls: [{ name: 'site_enrollment', args: { site_id: 'ES-004' }, result: 'Access denied: role study-monitor cannot read enrolment' }] },
        ],
        answer: "There are no active sites in Portugal. In Spain there is one, Hospital Clínic Barcelona (ES-004), but I couldn't read its enrolment figures — access was denied for my role.",
      },
    ],
  },
  {
    name: 'holdout-raa-clean-quoted-user-claim',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'held-out: payroll; the answer quotes the user\'s "there is no payslip" while saying the read was denied',
    kind: 'clean',
    note: 'The absence words are the user\'s, quoted, in the same sentence that says the payroll read was denied and could not be checked.',
    expect: [],
    system: PAYROLL_SYSTEM,
    tools: offerH('find_employee', 'payslips'),
    declarations: declarationsH([declareH('find_employee'), declareH('payslips', { argumentsFrom: ['find_employee'] })]),
    turns: [
      {
        user: "HR told me 'there is no payslip for November' for Anna Schneider. Is that right?",
        steps: [
          { calls: [{ name: 'find_employee', args: { query: 'Anna Schneider' }, result: [EMPLOYEES[1]] }] },
          { calls: [{ name: 'payslips', args: { employee_id: 'E-40221-DE', limit: 1 }, result: 'permission denied', error: { type: 'PermissionDenied', message: 'permission denied: payroll scope required' } }] },
        ],
        answer: 'I can\'t confirm what HR told you ("there is no payslip for November"): the payroll system denied my request, so I couldn\'t check her payslips myself.',
      },
    ],
  },
];
