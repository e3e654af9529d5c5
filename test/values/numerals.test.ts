// Pins numbers in other locales' marks (src/values/numerals.ts: conventions learned from CLDR via
// Intl.NumberFormat.formatToParts, never a hand table): `4.850,00 €`, `12 345,50`, `1'234.50` and
// `12,34,567.50` are one number each; an ambiguous `12.480` has both readings in an answer, and
// a tool's own `1.234` is a decimal unless its text shows a decimal comma; `1,234` is 1234 unless
// the text shows a decimal comma. So a wrong `4.950,00 €` against a served 4850.00 is an
// unsupported-value finding and a right one passes. Payroll in EUR; pure, no clock.
import { describe, it, expect } from 'vitest';
import { CONVENTIONS, readNumerals } from '../../src/values/numerals.js';
import { readNumbers } from '../../src/values/read.js';
import { unsupportedValues, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';

const span = { traceId: '1e2d3c4b5a69788796a5b4c3d2e1f0a9', spanId: 'd3c1a0b9e8f70615' };
const PAYSLIP = '{"employee_id":"E-51144-AT","period":"2026-11","gross_eur":4850.00,"net_eur":3084.12,"currency":"EUR"}';
const results: WindowResult[] = [{ text: PAYSLIP, toolName: 'get_payslip', callId: 'call_ps_001', request: 2, turnTraceId: span.traceId }];
const values = (text: string, served = false) => readNumerals(text.normalize('NFKC'), 100, served).map((n) => [n.raw, n.readings.map((r) => r.value)]);

function run(answerText: string, windowResults: WindowResult[] = results) {
  return unsupportedValues({ span, answerText, windowResults, exemptTexts: ['You are the payroll assistant.', 'What was the November payslip?'], bounds: { ...DEFAULT_EVIDENCE_BOUNDS } });
}

describe('numbers in the marks of many locales (CLDR, via Intl)', () => {
  it('learns the grouping and decimal marks from Intl: comma-dot, dot-comma, blank-comma, apostrophe, lakh grouping', () => {
    const shapes = CONVENTIONS.map((c) => `${c.group}${c.decimal}${c.secondary}`);
    expect(shapes).toEqual(expect.arrayContaining([',.3', '.,3', ' ,3', ',.2']));
    expect(CONVENTIONS.find((c) => c.locales.includes('de-CH'))?.decimal).toBe('.');
  });

  it('reads one number from each locale\'s writing', () => {
    expect(values('Brutto 4.850,00 €, netto 3.084,12 €')).toEqual([['4.850,00', [4850]], ['3.084,12', [3084.12]]]);
    expect(values('Solde : 12 345,50 € au 30/11')).toEqual([['12 345,50', [12345.5]]]);
    expect(values("Total: CHF 1'234.50")).toEqual([["1'234.50", [1234.5]]]);
    expect(values('Amount: ₹12,34,567.50')).toEqual([['12,34,567.50', [1234567.5]]]);
    expect(values('Refund of -2580.0 issued')).toEqual([['-2580.0', [-2580]]]);
  });

  it('an ambiguous numeral keeps both readings in an answer; a tool\'s text reads a dot as a decimal point', () => {
    expect(values('Der Zähler stand bei 12.480 kWh.')).toEqual([['12.480', [12.48, 12480]]]);
    expect(values('Meter: 1.234 MWh (actual).', true)).toEqual([['1.234', [1.234]]]);
    expect(values('Saldo 1.409,50 €; Zähler 12.480 kWh.', true)).toEqual([['1.409,50', [1409.5]], ['12.480', [12.48, 12480]]]);
  });

  it('a comma then three digits groups, unless the text shows a decimal comma', () => {
    expect(values('1,234 rows')).toEqual([['1,234', [1234]]]);
    expect(values('31,24 ct per kWh, and 1,234 MWh')).toEqual([['31,24', [31.24]], ['1,234', [1234, 1.234]]]);
  });

  it('never reads ids, dates, times, versions or comma lists as numbers', () => {
    expect(values('srv-db-04 on 2024-05-19 at 03:00, v7.4.2, 10.0.0.12, ids 4521,4533')).toEqual([]);
  });

  it('a number keeps the currency and unit written beside it', () => {
    const [eur, kwh, pct] = readNumbers('4.850,00 € for 12.480 kWh, 99.5 % renewable'.normalize('NFKC'), 10);
    expect([eur?.currency, kwh?.unit, pct?.unit, pct?.raw]).toEqual(['EUR', 'kWh', '%', '99.5 %']);
  });
});

describe('unsupported-value on amounts in other locales\' marks', () => {
  it('the right "4.850,00 €" and "3.084,12 €" against served 4850.00 and 3084.12 pass', () => {
    const out = run('Anna erhielt im November 4.850,00 € brutto und 3.084,12 € netto.');
    expect(out.findings).toEqual([]);
    expect(out.grounded.map((g) => g.key).sort()).toEqual(['3084.12', '4850']);
  });

  it('a French "4 850,00 €" and a Swiss "4\'850.00" pass too', () => {
    expect(run('Anna a reçu 4 850,00 € brut et 3 084,12 € net.').findings).toEqual([]);
    expect(run("Anna erhielt CHF 4'850.00 brutto.").findings).toEqual([]);
  });

  it('a wrong "4.950,00 €" is one finding naming the amount as written', () => {
    const out = run('Anna erhielt im November 4.950,00 € brutto und 3.084,12 € netto.');
    expect(out.findings.map((f) => [f.predicate, f.value])).toEqual([['4950', '4.950,00']]);
  });

  it('a wrong "3.084,99 €" is a finding too: no conversion or rounding makes it 3084.12', () => {
    expect(run('Netto: 3.084,99 €.').findings.map((f) => [f.predicate, f.value])).toEqual([['3084.99', '3.084,99']]);
  });
});
