// Shared pieces of the SECOND held-out quality set (holdout2-*.ts): six domains no check was tuned
// on and the first held-out set did not use (bank support with IBANs and EUR in decimal commas, a
// pharmacy stock agent with lot numbers and expiry dates, an energy utility with meter ids and kWh,
// insurance claims, a university registrar, DNS/domain management) — system prompts, the tool
// definitions the model is offered, declaration builders and served data. Data only; never encodes
// what a check does: every case states its own expectations, written from docs/checks-*.md before
// the case was run.

import type { ToolDefinition } from '../spec.js';

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', description });
const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });

export const BANK_SYSTEM =
  "You are the customer-support assistant of Nordbank AG (Hamburg); answer in the customer's language. Today is 2026-12-03. Amounts are in EUR. Quote IBANs and amounts exactly as the banking tools return them.";
export const PHARMACY_SYSTEM =
  'You are the stock assistant of Apotheke am Markt (Leipzig). Today is 2026-12-03. Answer from the inventory tools only; never guess a lot number or an expiry date.';
export const ENERGY_SYSTEM =
  'You are the customer assistant of Stadtwerke Nordhafen, an electricity and gas supplier. Today is 2026-12-03. Use the metering and billing tools; readings are in kWh.';
export const CLAIMS_SYSTEM =
  'You are the claims assistant of Helvetia Mutual. Today is 2026-12-03. Look claims up with the tools and quote claim numbers and amounts exactly.';
export const REGISTRAR_SYSTEM =
  'You are the registrar assistant of the University of Eastbridge. Today is 2026-12-03. Use the student records tools; grades and credits come only from them.';
export const DNS_SYSTEM =
  'You are the DNS assistant of the hosting provider Northwind Cloud. Today is 2026-12-03. Look zones and records up before you change anything.';

export const HOLDOUT2_TOOLS: Record<string, ToolDefinition> = {
  // bank support
  find_accounts: { description: 'Accounts of a customer number; returns IBANs.', parameters: obj({ customer_no: str('Eight-digit customer number.') }, ['customer_no']) },
  account_balance: { description: 'Current balance of one account.', parameters: obj({ iban: str('IBAN as returned by find_accounts, without blanks.') }, ['iban']) },
  list_transactions: {
    description: 'Booked transactions of one account, newest first.',
    parameters: obj({ iban: str('IBAN as returned by find_accounts, without blanks.'), direction: { type: 'string', enum: ['debit', 'credit'] } }, ['iban']),
  },
  standing_orders: { description: 'Standing orders of one account.', parameters: obj({ iban: str('IBAN as returned by find_accounts, without blanks.') }, ['iban']) },
  // pharmacy stock
  search_products: { description: 'Search the product catalogue by name or active ingredient.', parameters: obj({ query: str('Product name or ingredient.') }, ['query']) },
  stock_lots: { description: 'Lots in stock of one product, with expiry dates.', parameters: obj({ sku: str('Product SKU (PZN-…) as returned by search_products.') }, ['sku']) },
  lot_recall_status: { description: 'Recall notices for one lot number.', parameters: obj({ lot_no: str('Lot number as returned by stock_lots.') }, ['lot_no']) },
  // energy utility
  find_meters: { description: 'Meters of a supply contract.', parameters: obj({ contract_no: str('Contract number, V-YYYY-NNNNN.') }, ['contract_no']) },
  meter_readings: { description: 'Readings of one meter, newest first.', parameters: obj({ meter_id: str('Meter id as returned by find_meters.') }, ['meter_id']) },
  tariff_info: { description: 'Tariff and monthly instalment of a supply contract.', parameters: obj({ contract_no: str('Contract number.') }, ['contract_no']) },
  outage_status: { description: 'Planned and current outages at a meter location.', parameters: obj({ meter_id: str('Meter id as returned by find_meters.') }, ['meter_id']) },
  // insurance claims
  find_claims: { description: 'Claims filed under one policy.', parameters: obj({ policy_no: str('Policy number.') }, ['policy_no']) },
  claim_detail: { description: 'Status, reserve and adjuster of one claim.', parameters: obj({ claim_no: str('Claim number as returned by find_claims.') }, ['claim_no']) },
  claim_payments: { description: 'Payments made on one claim.', parameters: obj({ claim_no: str('Claim number as returned by find_claims.') }, ['claim_no']) },
  // university registrar
  find_student: { description: 'Find students by name.', parameters: obj({ name: str('Name or part of it.') }, ['name']) },
  transcript: { description: 'Courses and grades of one student in one term.', parameters: obj({ student_id: str('Student id as returned by find_student.'), term: str('Term, e.g. 2026W.') }, ['student_id', 'term']) },
  enrolments: { description: 'Current course enrolments of one student.', parameters: obj({ student_id: str('Student id as returned by find_student.'), status: { type: 'string', enum: ['enrolled', 'waitlisted', 'dropped'] } }, ['student_id']) },
  // DNS
  list_zones: { description: 'DNS zones of a hosting account.', parameters: obj({ account: str('Hosting account name.') }, ['account']) },
  list_records: { description: 'Records of one zone.', parameters: obj({ zone_id: str('Zone id as returned by list_zones.'), type: { type: 'string', enum: ['A', 'AAAA', 'CNAME', 'MX', 'TXT'] } }, ['zone_id']) },
  update_record: {
    description: 'Create or change one record (writes).',
    parameters: obj({ zone_id: str('Zone id as returned by list_zones.'), name: str('Fully qualified record name.'), type: str('Record type.'), value: str('Record value.'), ttl: int('Time to live in seconds.') }, ['zone_id', 'name', 'type', 'value']),
  },
  domain_status: { description: 'Registration and expiry of a domain.', parameters: obj({ domain: str('Domain name.') }, ['domain']) },
};

/** The tool definitions of the named tools, for a case's `tools`. */
export function offer2(...names: string[]): Record<string, ToolDefinition> {
  return Object.fromEntries(names.map((n) => [n, HOLDOUT2_TOOLS[n]!]));
}

/** A tool's declaration with its offered inputSchema attached (readOnly unless said otherwise). */
export function declare2(name: string, extra: Record<string, unknown> = {}): [string, Record<string, unknown>] {
  return [name, { readOnly: true, ...extra, inputSchema: HOLDOUT2_TOOLS[name]!.parameters }];
}

/** Declarations with answer values on (every case arms them, as the issue measured). */
export function declarations2(tools: [string, Record<string, unknown>][], more: Record<string, unknown> = {}): Record<string, unknown> {
  return { tools: Object.fromEntries(tools), answers: { checkValues: true }, ...more };
}

// Data served by the producers, shared by several cases.
export const BANK_ACCOUNTS = [
  { iban: 'DE89370400440532013000', product: 'Girokonto Plus', holder: 'Miriam Okafor', opened: '2019-04-01' },
  { iban: 'DE02200505501015871393', product: 'Tagesgeld', holder: 'Miriam Okafor', opened: '2023-09-15' },
];
export const TRANSACTIONS = [
  { booking_date: '2026-12-01', amount: -89.9, currency: 'EUR', counterparty: 'Telekom Deutschland GmbH', reference: 'KD 40017733 RG 11/2026' },
  { booking_date: '2026-11-30', amount: 4850.0, currency: 'EUR', counterparty: 'Fabrikam GmbH', reference: 'GEHALT NOV 2026' },
  { booking_date: '2026-11-28', amount: -1234.5, currency: 'EUR', counterparty: 'Stadtwerke Hamburg', reference: 'RG-2026-118834' },
];
export const PRODUCTS = [
  { sku: 'PZN-04877123', name: 'Ibuprofen 400 mg, 50 tablets', ingredient: 'ibuprofen', rx: false },
  { sku: 'PZN-04877146', name: 'Ibuprofen 600 mg, 20 tablets', ingredient: 'ibuprofen', rx: true },
];
export const LOTS_IBU400 = [
  { lot_no: 'L24K117B', expiry: '2027-03-31', qty: 240, location: 'A-03-2' },
  { lot_no: 'L25B009A', expiry: '2028-01-31', qty: 1180, location: 'A-03-4' },
];
export const METERS = [
  { meter_id: '1ESY1160512345', medium: 'electricity', address: 'Lindenstraße 12, 20095 Hamburg' },
  { meter_id: '7GAS0098812', medium: 'gas', address: 'Lindenstraße 12, 20095 Hamburg' },
];
export const READINGS_ELEC = [
  { read_at: '2026-11-30T23:59:00+01:00', value_kwh: 48213.4, kind: 'actual' },
  { read_at: '2026-10-31T23:59:00+01:00', value_kwh: 47901.1, kind: 'actual' },
];
export const CLAIMS = [
  { claim_no: 'CLM-2026-004417', kind: 'water damage', reported: '2026-11-12', status: 'in review' },
  { claim_no: 'CLM-2026-003980', kind: 'bicycle theft', reported: '2026-08-02', status: 'settled' },
];
export const STUDENTS = [
  { student_id: 's2291047', name: 'Jonas Weber', programme: 'MSc Computer Science' },
  { student_id: 's2291074', name: 'Jonas Webber', programme: 'BSc Physics' },
];
export const ZONES = [
  { zone_id: 'Z08841632K7LQ2', name: 'contoso-shop.de', records: 14 },
  { zone_id: 'Z09913370MMX41', name: 'contoso-mail.net', records: 6 },
];
export const RECORDS_SHOP = [
  { name: 'www.contoso-shop.de', type: 'A', value: '203.0.113.45', ttl: 300 },
  { name: 'api.contoso-shop.de', type: 'CNAME', value: 'lb-eu-1.contoso-cdn.net', ttl: 3600 },
  { name: 'contoso-shop.de', type: 'MX', value: '10 mx1.mailhost.example', ttl: 86400 },
];
