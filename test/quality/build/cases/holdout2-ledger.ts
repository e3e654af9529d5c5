// SECOND held-out set: `empty-lookup` and `result-columns` cases in the bank, claims, energy,
// registrar, DNS and pharmacy domains (docs/quality.md "Held-out cases"). Expectations were written
// from docs/checks-ledger.md before the checks were run on them.

import type { CaseSpec } from '../spec.js';
import {
  BANK_ACCOUNTS,
  BANK_SYSTEM,
  CLAIMS,
  CLAIMS_SYSTEM,
  DNS_SYSTEM,
  ENERGY_SYSTEM,
  METERS,
  PHARMACY_SYSTEM,
  PRODUCTS,
  REGISTRAR_SYSTEM,
  STUDENTS,
  declarations2,
  declare2,
  offer2,
} from './holdout2-common.js';

export const HOLDOUT2_LEDGER_CASES: CaseSpec[] = [
  // ---------------------------------------------------------------- empty-lookup
  {
    name: 'holdout2-el-defect-standing-orders-empty',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'held-out 2: an IBAN the account list served finds no standing orders (a bare empty list)',
    kind: 'defect',
    note: 'find_accounts served DE89370400440532013000; standing_orders returned [] for it. Possibly true, so advisory: a place to look.',
    expect: [{ check: 'empty-lookup', tool: 'standing_orders', value: 'DE89370400440532013000', advisory: true }],
    system: BANK_SYSTEM,
    tools: offer2('find_accounts', 'standing_orders'),
    declarations: declarations2([declare2('find_accounts'), declare2('standing_orders', { argumentsFrom: ['find_accounts'] })]),
    turns: [
      {
        user: 'Habe ich auf meinem Girokonto noch Daueraufträge laufen? Kundennummer 31822904.',
        steps: [
          { calls: [{ name: 'find_accounts', args: { customer_no: '31822904' }, result: BANK_ACCOUNTS }] },
          { calls: [{ name: 'standing_orders', args: { iban: 'DE89370400440532013000' }, result: [] }] },
        ],
        answer: 'Auf Ihrem Girokonto Plus (DE89370400440532013000) sind derzeit keine Daueraufträge eingerichtet.',
      },
    ],
  },
  {
    name: 'holdout2-el-defect-claim-payments-404-second-turn',
    shape: 'vercel',
    check: 'empty-lookup',
    class: 'held-out 2: in turn 2 a claim number served in turn 1 comes back 404 from the payments tool',
    kind: 'defect',
    note: 'A 404 is the tool establishing absence for CLM-2026-004417 (a declared absence, not a refusal), and find_claims served that number earlier in the conversation: advisory empty-lookup. The answer\'s "no record" rests on a real not-found, so no refusal finding.',
    expect: [{ check: 'empty-lookup', tool: 'claim_payments', value: 'CLM-2026-004417', advisory: true }],
    system: CLAIMS_SYSTEM,
    memory: 'full',
    tools: offer2('find_claims', 'claim_payments'),
    declarations: declarations2([declare2('find_claims'), declare2('claim_payments', { argumentsFrom: ['find_claims'] })]),
    turns: [
      {
        user: 'Which claims do I have on HV-7734-2291?',
        steps: [{ calls: [{ name: 'find_claims', args: { policy_no: 'HV-7734-2291' }, result: CLAIMS }] }],
        answer: 'You have two: CLM-2026-004417 for the water damage (in review) and CLM-2026-003980 for the stolen bicycle (settled).',
      },
      {
        user: 'Has anything been paid on the water damage yet?',
        steps: [{ calls: [{ name: 'claim_payments', args: { claim_no: 'CLM-2026-004417' }, result: { error: 'not_found', status: 404, message: 'no payments recorded for claim CLM-2026-004417' } }] }],
        answer: 'Not yet. The payments system has no record of any payment on CLM-2026-004417, which is normal while a claim is still in review.',
      },
    ],
  },
  {
    name: 'holdout2-el-defect-outage-declared-absent',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'held-out 2: a declared absence (af_absent) with a coverage gap for a meter id the producer served',
    kind: 'defect',
    note: 'outage_status declared that it found nothing for 1ESY1160512345 and did not check the last hour of unplanned faults; the id came from find_meters, so a reviewer wants the advisory.',
    expect: [{ check: 'empty-lookup', tool: 'outage_status', value: '1ESY1160512345', advisory: true }],
    system: ENERGY_SYSTEM,
    tools: offer2('find_meters', 'outage_status'),
    declarations: declarations2([declare2('find_meters'), declare2('outage_status', { argumentsFrom: ['find_meters'] })]),
    turns: [
      {
        user: 'Is there an outage at my place? My power is flickering. Contract V-2026-88120.',
        steps: [
          { calls: [{ name: 'find_meters', args: { contract_no: 'V-2026-88120' }, result: METERS }] },
          {
            calls: [
              {
                name: 'outage_status',
                args: { meter_id: '1ESY1160512345' },
                result: {
                  af_absent: true,
                  looked_for: 'outages at the location of meter 1ESY1160512345',
                  checked: [{ what: 'planned maintenance calendar' }],
                  not_checked: [{ what: 'unplanned faults of the last hour', why: 'grid feed delayed', kind: 'scope' }],
                },
              },
            ],
          },
        ],
        answer: 'There is no planned maintenance at Lindenstraße 12 (electricity meter 1ESY1160512345). However, reports of unplanned faults from the last hour weren\'t included because the grid feed is delayed — if the flickering continues, please call our fault line.',
      },
    ],
  },
  {
    name: 'holdout2-el-clean-waitlist-enum-filter',
    shape: 'traceloop',
    check: 'empty-lookup',
    class: 'held-out 2: an empty list under an optional enum filter (status waitlisted) is an answer, not a broken join',
    kind: 'clean',
    note: 'enrolments was called with the optional status enum value waitlisted; nothing on the waiting list is the answer to the question.',
    expect: [],
    system: REGISTRAR_SYSTEM,
    tools: offer2('find_student', 'enrolments'),
    declarations: declarations2([declare2('find_student'), declare2('enrolments', { argumentsFrom: ['find_student'] })]),
    turns: [
      {
        user: 'Is Jonas Weber from Computer Science still on any waiting lists?',
        steps: [
          { calls: [{ name: 'find_student', args: { name: 'Jonas Weber' }, result: STUDENTS }] },
          { calls: [{ name: 'enrolments', args: { student_id: 's2291047', status: 'waitlisted' }, result: [] }] },
        ],
        answer: 'No — Jonas Weber (s2291047, MSc Computer Science) isn\'t waitlisted for any course at the moment.',
      },
    ],
  },
  {
    name: 'holdout2-el-clean-zone-with-zero-records',
    shape: 'vercel',
    check: 'empty-lookup',
    class: 'held-out 2: the producer\'s own record says the zone has record_count 0, so the empty record list explains itself',
    kind: 'clean',
    note: 'list_zones served the staging zone with record_count: 0 beside its id; list_records returning [] for it is what the producer already said.',
    expect: [],
    system: DNS_SYSTEM,
    tools: offer2('list_zones', 'list_records'),
    declarations: declarations2([declare2('list_zones'), declare2('list_records', { argumentsFrom: ['list_zones'] })]),
    turns: [
      {
        user: 'What records does the staging zone of account contoso have?',
        steps: [
          {
            calls: [
              {
                name: 'list_zones',
                args: { account: 'contoso' },
                result: [
                  { zone_id: 'Z08841632K7LQ2', name: 'contoso-shop.de', record_count: 14 },
                  { zone_id: 'Z07770151PQ3AB', name: 'contoso-staging.de', record_count: 0 },
                ],
              },
            ],
          },
          { calls: [{ name: 'list_records', args: { zone_id: 'Z07770151PQ3AB' }, result: [] }] },
        ],
        answer: 'The zone contoso-staging.de (Z07770151PQ3AB) exists but is empty: it has no records yet, so no name under it resolves. Want me to add an A record?',
      },
    ],
  },
  {
    name: 'holdout2-el-defect-empty-transcript-told-as-nonexistent',
    shape: 'otel-logs',
    check: 'empty-lookup',
    class: 'held-out 2: a transcript read for a student id the search served comes back as an empty list, and the answer calls the record nonexistent',
    kind: 'defect',
    note: 'find_student served s2291047; transcript (student_id named from find_student) returned [] for it. The answer overstates an empty list as "does not exist"; no read was refused, so this is the empty-lookup advisory only.',
    expect: [{ check: 'empty-lookup', tool: 'transcript', value: 's2291047', advisory: true }],
    system: REGISTRAR_SYSTEM,
    tools: offer2('find_student', 'transcript'),
    declarations: declarations2([declare2('find_student'), declare2('transcript', { argumentsFrom: { student_id: ['find_student'] } })]),
    turns: [
      {
        user: 'Can I get the grades of Jonas Weber (Computer Science) for the summer term 2026?',
        steps: [
          { calls: [{ name: 'find_student', args: { name: 'Jonas Weber' }, result: STUDENTS }] },
          { calls: [{ name: 'transcript', args: { student_id: 's2291047', term: '2026S' }, result: [] }] },
        ],
        answer: 'There is no transcript for Jonas Weber (s2291047) for the summer term 2026 — that record does not exist, so he was probably not enrolled that term.',
      },
    ],
  },
  // ---------------------------------------------------------------- result-columns
  {
    name: 'holdout2-rc-defect-expiry-not-a-date',
    shape: 'traceloop',
    check: 'result-columns',
    class: 'held-out 2: a date column holding "n/a" in one lot row',
    kind: 'defect',
    note: 'stock_lots declares expiry as a date; the third lot serves "n/a". A reviewer wants the type mismatch: an expiry the pharmacy cannot sort or alert on.',
    expect: [{ check: 'result-columns', kind: 'column-type-mismatch', tool: 'stock_lots', value: 'expiry' }],
    system: PHARMACY_SYSTEM,
    tools: offer2('search_products', 'stock_lots'),
    declarations: declarations2([declare2('search_products'), declare2('stock_lots', { argumentsFrom: ['search_products'], resultColumns: { lot_no: 'string', expiry: 'date', qty: 'number' } })]),
    turns: [
      {
        user: 'Which Ibuprofen 400 lots do we have, and when do they expire?',
        steps: [
          { calls: [{ name: 'search_products', args: { query: 'Ibuprofen 400' }, result: PRODUCTS }] },
          {
            calls: [
              {
                name: 'stock_lots',
                args: { sku: 'PZN-04877123' },
                result: [
                  { lot_no: 'L24K117B', expiry: '2027-03-31', qty: 240, location: 'A-03-2' },
                  { lot_no: 'L25B009A', expiry: '2028-01-31', qty: 1180, location: 'A-03-4' },
                  { lot_no: 'L23R552C', expiry: 'n/a', qty: 12, location: 'RET-01' },
                ],
              },
            ],
          },
        ],
        answer: 'We hold three lots of Ibuprofen 400 mg (PZN-04877123):\n\n| Lot | Expiry | Packs |\n|---|---|---|\n| L24K117B | 31.03.2027 | 240 |\n| L25B009A | 31.01.2028 | 1180 |\n| L23R552C | not recorded | 12 |\n\nL23R552C sits in the returns shelf and has no expiry on file.',
      },
    ],
  },
  {
    name: 'holdout2-rc-defect-kwh-as-german-string',
    shape: 'vercel',
    check: 'result-columns',
    class: 'held-out 2: a number column served as locale-formatted strings ("48.213,4")',
    kind: 'defect',
    note: 'meter_readings declares value_kwh as number; the billing gateway formats it for display. The answer reads the strings correctly, which does not make the column well typed.',
    expect: [{ check: 'result-columns', kind: 'column-type-mismatch', tool: 'meter_readings', value: 'value_kwh' }],
    system: ENERGY_SYSTEM,
    tools: offer2('find_meters', 'meter_readings'),
    declarations: declarations2([declare2('find_meters'), declare2('meter_readings', { argumentsFrom: ['find_meters'], resultColumns: { read_at: 'date', value_kwh: 'number', kind: 'string' } })]),
    turns: [
      {
        user: 'What did my electricity meter read over the last two months? Contract V-2026-88120.',
        steps: [
          { calls: [{ name: 'find_meters', args: { contract_no: 'V-2026-88120' }, result: METERS }] },
          {
            calls: [
              {
                name: 'meter_readings',
                args: { meter_id: '1ESY1160512345' },
                result: [
                  { read_at: '2026-11-30T23:59:00+01:00', value_kwh: '48.213,4', kind: 'actual' },
                  { read_at: '2026-10-31T23:59:00+01:00', value_kwh: '47.901,1', kind: 'actual' },
                ],
              },
            ],
          },
        ],
        answer: 'Your electricity meter (1ESY1160512345) read 48.213,4 kWh on 30.11.2026 and 47.901,1 kWh on 31.10.2026 — both actual readings.',
      },
    ],
  },
  {
    name: 'holdout2-rc-defect-amount-column-renamed',
    shape: 'otel-logs',
    check: 'result-columns',
    class: 'held-out 2: a declared column no row has (amount renamed betrag by a localised API)',
    kind: 'defect',
    note: 'list_transactions declares amount; every row carries betrag instead. The answer quotes betrag correctly; the contract is still broken.',
    expect: [{ check: 'result-columns', kind: 'missing-column', tool: 'list_transactions', value: 'amount' }],
    system: BANK_SYSTEM,
    tools: offer2('find_accounts', 'list_transactions'),
    declarations: declarations2([
      declare2('find_accounts'),
      declare2('list_transactions', { argumentsFrom: ['find_accounts'], resultColumns: { booking_date: 'date', amount: 'number', counterparty: 'string' } }),
    ]),
    turns: [
      {
        user: 'Show me the last bookings on my Girokonto, customer number 31822904.',
        steps: [
          { calls: [{ name: 'find_accounts', args: { customer_no: '31822904' }, result: BANK_ACCOUNTS }] },
          {
            calls: [
              {
                name: 'list_transactions',
                args: { iban: 'DE89370400440532013000' },
                result: [
                  { booking_date: '2026-12-01', betrag: 89.9, art: 'Lastschrift', counterparty: 'Telekom Deutschland GmbH' },
                  { booking_date: '2026-11-30', betrag: 4850.0, art: 'Gutschrift', counterparty: 'Fabrikam GmbH' },
                  { booking_date: '2026-11-28', betrag: 1234.5, art: 'Lastschrift', counterparty: 'Stadtwerke Hamburg' },
                ],
              },
            ],
          },
        ],
        answer: 'Here are the three most recent bookings on DE89370400440532013000:\n\n- 01.12.2026 — direct debit, Telekom Deutschland GmbH: 89,90 €\n- 30.11.2026 — credit, Fabrikam GmbH: 4.850,00 €\n- 28.11.2026 — direct debit, Stadtwerke Hamburg: 1.234,50 €',
      },
    ],
  },
  {
    name: 'holdout2-rc-clean-nullable-offset-and-zero',
    shape: 'traceloop',
    check: 'result-columns',
    class: 'held-out 2: a nullable date left null, dates with a +01:00 offset and a reserve of 0 all pass',
    kind: 'clean',
    note: 'closed is declared nullable and is null for the open claim; reported carries an offset; reserve_eur 0 for a settled claim is a finite number.',
    expect: [],
    system: CLAIMS_SYSTEM,
    tools: offer2('find_claims'),
    declarations: declarations2([
      declare2('find_claims', { resultColumns: { claim_no: 'string', reported: 'date', closed: { type: 'date', nullable: true }, reserve_eur: 'number' } }),
    ]),
    turns: [
      {
        user: 'Give me an overview of the claims on HV-7734-2291 with their reserves.',
        steps: [
          {
            calls: [
              {
                name: 'find_claims',
                args: { policy_no: 'HV-7734-2291' },
                result: [
                  { claim_no: 'CLM-2026-004417', reported: '2026-11-12T10:41:00+01:00', closed: null, reserve_eur: 7800, status: 'in review' },
                  { claim_no: 'CLM-2026-003980', reported: '2026-08-02T18:05:00+02:00', closed: '2026-09-02', reserve_eur: 0, status: 'settled' },
                ],
              },
            ],
          },
        ],
        answer: '```\nclaim            reported    status     reserve\nCLM-2026-004417  2026-11-12  in review  7.800,00 €\nCLM-2026-003980  2026-08-02  settled        0,00 €\n```\nThe bicycle theft was closed on 2 September; the water damage claim is still open.',
      },
    ],
  },
  {
    name: 'holdout2-rc-clean-rows-at-nested-records',
    shape: 'vercel',
    check: 'result-columns',
    class: 'held-out 2: rows under a declared dotted rowsAt (data.records), well typed, with extra columns',
    kind: 'clean',
    note: 'list_records wraps its rows as {data: {zone, records: [...]}}; rowsAt data.records points there. Every declared column is present and typed; priority is an extra column.',
    expect: [],
    system: DNS_SYSTEM,
    tools: offer2('list_zones', 'list_records'),
    declarations: declarations2([
      declare2('list_zones'),
      declare2('list_records', { argumentsFrom: ['list_zones'], rowsAt: 'data.records', resultColumns: { name: 'string', type: 'string', value: 'string', ttl: 'number' } }),
    ]),
    memory: 'full',
    turns: [
      {
        user: 'Which zones does account contoso have?',
        steps: [{ calls: [{ name: 'list_zones', args: { account: 'contoso' }, result: [{ zone_id: 'Z09913370MMX41', name: 'contoso-mail.net', record_count: 2 }] }] }],
        answer: 'Just one: contoso-mail.net (zone Z09913370MMX41).',
      },
      {
        user: 'And its mail records?',
        steps: [
          {
            calls: [
              {
                name: 'list_records',
                args: { zone_id: 'Z09913370MMX41', type: 'MX' },
                result: {
                  data: {
                    zone: 'contoso-mail.net',
                    records: [
                      { name: 'contoso-mail.net', type: 'MX', value: 'mx1.mailhost.example', ttl: 3600, priority: 10 },
                      { name: 'contoso-mail.net', type: 'MX', value: 'mx2.mailhost.example', ttl: 3600, priority: 20 },
                    ],
                  },
                },
              },
            ],
          },
        ],
        answer: 'contoso-mail.net has two MX records, both with a TTL of one hour (3600 s): mx1.mailhost.example (priority 10) and the backup mx2.mailhost.example (priority 20).',
      },
    ],
  },
];
