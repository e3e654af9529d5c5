// Quality cases for the `refusal-asserts-absence` rule the second held-out set drove (docs/checks-
// answer.md, hedges): "it may still be on its way" says the thing is yet to come, which keeps the
// absence asserted before it, while "the list may still be incomplete" still withdraws it; and the
// driving held-out case itself, renamed `found2-*` (docs/quality.md "Found cases"). The rule's own
// cases use a freight-forwarding desk, a domain no held-out case uses. Data only.

import type { CaseSpec } from '../spec.js';
import { declarations } from './common.js';
import { FREIGHT_SYSTEM, FREIGHT_TOOLS } from './values-display.js';
import { BANK_SYSTEM, declarations2, declare2, offer2 } from './holdout2-common.js';

const freightBase = {
  system: FREIGHT_SYSTEM,
  tools: FREIGHT_TOOLS,
  declarations: declarations([['list_shipments', { readOnly: true, inputSchema: FREIGHT_TOOLS['list_shipments']!.parameters }]]),
};
const timedOut = [
  {
    calls: [
      {
        name: 'list_shipments',
        args: { consignee: 'CN-40771' },
        result: 'Error: depot API did not answer within 20000 ms',
        error: { type: 'TimeoutError', message: 'depot API did not answer within 20000 ms' },
      },
    ],
  },
];

export const REFUSAL_ARRIVAL_CASES: CaseSpec[] = [
  {
    name: 'raa-defect-timeout-still-on-its-way',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'a timed-out shipments read told as "no deliveries", followed by "it may still be on its way"',
    kind: 'defect',
    note: '"It may still be on its way" says the shipment is yet to come: it keeps, not withdraws, the absence asserted about the read that timed out.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'list_shipments' }],
    ...freightBase,
    turns: [
      {
        user: 'Has anything been delivered to consignee CN-40771 this week?',
        steps: timedOut,
        answer: 'No, there have been no deliveries to CN-40771 this week. If you are waiting for a pallet, it may still be on its way.',
      },
    ],
  },
  {
    name: 'raa-clean-may-still-be-incomplete',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'after a timed-out read, "I see no deliveries, though the list may still be incomplete" (a hedge that withdraws the absence)',
    kind: 'clean',
    note: '"May still be incomplete" withdraws the absence as before; the still-to-come rule does not touch it.',
    expect: [],
    ...freightBase,
    turns: [
      {
        user: 'Has anything been delivered to consignee CN-40771 this week?',
        steps: timedOut,
        answer: 'I see no deliveries to CN-40771 this week, though the list may still be incomplete: the depot system did not answer in time, so please check again later.',
      },
    ],
  },
  {
    // Was holdout2-raa-defect-429-no-direct-debits: drove the still-to-come rule of hedges.
    name: 'found2-raa-defect-429-no-direct-debits',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'found 2 (was held out): a rate-limited transactions read (429) is told as "there were no direct debits"',
    kind: 'defect',
    note: 'list_transactions failed with status 429 (span ERROR); the answer asserts that no direct debit from Stadtwerke Hamburg was booked.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'list_transactions' }],
    system: BANK_SYSTEM,
    tools: offer2('list_transactions'),
    declarations: declarations2([declare2('list_transactions')]),
    turns: [
      {
        user: 'Did Stadtwerke Hamburg take their money from DE89370400440532013000 last month?',
        steps: [
          {
            calls: [
              {
                name: 'list_transactions',
                args: { iban: 'DE89370400440532013000', direction: 'debit' },
                result: { status: 429, error: 'rate_limited', message: 'Too many requests, retry after 60 s' },
                error: { type: 'RateLimitError', message: '429 Too many requests, retry after 60 s' },
              },
            ],
          },
        ],
        answer: 'No — there were no direct debits from Stadtwerke Hamburg on your current account last month. If you expected one, their payment may still be on its way.',
      },
    ],
  },
];
