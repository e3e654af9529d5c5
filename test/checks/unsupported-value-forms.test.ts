// Pins unsupported-value past exact tokens, on realistic answers over realistic results, read as
// typed values (src/values): dates in US, European and written forms meet the served ISO date (and
// a wrong date in those forms is a finding, quoted as written); 12-hour times meet 24-hour ones;
// phones compare as phone numbers; rounding to the precision the answer states (and only that),
// hedges; unit conversions (percent of a ratio, cents, bytes, seconds); a number equal to the sum,
// difference, product or ratio of two or three served numbers PASSES as derived, its formula kept
// as the witness (`derived`), and the search stays bounded on a big window; user-text forms exempt
// as plain tokens do.
import { describe, it, expect } from 'vitest';
import { unsupportedValues, type UnsupportedValueInput, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';
import { readForms, readNumbers } from '../../src/values/read.js';
import { meetsNumber, type StatedNumber } from '../../src/values/derive.js';

/** The first reading of a number as an answer states it. */
const stated = (raw: string, hedged = false): StatedNumber => ({ ...readNumbers(raw, 1)[0]!.numbers![0]!, hedged });
import { VALUE_SEARCH_LIMITS } from '../../src/limits.js';

const span = { traceId: '7d3f0c9a1e2b4c5d6e7f8091a2b3c4d5', spanId: 'a1b2c3d4e5f60718' };
const TURN = span.traceId;

const JOBS: WindowResult = {
  text: JSON.stringify([
    { job: 'nightly-db-primary-full', machine: 'srv-db-04', status: 'ok', finished_at: '2025-11-30T02:00:00Z', bytes: 1610612736, duration_s: 5400 },
    { job: 'hourly-db-primary-wal', machine: 'srv-db-04', status: 'ok', finished_at: '2025-11-30T14:30:00Z', bytes: 52428800, duration_s: 95 },
  ]),
  toolName: 'backup_jobs',
  callId: 'call_bj_002',
  request: 2,
  turnTraceId: TURN,
};
const SLA: WindowResult = {
  text: JSON.stringify({ service: 'orders-api', availability: 0.9995, p99_latency_ms: 412.53, requests_30d: 41187342, error_count: 20594 }),
  toolName: 'sla_report',
  callId: 'call_sla_001',
  request: 3,
  turnTraceId: TURN,
};
const CONTACT: WindowResult = {
  text: JSON.stringify({ on_call: 'Dana Whitfield', phone: '+14155550132', escalation: '(415) 555-0199' }),
  toolName: 'on_call',
  callId: 'call_oc_001',
  request: 4,
  turnTraceId: TURN,
};
const INVOICES: WindowResult = {
  text: JSON.stringify({
    customer: 'acme',
    invoices: [
      { id: 'INV-2025-0412', amount_cents: 1249900, due: '2025-12-15' },
      { id: 'INV-2025-0413', amount_cents: 384050, due: '2025-12-15' },
      { id: 'INV-2025-0419', amount_cents: 76125, due: '2026-01-05' },
    ],
  }),
  toolName: 'list_invoices',
  callId: 'call_inv_001',
  request: 5,
  turnTraceId: TURN,
};
const USAGE: WindowResult = {
  text: '{"volume":"vol-db-04a","size_gb":1840,"used_gb":1312,"snapshots":3,"peak_iops":38200}',
  toolName: 'volume_stats',
  callId: 'call_vs_001',
  request: 6,
  turnTraceId: TURN,
};

function run(answerText: string, windowResults: WindowResult[], over: Partial<UnsupportedValueInput> = {}) {
  return unsupportedValues({
    span,
    answerText,
    windowResults,
    exemptTexts: ['You are an operations assistant for acme.', 'How did last night go?'],
    bounds: { ...DEFAULT_EVIDENCE_BOUNDS },
    ...over,
  });
}

describe('unit: canonical forms meet the served value', () => {
  it('a date in US, European, dotted and written forms meets the served ISO date-time', () => {
    for (const answer of [
      'The full backup of srv-db-04 finished on 11/30/2025.',
      'The full backup of srv-db-04 finished on 30/11/2025.',
      'The full backup of srv-db-04 finished on 30.11.2025.',
      'The full backup of srv-db-04 finished on 30 November 2025.',
      'The full backup of srv-db-04 finished on Nov 30, 2025.',
      'The full backup of srv-db-04 finished on Sunday, November 30th, 2025.',
    ]) {
      const out = run(answer, [JOBS]);
      expect(out.findings, answer).toEqual([]);
      expect(out.grounded.map((g) => g.toolName), answer).toEqual(['backup_jobs', 'backup_jobs']);
    }
  });

  it('a wrong date in those forms is one finding, quoted as written and keyed by its ISO date', () => {
    const out = run('The full backup of srv-db-04 finished on Nov 29, 2025.', [JOBS]);
    expect(out.findings.map((f) => [f.predicate, f.value, f.grounding])).toEqual([['2025-11-29', 'Nov 29, 2025', 'nowhere']]);
    // Before canonical forms the year alone was judged, and 2025 is served: the wrong date passed.
    expect(run('It finished on 12/01/2025.', [JOBS]).findings.map((f) => f.value)).toEqual(['12/01/2025']);
  });

  it('an ambiguous day/month meets the served date either way; an impossible one is no date', () => {
    const served: WindowResult = { ...JOBS, text: '{"restore_test":"2025-04-03"}' };
    expect(run('The restore test ran on 03/04/2025 and on 04/03/2025.', [served]).findings).toEqual([]);
    expect(readForms('on 13/13/2025', 10, false)).toEqual([]);
  });

  it('a 12-hour time meets the served 24-hour time; a wrong hour does not', () => {
    expect(run('srv-db-04 finished its full backup at 2:00 AM UTC and its WAL backup at 2:30 PM.', [JOBS]).findings).toEqual([]);
    expect(run('The WAL backup ran at 14:30; the full one at 2:00.', [JOBS]).findings).toEqual([]);
    // A served 10:30:00 in text serves 10:30 too.
    expect(run('The restore drill started at 10:30 on 2025-12-02.', [{ ...JOBS, text: 'Restore drill started 2025-12-02 10:30:00 UTC, finished 11:05:12 UTC.' }]).findings).toEqual([]);
    const wrong = run('The WAL backup ran at 2:30 AM.', [JOBS]);
    expect(wrong.findings.map((f) => [f.predicate, f.value])).toEqual([['02:30', '2:30 AM']]);
  });

  it('phone numbers compare by their digits, a country code aside', () => {
    expect(run('Call Dana on (415) 555-0132, or escalate to +1 415-555-0199.', [CONTACT]).findings).toEqual([]);
    expect(run('Call Dana on 415.555.0132.', [CONTACT]).findings).toEqual([]);
    const wrong = run('Call Dana on (415) 555-0133.', [CONTACT]);
    expect(wrong.findings.map((f) => [f.predicate, f.value])).toEqual([['4155550133', '(415) 555-0133']]);
  });

  it('fence: numbers in a table row are not a phone; a phone whose parts are each served passes', () => {
    const table = run('vol-db-04a  1840 920 3152', [USAGE]);
    // 1840 served; 920 is not data; 3152 = 1840 + 1312 passes as derived — no phone finding.
    expect(table.findings).toEqual([]);
    expect(table.derived.map((d) => [d.raw, d.formula])).toEqual([['3152', '1840 + 1312 = 3,152']]);
    expect(run('Escalate to 555-0199 ext 4410.', [{ ...CONTACT, text: 'desk 555-0199, ext 4410' }]).findings).toEqual([]);
  });

  it('user text exempts a value in another form too', () => {
    const out = run('Your change window on 12/20/2025 is noted.', [JOBS], { exemptTexts: ['Book the change window for 2025-12-20, please.'] });
    expect(out.findings).toEqual([]);
    expect(out.exempt).toEqual(['2025-12-20']);
  });

  it('fence: a date with no year and a bare hour are not data (as before)', () => {
    const out = run('See you on 3 December at 9 AM.', [JOBS]);
    expect(out.findings).toEqual([]);
    expect(out.tally.notApplicable).toBe(1);
  });
});

describe('unit: rounding to the stated precision and unit factors', () => {
  it('99.95% meets 0.9995, and a shorter mantissa meets the longer served value', () => {
    expect(run('orders-api was available 99.95% of the time; p99 latency was 412.5 ms.', [SLA]).findings).toEqual([]);
    expect(run('Availability: 0.9995 over 41,187,342 requests.', [SLA]).findings).toEqual([]);
  });

  it('a percentage with decimals is data however few digits: 99.5% is not the served 0.9995', () => {
    const out = run('orders-api was available 99.5% of the time.', [SLA]);
    expect(out.findings.map((f) => [f.predicate, f.value, f.grounding])).toEqual([['99.5', '99.5%', 'nowhere']]);
    expect(run('orders-api was available 99.95 % of the time.', [SLA]).findings).toEqual([]);
    // Whole percentages stay prose, as before.
    expect(run('Retention met 99% of the target.', [SLA]).tally.notApplicable).toBe(1);
  });

  it('rounding to trailing zeros: 41,190,000 and "about 41 million" style numbers meet 41187342; a different number does not', () => {
    expect(run('orders-api served 41,190,000 requests in 30 days.', [SLA]).findings).toEqual([]);
    expect(run('orders-api served roughly 41,000,000 requests in 30 days.', [SLA]).findings).toEqual([]);
    expect(run('orders-api served ~40,000,000 requests in 30 days.', [SLA]).findings).toEqual([]);
    // Not hedged, one significant digit: that is not a rounding the answer states.
    expect(run('orders-api served 40,000,000 requests in 30 days.', [SLA]).findings.map((f) => f.value)).toEqual(['40,000,000']);
    expect(run('orders-api served 43,800,000 requests in 30 days.', [SLA]).findings.map((f) => f.value)).toEqual(['43,800,000']);
  });

  it('unit conversions: bytes to MB (read as MiB too), seconds, cents to currency', () => {
    // 1610612736 bytes = 1536 MiB; 52428800 bytes = 50 MiB; 5400 s = 1.5 h (not data, 2 digits).
    expect(run('The full backup was 1,536 MB and took 5,400 seconds.', [JOBS]).findings).toEqual([]);
    expect(run('INV-2025-0412 is for $12,499.00 and INV-2025-0413 for $3,840.50.', [INVOICES]).findings).toEqual([]);
    expect(run('INV-2025-0412 is for $12,499.50.', [INVOICES]).findings.map((f) => f.value)).toEqual(['12,499.50']);
  });

  it('a number keeps the precision as written; meetsNumber never accepts a coarser rounding than stated', () => {
    expect(stated('41,200')).toEqual({ value: 41200, decimals: 0, trailingZeros: 2, significant: 3, hedged: false });
    expect(stated('1234.50')).toMatchObject({ decimals: 2, trailingZeros: 0 });
    const t = stated('41,200');
    expect(meetsNumber(t, 41187, 'full')).toBe(true);
    expect(meetsNumber(t, 41187, 'fine')).toBe(false);
    expect(meetsNumber(t, 41260, 'full')).toBe(true); // cut to hundreds
    expect(meetsNumber(t, 41310, 'full')).toBe(false);
  });
});

describe('unit: arithmetic grounds a number as derived (a pass, the formula as witness)', () => {
  const formulas = (out: ReturnType<typeof run>) => out.derived.map((d) => d.formula);

  it('a total of three served amounts passes as derived, with the formula and where each operand was served', () => {
    // 1249900 + 384050 + 76125 = 1710075 cents.
    const out = run('acme owes 1710075 cents across INV-2025-0412, INV-2025-0413 and INV-2025-0419.', [INVOICES]);
    expect(out.findings).toEqual([]);
    expect(out.derived).toHaveLength(1);
    const d = out.derived[0]!;
    expect(d).toMatchObject({ key: '1710075', raw: '1710075', formula: '1249900 + 384050 + 76125 = 1,710,075' });
    expect(d.from).toContain('a result of list_invoices, call call_inv_001, request 5');
    expect(out.tally).toMatchObject({ findings: 0 });
    expect(out.tally.checked).toBeGreaterThan(0);
  });

  it('difference, product and ratio of two served numbers', () => {
    // 1840 - 1312 = 528 GB free is not data (3 digits); 3 * 38200 = 114600; 1312 / 1840 * 100 = 71.304…%.
    expect(run('vol-db-04a has 1840 GB with 1312 GB used, so 528 GB free.', [USAGE]).findings).toEqual([]);
    const product = run('Across its 3 snapshots vol-db-04a peaked at 114,600 IOPS in total.', [USAGE]);
    expect([product.findings, formulas(product)]).toEqual([[], ['3 × 38200 = 114,600']]);
    expect(formulas(run('Together the two come to 3,152 GB.', [USAGE]))).toEqual(['1840 + 1312 = 3,152']);
    expect(formulas(run('41,166,748 of the 30-day requests succeeded.', [SLA]))).toEqual(['41187342 − 20594 = 41,166,748']);
    expect(formulas(run('vol-db-04a is 71.304% full.', [USAGE]))).toEqual(['1312 ÷ 1840 × 100 = 71.3043478261']);
  });

  it('a sign moved and a computation the model wrote out are derivations too', () => {
    const refund: WindowResult = { ...USAGE, text: '-2580.0', toolName: 'calculate', callId: 'call_calc_1' };
    const out = run('You will receive a refund of $2580.', [refund]);
    expect(out.findings).toEqual([]);
    expect(formulas(out)).toEqual(['−(-2580.0) = 2,580']);
    const prices: WindowResult = { ...USAGE, text: '{"totals":[{"r":"7WPL39","paid":402},{"r":"3EMQJ6","paid":306},{"r":"A90KR2","paid":308},{"r":"9MRJD4","paid":16005}]}' };
    const thought = 'Total cost = $402 + $306 + $308 + $16005 = $17021';
    const four = run('Your other upcoming flights cost $17,021 in total.', [prices], { writtenTexts: [JSON.stringify({ thought })] });
    expect(four.findings).toEqual([]);
    expect(formulas(four)[0]).toContain('$402 + $306 + $308 + $16005 = 17021');
    // Wrong arithmetic in the model's own writing grounds nothing.
    const wrong = run('Your other upcoming flights cost $17,121 in total.', [prices], { writtenTexts: ['Total = $402 + $306 + $308 + $16005 = $17121'] });
    expect(wrong.findings.map((f) => [f.value, f.grounding])).toEqual([['17,121', 'assistant-only']]);
  });

  it('a served 1 is the numerator of a ratio only, never a term: 12.5% of 1 in 8 is derived, 2,185 of 2,184 is not', () => {
    const runs: WindowResult = { ...USAGE, text: '{"machine":"srv-db-04","jobs":8,"failed":1,"runs":2184}' };
    const pct = run('1 of the 8 jobs of srv-db-04 failed (12.5%).', [runs]);
    expect([pct.findings, formulas(pct)]).toEqual([[], ['1 ÷ 8 × 100 = 12.5']]);
    const offByOne = run('srv-db-04 ran 2,185 backups.', [runs]).findings;
    expect(offByOne.map((f) => [f.value, f.grounding, f.advisory])).toEqual([['2,185', 'nowhere', undefined]]);
  });

  it('a number that is no formula of the window stays a plain finding', () => {
    const out = run('vol-db-04a peaked at 41,200 IOPS.', [USAGE]);
    expect(out.findings.map((f) => [f.value, f.grounding, f.advisory])).toEqual([['41,200', 'nowhere', undefined]]);
  });

  it('bound: a big window is searched within the operand caps', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `job-${i}`, bytes: 100_003 + i * 7919, files: 1_000 + i }));
    const big: WindowResult = { text: JSON.stringify(rows), toolName: 'backup_jobs', callId: 'call_big', request: 2, turnTraceId: TURN };
    const answer = Array.from({ length: 80 }, (_, i) => `${9_000_001 + i * 131}`).join(', ');
    // Bounded by the operand caps, asserted below; a search past them would time the test out.
    const out = run(`Totals: ${answer}.`, [big]);
    // The first maxSearchedNumbers numbers were searched; the rest are unreachable, never guessed.
    expect(out.tally.unreachable).toBe(80 - VALUE_SEARCH_LIMITS.maxSearchedNumbers);
    expect(out.incomplete).toContain(`more than ${VALUE_SEARCH_LIMITS.maxSearchedNumbers} numbers`);
  });
});
