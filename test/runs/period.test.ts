// Pins the period verdict: ISO-8601 instants with a zone only (no zone, no time, impossible dates
// and backwards ranges cannot be judged), inclusive bounds, zone offsets compared as instants,
// sub-millisecond precision, held 'unknown', and the least-held fold over several periods.
import { describe, it, expect } from 'vitest';
import { isZonedInstant, leastHeldVerdict, periodVerdict, zonedInstantNanos } from '../../src/runs/period.js';

const held = { from: '2026-08-27T02:00:00Z', to: '2026-09-26T02:00:00Z' };

describe('unit: zoned instants', () => {
  it('accepts date-times with Z or an offset, seconds and fractions optional', () => {
    for (const s of ['2026-09-26T09:00:00Z', '2026-09-26T09:00Z', '2026-09-26T09:00:00.123456789+02:00', '2026-09-26T09:00:00-0500', '2026-09-26t09:00:00z', '2026-09-26T09:00:00+02']) {
      expect(isZonedInstant(s), s).toBe(true);
    }
  });

  it('refuses instants without a zone, dates alone, durations, impossible dates and non-strings', () => {
    for (const s of ['2026-09-26T09:00:00', '2026-09-26', '2h', 'yesterday', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-09-26T24:00:00Z', '2026-09-26T09:00:00+25:00', '']) {
      expect(isZonedInstant(s), s).toBe(false);
    }
    expect(isZonedInstant(1790000000000)).toBe(false);
    expect(isZonedInstant('2028-02-29T00:00:00Z')).toBe(true);
    expect(isZonedInstant('2100-02-29T00:00:00Z')).toBe(false);
  });

  it('compares offsets as instants and keeps nanoseconds exactly', () => {
    expect(zonedInstantNanos('2026-09-26T11:00:00+02:00')).toBe(zonedInstantNanos('2026-09-26T09:00:00Z'));
    expect(zonedInstantNanos('2026-09-26T09:00:00.000000001Z')! - zonedInstantNanos('2026-09-26T09:00:00Z')!).toBe(1n);
    expect(zonedInstantNanos('1970-01-01T00:00:00Z')).toBe(0n);
    expect(zonedInstantNanos('0050-01-01T00:00:00Z')! < zonedInstantNanos('1950-01-01T00:00:00Z')!).toBe(true);
  });
});

describe('unit: periodVerdict', () => {
  it('held unknown → unknown', () => {
    expect(periodVerdict({ from: '2026-09-26T09:00:00Z', to: '2026-09-26T10:00:00Z' }, 'unknown')).toBe('unknown');
  });

  it('held contains queried → covered, bounds inclusive', () => {
    expect(periodVerdict({ from: '2026-09-01T00:00:00Z', to: '2026-09-02T00:00:00Z' }, held)).toBe('covered');
    expect(periodVerdict(held, held)).toBe('covered');
    // Same instants written in another zone.
    expect(periodVerdict({ from: '2026-08-27T04:00:00+02:00', to: '2026-09-26T04:00:00+02:00' }, held)).toBe('covered');
  });

  it('disjoint → not-held; touching at one instant is not disjoint', () => {
    expect(periodVerdict({ from: '2026-09-26T09:00:00Z', to: '2026-09-26T10:00:00Z' }, held)).toBe('not-held');
    expect(periodVerdict({ from: '2026-07-01T00:00:00Z', to: '2026-08-27T01:59:59.999Z' }, held)).toBe('not-held');
    expect(periodVerdict({ from: '2026-09-26T02:00:00Z', to: '2026-09-26T10:00:00Z' }, held)).toBe('partly-held');
  });

  it('overlapping either edge → partly-held', () => {
    expect(periodVerdict({ from: '2026-09-25T00:00:00Z', to: '2026-09-26T10:00:00Z' }, held)).toBe('partly-held');
    expect(periodVerdict({ from: '2026-08-01T00:00:00Z', to: '2026-08-28T00:00:00Z' }, held)).toBe('partly-held');
    expect(periodVerdict({ from: '2026-08-01T00:00:00Z', to: '2026-10-01T00:00:00Z' }, held)).toBe('partly-held');
  });

  it('an instant without a zone, or a backwards range, cannot be judged → unknown', () => {
    expect(periodVerdict({ from: '2026-09-01T00:00:00', to: '2026-09-02T00:00:00Z' }, held)).toBe('unknown');
    expect(periodVerdict({ from: '2026-09-02T00:00:00Z', to: '2026-09-01T00:00:00Z' }, held)).toBe('unknown');
    expect(periodVerdict({ from: '2026-09-01T00:00:00Z', to: '2026-09-02T00:00:00Z' }, { from: held.to, to: held.from })).toBe('unknown');
  });
});

describe('unit: least held of several periods', () => {
  it('not-held > partly-held > unknown > covered; none → undefined', () => {
    expect(leastHeldVerdict(['covered', 'partly-held', 'unknown'])).toBe('partly-held');
    expect(leastHeldVerdict(['covered', 'not-held', 'partly-held'])).toBe('not-held');
    expect(leastHeldVerdict(['covered', 'unknown'])).toBe('unknown');
    expect(leastHeldVerdict(['covered', 'covered'])).toBe('covered');
    expect(leastHeldVerdict([])).toBeUndefined();
  });
});
