// Pins the typed index of served strings (src/values/served.ts): a kind is read only when a value
// of that kind is looked up; the latest source wins "last served"; the per-conversation memo reads
// a string once, keys it by a hash (no copy of the text), and stays within its entry and byte caps.
import { describe, it, expect } from 'vitest';
import { ServedValues, ValueMemo } from '../../src/values/served.js';

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
