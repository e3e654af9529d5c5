// Quality cases for the `unsupported-argument` rule the second held-out set drove (docs/checks-
// arguments.md): a value the user typed in display groups (`8949 0200 0012 3456 7890`) grounds the
// joined argument (`89490200001234567890`) a schema asks for, and the driving held-out case itself,
// renamed `found2-*` (docs/quality.md "Found cases"). The rule's own cases use a mobile operator's
// SIM desk, a domain no held-out case uses. Data only; expectations come from the documented rule.

import type { CaseSpec } from '../spec.js';
import { declarations } from './common.js';
import { SIM_SYSTEM, SIM_TOOLS } from './values-display.js';
import { BANK_SYSTEM, declarations2, declare2, offer2 } from './holdout2-common.js';

const statusBase = {
  system: SIM_SYSTEM,
  tools: SIM_TOOLS,
  declarations: declarations([
    ['find_sims', { readOnly: true, inputSchema: SIM_TOOLS['find_sims']!.parameters }],
    ['sim_status', { readOnly: true, argumentsFrom: ['find_sims'], inputSchema: SIM_TOOLS['sim_status']!.parameters }],
  ]),
};

export const DISPLAY_ARGUMENT_CASES: CaseSpec[] = [
  {
    name: 'ua-clean-iccid-typed-in-groups',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'the user types an ICCID in groups of four; the model passes the joined digits the schema asks for',
    kind: 'clean',
    note: 'The argument 89490200001234567890 is the join of the user\'s "8949 0200 0012 3456 7890": the user\'s own value without the display blanks.',
    expect: [],
    ...statusBase,
    turns: [
      {
        user: 'Is my SIM 8949 0200 0012 3456 7890 active yet?',
        steps: [{ calls: [{ name: 'sim_status', args: { iccid: '89490200001234567890' }, result: { iccid: '89490200001234567890', state: 'active', since: '2026-03-14' } }] }],
        answer: 'Yes, the SIM 8949 0200 0012 3456 7890 is active (since 14.03.2026).',
      },
    ],
  },
  {
    name: 'ua-defect-iccid-joined-wrong',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'the user types an ICCID in groups; the model joins it with one group dropped a digit (8949020000123456789 for …7890 typed)',
    kind: 'defect',
    note: 'No run of the user\'s groups joins to 8949020000123456789 (it drops the last digit): the argument is not the user\'s value, and the lookup ran on an ICCID nobody gave.',
    expect: [{ check: 'unsupported-argument', tool: 'sim_status', value: '8949020000123456789' }],
    acceptable: [{ check: 'unsupported-value' }],
    ...statusBase,
    turns: [
      {
        user: 'Is my SIM 8949 0200 0012 3456 7890 active yet?',
        steps: [{ calls: [{ name: 'sim_status', args: { iccid: '8949020000123456789' }, result: { iccid: '8949020000123456789', state: 'not found' } }] }],
        answer: 'I could not find an active SIM with that ICCID; please check the number on the card.',
      },
    ],
  },
  {
    // Was holdout2-ua-clean-iban-typed-with-blanks: drove the display-groups rule of argument grounding.
    name: 'found2-ua-clean-iban-typed-with-blanks',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'found 2 (was held out): the user types an IBAN in groups of four; the model passes it without blanks, as the schema asks',
    kind: 'clean',
    note: 'Beyond the documented rule: the compact DE02200505501015871393 is exactly the user\'s "DE02 2005 0550 1015 8713 93" with the display blanks removed, which the schema asks for ("without blanks"); a reviewer sees the user\'s own value, not an invented one. The whole-token rule does not join blank-separated groups.',
    expect: [],
    system: BANK_SYSTEM,
    tools: offer2('find_accounts', 'list_transactions'),
    declarations: declarations2([declare2('find_accounts'), declare2('list_transactions', { argumentsFrom: ['find_accounts'] })]),
    turns: [
      {
        user: 'Welche Abbuchungen gab es zuletzt auf DE02 2005 0550 1015 8713 93?',
        steps: [
          {
            calls: [
              {
                name: 'list_transactions',
                args: { iban: 'DE02200505501015871393', direction: 'debit' },
                result: [{ booking_date: '2026-11-29', amount: -500.0, currency: 'EUR', counterparty: 'Miriam Okafor', reference: 'Umbuchung Girokonto' }],
              },
            ],
          },
        ],
        answer: 'Auf DE02 2005 0550 1015 8713 93 gab es zuletzt nur eine Abbuchung: 500,00 € am 29.11.2026, eine Umbuchung auf Ihr Girokonto.',
      },
    ],
  },
];
