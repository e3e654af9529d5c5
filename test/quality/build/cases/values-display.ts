// Quality cases for the `unsupported-value` rules the second held-out set drove (docs/checks-
// answer.md): numeric dates written as list labels (`- 21.10.2026: …`), identifiers written in
// display groups (`8949 0200 0012 3456 7890`), unit factors that never apply between one unit
// and itself (`1,536 GB` for a served `data_used_gb: 1.536`), and the driving held-out cases themselves, renamed
// `found2-*` (docs/quality.md "Found cases"). The rules' own cases use a freight-forwarding desk
// and a mobile operator's SIM desk, domains no held-out case uses. Data only; expectations come from the
// documented rules, never from what the checks do today.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { declarations } from './common.js';
import { BANK_ACCOUNTS, BANK_SYSTEM, CLAIMS_SYSTEM, ENERGY_SYSTEM, declarations2, declare2, offer2 } from './holdout2-common.js';

export const FREIGHT_SYSTEM = 'You are the shipment desk assistant of Halvorsen Freight. Answer only from tool results; dates as DD.MM.YYYY, weights in kg.';
export const FREIGHT_TOOLS: Record<string, ToolDefinition> = {
  list_shipments: {
    description: "A consignee's delivered shipments with delivery date and gross weight.",
    parameters: { type: 'object', properties: { consignee: { type: 'string', description: 'Consignee number, e.g. CN-40771.' } }, required: ['consignee'], additionalProperties: false },
  },
};
const freightBase = {
  system: FREIGHT_SYSTEM,
  tools: FREIGHT_TOOLS,
  declarations: declarations([['list_shipments', { readOnly: true, inputSchema: FREIGHT_TOOLS['list_shipments']!.parameters }]]),
};
const SHIPMENTS = [
  { shipment: 'SHP-88213', delivered_on: '2026-10-21', weight_kg: 1840.5 },
  { shipment: 'SHP-88240', delivered_on: '2026-11-04', weight_kg: 920.25 },
];
export const SIM_SYSTEM = 'You are the service assistant of Nordwelle Mobile. Answer only from tool results; print ICCIDs in groups of four digits, as on the card.';
export const SIM_TOOLS: Record<string, ToolDefinition> = {
  find_sims: {
    description: "A customer's SIM cards with ICCID, phone number and plan.",
    parameters: { type: 'object', properties: { customer_no: { type: 'string', description: 'Customer number, 8 digits.' } }, required: ['customer_no'], additionalProperties: false },
  },
  data_usage: {
    description: "Mobile data a customer used in the current billing month.",
    parameters: { type: 'object', properties: { customer_no: { type: 'string', description: 'Customer number, 8 digits.' } }, required: ['customer_no'], additionalProperties: false },
  },
  sim_status: {
    description: 'Activation state of one SIM card.',
    parameters: { type: 'object', properties: { iccid: { type: 'string', description: 'ICCID as printed on the card, digits only, no blanks.' } }, required: ['iccid'], additionalProperties: false },
  },
};
const simBase = {
  system: SIM_SYSTEM,
  tools: { find_sims: SIM_TOOLS['find_sims']! },
  declarations: declarations([['find_sims', { readOnly: true, inputSchema: SIM_TOOLS['find_sims']!.parameters }]]),
};
const SIMS = [{ iccid: '89490200001234567890', msisdn: '+4915112345678', plan: 'Data 20', activated_on: '2026-03-14' }];
const USAGE = { customer_no: '55120834', period: '2026-11', data_used_gb: 1.536, plan: 'Data 20' };
const simSteps = [{ calls: [{ name: 'find_sims', args: { customer_no: '55120834' }, result: SIMS }] }];
const shipmentSteps = [{ calls: [{ name: 'list_shipments', args: { consignee: 'CN-40771' }, result: SHIPMENTS }] }];

export const DISPLAY_VALUE_CASES: CaseSpec[] = [
  {
    name: 'uv-clean-label-colon-dates',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'DD.MM.YYYY dates written as list labels ("- 21.10.2026: SHP-88213") meet the served ISO dates',
    kind: 'clean',
    note: 'A colon right after a date, then a blank, ends the date as a blank would; 04.11.2026 is ambiguous and meets the served 2026-11-04 by one reading.',
    expect: [],
    ...freightBase,
    turns: [
      {
        user: 'Which shipments were delivered to CN-40771 this autumn?',
        steps: shipmentSteps,
        answer: 'Two shipments were delivered to CN-40771:\n\n- 21.10.2026: SHP-88213, 1.840,5 kg\n- 04.11.2026: SHP-88240, 920.25 kg',
      },
    ],
  },
  {
    name: 'uv-defect-label-colon-date-wrong',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a list-label date (22.10.2026) one day off the served 2026-10-21',
    kind: 'defect',
    note: 'Read as the date it is, 22.10.2026 is 2026-10-22 (22 cannot be a month), which no result served.',
    expect: [{ check: 'unsupported-value', value: '2026-10-22' }],
    ...freightBase,
    turns: [
      {
        user: 'When did the shipments for consignee CN-40771 arrive?',
        steps: shipmentSteps,
        answer: 'Delivery log for CN-40771:\n\n- 22.10.2026: SHP-88213 delivered, 1.840,5 kg\n- 04.11.2026: SHP-88240 delivered, 920.25 kg',
      },
    ],
  },
  {
    name: 'uv-clean-grouped-iccid',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a served ICCID printed in display groups of four ("8949 0200 0012 3456 7890")',
    kind: 'clean',
    note: 'The groups, joined, are exactly the served 89490200001234567890: one value, read whole.',
    expect: [],
    ...simBase,
    turns: [
      {
        user: 'Which SIM card is registered to customer 55120834?',
        steps: simSteps,
        answer: 'Customer 55120834 has one SIM card:\n\n- ICCID: 8949 0200 0012 3456 7890\n- Plan: Data 20, active since 14.03.2026',
      },
    ],
  },
  {
    name: 'uv-defect-grouped-iccid-digits-swapped',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'an ICCID in display groups with two digits swapped (3465 for 3456)',
    kind: 'defect',
    note: 'The join 89490200001234657890 is served by nothing, so the run is judged group by group: 3465 is the wrong group; the other groups, served only inside the ICCID, are findings a reviewer accepts.',
    expect: [{ check: 'unsupported-value', value: '3465' }],
    acceptable: [
      { check: 'unsupported-value', value: '8949' },
      { check: 'unsupported-value', value: '0200' },
      { check: 'unsupported-value', value: '0012' },
      { check: 'unsupported-value', value: '7890' },
    ],
    ...simBase,
    turns: [
      {
        user: 'What is the ICCID of the SIM for customer 55120834?',
        steps: simSteps,
        answer: 'The SIM card of customer 55120834 has the ICCID 8949 0200 0012 3465 7890 (plan Data 20).',
      },
    ],
  },
  {
    // Was holdout2-uv-clean-iban-grouped-for-display: drove the display-groups rule.
    name: 'found2-uv-clean-iban-grouped-for-display',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'found 2 (was held out): the answer prints the served IBAN in the usual groups of four',
    kind: 'clean',
    note: '"DE89 3704 0044 0532 0130 00" is the served DE89370400440532013000 with display blanks, the way banks print IBANs; a reviewer reads the same value.',
    expect: [],
    system: BANK_SYSTEM,
    tools: offer2('find_accounts'),
    declarations: declarations2([declare2('find_accounts')]),
    turns: [
      {
        user: 'What is the IBAN of my current account? Customer number 31822904. I need it for my employer.',
        steps: [{ calls: [{ name: 'find_accounts', args: { customer_no: '31822904' }, result: BANK_ACCOUNTS }] }],
        answer: 'The IBAN of your Girokonto Plus is:\n\n**DE89 3704 0044 0532 0130 00**\n\nThe account holder is Miriam Okafor. You can give this to your employer as is.',
      },
    ],
  },
  {
    name: 'uv-defect-same-unit-thousand-times',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a served data_used_gb 1.536 told as "1,536 GB" (same unit, a thousand times too much)',
    kind: 'defect',
    note: 'The answer names the unit the key names (GB): no conversion happened, so the × 1000 factor does not apply; 1,536 GB is no served value.',
    expect: [{ check: 'unsupported-value', value: '1536' }],
    ...simBase,
    tools: SIM_TOOLS,
    declarations: declarations([
      ['find_sims', { readOnly: true, inputSchema: SIM_TOOLS['find_sims']!.parameters }],
      ['data_usage', { readOnly: true, inputSchema: SIM_TOOLS['data_usage']!.parameters }],
    ]),
    turns: [
      {
        user: 'How much mobile data has customer 55120834 used this month?',
        steps: [{ calls: [{ name: 'data_usage', args: { customer_no: '55120834' }, result: USAGE }] }],
        answer: 'This month customer 55120834 has used 1,536 GB of the 20 GB in the Data 20 plan.',
      },
    ],
  },
  {
    name: 'uv-clean-unit-converted-gb-to-mb',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a served data_used_gb 1.536 told as "1,536 MB" (converted: another unit, the × 1000 factor applies)',
    kind: 'clean',
    note: 'GB to MB is a conversion by 1000: the answer names another unit than the key, so the unit factor grounds it.',
    expect: [],
    ...simBase,
    tools: SIM_TOOLS,
    declarations: declarations([
      ['find_sims', { readOnly: true, inputSchema: SIM_TOOLS['find_sims']!.parameters }],
      ['data_usage', { readOnly: true, inputSchema: SIM_TOOLS['data_usage']!.parameters }],
    ]),
    turns: [
      {
        user: 'How much mobile data has customer 55120834 used this month, in MB?',
        steps: [{ calls: [{ name: 'data_usage', args: { customer_no: '55120834' }, result: USAGE }] }],
        answer: 'Customer 55120834 has used 1,536 MB this month (plan Data 20).',
      },
    ],
  },
  {
    // Was holdout2-uv-defect-decimal-read-as-thousands: drove the same-unit rule of unit factors.
    name: 'found2-uv-defect-decimal-read-as-thousands',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'found 2 (was held out): a served 1.234 MWh is reported as "1,234 MWh" (a thousand times too much, same unit)',
    kind: 'defect',
    note: 'Beyond the documented rule: the answer names the same unit the tool served (MWh), so 1,234 MWh is the served 1.234 MWh misread, not a unit conversion; the documented × 1000 unit factor would meet it. A reviewer wants the finding.',
    expect: [{ check: 'unsupported-value', value: '1234' }],
    system: ENERGY_SYSTEM,
    tools: offer2('meter_readings'),
    declarations: declarations2([declare2('meter_readings')]),
    turns: [
      {
        user: 'How much electricity did meter 1ESY1160512345 use in November?',
        steps: [{ calls: [{ name: 'meter_readings', args: { meter_id: '1ESY1160512345' }, result: { meter_id: '1ESY1160512345', period: '2026-11', consumption_mwh: 1.234, kind: 'actual' } }] }],
        answer: 'In November, meter 1ESY1160512345 used 1,234 MWh, based on actual readings.',
      },
    ],
  },
  {
    // Was holdout2-uv-defect-made-up-total: drove the label-colon date rule.
    name: 'found2-uv-defect-made-up-total',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'found 2 (was held out): a total that is not the sum of the served payments (1.409,50 € for 1.150,00 € + 240,50 €)',
    kind: 'defect',
    note: 'claim_payments served two payments and no total; 1409.5 is no sum, difference or product of served numbers, so it is an ordinary (not derived) finding.',
    expect: [{ check: 'unsupported-value', value: '1409.5' }],
    system: CLAIMS_SYSTEM,
    tools: offer2('claim_payments'),
    declarations: declarations2([declare2('claim_payments')]),
    turns: [
      {
        user: 'How much has been paid out on CLM-2026-003980 so far?',
        steps: [
          {
            calls: [
              {
                name: 'claim_payments',
                args: { claim_no: 'CLM-2026-003980' },
                result: [
                  { paid_on: '2026-08-19', amount_eur: 1150.0, payee: 'M. Okafor' },
                  { paid_on: '2026-09-02', amount_eur: 240.5, payee: 'M. Okafor' },
                ],
              },
            ],
          },
        ],
        answer: 'So far two payments were made on CLM-2026-003980:\n\n- 19.08.2026: 1.150,00 €\n- 02.09.2026: 240,50 €\n\nIn total **1.409,50 €** has been paid out.',
      },
    ],
  },
];
