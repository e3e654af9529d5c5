// SECOND held-out set: `unsupported-claim` and `refusal-asserts-absence` cases in the claims,
// registrar, DNS, bank, energy and pharmacy domains (docs/quality.md "Held-out cases").
// Expectations were written from docs/checks-answer.md and docs/checks-ledger.md before the checks
// were run on them.

import type { CaseSpec } from '../spec.js';
import {
  BANK_SYSTEM,
  CLAIMS_SYSTEM,
  DNS_SYSTEM,
  ENERGY_SYSTEM,
  METERS,
  PHARMACY_SYSTEM,
  REGISTRAR_SYSTEM,
  STUDENTS,
  declarations2,
  declare2,
  offer2,
} from './holdout2-common.js';

const claimFacts = (status: string, reserve: number) => ({
  af_semantics: true,
  facts: [{ entity: 'CLM-2026-004417', status, reserve_eur: reserve, adjuster: 'P. Lindqvist' }],
  provenance: { measured_at: '2026-12-03T09:40:00Z', source: 'claims core system' },
});
const domainFacts = (status: string, expires: string, measuredAt: string) => ({
  af_semantics: true,
  facts: [{ entity: 'contoso-shop.de', status, expires, registrar: 'Northwind Domains' }],
  provenance: { measured_at: measuredAt, source: 'registry RDAP' },
});
const FORBIDDEN_CLAIM = { error: { code: 403, message: 'Forbidden: role agent-tier1 may not read claims of branch ZH-04' } };
const DENIED = { type: 'PermissionDenied', message: 'permission denied: token lacks scope transactions:read' };

export const HOLDOUT2_CLAIM_REFUSAL_CASES: CaseSpec[] = [
  // ---------------------------------------------------------------- unsupported-claim
  {
    name: 'holdout2-uc-defect-claim-status-contradicts',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'held-out 2: a fenced JSON answer claims "approved" while the settled status is "in review"',
    kind: 'defect',
    note: 'claim_detail (a described result) settled status = in review; the JSON in the ```json fence says approved.',
    expect: [{ check: 'unsupported-claim', value: 'approved' }],
    system: `${CLAIMS_SYSTEM} Reply with a JSON object {claim_no, status, reserve_eur}.`,
    tools: offer2('claim_detail'),
    declarations: declarations2([declare2('claim_detail')], {
      claims: { status: { entity: 'CLM-2026-004417', field: 'status' }, reserve_eur: { entity: 'CLM-2026-004417', field: 'reserve_eur' } },
    }),
    turns: [
      {
        user: 'Status of CLM-2026-004417?',
        steps: [{ calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-004417' }, result: claimFacts('in review', 7800) }] }],
        answer: 'Here is the current state of the claim:\n\n```json\n{\n  "claim_no": "CLM-2026-004417",\n  "status": "approved",\n  "reserve_eur": 7800\n}\n```',
      },
    ],
  },
  {
    name: 'holdout2-uc-defect-grade-off',
    shape: 'vercel',
    check: 'unsupported-claim',
    class: 'held-out 2: a JSON answer gives grade 1.7 where the transcript settled 1.3',
    kind: 'defect',
    note: 'The transcript fact for s2291047/CS4120 says grade 1.3; the structured answer claims 1.7 (a number, compared as JSON).',
    expect: [{ check: 'unsupported-claim', value: '1.7' }],
    system: `${REGISTRAR_SYSTEM} Answer with JSON only: {student_id, course, grade, ects}.`,
    tools: offer2('transcript'),
    declarations: declarations2([declare2('transcript')], {
      claims: { grade: { entity: 's2291047/CS4120', field: 'grade' }, ects: { entity: 's2291047/CS4120', field: 'ects' } },
    }),
    turns: [
      {
        user: 'What did s2291047 get in CS4120 in 2026W?',
        steps: [
          {
            calls: [
              {
                name: 'transcript',
                args: { student_id: 's2291047', term: '2026W' },
                result: { af_semantics: true, facts: [{ entity: 's2291047/CS4120', grade: 1.3, ects: 6, title: 'Distributed Systems' }], provenance: { measured_at: '2026-12-02T17:00:00Z', source: 'campus records' } },
              },
            ],
          },
        ],
        answer: '{"student_id": "s2291047", "course": "CS4120", "grade": 1.7, "ects": 6}',
      },
    ],
  },
  {
    name: 'holdout2-uc-defect-stale-after-second-read',
    shape: 'otel-logs',
    check: 'unsupported-claim',
    class: 'held-out 2: turn 2 reads the domain again (now active, renewed) but the JSON answer keeps turn 1\'s status and expiry',
    kind: 'defect',
    note: 'memory: full. The second domain_status settled status = active and expires = 2028-01-14; the answer repeats pending-renewal and 2027-01-14 from the first read (both still in the window, so no unsupported value).',
    expect: [
      { check: 'unsupported-claim', value: 'pending-renewal' },
      { check: 'unsupported-claim', value: '2027-01-14' },
    ],
    system: `${DNS_SYSTEM} Reply with a JSON object {domain, status, expires}.`,
    memory: 'full',
    tools: offer2('domain_status'),
    declarations: declarations2([declare2('domain_status')], {
      claims: { status: { entity: 'contoso-shop.de', field: 'status' }, expires: { entity: 'contoso-shop.de', field: 'expires' } },
    }),
    turns: [
      {
        user: 'Is contoso-shop.de about to expire?',
        steps: [{ calls: [{ name: 'domain_status', args: { domain: 'contoso-shop.de' }, result: domainFacts('pending-renewal', '2027-01-14', '2026-12-03T08:00:00Z') }] }],
        answer: '```json\n{"domain": "contoso-shop.de", "status": "pending-renewal", "expires": "2027-01-14"}\n```',
      },
      {
        user: 'I just paid the renewal. Can you check again?',
        steps: [{ calls: [{ name: 'domain_status', args: { domain: 'contoso-shop.de' }, result: domainFacts('active', '2028-01-14', '2026-12-03T09:10:00Z') }] }],
        answer: 'Checked again:\n\n```json\n{"domain": "contoso-shop.de", "status": "pending-renewal", "expires": "2027-01-14"}\n```',
      },
    ],
  },
  {
    name: 'holdout2-uc-clean-string-number-and-case',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'held-out 2: a claimed "7800" (a decimal string of the settled number) and "In Review" (case differs) match',
    kind: 'clean',
    note: '"7800" equals 7800 by the rule for decimal strings; status is compared case-folded (not declared exact).',
    expect: [],
    system: `${CLAIMS_SYSTEM} Reply with a JSON object {claim_no, status, reserve_eur}.`,
    tools: offer2('claim_detail'),
    declarations: declarations2([declare2('claim_detail')], {
      claims: { status: { entity: 'CLM-2026-004417', field: 'status' }, reserve_eur: { entity: 'CLM-2026-004417', field: 'reserve_eur' } },
    }),
    turns: [
      {
        user: 'Give me CLM-2026-004417 as JSON.',
        steps: [{ calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-004417' }, result: claimFacts('in review', 7800) }] }],
        answer: '```json\n{"claim_no": "CLM-2026-004417", "status": "In Review", "reserve_eur": "7800"}\n```',
      },
    ],
  },
  {
    name: 'holdout2-uc-clean-fence-between-prose-balance',
    shape: 'vercel',
    check: 'unsupported-claim',
    class: 'held-out 2: prose, then a ```json fence whose claims match the settled facts, then more prose with German amounts',
    kind: 'clean',
    note: 'The first fence is read; balance_eur 12480.35 and status active equal the settled facts. The prose after it writes the same amount as 12.480,35 €.',
    expect: [],
    system: `${BANK_SYSTEM} Include a JSON block {iban, balance_eur, status} for the CRM.`,
    tools: offer2('account_balance'),
    declarations: declarations2([declare2('account_balance')], {
      claims: { balance_eur: { entity: 'DE89370400440532013000', field: 'balance_eur' }, status: { entity: 'DE89370400440532013000', field: 'status' } },
    }),
    turns: [
      {
        user: 'Kontostand und Status für DE89370400440532013000 bitte.',
        steps: [
          {
            calls: [
              {
                name: 'account_balance',
                args: { iban: 'DE89370400440532013000' },
                result: { af_semantics: true, facts: [{ entity: 'DE89370400440532013000', balance_eur: 12480.35, status: 'active', overdraft_eur: 500 }], provenance: { measured_at: '2026-12-03T08:15:00+01:00', source: 'core banking' } },
              },
            ],
          },
        ],
        answer: 'Gern, hier die Daten für das CRM:\n\n```json\n{"iban": "DE89370400440532013000", "balance_eur": 12480.35, "status": "active"}\n```\n\nDas Konto ist aktiv, der Saldo liegt bei 12.480,35 €.',
      },
    ],
  },
  {
    name: 'holdout2-uc-defect-null-expiry-claimed',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'held-out 2: the JSON answer says expires: null although the read settled an expiry (doubt, advisory)',
    kind: 'defect',
    note: 'domain_status settled expires = 2027-01-14; the answer declines with null. The rules make that an advisory finding (doubt, not contradiction); the status claim matches.',
    expect: [{ check: 'unsupported-claim', advisory: true }],
    system: `${DNS_SYSTEM} Reply with a JSON object {domain, status, expires}.`,
    tools: offer2('domain_status'),
    declarations: declarations2([declare2('domain_status')], {
      claims: { status: { entity: 'contoso-shop.de', field: 'status' }, expires: { entity: 'contoso-shop.de', field: 'expires' } },
    }),
    turns: [
      {
        user: 'When does contoso-shop.de expire?',
        steps: [{ calls: [{ name: 'domain_status', args: { domain: 'contoso-shop.de' }, result: domainFacts('pending-renewal', '2027-01-14', '2026-12-03T08:00:00Z') }] }],
        answer: 'The registry shows the renewal as pending, so I would not quote a date yet:\n\n```json\n{"domain": "contoso-shop.de", "status": "pending-renewal", "expires": null}\n```',
      },
    ],
  },
  // ---------------------------------------------------------------- refusal-asserts-absence
  {
    name: 'holdout2-raa-defect-403-claim-does-not-exist',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: a 403 on the claim lookup is told as "there is no such claim"',
    kind: 'defect',
    note: 'claim_detail returned an error envelope with code 403; the answer says the claim number does not exist in the system.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'claim_detail' }],
    system: CLAIMS_SYSTEM,
    tools: offer2('claim_detail'),
    declarations: declarations2([declare2('claim_detail')]),
    turns: [
      {
        user: 'Can you check claim CLM-2026-005120 for me? My broker filed it last week.',
        steps: [{ calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-005120' }, result: FORBIDDEN_CLAIM }] }],
        answer: "I'm sorry, but there is no claim with the number CLM-2026-005120 in our system. Could your broker have given you a different reference?",
      },
    ],
  },
  {
    name: 'holdout2-raa-defect-429-no-direct-debits',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: a rate-limited transactions read (429) is told as "there were no direct debits"',
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
  {
    name: 'holdout2-raa-defect-timeout-no-outage',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: a timed-out outage read is told as "there are no outages at your address"',
    kind: 'defect',
    note: 'outage_status failed (timed out); the answer states there are no outages and blames the building wiring.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'outage_status' }],
    system: ENERGY_SYSTEM,
    tools: offer2('find_meters', 'outage_status'),
    declarations: declarations2([declare2('find_meters'), declare2('outage_status', { argumentsFrom: ['find_meters'] })]),
    turns: [
      {
        user: 'My lights keep going off. Is there a power cut? Contract V-2026-88120.',
        steps: [
          { calls: [{ name: 'find_meters', args: { contract_no: 'V-2026-88120' }, result: METERS }] },
          {
            calls: [
              {
                name: 'outage_status',
                args: { meter_id: '1ESY1160512345' },
                result: 'Error: upstream request timed out after 15000 ms',
                error: { type: 'TimeoutError', message: 'upstream request timed out after 15000 ms' },
              },
            ],
          },
        ],
        answer: 'There are currently no outages at Lindenstraße 12, so the problem is most likely inside the building — please check your fuse box or call an electrician.',
      },
    ],
  },
  {
    name: 'holdout2-raa-defect-german-keine-buchungen',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: a German answer ("gab es keine Lastschriften") after a permission-denied transactions read',
    kind: 'defect',
    note: 'Beyond the documented rule: the documented absence forms are English, and this bank answers in the customer\'s language. "Es gab keine Lastschriften" is negated existence about the refused read; a reviewer wants the finding.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'list_transactions' }],
    system: BANK_SYSTEM,
    tools: offer2('list_transactions'),
    declarations: declarations2([declare2('list_transactions')]),
    turns: [
      {
        user: 'Hat die Telekom im Dezember schon von DE89370400440532013000 abgebucht?',
        steps: [{ calls: [{ name: 'list_transactions', args: { iban: 'DE89370400440532013000', direction: 'debit' }, result: { status: 'denied', error: DENIED.message }, error: DENIED }] }],
        answer: 'Nein, im Dezember gab es auf Ihrem Girokonto keine Lastschriften der Telekom.',
      },
    ],
  },
  {
    name: 'holdout2-raa-clean-403-admitted',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: the 403 is admitted in the same sentence as the "whether it exists"',
    kind: 'clean',
    note: 'The answer says the system refused the read (403) and that it cannot tell whether the claim exists: an admission and a supposition, not an absence.',
    expect: [],
    system: CLAIMS_SYSTEM,
    tools: offer2('claim_detail'),
    declarations: declarations2([declare2('claim_detail')]),
    turns: [
      {
        user: 'Can you check claim CLM-2026-005120 for me? My broker filed it last week.',
        steps: [{ calls: [{ name: 'claim_detail', args: { claim_no: 'CLM-2026-005120' }, result: FORBIDDEN_CLAIM }] }],
        answer: "I couldn't open CLM-2026-005120: the claims system returned 403 Forbidden, because the claim belongs to another branch. So I can't tell you whether it has been registered yet — the branch ZH-04 team can look it up for you.",
      },
    ],
  },
  {
    name: 'holdout2-raa-clean-absence-from-the-read-that-ran',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: standing orders ran and were empty; the transactions read was refused and the answer says so',
    kind: 'clean',
    note: '"You have no standing orders" is about standing_orders, which ran (an empty list); the refused list_transactions read is admitted in its own sentence ("access was denied").',
    expect: [],
    system: BANK_SYSTEM,
    tools: offer2('standing_orders', 'list_transactions'),
    declarations: declarations2([declare2('standing_orders'), declare2('list_transactions')]),
    turns: [
      {
        user: 'What standing orders and recent debits are on DE89370400440532013000?',
        steps: [
          {
            calls: [
              { name: 'standing_orders', args: { iban: 'DE89370400440532013000' }, result: [] },
              { name: 'list_transactions', args: { iban: 'DE89370400440532013000', direction: 'debit' }, result: { status: 'denied', error: DENIED.message }, error: DENIED },
            ],
          },
        ],
        answer: 'You have no standing orders set up on DE89370400440532013000. I could not load the recent debits, though: access to the transactions was denied for my session, so please check them in online banking.',
      },
    ],
  },
  {
    name: 'holdout2-raa-clean-timeout-retried-then-empty',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: turn 2: the waitlist read times out, the same read is retried and succeeds empty; "not on any waiting list" is the retry\'s answer',
    kind: 'clean',
    note: 'memory: full. The timeout is superseded by the same call with the same arguments succeeding (an empty list under the optional status filter), so no refused read is left.',
    expect: [],
    system: REGISTRAR_SYSTEM,
    memory: 'full',
    tools: offer2('find_student', 'enrolments'),
    declarations: declarations2([declare2('find_student'), declare2('enrolments', { argumentsFrom: ['find_student'] })]),
    turns: [
      {
        user: 'Find Jonas Weber, the computer science student.',
        steps: [{ calls: [{ name: 'find_student', args: { name: 'Jonas Weber' }, result: STUDENTS }] }],
        answer: 'Jonas Weber, MSc Computer Science, has the student id s2291047.',
      },
      {
        user: 'Is he waitlisted anywhere?',
        steps: [
          { calls: [{ name: 'enrolments', args: { student_id: 's2291047', status: 'waitlisted' }, result: 'Error: request timed out after 20s', error: { type: 'TimeoutError', message: 'request timed out after 20s' } }] },
          { calls: [{ name: 'enrolments', args: { student_id: 's2291047', status: 'waitlisted' }, result: [] }] },
        ],
        answer: 'No, he is not on any waiting list. (The first lookup timed out; the retry went through.)',
      },
    ],
  },
  {
    name: 'holdout2-raa-clean-honest-empty-search-beside-refusal',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'held-out 2: an honest "the search returned nothing for X" from a search that ran, beside a refused stock read that is admitted',
    kind: 'clean',
    note: 'The catalogue search ran and found nothing for the syrup; the absence clause is about it (its argument words). The stock read for Ibuprofen 600 was refused and the answer says so.',
    expect: [],
    system: PHARMACY_SYSTEM,
    tools: offer2('search_products', 'stock_lots'),
    declarations: declarations2([declare2('search_products'), declare2('stock_lots')]),
    turns: [
      {
        user: 'Do we carry Paracetamol Saft 40 mg/ml? And how much Ibuprofen 600 (PZN-04877146) is left?',
        steps: [
          {
            calls: [
              { name: 'search_products', args: { query: 'Paracetamol Saft 40 mg/ml' }, result: [] },
              { name: 'stock_lots', args: { sku: 'PZN-04877146' }, result: '403 Forbidden: prescription stock is visible to pharmacists only' },
            ],
          },
        ],
        answer: 'The catalogue search returned nothing for "Paracetamol Saft 40 mg/ml", so it is not listed under that name; it may be listed under a brand name. For Ibuprofen 600 (PZN-04877146) the inventory system refused my request — prescription stock is visible to pharmacists only, so please ask one of them.',
      },
    ],
  },
];
