// Pins the disposition cache (issue 11): for any rows, request count and byte bound it gives
// exactly what dispositionEvent gives, each event with its own attributes object, and a change in
// any count or reason is a different signature.
import { describe, it, expect } from 'vitest';
import { DispositionCache } from '../../src/runs/disposition-cache.js';
import { dispositionEvent, dispositionRows } from '../../src/findings/disposition.js';
import { CHECK_CATALOG } from '../../src/checks/catalog.js';
import type { CheckTally } from '../../src/model/finding.js';
import fc from 'fast-check';
import { TraceRecord, addTally, dispositionKey, talliesOfRecord } from '../../src/runs/trace-record.js';

const tally = (check: string, over: Partial<CheckTally> = {}): CheckTally => ({ check, seam: 'choice', checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {}, ...over });

describe('DispositionCache', () => {
  const cases: [CheckTally[], number, number][] = [
    [[], 0, 2000],
    [[tally('unsupported-argument', { checked: 12 })], 1, 2000],
    [[tally('unsupported-argument', { checked: 12, findings: 1 })], 1, 2000],
    [[tally('unsupported-argument', { checked: 12 })], 2, 2000],
    [[tally('unsupported-argument', { unreachable: 1, unreachableReasons: { 'message content was not captured': 1 } })], 1, 2000],
    [[tally('unsupported-argument', { unreachable: 1, unreachableReasons: { 'message content was not captured': 1 } })], 1, 300],
    [[tally('unsupported-argument', { unreachable: 2, unreachableReasons: { 'a reason': 1, 'another reason': 1 } })], 1, 2000],
  ];

  it('gives what dispositionEvent gives, on first sight and on every repeat', () => {
    const cache = new DispositionCache();
    for (let round = 0; round < 3; round++) {
      cases.forEach(([tallies, requests, bytes], i) => {
        const rows = dispositionRows(CHECK_CATALOG, tallies);
        const time = BigInt(round * 100 + i);
        expect(cache.event(rows, requests, time, bytes)).toEqual(dispositionEvent(rows, requests, time, bytes));
      });
    }
  });

  it('each event gets its own attributes object', () => {
    const cache = new DispositionCache();
    const rows = dispositionRows(CHECK_CATALOG, [tally('unsupported-argument', { checked: 3 })]);
    const a = cache.event(rows, 1, 1n, 2000);
    const b = cache.event(rows, 1, 2n, 2000);
    expect(a.attributes).not.toBe(b.attributes);
    a.attributes.x = 1;
    expect(cache.event(rows, 1, 3n, 2000).attributes.x).toBeUndefined();
  });

  it('keyed by the trace record (dispositionKey): the same event as dispositionEvent for the rows the record makes, and equal keys only for equal rows', () => {
    const checks = CHECK_CATALOG.map((c) => c.id);
    const aTally = fc.record({
      check: fc.constantFrom(...checks),
      seam: fc.constantFrom('offer', 'choice', 'answer', 'write'),
      checked: fc.integer({ min: -2, max: 3 }),
      findings: fc.nat(2),
      notApplicable: fc.integer({ min: -1, max: 2 }),
      unreachable: fc.nat(2),
      unreachableReasons: fc.dictionary(fc.constantFrom('message content was not captured', 'a reason', 'another reason'), fc.integer({ min: -1, max: 2 }), { maxKeys: 2 }),
    });
    const cache = new DispositionCache();
    const seen = new Map<string, string>();
    fc.assert(
      fc.property(fc.array(aTally, { maxLength: 8 }), fc.nat(3), fc.constantFrom(300, 2000), fc.array(fc.tuple(fc.constantFrom(...checks), fc.nat(2)), { maxLength: 3 }), (tallies, requests, bytes, counts) => {
        const rec = new TraceRecord();
        for (const t of tallies) addTally(rec, t as CheckTally);
        const written = new Map(counts);
        const ledger = { spans: requests, windows: 1 };
        const rows = dispositionRows(CHECK_CATALOG, talliesOfRecord(rec)).map((r) => ({ ...r, findings: written.get(r.check) ?? 0 }));
        const key = dispositionKey(rec, CHECK_CATALOG, requests, bytes, ledger, written);
        const ev = cache.eventByKey(key, () => rows, requests, 7n, bytes, ledger);
        expect(ev).toEqual(dispositionEvent(rows, requests, 7n, bytes, ledger));
        const content = JSON.stringify([rows, requests, bytes]);
        if (seen.has(key)) expect(seen.get(key)).toBe(content);
        seen.set(key, content);
      }),
      { numRuns: 1000 },
    );
  });
});
