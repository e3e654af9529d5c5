// Shared pieces of the HELD-OUT quality cases (holdout-*.ts): six domains no check was tuned on
// (travel booking, HR/payroll, cloud billing, an issue tracker with CI, parcel tracking,
// clinical-trial sites) — their system prompts, the tool definitions the model is offered, and
// declaration builders. Data only; never encodes what a check does: every case states its own
// expectations, written from the documented rules before the case was run.

import type { ToolDefinition } from '../spec.js';

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', description });
const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });

export const TRAVEL_SYSTEM =
  'You are the travel desk assistant of Contoso Corporate Travel. Today is 2026-12-02. Look bookings up with the tools; never invent a PNR, flight number or time.';
export const PAYROLL_SYSTEM =
  'You are the HR and payroll assistant of Fabrikam GmbH (Berlin). Today is 2026-12-03. Amounts are in EUR. Use only what the HR tools return and say so when a lookup fails.';
export const BILLING_SYSTEM =
  'You are the cloud cost assistant for the organisation tailspin. Today is 2026-12-04. Quote account ids and amounts exactly as the billing tools return them.';
export const TRACKER_SYSTEM =
  'You are a repository assistant for the GitHub organisation acme-eng. Today is 2026-12-01. Use the tools for issues and CI runs; do not guess issue numbers or run ids.';
export const PARCEL_SYSTEM =
  'You are the customer service assistant of Wingtip Parcel. Today is 2026-12-03. Answer from the tracking tools only.';
export const TRIAL_SYSTEM =
  'You are a study-operations assistant for trial NCT05512345 (CARDIO-7). Today is 2026-12-01. Answer from the site registry tools; never estimate enrolment figures.';

export const HOLDOUT_TOOLS: Record<string, ToolDefinition> = {
  // travel
  find_booking: { description: 'Find bookings of a traveller by surname and e-mail; returns PNRs.', parameters: obj({ surname: str('Traveller surname.'), email: str('Traveller e-mail.') }, ['surname']) },
  get_itinerary: { description: 'The flights of one booking.', parameters: obj({ pnr: str('Six-character booking reference (PNR) as returned by find_booking.') }, ['pnr']) },
  flight_status: { description: 'Live status of one flight on one date.', parameters: obj({ flight_no: str('Flight number as on the itinerary, e.g. LH2024.'), date: str('Departure date, YYYY-MM-DD.') }, ['flight_no', 'date']) },
  rebook_flight: { description: 'Move a booking to another flight (writes).', parameters: obj({ pnr: str('Booking reference.'), flight_no: str('New flight number.') }, ['pnr', 'flight_no']) },
  // HR / payroll
  find_employee: { description: 'Find employees by name.', parameters: obj({ query: str('Name or part of it.') }, ['query']) },
  payslips: { description: 'Payslips of one employee, newest first.', parameters: obj({ employee_id: str('Employee id as returned by find_employee.'), limit: { type: 'integer', minimum: 1, maximum: 12 } }, ['employee_id']) },
  leave_requests: {
    description: 'Leave requests of one employee.',
    parameters: obj({ employee_id: str('Employee id as returned by find_employee.'), status: { type: 'string', enum: ['pending', 'approved', 'rejected'] } }, ['employee_id']),
  },
  leave_balance: { description: 'Remaining leave days of one employee this year.', parameters: obj({ employee_id: str('Employee id as returned by find_employee.') }, ['employee_id']) },
  // cloud billing
  list_accounts: { description: 'Cloud accounts of an organisation.', parameters: obj({ org: str('Organisation name.') }, ['org']) },
  usage_report: { description: 'Usage and cost per service of one account for one month.', parameters: obj({ account_id: str('12-digit account id as returned by list_accounts.'), month: str('YYYY-MM.') }, ['account_id', 'month']) },
  invoice: { description: 'The invoice of one account for one month.', parameters: obj({ account_id: str('12-digit account id as returned by list_accounts.'), month: str('YYYY-MM.') }, ['account_id', 'month']) },
  budget_check: { description: 'Budget standing of one account this month.', parameters: obj({ account_id: str('12-digit account id as returned by list_accounts.') }, ['account_id']) },
  // issue tracker / CI
  search_issues: { description: 'Search the issues of a repository.', parameters: obj({ repo: str('owner/name.'), query: str('Search text, GitHub syntax.') }, ['repo', 'query']) },
  get_issue: { description: 'One issue with its state and labels.', parameters: obj({ repo: str('owner/name.'), issue_number: int('Issue number (identifier) as returned by search_issues.') }, ['repo', 'issue_number']) },
  list_ci_runs: { description: 'Recent CI workflow runs of a branch.', parameters: obj({ repo: str('owner/name.'), branch: str('Branch name.') }, ['repo', 'branch']) },
  get_run_logs: { description: 'The failing step and log tail of one CI run.', parameters: obj({ repo: str('owner/name.'), run_id: int('Run id (identifier) as returned by list_ci_runs.') }, ['repo', 'run_id']) },
  // parcels
  find_shipments: { description: 'Shipments of a customer reference.', parameters: obj({ customer_ref: str('Customer reference, e.g. the order number.') }, ['customer_ref']) },
  track_parcel: { description: 'Scan events of one parcel.', parameters: obj({ tracking_no: str('Tracking number as returned by find_shipments.') }, ['tracking_no']) },
  depot_info: { description: 'Opening hours and phone of a depot.', parameters: obj({ depot: str('Depot code as in the scan events.') }, ['depot']) },
  // clinical-trial sites
  find_sites: { description: 'Sites of the trial in a country.', parameters: obj({ country: str('ISO country code, two letters.') }, ['country']) },
  site_enrollment: { description: 'Enrolment figures of one site.', parameters: obj({ site_id: str('Site id as returned by find_sites.') }, ['site_id']) },
  site_status: { description: 'Activation status of one site.', parameters: obj({ site_id: str('Site id as returned by find_sites.') }, ['site_id']) },
};

/** The tool definitions of the named tools, for a case's `tools`. */
export function offerH(...names: string[]): Record<string, ToolDefinition> {
  return Object.fromEntries(names.map((n) => [n, HOLDOUT_TOOLS[n]!]));
}

/** A tool's declaration with its offered inputSchema attached (readOnly unless said otherwise). */
export function declareH(name: string, extra: Record<string, unknown> = {}): [string, Record<string, unknown>] {
  return [name, { readOnly: true, ...extra, inputSchema: HOLDOUT_TOOLS[name]!.parameters }];
}

/** Declarations with answer values on (every case arms them, as the issue measured). */
export function declarationsH(tools: [string, Record<string, unknown>][], more: Record<string, unknown> = {}): Record<string, unknown> {
  return { tools: Object.fromEntries(tools), answers: { checkValues: true }, ...more };
}

// Data served by the producers, shared by several cases.
export const BOOKINGS = [
  { pnr: 'K7Q2XM', traveller: 'Dana Whitfield', created: '2026-11-18', status: 'ticketed' },
  { pnr: 'R4WZ9T', traveller: 'Dana Whitfield', created: '2026-11-25', status: 'ticketed' },
];
export const ITINERARY_K7 = {
  pnr: 'K7Q2XM',
  segments: [
    { flight_no: 'LH2024', from: 'MUC', to: 'LHR', departs: '2026-12-03T14:05:00+01:00', arrives: '2026-12-03T15:10:00+00:00', seat: '14C' },
    { flight_no: 'BA0917', from: 'LHR', to: 'MUC', departs: '2026-12-06T18:40:00+00:00', arrives: '2026-12-06T21:35:00+01:00', seat: '22A' },
  ],
};
export const EMPLOYEES = [
  { employee_id: 'E-40217-DE', name: 'Anna Schäfer', department: 'Logistics', status: 'active' },
  { employee_id: 'E-40221-DE', name: 'Anna Schneider', department: 'Finance', status: 'active' },
];
export const ACCOUNTS = [
  { account_id: '004518822391', name: 'tailspin-prod', owner: 'platform' },
  { account_id: '771203948856', name: 'tailspin-analytics', owner: 'data' },
];
export const ISSUES = [
  { number: 4821, title: 'Checkout fails with 502 behind the new ingress', state: 'open', labels: ['bug', 'regression'] },
  { number: 4790, title: 'Flaky test: payment webhook retries', state: 'open', labels: ['flaky-test'] },
];
export const CI_RUNS = [
  { run_id: 88123457, workflow: 'ci.yml', status: 'completed', conclusion: 'failure', head_sha: '9f3c2e1', started: '2026-12-01T07:12:09Z' },
  { run_id: 88123391, workflow: 'ci.yml', status: 'completed', conclusion: 'success', head_sha: 'a41d0b7', started: '2026-12-01T05:48:51Z' },
];
export const SHIPMENTS = [
  { tracking_no: 'JJD0003900071234', service: 'express', weight_kg: 2.4, created: '2026-11-30' },
  { tracking_no: 'JJD0003900071290', service: 'standard', weight_kg: 11.8, created: '2026-12-01' },
];
export const SITES_DE = [
  { site_id: 'DE-017', name: 'Charité Berlin, Cardiology', pi: 'Dr. L. Brandt', activated: '2026-03-14' },
  { site_id: 'DE-023', name: 'Uniklinik Köln, Heart Centre', pi: 'Dr. M. Yilmaz', activated: '2026-05-02' },
];
