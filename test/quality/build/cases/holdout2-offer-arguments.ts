// SECOND held-out set: `dangling-reference` and `unsupported-argument` cases in the bank, energy,
// DNS, claims, registrar and pharmacy domains (docs/quality.md "Held-out cases"). Expectations were
// written from docs/checks-ledger.md and docs/checks-arguments.md before the checks were run on them.

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

export const HOLDOUT2_OFFER_ARGUMENT_CASES: CaseSpec[] = [
  // ---------------------------------------------------------------- dangling-reference
  {
    name: 'holdout2-dr-defect-iban-from-own-answer',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'held-out 2: the account list left the window between turns and the balance tool is called with an IBAN from the model\'s own answer',
    kind: 'defect',
    note: 'The app keeps only the answers. In turn 2 account_balance is offered and called while no find_accounts result is in the window: the IBAN comes from the turn-1 answer, so the call is a dangling reference and the argument is assistant-only.',
    expect: [
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-argument', tool: 'account_balance', value: 'DE02200505501015871393' },
    ],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    system: BANK_SYSTEM,
    memory: 'answers-only',
    tools: offer2('find_accounts', 'account_balance'),
    declarations: declarations2([declare2('find_accounts'), declare2('account_balance', { argumentsFrom: ['find_accounts'] })]),
    turns: [
      {
        user: 'Welche Konten habe ich? Kundennummer 31822904.',
        steps: [{ calls: [{ name: 'find_accounts', args: { customer_no: '31822904' }, result: BANK_ACCOUNTS }] }],
        answer: 'Unter der Kundennummer 31822904 führen Sie zwei Konten:\n\n- **Girokonto Plus** – DE89370400440532013000\n- **Tagesgeld** – DE02200505501015871393',
      },
      {
        user: 'Und wie viel ist gerade auf dem Tagesgeld?',
        steps: [{ calls: [{ name: 'account_balance', args: { iban: 'DE02200505501015871393' }, result: { iban: 'DE02200505501015871393', balance: 18250.0, available: 18250.0, currency: 'EUR', as_of: '2026-12-03T07:00:00+01:00' } }] }],
        answer: 'Auf Ihrem Tagesgeldkonto (DE02200505501015871393) liegen aktuell 18.250,00 € – der volle Betrag ist verfügbar.',
      },
    ],
  },
  {
    name: 'holdout2-dr-defect-meter-three-turns',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'held-out 2: three turns, dialogue memory: the meter list is gone from turn 2 on; turn 2 only talks, turn 3 calls the readings tool from memory',
    kind: 'defect',
    note: 'Turn 2 offers meter_readings and outage_status with find_meters evicted and calls neither (an advisory grouped finding) and repeats the meter id from its own turn-1 answer (assistant-only value). Turn 3 calls meter_readings with that id: a non-advisory finding on the call and an assistant-only argument.',
    expect: [
      { check: 'dangling-reference', advisory: true },
      { check: 'dangling-reference', advisory: false },
      { check: 'unsupported-value', value: '1ESY1160512345' },
      { check: 'unsupported-argument', tool: 'meter_readings', value: '1ESY1160512345' },
    ],
    system: ENERGY_SYSTEM,
    memory: 'dialogue',
    tools: offer2('find_meters', 'meter_readings', 'outage_status'),
    declarations: declarations2([declare2('find_meters'), declare2('meter_readings', { argumentsFrom: ['find_meters'] }), declare2('outage_status', { argumentsFrom: ['find_meters'] })]),
    turns: [
      {
        user: 'Which meters are on my contract V-2026-88120?',
        steps: [{ calls: [{ name: 'find_meters', args: { contract_no: 'V-2026-88120' }, result: METERS }] }],
        answer: 'Your contract V-2026-88120 covers two meters at Lindenstraße 12: an electricity meter (1ESY1160512345) and a gas meter (7GAS0098812).',
      },
      {
        user: 'Which of those is the one for electricity again?',
        steps: [],
        answer: 'The electricity meter is **1ESY1160512345**.',
      },
      {
        user: 'OK, what did it read at the end of November?',
        steps: [{ calls: [{ name: 'meter_readings', args: { meter_id: '1ESY1160512345' }, result: READINGS_ELEC }] }],
        answer: 'On 30 November 2026 at 23:59 the electricity meter read 48213.4 kWh (an actual reading). A month earlier it stood at 47901.1 kWh.',
      },
    ],
  },
  {
    name: 'holdout2-dr-clean-refetch-zones',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'held-out 2: the zone list is fetched again before the records are read',
    kind: 'clean',
    note: 'Only answers are kept; in turn 2 the model calls list_zones again and only then list_records. No call is made from memory (the first request of turn 2 offers list_records while the ground is absent, an advisory a reviewer accepts).',
    expect: [],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    system: DNS_SYSTEM,
    memory: 'answers-only',
    tools: offer2('list_zones', 'list_records'),
    declarations: declarations2([declare2('list_zones'), declare2('list_records', { argumentsFrom: ['list_zones'] })]),
    turns: [
      {
        user: 'Which zones does the account contoso host with you?',
        steps: [{ calls: [{ name: 'list_zones', args: { account: 'contoso' }, result: ZONES }] }],
        answer: 'The account contoso has two zones: contoso-shop.de (14 records) and contoso-mail.net (6 records).',
      },
      {
        user: 'Show me the A records of the shop zone.',
        steps: [
          { calls: [{ name: 'list_zones', args: { account: 'contoso' }, result: ZONES }] },
          { calls: [{ name: 'list_records', args: { zone_id: 'Z08841632K7LQ2', type: 'A' }, result: [RECORDS_SHOP[0]] }] },
        ],
        answer: 'contoso-shop.de has a single A record:\n\n| name | value | TTL |\n|---|---|---|\n| www.contoso-shop.de | 203.0.113.45 | 300 s |',
      },
    ],
  },
  {
    name: 'holdout2-dr-clean-full-memory-claims',
    shape: 'vercel',
    check: 'dangling-reference',
    class: 'held-out 2: the app keeps tool results between turns, so the claim list is still in the window',
    kind: 'clean',
    note: 'memory: full keeps the turn-1 find_claims result; claim_detail in turn 2 is grounded. Amounts and dates are written the German way (7.800,00 €, 01.12.2026) and a 24-hour time.',
    expect: [],
    system: CLAIMS_SYSTEM,
    memory: 'full',
    tools: offer2('find_claims', 'claim_detail'),
    declarations: declarations2([declare2('find_claims'), declare2('claim_detail', { argumentsFrom: ['find_claims'] })]),
    turns: [
      {
        user: 'What claims are open under policy HV-7734-2291?',
        steps: [{ calls: [{ name: 'find_claims', args: { policy_no: 'HV-7734-2291' }, result: CLAIMS }] }],
        answer: 'Policy HV-7734-2291 has two claims. CLM-2026-004417 (water damage, reported 2026-11-12) is in review; CLM-2026-003980 (bicycle theft) is already settled.',
      },
      {
        user: 'Where does the water damage one stand?',
        steps: [{ calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-004417' }, result: { claim_no: 'CLM-2026-004417', status: 'in review', reserve_eur: 7800.0, adjuster: 'P. Lindqvist', last_update: '2026-12-01T16:20:00Z' } }] }],
        answer: 'CLM-2026-004417 is still **in review**. The adjuster, P. Lindqvist, has set a reserve of 7.800,00 € and last updated the file on 01.12.2026 at 16:20.',
      },
    ],
  },
  {
    name: 'holdout2-dr-clean-ground-first-fetched-in-turn-2',
    shape: 'traceloop',
    check: 'dangling-reference',
    class: 'held-out 2: turn 1 only asks a question back; the producer is first fetched in turn 2',
    kind: 'clean',
    note: 'Nothing was held and evicted: find_student is called for the first time in turn 2, right before transcript. Grades with decimal commas (1,3) are not data.',
    expect: [],
    system: REGISTRAR_SYSTEM,
    memory: 'answers-only',
    tools: offer2('find_student', 'transcript'),
    declarations: declarations2([declare2('find_student'), declare2('transcript', { argumentsFrom: { student_id: ['find_student'] } })]),
    turns: [
      { user: 'Hi, I need my grades for this winter term.', steps: [], answer: 'Happy to help. Could you tell me your full name so I can find your record?' },
      {
        user: 'Jonas Weber.',
        steps: [
          { calls: [{ name: 'find_student', args: { name: 'Jonas Weber' }, result: [STUDENTS[0]] }] },
          {
            calls: [
              {
                name: 'transcript',
                args: { student_id: 's2291047', term: '2026W' },
                result: { student_id: 's2291047', term: '2026W', courses: [{ code: 'CS4120', title: 'Distributed Systems', grade: '1,3', ects: 6 }, { code: 'CS4410', title: 'Machine Learning', grade: '2,0', ects: 6 }, { code: 'CS4990', title: 'Research Seminar', grade: '1,0', ects: 6 }] },
              },
            ],
          },
        ],
        answer: 'Here are your 2026W grades, Jonas (s2291047):\n\n- CS4120 Distributed Systems — 1,3\n- CS4410 Machine Learning — 2,0\n- CS4990 Research Seminar — 1,0\n\nThat is 18 ECTS so far this term.',
      },
    ],
  },
  // ---------------------------------------------------------------- unsupported-argument
  {
    name: 'holdout2-ua-defect-student-id-transposed',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'held-out 2: a student id with two digits transposed (s2290147 for s2291047)',
    kind: 'defect',
    note: 'find_student served s2291047 and s2291074; the model called enrolments with s2290147, which no result, user or system message holds.',
    expect: [{ check: 'unsupported-argument', tool: 'enrolments', value: 's2290147' }],
    system: REGISTRAR_SYSTEM,
    tools: offer2('find_student', 'enrolments'),
    declarations: declarations2([declare2('find_student'), declare2('enrolments', { argumentsFrom: ['find_student'] })]),
    turns: [
      {
        user: 'Which courses is Jonas Weber enrolled in right now?',
        steps: [
          { calls: [{ name: 'find_student', args: { name: 'Jonas Weber' }, result: STUDENTS }] },
          { calls: [{ name: 'enrolments', args: { student_id: 's2290147' }, result: [{ code: 'PH2210', title: 'Quantum Mechanics I', status: 'enrolled' }, { code: 'PH2350', title: 'Statistical Physics', status: 'enrolled' }] }] },
        ],
        answer: 'Jonas Weber is currently enrolled in two courses: PH2210 Quantum Mechanics I and PH2350 Statistical Physics.',
      },
    ],
  },
  {
    name: 'holdout2-ua-defect-lot-fragment',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'held-out 2: a lot number cut short (L24K117 of L24K117B) and the recall lookup comes back empty',
    kind: 'defect',
    note: 'stock_lots served L24K117B; the model passed L24K117 to lot_recall_status, a fragment. The declared absence for the cut value is also an empty-lookup (fragment) a reviewer wants flagged.',
    expect: [
      { check: 'unsupported-argument', tool: 'lot_recall_status', value: 'L24K117' },
      { check: 'empty-lookup', tool: 'lot_recall_status', advisory: true },
    ],
    system: PHARMACY_SYSTEM,
    tools: offer2('search_products', 'stock_lots', 'lot_recall_status'),
    declarations: declarations2([declare2('search_products'), declare2('stock_lots', { argumentsFrom: ['search_products'] }), declare2('lot_recall_status', { argumentsFrom: ['stock_lots'] })]),
    turns: [
      {
        user: 'Is any of our Ibuprofen 400 stock affected by a recall? Check the older lot first.',
        steps: [
          { calls: [{ name: 'search_products', args: { query: 'Ibuprofen 400' }, result: PRODUCTS }] },
          { calls: [{ name: 'stock_lots', args: { sku: 'PZN-04877123' }, result: LOTS_IBU400 }] },
          {
            calls: [
              {
                name: 'lot_recall_status',
                args: { lot_no: 'L24K117' },
                result: { af_absent: true, looked_for: 'recall notices for lot L24K117', checked: [{ what: 'BfArM recall list' }, { what: 'manufacturer notices' }] },
              },
            ],
          },
        ],
        answer: 'Good news: there are no recall notices for the older lot L24K117B (240 packs, expiring 2027-03-31). Both the BfArM recall list and the manufacturer\'s notices were checked.',
      },
    ],
  },
  {
    name: 'holdout2-ua-defect-meter-id-from-own-typo',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'held-out 2: the model misspells the meter id in its answer and uses its own misspelling in the next turn',
    kind: 'defect',
    note: 'Turn 1 writes 1ESY1160512354 (last two digits swapped; an unsupported value). With dialogue memory turn 2 calls meter_readings with that typo, which only the model\'s own answer holds (assistant-only). The tool says the meter does not exist; that not-found is the tool\'s, not a refusal.',
    expect: [
      { check: 'unsupported-value', value: '1ESY1160512354' },
      { check: 'unsupported-argument', tool: 'meter_readings', value: '1ESY1160512354' },
    ],
    system: ENERGY_SYSTEM,
    memory: 'dialogue',
    tools: offer2('find_meters', 'meter_readings'),
    declarations: declarations2([declare2('find_meters'), declare2('meter_readings', { argumentsFrom: ['find_meters'] })]),
    turns: [
      {
        user: 'What is the number of my electricity meter? Contract V-2026-88120.',
        steps: [{ calls: [{ name: 'find_meters', args: { contract_no: 'V-2026-88120' }, result: METERS }] }],
        answer: 'Your electricity meter has the number 1ESY1160512354.',
      },
      {
        user: 'Great, and its last reading?',
        steps: [{ calls: [{ name: 'meter_readings', args: { meter_id: '1ESY1160512354' }, result: 'Meter 1ESY1160512354 not found' }] }],
        answer: 'Hmm — the metering system says meter 1ESY1160512354 does not exist, so I can\'t show a reading for it.',
      },
    ],
  },
  {
    name: 'holdout2-ua-clean-dns-change-with-user-target',
    shape: 'traceloop',
    check: 'unsupported-argument',
    class: 'held-out 2: a record change whose zone id and name come from the tools, whose target the user typed and whose TTL is a quantity',
    kind: 'clean',
    note: 'update_record takes every argument from list_zones/list_records. zone_id and name are served whole; the new target lb-eu-2.contoso-cdn.net is in the user message; type CNAME is a served phrase; ttl 1800 is a time in seconds (a quantity like timeout_ms, not an identifier), asked for as "half an hour".',
    expect: [],
    system: DNS_SYSTEM,
    tools: offer2('list_zones', 'list_records', 'update_record'),
    declarations: declarations2([
      declare2('list_zones'),
      declare2('list_records', { argumentsFrom: ['list_zones'] }),
      declare2('update_record', { readOnly: false, argumentsFrom: ['list_zones', 'list_records'] }),
    ]),
    turns: [
      {
        user: 'Please point api.contoso-shop.de at lb-eu-2.contoso-cdn.net instead, and drop its TTL to half an hour while we migrate. Account contoso.',
        steps: [
          { calls: [{ name: 'list_zones', args: { account: 'contoso' }, result: ZONES }] },
          { calls: [{ name: 'list_records', args: { zone_id: 'Z08841632K7LQ2', type: 'CNAME' }, result: [RECORDS_SHOP[1]] }] },
          {
            calls: [
              {
                name: 'update_record',
                args: { zone_id: 'Z08841632K7LQ2', name: 'api.contoso-shop.de', type: 'CNAME', value: 'lb-eu-2.contoso-cdn.net', ttl: 1800 },
                result: { ok: true, change_id: 'C-7H2K91', record: { name: 'api.contoso-shop.de', type: 'CNAME', value: 'lb-eu-2.contoso-cdn.net', ttl: 1800 }, status: 'PENDING' },
              },
            ],
          },
        ],
        answer: 'Done. api.contoso-shop.de is now a CNAME for lb-eu-2.contoso-cdn.net with a TTL of 1800 seconds (30 minutes); before it pointed to lb-eu-1.contoso-cdn.net with a TTL of 3600. The change (C-7H2K91) is pending and should be live everywhere within the old TTL, i.e. within the hour.',
      },
    ],
  },
  {
    name: 'holdout2-ua-clean-claim-no-from-earlier-turn-result',
    shape: 'otel-logs',
    check: 'unsupported-argument',
    class: 'held-out 2: a claim number copied correctly from an earlier turn\'s tool result kept in the window',
    kind: 'clean',
    note: 'memory: full; claim_payments in turn 2 uses CLM-2026-003980, which the turn-1 find_claims result still in the window holds. Amounts in decimal-comma form next to €, dates as DD.MM.YYYY.',
    expect: [],
    system: CLAIMS_SYSTEM,
    memory: 'full',
    tools: offer2('find_claims', 'claim_payments'),
    declarations: declarations2([declare2('find_claims'), declare2('claim_payments', { argumentsFrom: ['find_claims'] })]),
    turns: [
      {
        user: 'List the claims on policy HV-7734-2291.',
        steps: [{ calls: [{ name: 'find_claims', args: { policy_no: 'HV-7734-2291' }, result: CLAIMS }] }],
        answer: 'There are two claims on HV-7734-2291:\n1. CLM-2026-004417 — water damage, reported 12.11.2026, in review\n2. CLM-2026-003980 — bicycle theft, reported 02.08.2026, settled',
      },
      {
        user: 'What was paid out on the bike theft?',
        steps: [
          {
            calls: [
              {
                name: 'claim_payments',
                args: { claim_no: 'CLM-2026-003980' },
                result: { claim_no: 'CLM-2026-003980', payments: [{ paid_on: '2026-08-19', amount_eur: 1150.0, payee: 'M. Okafor' }, { paid_on: '2026-09-02', amount_eur: 240.5, payee: 'M. Okafor' }], total_eur: 1390.5 },
              },
            ],
          },
        ],
        answer: 'Two payments were made on CLM-2026-003980: 1.150,00 € on 19.08.2026 and a further 240,50 € on 02.09.2026, so 1.390,50 € in total, both to M. Okafor.',
      },
    ],
  },
  {
    name: 'holdout2-ua-clean-iban-typed-with-blanks',
    shape: 'vercel',
    check: 'unsupported-argument',
    class: 'held-out 2: the user types an IBAN in groups of four; the model passes it without blanks, as the schema asks',
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
