// Pins decimal-comma amounts (data-tokens.ts, value-numbers.ts): `4.850,00 €`, `1.234,5 kg` and
// `12,50 EUR` are read as one decimal number on both sides, the answer and the tool result; `1,234`
// alone keeps today's thousands reading and `12,5` with no currency beside it stays two numbers.
// So a wrong `4.950,00 €` against a served 4850.00 is an unsupported-value finding and a right one
// passes. Payroll in EUR; pure, no clock.
import { describe, it, expect } from 'vitest';
import { buildEvidenceIndex, dataTokenKey, decimalCommaNumber, extractDataTokens } from '../../src/checks/data-tokens.js';
import { answerNumber, collectNumbers } from '../../src/checks/value-numbers.js';
import { unsupportedValues, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';

const span = { traceId: '1e2d3c4b5a69788796a5b4c3d2e1f0a9', spanId: 'd3c1a0b9e8f70615' };
const PAYSLIP = '{"employee_id":"E-51144-AT","period":"2026-11","gross_eur":4850.00,"net_eur":3084.12,"currency":"EUR"}';
const results: WindowResult[] = [{ text: PAYSLIP, toolName: 'get_payslip', callId: 'call_ps_001', request: 2, turnTraceId: span.traceId }];
const keys = (text: string) => extractDataTokens(text, 100).tokens.map((t) => t.key);

function run(answerText: string, windowResults: WindowResult[] = results) {
  return unsupportedValues({ span, answerText, windowResults, exemptTexts: ['You are the payroll assistant.', 'What was the November payslip?'], bounds: { ...DEFAULT_EVIDENCE_BOUNDS } });
}

describe('reading decimal commas', () => {
  it('dot-grouped thousands then a comma and 1–2 digits are one decimal number', () => {
    expect(keys('Brutto 4.850,00 €, netto 3.084,12 €')).toEqual(['4850', '3084.12']);
    expect(keys('Gewicht: 1.234,5 kg')).toEqual(['1234.5']);
    expect(keys('1.250.000,75 EUR')).toEqual(['1250000.75']);
  });

  it('a bare decimal comma counts only beside a currency sign or code', () => {
    expect(keys('Zuschlag 1250,00 € und 2075,5 EUR, dazu € 1399,90')).toEqual(['1250', '2075.5', '1399.9']);
    // No currency: `1250,00` stays two candidates, as it always was (1250 and 00).
    expect(keys('Kennzahl 1250,00 laut Liste')).toEqual(['1250']);
  });

  it('"1,234" alone keeps the thousands reading; a comma list still splits', () => {
    expect(keys('1,234 rows')).toEqual(['1234']);
    expect(keys('€1,234')).toEqual(['1234']);
    expect(keys('srv-01,srv-02')).toEqual(['srv-01', 'srv-02']);
    expect(decimalCommaNumber('1,234', true)).toBeUndefined();
    expect(decimalCommaNumber('4.850,00', false)).toBe('4850.00');
  });

  it('the evidence side reads the same: a served "4.850,00 €" text is 4850, a JSON 4850.00 is 4850', () => {
    const fromText = buildEvidenceIndex([{ text: 'Gross pay: 4.850,00 € (November)' }], 100);
    expect(fromText.lookup('4850')).toBe(0);
    expect(fromText.lookup('4.85')).toBeUndefined();
    expect(buildEvidenceIndex([{ text: PAYSLIP }], 100).lookup('4850')).toBe(0);
    expect(dataTokenKey('4.850,00')).toBe('4850');
    expect(collectNumbers([{ text: 'Gross pay: 4.850,00 € and 12,50 EUR fee' }], 100).numbers.map((n) => n.value)).toEqual([4850, 12.5]);
    expect(collectNumbers([{ text: 'ratio 12,5 today' }], 100).numbers.map((n) => n.value)).toEqual([12, 5]);
  });

  it('the answer number keeps its stated decimals', () => {
    expect(answerNumber('4.850,00', false)).toMatchObject({ value: 4850, decimals: 2 });
    expect(answerNumber('3.084,12', false)).toMatchObject({ value: 3084.12, decimals: 2 });
  });
});

describe('unsupported-value on decimal-comma amounts', () => {
  it('the right "4.850,00 €" and "3.084,12 €" against served 4850.00 and 3084.12 pass', () => {
    const out = run('Anna erhielt im November 4.850,00 € brutto und 3.084,12 € netto.');
    expect(out.findings).toEqual([]);
    expect(out.grounded.map((g) => g.key).sort()).toEqual(['3084.12', '4850']);
  });

  it('a wrong "4.950,00 €" is one finding naming the amount as written', () => {
    const out = run('Anna erhielt im November 4.950,00 € brutto und 3.084,12 € netto.');
    expect(out.findings.map((f) => [f.predicate, f.value])).toEqual([['4950', '4.950,00']]);
  });

  it('a wrong "3.084,99 €" is a finding too: no unit factor or rounding makes it 3084.12', () => {
    expect(run('Netto: 3.084,99 €.').findings.map((f) => [f.predicate, f.value])).toEqual([['3084.99', '3.084,99']]);
  });
});
