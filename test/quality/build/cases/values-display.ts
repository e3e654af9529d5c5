// Quality cases for the `unsupported-value` rules the second held-out set drove (docs/checks-
// answer.md): numeric dates written as list labels (`- 21.10.2026: …`), and the driving held-out
// cases themselves, renamed `found2-*` (docs/quality.md "Found cases"). The rules' own cases use a
// freight-forwarding desk, a domain no held-out case uses. Data only; expectations come from the
// documented rules, never from what the checks do today.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { declarations } from './common.js';
import { CLAIMS_SYSTEM, declarations2, declare2, offer2 } from './holdout2-common.js';

const FREIGHT_SYSTEM = 'You are the shipment desk assistant of Halvorsen Freight. Answer only from tool results; dates as DD.MM.YYYY, weights in kg.';
const FREIGHT_TOOLS: Record<string, ToolDefinition> = {
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
