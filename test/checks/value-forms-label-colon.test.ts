// Pins the label-colon rule of numeric dates (src/values/dates.ts, chrono-node; docs/checks-answer.md): a
// European or US date written as a list label (`- 19.08.2026: 1.150,00 €`) is read as the date it
// is, so it meets the served ISO date and a wrong one is still a finding quoted as written; a
// date glued to a clock (`21.10.2026:02:00`) is read as both.
import { describe, it, expect } from 'vitest';
import { unsupportedValues, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';
import { readForms } from '../../src/values/read.js';

const span = { traceId: '4b1c2d3e4f5061728394a5b6c7d8e9f0', spanId: '0f1e2d3c4b5a6978' };
const SHIPMENTS: WindowResult = {
  text: JSON.stringify([
    { shipment: 'SHP-88213', delivered_on: '2026-10-21', weight_kg: 1840.5 },
    { shipment: 'SHP-88240', delivered_on: '2026-11-04', weight_kg: 920.25 },
  ]),
  toolName: 'list_shipments',
  callId: 'call_ls_001',
  request: 1,
  turnTraceId: span.traceId,
};
const judge = (answer: string) =>
  unsupportedValues({ span, answerText: answer, windowResults: [SHIPMENTS], exemptTexts: ['Which shipments arrived?'], bounds: DEFAULT_EVIDENCE_BOUNDS });

describe('numeric dates written as list labels', () => {
  it('reads a date followed by a label colon as the date', () => {
    const forms = readForms('- 21.10.2026: SHP-88213\n- 04.11.2026: SHP-88240', 16, false);
    expect(forms.map((f) => [f.kind, f.raw, f.keys])).toEqual([
      ['date', '21.10.2026', ['d:2026-10-21']],
      ['date', '04.11.2026', ['d:2026-04-11', 'd:2026-11-04']],
    ]);
  });

  it('grounds label dates that are the served ISO dates (an ambiguous one by either reading)', () => {
    const out = judge('Two deliveries:\n\n- 21.10.2026: SHP-88213, 1.840,5 kg\n- 04.11.2026: SHP-88240, 920,25 kg');
    expect(out.findings).toEqual([]);
    expect(out.grounded.map((g) => g.key)).toEqual(expect.arrayContaining(['2026-10-21', '2026-04-11', 'shp-88213']));
  });

  it('still reports a wrong label date, quoted as written, with its ISO date as predicate', () => {
    const out = judge('- 22.10.2026: SHP-88213\n- 04.11.2026: SHP-88240');
    expect(out.findings.map((f) => [f.predicate, f.value])).toEqual([['2026-10-22', '22.10.2026']]);
  });

  it('reads a date glued to a clock by a colon as the date and the time', () => {
    expect(readForms('at 21.10.2026:02:00', 16, false).map((f) => [f.kind, f.raw, f.keys])).toEqual([
      ['date', '21.10.2026', ['d:2026-10-21']],
      ['time', '02:00', ['t:02:00']],
    ]);
  });
});
