// HELD-OUT quality cases for `unsupported-value` and `prior-turn-evidence` (advisory), written blind
// (no check was changed with them in view): made-up totals, transposed digits, values copied from
// the model's own earlier prose, and answers that reformat served values the way people read them
// (cents as euros, bytes as GiB, offset times, locale number and phone formats).

import type { CaseSpec } from '../spec.js';
import {
  BILLING_SYSTEM, BOOKINGS, CI_RUNS, EMPLOYEES, ITINERARY_K7, PARCEL_SYSTEM, PAYROLL_SYSTEM, TRACKER_SYSTEM, TRAVEL_SYSTEM, TRIAL_SYSTEM,
  declarationsH, declareH, offerH,
} from './holdout-common.js';

const payroll = {
  system: PAYROLL_SYSTEM,
  tools: offerH('find_employee', 'payslips'),
  declarations: declarationsH([declareH('find_employee'), declareH('payslips', { argumentsFrom: ['find_employee'] })]),
};
const findAnna = { name: 'find_employee', args: { query: 'Anna Schäfer' }, result: [EMPLOYEES[0]] };

const budgetProd = { account_id: '004518822391', month: '2026-12', budget_usd: 25000, spent_usd: 6120.88, forecast_usd: 27340.5, status: 'at_risk' };
const billing = {
  system: BILLING_SYSTEM,
  tools: offerH('list_accounts', 'budget_check'),
  declarations: declarationsH([declareH('list_accounts'), declareH('budget_check', { argumentsFrom: ['list_accounts'] })]),
};

const trackEvents = {
  tracking_no: 'JJD0003900071234',
  events: [
    { at: '2026-12-02T22:14:00+01:00', depot: 'LEJ-2', event: 'arrived at depot' },
    { at: '2026-12-03T07:02:00+01:00', depot: 'LEJ-2', event: 'out for delivery' },
  ],
};

export const HOLDOUT_VALUE_CASES: CaseSpec[] = [
  // ---- unsupported-value ----
  {
    name: 'holdout-uv-defect-made-up-subtotal',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'held-out: payroll; gross plus bonus stated as €5,540.00 where 4,850 + 600 = 5,450',
    kind: 'defect',
    note: 'Transposed digits in a made-up subtotal; every other amount is served. 5540 is no formula of the served numbers.',
    expect: [{ check: 'unsupported-value', value: '5540' }],
    ...payroll,
    turns: [
      {
        user: "Walk me through Anna Schäfer's November payslip.",
        steps: [
          { calls: [findAnna] },
          { calls: [{ name: 'payslips', args: { employee_id: 'E-40217-DE', limit: 1 }, result: [{ month: '2026-11', gross_eur: 4850, bonus_eur: 600, tax_eur: 1187.34, social_eur: 1018.54, net_eur: 3244.12 }] }] },
        ],
        answer: "Anna's November payslip: gross €4,850.00 plus a €600.00 bonus, so €5,540.00 before deductions. After income tax (€1,187.34) and social security (€1,018.54) she was paid **€3,244.12** net.",
      },
    ],
  },
  {
    name: 'holdout-uv-defect-wrong-departure-time',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'held-out: travel; "2:50 PM" stated where the itinerary says 14:05',
    kind: 'defect',
    note: 'A time misread from the itinerary (14:05 served, 14:50 answered); flight and seat are right.',
    expect: [{ check: 'unsupported-value' }],
    system: TRAVEL_SYSTEM,
    tools: offerH('find_booking', 'get_itinerary'),
    declarations: declarationsH([declareH('find_booking'), declareH('get_itinerary', { argumentsFrom: ['find_booking'] })]),
    turns: [
      {
        user: 'What time does my flight on booking K7Q2XM leave Munich?',
        steps: [{ calls: [{ name: 'get_itinerary', args: { pnr: 'K7Q2XM' }, result: ITINERARY_K7 }] }],
        answer: 'Your Munich → London flight, LH2024, leaves on Thursday 3 Dec at 2:50 PM local time. You are in seat 14C.',
      },
    ],
  },
  {
    name: 'holdout-uv-defect-headroom-from-own-prose',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'held-out: billing, dialogue memory; turn 2 restates the budget from its own turn-1 answer and computes headroom',
    kind: 'defect',
    note: 'Only answers and user text are kept, so in turn 2 no tool result holds $25,000 (the model\'s own earlier answer is no ground) and $18,879.12 is computed from remembered numbers. Turn 1\'s hedged "about $2,340" is forecast minus budget: a derived advisory is acceptable.',
    expect: [
      { check: 'unsupported-value', value: '25000' },
      { check: 'unsupported-value', value: '18879.12' },
    ],
    acceptable: [{ check: 'unsupported-value', advisory: true }],
    ...billing,
    turns: [
      {
        user: "What's the budget standing of account 004518822391?",
        steps: [{ calls: [{ name: 'budget_check', args: { account_id: '004518822391' }, result: budgetProd }] }],
        answer: "tailspin-prod has spent $6,120.88 of its $25,000 budget for 2026-12 and is forecast to reach $27,340.50, so it's at risk of overrunning by about $2,340.",
      },
      { user: 'How much headroom was left at that point?', steps: [], answer: 'Going by those figures, $18,879.12 of the $25,000 budget was still unspent.' },
    ],
  },
  {
    name: 'holdout-uv-defect-duration-never-returned',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'held-out: CI; the answer states a run duration (1,284 s) the run list never returns',
    kind: 'defect',
    note: 'list_ci_runs returns ids, status, commit and start time — no duration; 1,284 is invented.',
    expect: [{ check: 'unsupported-value', value: '1284' }],
    system: TRACKER_SYSTEM,
    tools: offerH('list_ci_runs'),
    declarations: declarationsH([declareH('list_ci_runs')]),
    turns: [
      {
        user: 'How long did the failing run on main take? acme-eng/storefront',
        steps: [{ calls: [{ name: 'list_ci_runs', args: { repo: 'acme-eng/storefront', branch: 'main' }, result: CI_RUNS }] }],
        answer: 'Run 88123457 (commit 9f3c2e1) ran for 1,284 seconds — a bit over 21 minutes — before failing, roughly twice as long as the green run 88123391 before it.',
      },
    ],
  },
  {
    name: 'holdout-uv-clean-cents-as-euros',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'held-out: payroll; cents served, euros answered (€4,850.00 of 485000), a written pay date',
    kind: 'clean',
    note: 'Amounts ÷ 100 with the stated decimals, "27 Nov 2026" for 2026-11-27, and the IBAN tail as served.',
    expect: [],
    ...payroll,
    turns: [
      {
        user: 'What did Anna Schäfer get paid for November?',
        steps: [
          { calls: [findAnna] },
          { calls: [{ name: 'payslips', args: { employee_id: 'E-40217-DE', limit: 1 }, result: [{ month: '2026-11', gross_cents: 485000, net_cents: 324412, paid_on: '2026-11-27', iban_last4: '4471' }] }] },
        ],
        answer: 'For November 2026 Anna received **€3,244.12** net (**€4,850.00** gross). It was paid on 27 Nov 2026 to her account ending 4471.',
      },
    ],
  },
  {
    name: 'holdout-uv-clean-bytes-as-gib',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'held-out: billing; bytes served, GiB answered (1,536 GiB of 1649267441664), and a correct total',
    kind: 'clean',
    note: 'Binary unit factors (÷ 1024³) and a sum of two served costs (a derived advisory is acceptable: the total is right).',
    expect: [],
    acceptable: [{ check: 'unsupported-value', advisory: true }],
    system: BILLING_SYSTEM,
    tools: offerH('usage_report'),
    declarations: declarationsH([declareH('usage_report')]),
    turns: [
      {
        user: 'How much storage and egress did account 004518822391 use in 2026-11, and what did that cost?',
        steps: [
          {
            calls: [
              {
                name: 'usage_report',
                args: { account_id: '004518822391', month: '2026-11' },
                result: {
                  account_id: '004518822391',
                  month: '2026-11',
                  rows: [
                    { service: 'object-storage', avg_bytes: 1649267441664, cost_usd: 35.33 },
                    { service: 'egress', bytes: 10995116277760, cost_usd: 1036.09 },
                  ],
                },
              },
            ],
          },
        ],
        answer: 'In 2026-11 the account stored 1,536 GiB (1.5 TiB) in object storage on average and sent 10,240 GiB of egress — roughly 11 TB in decimal units. Together that cost $1,071.42.',
      },
    ],
  },
  {
    name: 'holdout-uv-clean-delay-with-earlier-turn-values',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'held-out: travel, full history; a delay answer that mixes this turn\'s status and turn 1\'s itinerary values',
    kind: 'clean',
    note: 'The app keeps tool results, so 14:05, BA0917 and K7Q2XM (turn 1) and 14:55 (turn 2) are all in the window; "Thu, 3 Dec 2026" is the served date.',
    expect: [],
    system: TRAVEL_SYSTEM,
    memory: 'full',
    tools: offerH('get_itinerary', 'flight_status'),
    declarations: declarationsH([declareH('get_itinerary'), declareH('flight_status', { argumentsFrom: ['get_itinerary'] })]),
    turns: [
      {
        user: "What's on booking K7Q2XM?",
        steps: [{ calls: [{ name: 'get_itinerary', args: { pnr: 'K7Q2XM' }, result: ITINERARY_K7 }] }],
        answer: 'K7Q2XM has two flights: LH2024 MUC → LHR on 3 Dec (departs 14:05) and BA0917 LHR → MUC on 6 Dec (departs 18:40).',
      },
      {
        user: 'Is the first one on time?',
        steps: [{ calls: [{ name: 'flight_status', args: { flight_no: 'LH2024', date: '2026-12-03' }, result: { flight_no: 'LH2024', date: '2026-12-03', status: 'delayed', new_departure: '2026-12-03T14:55:00+01:00', gate: 'K12' } }] }],
        answer: 'Heads-up: LH2024 on Thu, 3 Dec 2026 is delayed. It now leaves at 14:55 instead of 14:05, from gate K12. Your return flight BA0917 is a separate flight, and the booking reference stays K7Q2XM.',
      },
    ],
  },
  {
    name: 'holdout-uv-clean-phone-grouped-and-code-block',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'held-out: parcels; a served +493415550192 written in German grouping, ids in a code block',
    kind: 'clean',
    note: 'Reviewer expectation: "+49 341 5550192" is the served number, grouped the German way. docs/checks-answer.md\'s phone shape (2–4 digit groups, or 3 3 4) may not cover a 2-3-7 grouping; the code block holds served and user-typed ids.',
    expect: [],
    system: PARCEL_SYSTEM,
    tools: offerH('track_parcel', 'depot_info'),
    declarations: declarationsH([declareH('track_parcel'), declareH('depot_info', { argumentsFrom: ['track_parcel'] })]),
    turns: [
      {
        user: 'My parcel JJD0003900071234 (order WO-559183) seems stuck in Leipzig — who do I call?',
        steps: [
          { calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071234' }, result: trackEvents }] },
          { calls: [{ name: 'depot_info', args: { depot: 'LEJ-2' }, result: { depot: 'LEJ-2', city: 'Leipzig', hours: 'Mon–Fri 08:00–18:00', phone: '+493415550192' } }] },
        ],
        answer: 'It is at the Leipzig depot (LEJ-2), which is open Mon–Fri 08:00–18:00. You can call them on +49 341 5550192. If they ask, quote:\n\n```\nJJD0003900071234 / WO-559183\n```',
      },
    ],
  },
  {
    name: 'holdout-uv-clean-german-number-format',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'held-out: payroll for a Berlin HR user; amounts written "4.850,00 €" (German decimal comma)',
    kind: 'clean',
    note: 'Reviewer expectation: the German user asked in German and the answer writes the served 4850 and 3084.12 in German notation. docs/checks-answer.md normalises only English thousands commas, so this format may not be covered by the documented rule.',
    expect: [],
    ...payroll,
    turns: [
      {
        user: 'Wie hoch war das Novembergehalt von Anna Schäfer?',
        steps: [
          { calls: [findAnna] },
          { calls: [{ name: 'payslips', args: { employee_id: 'E-40217-DE', limit: 1 }, result: [{ month: '2026-11', gross_eur: 4850, net_eur: 3084.12 }] }] },
        ],
        answer: 'Im November 2026 hat Anna Schäfer 4.850,00 € brutto verdient; ausgezahlt wurden 3.084,12 € netto.',
      },
    ],
  },
  // ---- prior-turn-evidence ----
  {
    name: 'holdout-pte-defect-delivered-yet',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'held-out: parcels; asked hours later whether it arrived, the answer repeats the morning scan without tracking again',
    kind: 'defect',
    note: 'Every value is from turn 1\'s track_parcel and nothing is read in turn 2, though the user asks for the current state.',
    expect: [{ check: 'prior-turn-evidence', advisory: true }],
    system: PARCEL_SYSTEM,
    memory: 'full',
    tools: offerH('track_parcel'),
    declarations: declarationsH([declareH('track_parcel')]),
    turns: [
      {
        user: 'Where is JJD0003900071234?',
        steps: [{ calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071234' }, result: trackEvents }] }],
        answer: 'Good news, it has been out for delivery from the Leipzig depot since 07:02 — it should arrive today.',
      },
      { user: "It's 6 pm now. Has it arrived?", steps: [], answer: 'Not as far as I can tell: the last scan is still "out for delivery" from LEJ-2 at 07:02.' },
    ],
  },
  {
    name: 'holdout-pte-defect-third-turn-budget-now',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'held-out: billing, 3 turns; a definitional turn, then "where is it now" answered from turn 1',
    kind: 'defect',
    note: 'Turn 3 asks for the current standing; every figure comes from turn 1\'s budget_check and no tool is called. Turn 2 states no value.',
    expect: [{ check: 'prior-turn-evidence', advisory: true }],
    ...billing,
    memory: 'full',
    turns: [
      {
        user: 'Budget standing of 004518822391, please.',
        steps: [{ calls: [{ name: 'budget_check', args: { account_id: '004518822391' }, result: budgetProd }] }],
        answer: 'At risk: $6,120.88 spent of a $25,000 budget for 2026-12, with a forecast of $27,340.50.',
      },
      { user: 'What exactly does "at risk" mean here?', steps: [], answer: 'It means the month-end forecast is above the budget, even though the spend so far is below it.' },
      { user: 'OK. Where is it now — still over forecast?', steps: [], answer: 'Yes. The forecast is still $27,340.50 against the $25,000 budget, with $6,120.88 spent so far.' },
    ],
  },
  {
    name: 'holdout-pte-defect-no-change-claimed',
    shape: 'otel-logs',
    check: 'prior-turn-evidence',
    class: 'held-out: trial sites; told of new randomisations, the answer claims "no change" from the earlier read',
    kind: 'defect',
    note: 'The user reports new patients this morning; the model repeats turn 1\'s registry figures without reading them again.',
    expect: [{ check: 'prior-turn-evidence', advisory: true }],
    system: TRIAL_SYSTEM,
    memory: 'full',
    tools: offerH('site_enrollment'),
    declarations: declarationsH([declareH('site_enrollment')]),
    turns: [
      {
        user: 'How many patients has DE-017 enrolled?',
        steps: [{ calls: [{ name: 'site_enrollment', args: { site_id: 'DE-017' }, result: { site_id: 'DE-017', screened_total: 61, enrolled_total: 38, as_of: '2026-11-30' } }] }],
        answer: 'DE-017 has enrolled 38 of 61 screened patients (registry as of 30 Nov 2026).',
      },
      { user: 'Any change today? The monitor said they randomised two more this morning.', steps: [], answer: 'No change on my side: DE-017 still shows 38 enrolled and 61 screened, as of 2026-11-30.' },
    ],
  },
  {
    name: 'holdout-pte-clean-second-read-this-turn',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'held-out: HR, full history; turn 2 reads leave requests and also repeats turn 1\'s balance',
    kind: 'clean',
    note: 'A tool ran this turn and LR-20977 is from it; repeating the earlier balance beside it is fine.',
    expect: [],
    system: PAYROLL_SYSTEM,
    memory: 'full',
    tools: offerH('find_employee', 'leave_balance', 'leave_requests'),
    declarations: declarationsH([declareH('find_employee'), declareH('leave_balance', { argumentsFrom: ['find_employee'] }), declareH('leave_requests', { argumentsFrom: ['find_employee'] })]),
    turns: [
      {
        user: 'How much leave does Anna Schäfer have left this year?',
        steps: [
          { calls: [findAnna] },
          { calls: [{ name: 'leave_balance', args: { employee_id: 'E-40217-DE' }, result: { employee_id: 'E-40217-DE', year: 2026, entitled_days: 30, taken_days: 22, remaining_days: 8 } }] },
        ],
        answer: 'Anna (E-40217-DE) has 8 of her 30 days left for 2026; she has taken 22.',
      },
      {
        user: 'And is anything pending?',
        steps: [{ calls: [{ name: 'leave_requests', args: { employee_id: 'E-40217-DE', status: 'pending' }, result: [{ request_id: 'LR-20977', from: '2026-12-22', to: '2026-12-31', days: 6, status: 'pending' }] }] }],
        answer: 'One pending request: LR-20977, from 22 Dec to 31 Dec 2026 (6 days). If it is approved, E-40217-DE will have 2 of the 8 remaining days left.',
      },
    ],
  },
  {
    name: 'holdout-pte-clean-definition-no-values',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'held-out: travel, full history; a follow-up about a word, answered without any data value',
    kind: 'clean',
    note: 'Nothing from a result is restated, so there is nothing stale to repeat.',
    expect: [],
    system: TRAVEL_SYSTEM,
    memory: 'full',
    tools: offerH('find_booking'),
    declarations: declarationsH([declareH('find_booking')]),
    turns: [
      {
        user: "Is Dana Whitfield's booking confirmed?",
        steps: [{ calls: [{ name: 'find_booking', args: { surname: 'Whitfield' }, result: [BOOKINGS[0]] }] }],
        answer: 'Yes — booking K7Q2XM is ticketed.',
      },
      { user: 'What does "ticketed" mean, exactly?', steps: [], answer: '"Ticketed" means the airline has issued the e-ticket: the seat is paid for and confirmed, and any change now follows the fare rules.' },
    ],
  },
  {
    name: 'holdout-pte-clean-issue-read-again',
    shape: 'otel-logs',
    check: 'prior-turn-evidence',
    class: 'held-out: issue tracker, full history; "still open?" is answered from a fresh read',
    kind: 'clean',
    note: 'get_issue runs again in turn 2 and the answer rests on its result (closed at 09:40).',
    expect: [],
    system: TRACKER_SYSTEM,
    memory: 'full',
    tools: offerH('get_issue'),
    declarations: declarationsH([declareH('get_issue')]),
    turns: [
      {
        user: 'What is the state of acme-eng/storefront#4821?',
        steps: [{ calls: [{ name: 'get_issue', args: { repo: 'acme-eng/storefront', issue_number: 4821 }, result: { number: 4821, state: 'open', labels: ['bug', 'regression'], updated_at: '2026-11-30T16:20:00Z' } }] }],
        answer: '#4821 is open (bug, regression); it was last updated on 30 November 2026.',
      },
      {
        user: 'Still open?',
        steps: [{ calls: [{ name: 'get_issue', args: { repo: 'acme-eng/storefront', issue_number: 4821 }, result: { number: 4821, state: 'closed', labels: ['bug', 'regression'], closed_at: '2026-12-01T09:40:12Z' } }] }],
        answer: 'No — #4821 was closed this morning at 09:40 UTC.',
      },
    ],
  },
];
