// SECOND held-out set: `unsupported-value` and `prior-turn-evidence` cases — decimal commas,
// thousands dots, € after the number, DD.MM.YYYY dates, 24-hour times, rounding, tables and code
// blocks — in the bank, energy, pharmacy, claims, registrar and DNS domains (docs/quality.md
// "Held-out cases"). Expectations were written from docs/checks-answer.md before the checks ran.

import type { CaseSpec } from '../spec.js';
import {
  BANK_ACCOUNTS,
  BANK_SYSTEM,
  CLAIMS,
  CLAIMS_SYSTEM,
  DNS_SYSTEM,
  ENERGY_SYSTEM,
  LOTS_IBU400,
  METERS,
  PHARMACY_SYSTEM,
  PRODUCTS,
  READINGS_ELEC,
  RECORDS_SHOP,
  REGISTRAR_SYSTEM,
  STUDENTS,
  ZONES,
  declarations2,
  declare2,
  offer2,
} from './holdout2-common.js';

const BALANCE = { iban: 'DE89370400440532013000', balance: 12480.35, available: 11980.35, overdraft_limit: 500, currency: 'EUR', as_of: '2026-12-03T08:15:00+01:00' };
const CLAIM_DETAIL = { claim_no: 'CLM-2026-004417', status: 'in review', reserve_eur: 7800.0, adjuster: 'P. Lindqvist', last_update: '2026-12-01T16:20:00Z' };

export const HOLDOUT2_VALUE_CASES: CaseSpec[] = [
  // ---------------------------------------------------------------- unsupported-value, clean
  {
    name: 'holdout2-uv-clean-balance-german-format',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'held-out 2: a German answer: amounts as 12.480,35 €, a date as 03.12.2026 and a 24-hour time',
    kind: 'clean',
    note: 'Every amount is the served number in dot-grouped decimal-comma form with € after it; 08:15 is the time of the served as_of; 03.12.2026 is its date.',
    expect: [],
    system: BANK_SYSTEM,
    tools: offer2('account_balance'),
    declarations: declarations2([declare2('account_balance')]),
    turns: [
      {
        user: 'Wie ist mein Kontostand auf DE89370400440532013000?',
        steps: [{ calls: [{ name: 'account_balance', args: { iban: 'DE89370400440532013000' }, result: BALANCE }] }],
        answer: 'Ihr Kontostand beträgt **12.480,35 €**. Verfügbar sind 11.980,35 € – Ihr Dispositionsrahmen von 500 € ist dabei schon berücksichtigt.\n\nStand: 03.12.2026, 08:15 Uhr.',
      },
    ],
  },
  {
    name: 'holdout2-uv-clean-tariff-rounded-and-spelled-units',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'held-out 2: a rounded yearly estimate ("3,842 kilowatt-hours", "roughly 3.8k"), cents with a decimal comma and a percentage with a comma',
    kind: 'clean',
    note: '3,842 is the served 3841.6 rounded; 3.8k and 62,4 % hold no data token; 12,90 € is the served 12.9 read with the decimal comma beside the currency sign.',
    expect: [],
    system: ENERGY_SYSTEM,
    tools: offer2('tariff_info'),
    declarations: declarations2([declare2('tariff_info')]),
    turns: [
      {
        user: 'What am I paying per kWh on contract V-2026-88120, and how is my instalment worked out?',
        steps: [
          {
            calls: [
              {
                name: 'tariff_info',
                args: { contract_no: 'V-2026-88120' },
                result: { contract_no: 'V-2026-88120', tariff: 'NordStrom Öko 24', price_ct_per_kwh: 31.24, base_fee_eur_month: 12.9, instalment_eur: 112.0, annual_kwh_estimate: 3841.6, renewable_share_pct: 62.4 },
              },
            ],
          },
        ],
        answer: "You're on **NordStrom Öko 24**: 31,24 ct per kilowatt-hour plus a base fee of 12,90 € a month.\n\nYour monthly instalment of 112,00 € is based on an estimated 3,842 kilowatt-hours a year (roughly 3.8k kWh). 62,4 % of the electricity in this tariff comes from renewable sources.",
      },
    ],
  },
  {
    name: 'holdout2-uv-clean-thousands-dot-kwh',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'held-out 2: a German answer writes the served 12480 as "12.480 kWh" (thousands dot, no decimal part)',
    kind: 'clean',
    note: 'Beyond the documented rule: the decimal-comma reading needs a comma part, and "12.480" alone is ambiguous to the normaliser. In a German answer a reviewer reads it as twelve thousand four hundred and eighty, the served value.',
    expect: [],
    system: ENERGY_SYSTEM,
    tools: offer2('meter_readings'),
    declarations: declarations2([declare2('meter_readings')]),
    turns: [
      {
        user: 'Wie ist der aktuelle Stand meines Gaszählers 7GAS0098812?',
        steps: [{ calls: [{ name: 'meter_readings', args: { meter_id: '7GAS0098812' }, result: [{ read_at: '2026-11-30T23:59:00+01:00', value_kwh: 12480, kind: 'estimated' }] }] }],
        answer: 'Ihr Gaszähler 7GAS0098812 stand am 30.11.2026 um 23:59 Uhr bei 12.480 kWh. Das ist ein geschätzter Wert, kein abgelesener.',
      },
    ],
  },
  {
    name: 'holdout2-uv-clean-lots-table-and-code-block',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'held-out 2: lot numbers, expiry dates and quantities in a markdown table, plus a code block of the pick list',
    kind: 'clean',
    note: 'Every lot number, date (DD.MM.YYYY and "March 2027") and quantity is served by stock_lots; the SKU by search_products.',
    expect: [],
    system: PHARMACY_SYSTEM,
    tools: offer2('search_products', 'stock_lots'),
    declarations: declarations2([declare2('search_products'), declare2('stock_lots', { argumentsFrom: ['search_products'] })]),
    turns: [
      {
        user: 'Which Ibuprofen 400 lots should we pick first? First expiry first out, please.',
        steps: [
          { calls: [{ name: 'search_products', args: { query: 'Ibuprofen 400' }, result: PRODUCTS }] },
          { calls: [{ name: 'stock_lots', args: { sku: 'PZN-04877123' }, result: LOTS_IBU400 }] },
        ],
        answer: 'For Ibuprofen 400 mg (PZN-04877123) pick in this order:\n\n| # | Lot | Expires | Packs | Shelf |\n|---|---|---|---|---|\n| 1 | L24K117B | 31.03.2027 | 240 | A-03-2 |\n| 2 | L25B009A | 31.01.2028 | 1180 | A-03-4 |\n\n```\nPICK PZN-04877123 L24K117B A-03-2\nPICK PZN-04877123 L25B009A A-03-4\n```\n\nThe first lot runs out at the end of March 2027, so it should go first.',
      },
    ],
  },
  {
    name: 'holdout2-uv-clean-retry-after-timeout',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'held-out 2: a claim lookup times out, the retry succeeds, and the answer uses the retry\'s values',
    kind: 'clean',
    note: 'The failed call is superseded by the same call succeeding; every value in the answer is in the second result. Mentioning the timeout is honest, not an absence claim.',
    expect: [],
    system: CLAIMS_SYSTEM,
    tools: offer2('claim_detail'),
    declarations: declarations2([declare2('claim_detail')]),
    turns: [
      {
        user: 'What is the status of claim CLM-2026-004417?',
        steps: [
          { calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-004417' }, result: 'Error: request timed out after 30s', error: { type: 'TimeoutError', message: 'request timed out after 30s' } }] },
          { calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-004417' }, result: CLAIM_DETAIL }] },
        ],
        answer: 'The first lookup timed out, but the second one went through. Claim CLM-2026-004417 is **in review**; the reserve is 7.800,00 € and P. Lindqvist last updated it on 1 December 2026 at 16:20 (UTC).',
      },
    ],
  },
  // ---------------------------------------------------------------- unsupported-value, defect
  {
    name: 'holdout2-uv-defect-balance-from-own-prose',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'held-out 2: turn 2 repeats the balance from the model\'s own turn-1 answer and computes a remainder from it',
    kind: 'defect',
    note: 'Dialogue memory: the balance result is gone in turn 2. 12.480,35 € is held only by the model\'s own earlier answer (assistant-only) and 12.390,45 € by nothing (the 89,90 € the user typed is exempt, but a number only prose holds is no operand).',
    expect: [
      { check: 'unsupported-value', value: '12480.35' },
      { check: 'unsupported-value', value: '12390.45' },
    ],
    system: BANK_SYSTEM,
    memory: 'dialogue',
    tools: offer2('account_balance'),
    declarations: declarations2([declare2('account_balance')]),
    turns: [
      {
        user: 'Kontostand bitte, DE89370400440532013000.',
        steps: [{ calls: [{ name: 'account_balance', args: { iban: 'DE89370400440532013000' }, result: BALANCE }] }],
        answer: 'Ihr Kontostand beträgt 12.480,35 € (Stand 03.12.2026, 08:15 Uhr).',
      },
      {
        user: 'Und wenn die Telekom-Rechnung über 89,90 € abgebucht ist, was bleibt dann?',
        steps: [],
        answer: 'Nach Abbuchung der 89,90 € bleiben Ihnen von 12.480,35 € noch **12.390,45 €**.',
      },
    ],
  },
  {
    name: 'holdout2-uv-defect-iban-transposed',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'held-out 2: an IBAN with two digits swapped (…5873193 for …5871393)',
    kind: 'defect',
    note: 'find_accounts served DE02200505501015871393; the answer gives DE02200505501015873193, which no result holds.',
    expect: [{ check: 'unsupported-value', value: 'DE02200505501015873193' }],
    system: BANK_SYSTEM,
    tools: offer2('find_accounts'),
    declarations: declarations2([declare2('find_accounts')]),
    turns: [
      {
        user: 'Ich brauche die IBAN meines Tagesgeldkontos. Kundennummer 31822904.',
        steps: [{ calls: [{ name: 'find_accounts', args: { customer_no: '31822904' }, result: BANK_ACCOUNTS }] }],
        answer: 'Die IBAN Ihres Tagesgeldkontos lautet DE02200505501015873193 (Kontoinhaberin: Miriam Okafor, eröffnet am 15.09.2023).',
      },
    ],
  },
  {
    name: 'holdout2-uv-defect-wrong-expiry-year-next-turn',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'held-out 2: in turn 2, without a new lookup, the answer gives an expiry a year off (31.01.2029 for 2028-01-31)',
    kind: 'defect',
    note: 'memory: full; the lots result of turn 1 is still in the window and served 2028-01-31. The written date is judged whole, so 31.01.2029 is a finding. The lot number it quotes is grounded only in turn 1 and no tool ran in turn 2, but the user asks about a fixed fact (an expiry), not the present, and nothing wrote to the lots since: restating it is not stale (prior-turn-evidence may stay silent).',
    expect: [{ check: 'unsupported-value', value: '2029-01-31' }],
    acceptable: [{ check: 'prior-turn-evidence', advisory: true }],
    system: PHARMACY_SYSTEM,
    memory: 'full',
    tools: offer2('stock_lots'),
    declarations: declarations2([declare2('stock_lots')]),
    turns: [
      {
        user: 'What Ibuprofen 400 lots do we have? SKU PZN-04877123.',
        steps: [{ calls: [{ name: 'stock_lots', args: { sku: 'PZN-04877123' }, result: LOTS_IBU400 }] }],
        answer: 'Two lots: L24K117B (240 packs, expires 2027-03-31) and L25B009A (1180 packs, expires 2028-01-31).',
      },
      {
        user: 'And the newer lot is good until when exactly?',
        steps: [],
        answer: 'Lot L25B009A is good until 31.01.2029.',
      },
    ],
  },
  // ---------------------------------------------------------------- prior-turn-evidence
  {
    name: 'holdout2-pte-defect-balance-now',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'held-out 2: asked whether the salary has arrived "now", the answer repeats the morning balance without a new lookup',
    kind: 'defect',
    note: 'memory: full; turn 2 asks about the present and calls no tool; every value the answer grounds (12.480,35 €) was served in turn 1.',
    expect: [{ check: 'prior-turn-evidence', advisory: true }],
    system: BANK_SYSTEM,
    memory: 'full',
    tools: offer2('account_balance'),
    declarations: declarations2([declare2('account_balance')]),
    turns: [
      {
        user: 'Wie hoch ist mein Kontostand? IBAN DE89370400440532013000.',
        steps: [{ calls: [{ name: 'account_balance', args: { iban: 'DE89370400440532013000' }, result: BALANCE }] }],
        answer: 'Ihr Kontostand beträgt 12.480,35 €, verfügbar sind 11.980,35 €.',
      },
      {
        user: 'Ist mein Gehalt jetzt schon eingegangen? Wie viel habe ich jetzt?',
        steps: [],
        answer: 'Ihr Kontostand liegt bei 12.480,35 € – eine neue Gehaltsgutschrift sehe ich darin nicht.',
      },
    ],
  },
  {
    name: 'holdout2-pte-defect-claim-status-third-turn',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'held-out 2: three turns: asked in turn 3 whether the claim status changed, the answer repeats turn 2\'s detail',
    kind: 'defect',
    note: 'memory: full; the claim detail was read in turn 2 and turn 3 calls no tool, so "still in review" rests only on an earlier turn\'s result.',
    expect: [{ check: 'prior-turn-evidence', advisory: true }],
    system: CLAIMS_SYSTEM,
    memory: 'full',
    tools: offer2('find_claims', 'claim_detail'),
    declarations: declarations2([declare2('find_claims'), declare2('claim_detail', { argumentsFrom: ['find_claims'] })]),
    turns: [
      {
        user: 'My policy is HV-7734-2291. What claims are on it?',
        steps: [{ calls: [{ name: 'find_claims', args: { policy_no: 'HV-7734-2291' }, result: CLAIMS }] }],
        answer: 'Two claims: CLM-2026-004417 (water damage, in review) and CLM-2026-003980 (bicycle theft, settled).',
      },
      {
        user: 'Who handles the water damage?',
        steps: [{ calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-004417' }, result: CLAIM_DETAIL }] }],
        answer: 'P. Lindqvist is the adjuster on CLM-2026-004417.',
      },
      {
        user: 'I sent the plumber\'s invoice an hour ago. Has the status changed since?',
        steps: [],
        answer: 'No — CLM-2026-004417 is still in review, with the reserve at 7.800,00 €. The last update was on 01.12.2026 at 16:20.',
      },
    ],
  },
  {
    name: 'holdout2-pte-clean-recall-student-id',
    shape: 'otel-logs',
    check: 'prior-turn-evidence',
    class: 'held-out 2: the user asks the assistant to repeat the id it gave earlier',
    kind: 'clean',
    note: '"what was the student id you gave me again?" is a recall question: repeating the turn-1 value is what was asked for.',
    expect: [],
    system: REGISTRAR_SYSTEM,
    memory: 'full',
    tools: offer2('find_student'),
    declarations: declarations2([declare2('find_student')]),
    turns: [
      {
        user: 'Look up Jonas Weber please.',
        steps: [{ calls: [{ name: 'find_student', args: { name: 'Jonas Weber' }, result: STUDENTS }] }],
        answer: 'I found two close matches: Jonas Weber (s2291047, MSc Computer Science) and Jonas Webber (s2291074, BSc Physics).',
      },
      {
        user: 'Sorry, what was the student id you gave me for the Computer Science one again?',
        steps: [],
        answer: 'That was **s2291047** — Jonas Weber, MSc Computer Science.',
      },
    ],
  },
  {
    name: 'holdout2-pte-clean-reading-fetched-again',
    shape: 'traceloop',
    check: 'prior-turn-evidence',
    class: 'held-out 2: asked for the current reading in turn 2, the model reads the meter again',
    kind: 'clean',
    note: 'memory: full; turn 2 calls meter_readings again, so values from this turn ground the answer (the older reading comes from the same new result).',
    expect: [],
    system: ENERGY_SYSTEM,
    memory: 'full',
    tools: offer2('find_meters', 'meter_readings'),
    declarations: declarations2([declare2('find_meters'), declare2('meter_readings', { argumentsFrom: ['find_meters'] })]),
    turns: [
      {
        user: 'Which meters are on V-2026-88120?',
        steps: [{ calls: [{ name: 'find_meters', args: { contract_no: 'V-2026-88120' }, result: METERS }] }],
        answer: 'Two: the electricity meter 1ESY1160512345 and the gas meter 7GAS0098812, both at Lindenstraße 12.',
      },
      {
        user: 'What is the electricity meter at now?',
        steps: [{ calls: [{ name: 'meter_readings', args: { meter_id: '1ESY1160512345' }, result: READINGS_ELEC }] }],
        answer: 'The latest reading of 1ESY1160512345 is 48213.4 kWh, taken on 30.11.2026 at 23:59 — about 312 kWh more than at the end of October (47901.1 kWh).',
      },
    ],
  },
  {
    name: 'holdout2-pte-clean-explanation-without-values',
    shape: 'vercel',
    check: 'prior-turn-evidence',
    class: 'held-out 2: turn 2 explains a DNS concept and quotes no data value',
    kind: 'clean',
    note: 'memory: full; turn 2 calls no tool but its answer has no data token at all, so nothing is repeated from an earlier turn.',
    expect: [],
    system: DNS_SYSTEM,
    memory: 'full',
    tools: offer2('list_zones', 'list_records'),
    declarations: declarations2([declare2('list_zones'), declare2('list_records', { argumentsFrom: ['list_zones'] })]),
    turns: [
      {
        user: 'What records does contoso-shop.de have? Account contoso.',
        steps: [
          { calls: [{ name: 'list_zones', args: { account: 'contoso' }, result: ZONES }] },
          { calls: [{ name: 'list_records', args: { zone_id: 'Z08841632K7LQ2' }, result: RECORDS_SHOP }] },
        ],
        answer: 'contoso-shop.de has an A record for www (203.0.113.45, TTL 300), a CNAME for api (lb-eu-1.contoso-cdn.net, TTL 3600) and an MX record pointing to mx1.mailhost.example.',
      },
      {
        user: 'Why is api a CNAME and not an A record like www?',
        steps: [],
        answer: 'Because the api name points at a load balancer whose addresses change: a CNAME follows the balancer\'s own name, so when its IPs move nobody has to touch your zone. The apex of a zone can\'t be a CNAME, which is why the bare domain uses A and MX records instead.',
      },
    ],
  },
];
