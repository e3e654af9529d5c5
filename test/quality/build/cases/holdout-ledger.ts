// HELD-OUT quality cases for `empty-lookup` (advisory) and `result-columns`, written blind (no check
// was changed with them in view): empty and not-found lookups of produced ids, honest answers about
// them, and row sets whose declared columns are renamed, mistyped or legitimately null.

import type { CaseSpec } from '../spec.js';
import {
  ACCOUNTS, BILLING_SYSTEM, EMPLOYEES, ISSUES, PARCEL_SYSTEM, PAYROLL_SYSTEM, SHIPMENTS, SITES_DE, TRACKER_SYSTEM, TRIAL_SYSTEM,
  declarationsH, declareH, offerH,
} from './holdout-common.js';

const parcelTools = offerH('find_shipments', 'track_parcel');
const findWo = { name: 'find_shipments', args: { customer_ref: 'WO-559183' }, result: SHIPMENTS };

export const HOLDOUT_LEDGER_CASES: CaseSpec[] = [
  // ---- empty-lookup ----
  {
    name: 'holdout-el-defect-parcel-no-scans',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'held-out: parcels; a tracking number find_shipments served has no scan events ([])',
    kind: 'defect',
    note: 'The lookup used a value the producer served and found nothing: a place to look (advisory), even though the answer reports it honestly.',
    expect: [{ check: 'empty-lookup', tool: 'track_parcel', value: 'JJD0003900071290', advisory: true }],
    system: PARCEL_SYSTEM,
    tools: parcelTools,
    declarations: declarationsH([declareH('find_shipments'), declareH('track_parcel', { argumentsFrom: ['find_shipments'] })]),
    turns: [
      {
        user: 'Has the standard parcel of order WO-559183 moved at all?',
        steps: [{ calls: [findWo] }, { calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071290' }, result: [] }] }],
        answer: "Not yet. The standard parcel JJD0003900071290 was created on 1 Dec 2026, but it hasn't had any scan events so far.",
      },
    ],
  },
  {
    name: 'holdout-el-defect-site-declared-absent',
    shape: 'vercel',
    check: 'empty-lookup',
    class: 'held-out: trial sites; a served site id gets a declared absence (af_absent) from the enrolment log',
    kind: 'defect',
    note: 'find_sites served DE-023; site_enrollment declares it found no enrolment records. A declared absence for a produced value is an empty lookup (advisory).',
    expect: [{ check: 'empty-lookup', tool: 'site_enrollment', value: 'DE-023' }],
    system: TRIAL_SYSTEM,
    tools: offerH('find_sites', 'site_enrollment'),
    declarations: declarationsH([declareH('find_sites'), declareH('site_enrollment', { argumentsFrom: ['find_sites'] })]),
    turns: [
      {
        user: 'How many patients has the Köln site enrolled?',
        steps: [
          { calls: [{ name: 'find_sites', args: { country: 'DE' }, result: SITES_DE }] },
          { calls: [{ name: 'site_enrollment', args: { site_id: 'DE-023' }, result: { af_absent: true, looked_for: 'enrolment records for DE-023', checked: [{ what: 'EDC enrolment log, all visits to date' }] } }] },
        ],
        answer: 'None so far: Uniklinik Köln (DE-023) has no enrolment records in the EDC enrolment log. The site was activated on 2 May 2026.',
      },
    ],
  },
  {
    name: 'holdout-el-defect-invoice-not-found-second-turn',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'held-out: billing, full history; turn 2 asks for an invoice of a listed account and gets a 404 not-found',
    kind: 'defect',
    note: 'list_accounts served 771203948856 in turn 1; the invoice lookup says invoice_not_found (a declared absence, not a refusal). The month was typed by the user and no producer served it.',
    expect: [{ check: 'empty-lookup', tool: 'invoice', value: '771203948856' }],
    system: BILLING_SYSTEM,
    memory: 'full',
    tools: offerH('list_accounts', 'invoice'),
    declarations: declarationsH([declareH('list_accounts'), declareH('invoice', { argumentsFrom: ['list_accounts'] })]),
    turns: [
      {
        user: 'List our cloud accounts.',
        steps: [{ calls: [{ name: 'list_accounts', args: { org: 'tailspin' }, result: ACCOUNTS }] }],
        answer: '- tailspin-prod: 004518822391\n- tailspin-analytics: 771203948856',
      },
      {
        user: "Can you fetch the analytics account's invoice for 2026-11?",
        steps: [{ calls: [{ name: 'invoice', args: { account_id: '771203948856', month: '2026-11' }, result: { error: 'invoice_not_found', status: 404, message: 'no invoice for account 771203948856 in 2026-11' } }] }],
        answer: "There's no invoice for tailspin-analytics (771203948856) for 2026-11 in the billing system yet.",
      },
    ],
  },
  {
    name: 'holdout-el-clean-user-typed-employee-id',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'held-out: payroll; an empty payslip list for an id the user typed, no producer ever called',
    kind: 'clean',
    note: 'No producer served E-40999-DE, so the empty result answers the user\'s own value; the answer says what came back and hedges.',
    expect: [],
    system: PAYROLL_SYSTEM,
    tools: offerH('find_employee', 'payslips'),
    declarations: declarationsH([declareH('find_employee'), declareH('payslips', { argumentsFrom: ['find_employee'] })]),
    turns: [
      {
        user: 'Payslips for employee E-40999-DE please — I have the id from her contract.',
        steps: [{ calls: [{ name: 'payslips', args: { employee_id: 'E-40999-DE', limit: 3 }, result: [] }] }],
        answer: 'No payslips came back for E-40999-DE. If the id is right, payroll may simply not have run for her yet.',
      },
    ],
  },
  {
    name: 'holdout-el-clean-tracking-service-down',
    shape: 'vercel',
    check: 'empty-lookup',
    class: 'held-out: parcels; the tracking service is unavailable and the answer says so',
    kind: 'clean',
    note: 'A failed lookup says nothing about existence (not an empty lookup), and the answer admits the failure instead of claiming there are no scans.',
    expect: [],
    system: PARCEL_SYSTEM,
    tools: parcelTools,
    declarations: declarationsH([declareH('find_shipments'), declareH('track_parcel', { argumentsFrom: ['find_shipments'] })]),
    turns: [
      {
        user: 'Where is the express parcel of WO-559183?',
        steps: [{ calls: [findWo] }, { calls: [{ name: 'track_parcel', args: { tracking_no: 'JJD0003900071234' }, result: 'Service unavailable: tracking backend under maintenance until 10:00 UTC' }] }],
        answer: "I can't see the scans for JJD0003900071234 right now: the tracking service is unavailable (maintenance until 10:00 UTC). Please try again after that.",
      },
    ],
  },
  {
    name: 'holdout-el-clean-named-form-user-number',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'held-out: issue tracker; named argumentsFrom, a 404 for an issue number the user typed',
    kind: 'clean',
    note: 'Only issue_number is declared to come from search_issues; 4702 was typed by the user and the search never served it, so the not-found is the answer to the user\'s value.',
    expect: [],
    system: TRACKER_SYSTEM,
    tools: offerH('search_issues', 'get_issue'),
    declarations: declarationsH([declareH('search_issues'), declareH('get_issue', { argumentsFrom: { issue_number: ['search_issues'] } })]),
    turns: [
      {
        user: 'Is #4702 in acme-eng/storefront a duplicate of the checkout regression?',
        steps: [
          { calls: [{ name: 'search_issues', args: { repo: 'acme-eng/storefront', query: 'is:open label:regression checkout' }, result: [ISSUES[0]] }] },
          { calls: [{ name: 'get_issue', args: { repo: 'acme-eng/storefront', issue_number: 4702 }, result: { message: 'Not Found', status: 404 } }] },
        ],
        answer: "I found the checkout regression (#4821), but GitHub says #4702 doesn't exist in acme-eng/storefront (404), so I can't compare them. Could it be in another repository?",
      },
    ],
  },
  // ---- result-columns ----
  {
    name: 'holdout-rc-defect-cost-as-decimal-strings',
    shape: 'traceloop',
    check: 'result-columns',
    class: 'held-out: billing; cost_usd declared number, the API returns decimal strings ("1177.60")',
    kind: 'defect',
    note: 'Cost APIs often serialise money as strings; every row\'s cost_usd is a string where the declaration says number.',
    expect: [{ check: 'result-columns', kind: 'column-type-mismatch', tool: 'usage_report' }],
    system: BILLING_SYSTEM,
    tools: offerH('list_accounts', 'usage_report'),
    declarations: declarationsH([
      declareH('list_accounts'),
      declareH('usage_report', { argumentsFrom: ['list_accounts'], rowsAt: 'rows', resultColumns: { service: 'string', usage_gib: 'number', cost_usd: 'number' } }),
    ]),
    turns: [
      {
        user: 'Break down the storage-type spend of tailspin-prod for 2026-11.',
        steps: [
          { calls: [{ name: 'list_accounts', args: { org: 'tailspin' }, result: ACCOUNTS }] },
          {
            calls: [
              {
                name: 'usage_report',
                args: { account_id: '004518822391', month: '2026-11' },
                result: {
                  account_id: '004518822391',
                  month: '2026-11',
                  rows: [
                    { service: 'object-storage', usage_gib: 51200, cost_usd: '1177.60' },
                    { service: 'block-storage', usage_gib: 20480, cost_usd: '1638.40' },
                    { service: 'egress', usage_gib: 9830.4, cost_usd: '884.74' },
                  ],
                },
              },
            ],
          },
        ],
        answer: 'Storage-type spend for tailspin-prod in 2026-11:\n\n- Object storage: $1,177.60 (51,200 GiB)\n- Block storage: $1,638.40 (20,480 GiB)\n- Egress: $884.74 (9,830.4 GiB)',
      },
    ],
  },
  {
    name: 'holdout-rc-defect-net-column-renamed',
    shape: 'vercel',
    check: 'result-columns',
    class: 'held-out: payroll; net_eur declared, the payslips service returns net_amount_eur',
    kind: 'defect',
    note: 'A renamed column: no row has net_eur. The answer uses the renamed values correctly, so nothing else is wrong.',
    expect: [{ check: 'result-columns', kind: 'missing-column', tool: 'payslips' }],
    system: PAYROLL_SYSTEM,
    tools: offerH('find_employee', 'payslips'),
    declarations: declarationsH([
      declareH('find_employee'),
      declareH('payslips', { argumentsFrom: ['find_employee'], resultColumns: { month: 'string', gross_eur: 'number', net_eur: 'number' } }),
    ]),
    turns: [
      {
        user: "What were Anna Schäfer's last three net payouts?",
        steps: [
          { calls: [{ name: 'find_employee', args: { query: 'Anna Schäfer' }, result: [EMPLOYEES[0]] }] },
          {
            calls: [
              {
                name: 'payslips',
                args: { employee_id: 'E-40217-DE', limit: 3 },
                result: [
                  { month: '2026-11', gross_eur: 4850, net_amount_eur: 3084.12 },
                  { month: '2026-10', gross_eur: 4850, net_amount_eur: 3084.12 },
                  { month: '2026-09', gross_eur: 4650, net_amount_eur: 2961.4 },
                ],
              },
            ],
          },
        ],
        answer: 'Net pay for Anna Schäfer:\n\n| Month | Gross | Net |\n|---|---|---|\n| Nov 2026 | €4,850.00 | €3,084.12 |\n| Oct 2026 | €4,850.00 | €3,084.12 |\n| Sep 2026 | €4,650.00 | €2,961.40 |',
      },
    ],
  },
  {
    name: 'holdout-rc-defect-enrolment-pending-and-na',
    shape: 'otel-logs',
    check: 'result-columns',
    class: 'held-out: trial sites, 2 turns; "pending" in a number column and "N/A" in a date column',
    kind: 'defect',
    note: 'site_enrollment\'s November row holds enrolled = "pending" (number declared) and last_visit = "N/A" (date declared, not nullable): two mismatches. Full history is kept and turn 2 reads afresh.',
    expect: [
      { check: 'result-columns', kind: 'column-type-mismatch', tool: 'site_enrollment' },
      { check: 'result-columns', kind: 'column-type-mismatch', tool: 'site_enrollment' },
    ],
    system: TRIAL_SYSTEM,
    memory: 'full',
    tools: offerH('find_sites', 'site_enrollment'),
    declarations: declarationsH([
      declareH('find_sites'),
      declareH('site_enrollment', { argumentsFrom: ['find_sites'], rowsAt: 'months', resultColumns: { month: 'string', screened: 'number', enrolled: 'number', last_visit: 'date' } }),
    ]),
    turns: [
      {
        user: 'Which German sites do we have?',
        steps: [{ calls: [{ name: 'find_sites', args: { country: 'DE' }, result: SITES_DE }] }],
        answer: 'Two German sites: DE-017 (Charité Berlin, activated 14 Mar 2026) and DE-023 (Uniklinik Köln, activated 2 May 2026).',
      },
      {
        user: 'How is Berlin doing on screening and enrolment?',
        steps: [
          {
            calls: [
              {
                name: 'site_enrollment',
                args: { site_id: 'DE-017' },
                result: { site_id: 'DE-017', months: [{ month: '2026-10', screened: 14, enrolled: 9, last_visit: '2026-10-29' }, { month: '2026-11', screened: 11, enrolled: 'pending', last_visit: 'N/A' }] },
              },
            ],
          },
        ],
        answer: 'DE-017 screened 14 patients and enrolled 9 in 2026-10. For 2026-11 it has screened 11 so far; enrolment for that month is still pending.',
      },
    ],
  },
  {
    name: 'holdout-rc-clean-offset-dates-and-null-signature',
    shape: 'traceloop',
    check: 'result-columns',
    class: 'held-out: parcels; date columns with offsets and a space-separated time, a nullable column null',
    kind: 'clean',
    note: '"2026-12-03 07:02" and "+01:00" offsets are dates Date.parse accepts; signed_by is declared nullable and null until delivery.',
    expect: [],
    system: PARCEL_SYSTEM,
    tools: offerH('track_parcel'),
    declarations: declarationsH([declareH('track_parcel', { rowsAt: 'events', resultColumns: { at: 'date', depot: 'string', event: 'string', signed_by: { type: 'string', nullable: true } } })]),
    turns: [
      {
        user: 'Has JJD0003900071234 been delivered?',
        steps: [
          {
            calls: [
              {
                name: 'track_parcel',
                args: { tracking_no: 'JJD0003900071234' },
                result: {
                  tracking_no: 'JJD0003900071234',
                  events: [
                    { at: '2026-12-02T22:14:00+01:00', depot: 'LEJ-2', event: 'arrived at depot', signed_by: null },
                    { at: '2026-12-03 07:02', depot: 'LEJ-2', event: 'out for delivery', signed_by: null },
                    { at: '2026-12-03T11:47:00+01:00', depot: 'LEJ-2', event: 'delivered', signed_by: 'K. Lorenz' },
                  ],
                },
              },
            ],
          },
        ],
        answer: 'Yes, delivered! It left the Leipzig depot at 07:02 on 3 Dec and was signed for by K. Lorenz at 11:47.',
      },
    ],
  },
  {
    name: 'holdout-rc-clean-github-runs-null-conclusion',
    shape: 'vercel',
    check: 'result-columns',
    class: 'held-out: CI; GitHub-style {total_count, workflow_runs[]} with a null conclusion declared nullable',
    kind: 'clean',
    note: 'An in-progress run has conclusion null, which the declaration allows; every other column has its type.',
    expect: [],
    system: TRACKER_SYSTEM,
    tools: offerH('list_ci_runs'),
    declarations: declarationsH([
      declareH('list_ci_runs', { rowsAt: 'workflow_runs', resultColumns: { id: 'number', status: 'string', conclusion: { type: 'string', nullable: true }, run_started_at: 'date' } }),
    ]),
    turns: [
      {
        user: "What's CI doing on main in acme-eng/storefront?",
        steps: [
          {
            calls: [
              {
                name: 'list_ci_runs',
                args: { repo: 'acme-eng/storefront', branch: 'main' },
                result: {
                  total_count: 2,
                  workflow_runs: [
                    { id: 88123502, status: 'in_progress', conclusion: null, run_started_at: '2026-12-01T08:03:40Z' },
                    { id: 88123457, status: 'completed', conclusion: 'failure', run_started_at: '2026-12-01T07:12:09Z' },
                  ],
                },
              },
            ],
          },
        ],
        answer: 'Run 88123502 is still in progress (started 08:03 UTC). The one before it, 88123457, failed.',
      },
    ],
  },
  {
    name: 'holdout-rc-clean-zero-cost-and-extra-columns',
    shape: 'otel-logs',
    check: 'result-columns',
    class: 'held-out: billing; a zero cost, an empty-string tag and undeclared columns, answered as a table',
    kind: 'clean',
    note: '0 is a number, "" is a string, and unlisted columns (sku) are never judged.',
    expect: [],
    system: BILLING_SYSTEM,
    tools: offerH('usage_report'),
    declarations: declarationsH([declareH('usage_report', { rowsAt: 'rows', resultColumns: { service: 'string', cost_usd: 'number', cost_center: 'string' } })]),
    turns: [
      {
        user: 'Show me the 2026-11 cost table for account 771203948856.',
        steps: [
          {
            calls: [
              {
                name: 'usage_report',
                args: { account_id: '771203948856', month: '2026-11' },
                result: {
                  account_id: '771203948856',
                  month: '2026-11',
                  rows: [
                    { service: 'compute', sku: 'c7g.2xlarge', cost_usd: 2306.1, cost_center: 'data-platform' },
                    { service: 'warehouse', sku: 'wh-serverless', cost_usd: 4090.55, cost_center: 'data-platform' },
                    { service: 'support', sku: 'basic', cost_usd: 0, cost_center: '' },
                  ],
                },
              },
            ],
          },
        ],
        answer: '| Service | Cost (2026-11) |\n|---|---:|\n| compute | $2,306.10 |\n| warehouse | $4,090.55 |\n| support | $0.00 |\n\nEverything is booked to data-platform except support, which has no cost centre.',
      },
    ],
  },
];
