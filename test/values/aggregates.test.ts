import { describe, expect, it } from 'vitest';
import { columnAggregates } from '../../src/values/aggregates.js';

const TRANSACTIONS_YAML = `- amount: 100.0
  date: '2022-03-04'
  recipient: CH9300762011623852957
- amount: 50.5
  date: '2022-03-07'
  recipient: GB29NWBK60161331926819
- amount: 1000.0
  date: '2022-04-11'
  recipient: CH9300762011623852957
- amount: 12.25
  date: '2022-04-20'
  recipient: SE3550000000054910000003
`;

describe('column totals and means (src/values/aggregates.ts)', () => {
  it('a YAML list of transactions gives the total, the mean, a month\'s total and a recipient\'s total of its amounts', () => {
    const got = columnAggregates(TRANSACTIONS_YAML).map((a) => [a.value, a.count]);
    expect(got).toContainEqual([1162.75, 4]);
    expect(got).toContainEqual([1162.75 / 4, 4]);
    expect(got).toContainEqual([150.5, 2]); // 2022-03
    expect(got).toContainEqual([1012.25, 2]); // 2022-04
    expect(got).toContainEqual([1100, 2]); // CH93…
    const march = columnAggregates(TRANSACTIONS_YAML).find((a) => a.value === 150.5)!;
    expect(march.what).toBe("sum of 'amount' over the 2 rows whose 'date' is in 2022-03 (100 + 50.5)");
  });

  it('a JSON object holding a list of records is read too; numbers written as strings count, text does not', () => {
    const text = JSON.stringify({ page: 1, items: [{ sku: 'A-1', qty: '3', price: 4.5 }, { sku: 'B-2', qty: 2, price: 'n/a' }, { sku: 'C-3', qty: 5, price: 10 }] });
    const got = columnAggregates(text).map((a) => a.value);
    expect(got).toContain(10); // qty 3 + 2 + 5
    expect(got).toContain(14.5); // price 4.5 + 10
    expect(columnAggregates(text).find((a) => a.what.startsWith("sum of 'price'"))!.count).toBe(2);
  });

  it('prose, a single record, a list of one row and a list of scalars give nothing', () => {
    expect(columnAggregates('Your balance is 1,162.75 as of today.')).toEqual([]);
    expect(columnAggregates(JSON.stringify({ amount: 3, fee: 4 }))).toEqual([]);
    expect(columnAggregates(JSON.stringify([{ amount: 3 }]))).toEqual([]);
    expect(columnAggregates(JSON.stringify([3, 4, 5]))).toEqual([]);
  });

  it('a field every row shares makes no group of its own (that is the whole total), and the groups are bounded', () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ amount: i, shop: `shop-${i % 100}`, currency: 'EUR' }));
    const got = columnAggregates(JSON.stringify(rows));
    expect(got.filter((a) => a.what.includes("'currency'"))).toEqual([]);
    expect(got.filter((a) => a.what.startsWith("sum of 'amount'") && a.what.includes("'shop'")).length).toBe(32);
  });
});
