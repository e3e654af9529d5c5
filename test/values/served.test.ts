// Pins the typed index of served strings (src/values/served.ts): a kind is read only when a value
// of that kind is looked up; the latest source wins "last served"; the per-conversation memo reads
// a string once, keys it by a hash (no copy of the text), and stays within its entry and byte caps.
import { describe, it, expect } from 'vitest';
import { ServedValues, ValueMemo } from '../../src/values/served.js';
import { identifierKey } from '../../src/values/identifiers.js';

const RESULT = '{"reservation_id":"HXDUBJ","flights":[{"date":"2024-05-18","price":177},{"date":"2024-05-22","price":180}],"phone":"+14155550132"}';

describe('ServedValues and its memo', () => {
  it('looks up typed keys by kind, the latest source winning', () => {
    const v = new ServedValues([{ text: RESULT, request: 1 }, { text: 'Booked for 2024-05-22.', request: 3 }]);
    expect(v.lookup('d:2024-05-18')).toBe(0);
    expect(v.lookup('d:2024-05-22')).toBe(1);
    expect(v.lookup('m:2024-05')).toBe(1);
    expect(v.lookup('n:177')).toBe(0);
    expect(v.lookup('p:4155550132')).toBe(0);
    expect(v.lookup('i:hxdubj')).toBeUndefined(); // no digit: not an identifier key
    expect(v.dates().map((d) => d.date)).toEqual(['2024-05-18', '2024-05-22']);
  });

  it('an identifier none of the window can hold is answered without reading the window, and every writing of one that it holds is still found', () => {
    const served = [
      { text: 'Transfer from DE89 3704 0044 0532 0130 00 booked.', request: 1 },
      { text: 'Host ＳＲＶ－ＤＢ－０４ is up.', request: 1 },
      { text: '{"ticket":"\\u0054KT-2024-0917"}', request: 2 },
      { text: '{"κωδικός":"ΚΩΔΙΚΟΣ-4471"}', request: 2 },
      { text: '[{"machine_id":"srv.web.11","note":"SRV web 12"}]', request: 3 },
      { text: 'ICCID 8944 5000 1234 5678 901', request: 3 },
    ];
    const key = (written: string) => identifierKey(written) ?? `i:${written}`;
    const cases: [string, number | undefined][] = [
      ['DE89370400440532013000', 0],
      ['srv-db-04', 1],
      ['TKT-2024-0917', 2],
      ['κωδικος-4471', 3],
      ['SRV_WEB_11', 4],
      ['8944500012345678901', 5],
      ['srv-db-05', undefined],
      ['TKT-2024-0918', undefined],
      ['srv-web-12', undefined],
    ];
    for (const [written, at] of cases) expect([written, new ServedValues(served).lookup(key(written))]).toEqual([written, at]);
    // Answered before any identifier is read: a value that is nowhere costs no reading of the window.
    const memo = new ValueMemo();
    new ServedValues(served.slice(0, 2), memo).lookup(key('srv-db-05'));
    expect(memo.size).toBe(0);
  });

  it('reads each string once per kind through the memo', () => {
    const memo = new ValueMemo();
    let reads = 0;
    const reader = () => (reads++, { keys: ['n:1'] });
    for (let i = 0; i < 5; i++) memo.read(RESULT, 'number', reader);
    memo.read(RESULT, 'date', reader);
    expect([reads, memo.size]).toEqual([2, 1]);
  });

  it('stays within its caps: entries, bytes, and never keeps a string longer than the bound', () => {
    const memo = new ValueMemo(4, 100, 10_000);
    for (let i = 0; i < 20; i++) memo.read(`text ${i}`, 'number', () => ({ keys: ['n:1', 'n:2'] }));
    expect(memo.size).toBe(4);
    memo.read('x'.repeat(101), 'number', () => ({ keys: [] }));
    expect(memo.size).toBe(4);
    const small = new ValueMemo(512, 1000, 1000);
    for (let i = 0; i < 50; i++) small.read(`text ${i}`, 'number', () => ({ keys: Array.from({ length: 5 }, (_, k) => `n:${k}`) }));
    expect(small.bytes).toBeLessThanOrEqual(1000);
    expect(small.size).toBeGreaterThan(0);
  });
});
