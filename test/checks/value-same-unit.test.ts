// Pins unit conversion (src/values/quantities.ts, js-quantities; docs/checks-answer.md): a served
// number converts only between two named units of one kind (the JSON key's last word, or the word
// after it in text), so a served 1.234 MWh told as "1,234 MWh" (same unit) or as a bare "1,234"
// (no unit named) is a finding while "1,234 kWh" is a conversion; a dot-grouped `12.480` meets a
// served 12480 by its thousands reading; decimal-comma amounts restated in English form stay
// grounded. Pure data.
import { describe, it, expect } from 'vitest';
import { unsupportedValues, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';
import { unitAfter, unitOfKey } from '../../src/values/quantities.js';

const span = { traceId: '9a8b7c6d5e4f30211f2e3d4c5b6a7980', spanId: '2b3c4d5e6f708192' };
const result = (text: string): WindowResult => ({ text, toolName: 'meter_readings', callId: 'call_mr_001', request: 1, turnTraceId: span.traceId });
const READING = result(JSON.stringify({ meter_id: '1ESY1160599887', period: '2026-11', consumption_mwh: 1.234, kind: 'actual' }));
const judge = (answer: string, r: WindowResult = READING) =>
  unsupportedValues({ span, answerText: answer, windowResults: [r], exemptTexts: ['How much did meter 1ESY1160599887 use?'], bounds: DEFAULT_EVIDENCE_BOUNDS });
const values = (out: ReturnType<typeof judge>) => out.findings.map((f) => f.predicate);

describe('units named on both sides', () => {
  it('reads the unit of a JSON key and of the word after a number', () => {
    expect([unitOfKey('consumption_mwh'), unitOfKey('sizeGb'), unitOfKey('weight-kg'), unitOfKey('bytes'), unitOfKey('kind'), unitOfKey(undefined)]).toEqual(['mwh', 'Gb', 'kg', 'bytes', undefined, undefined]);
    expect([unitAfter('1,234 MWh used', 5), unitAfter('1,234MWh', 5), unitAfter('1,234 kilowatt-hours', 5)]).toEqual(['MWh', 'MWh', 'kilowatt-hours']);
  });

  it('a same-unit answer a thousand times the served value is a finding', () => {
    expect(values(judge('In November, meter 1ESY1160599887 used 1,234 MWh.'))).toEqual(['1234']);
    // Served in text, the unit after the number counts the same way.
    expect(values(judge('The meter used 1,234 MWh in November.', result('Meter 1ESY1160599887, November 2026: 1.234 MWh (actual reading).')))).toEqual(['1234']);
  });

  it('a converted unit meets it (MWh to kWh, by js-quantities); with no unit named nothing was converted', () => {
    expect(values(judge('In November, meter 1ESY1160599887 used 1,234 kWh.'))).toEqual([]);
    expect(values(judge('In November the meter used 1.234 megawatt-hours, about 4,442 MJ.'))).toEqual([]);
    expect(values(judge('In November the reading came to 1,234 for meter 1ESY1160599887.'))).toEqual(['1234']);
  });
});

describe('separator readings', () => {
  const GAS = result(JSON.stringify({ meter_id: '7GAS0098871', value_kwh: 12480, kind: 'estimated' }));
  it('a dot-grouped 12.480 kWh meets a served 12480 kWh by its thousands reading', () => {
    expect(values(judge('Der Zähler 7GAS0098871 stand bei 12.480 kWh.', GAS))).toEqual([]);
    expect(values(judge('Der Zähler 7GAS0098871 stand bei 12.490 kWh.', GAS))).toEqual(['12.49']);
  });

  it('a German amount restated the English way stays grounded', () => {
    const invoice = result('Rechnung RE-2026-20931: Gesamtbetrag 1.234,50 € (fällig am 15.12.2026).');
    expect(values(judge('Invoice RE-2026-20931 totals 1,234.50 EUR.', invoice))).toEqual([]);
    expect(values(judge('Invoice RE-2026-20931 totals €1,234.50.', invoice))).toEqual([]);
  });
});
