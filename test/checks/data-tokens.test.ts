// Pins the data-token rules both answer checks stand on: what counts as data (a digit and
// distinctive: identifiers of >= 4 characters mixing digits with letters or `:_-/.`, numbers of >= 4
// digits), what never does (short numbers, `24/7` ratios, ordinals and prose numbers judged on the
// number alone), the normalisation both sides share (edges stripped, thousands separators, trailing
// zeros, case), and the evidence index: JSON walked (keys and leaves, whole and tokenised),
// token-exact never substring, absence envelopes grounding only their item lists, ISO date-times
// indexing their date, "last served" by request, and the bound reported as `truncated`.
import { describe, it, expect } from 'vitest';
import { buildEvidenceIndex, dataTokenKey, extractDataTokens } from '../../src/checks/data-tokens.js';

const keys = (text: string, max = 1000) => extractDataTokens(text, max).tokens.map((t) => t.key);

describe('unit: data tokens — what is data', () => {
  it('finds the identifiers and long numbers of a realistic answer', () => {
    const answer = 'srv-db-04 (db-primary) is protected. Jobs: nightly-db-primary-full and hourly-db-primary-wal, both OK. Last size 41,200 MB.';
    expect(keys(answer)).toEqual(['srv-db-04', '41200']);
  });

  it('identifier fence: >= 4 characters mixing digits with letters or :_-/. ; 3 are not', () => {
    expect(keys('x86 fc1/3 a1b2 v1.2 10.0.0.12 job_7 port:80 H2O')).toEqual(['fc1/3', 'a1b2', 'v1.2', '10.0.0.12', 'job_7', 'port:80']);
  });

  it('number fence: 4 digits are data, 3 are not; digits are counted after normalisation', () => {
    expect(keys('123 1234 99.95 12.00 1234.50 -1234 -123')).toEqual(['1234', '99.95', '1234.5', '-1234']);
  });

  it('excludes 1-2 digit ratios (24/7, 1/2), keeps longer ones', () => {
    expect(keys('Support is 24/7, half is 1/2, 9/11 was named; 2025/11 is not a ratio.')).toEqual(['2025/11']);
  });

  it('judges prose numbers on their number alone: 47th, 32G, 48-port, $20/month are not data; 2048MB is, keyed 2048', () => {
    expect(keys('the 47th run on a 32G box, 48-port switch at $20/month')).toEqual([]);
    expect(extractDataTokens('a 2048MB volume, 1080p', 10).tokens).toEqual([
      { key: '2048', raw: '2048MB', kind: 'number' },
      { key: '1080', raw: '1080p', kind: 'number' },
    ]);
  });

  it('words without digits are never data, however distinctive', () => {
    expect(keys('nightly-db-primary-full db_primary OK https://example.com')).toEqual([]);
  });
});

describe('unit: data tokens — normalisation', () => {
  it('thousands separators: 41,200 ≡ 41200, 1,234,567.50 ≡ 1234567.5; other commas separate', () => {
    expect(dataTokenKey('41,200')).toBe('41200');
    expect(dataTokenKey('41200')).toBe('41200');
    expect(keys('1,234,567.50')).toEqual(['1234567.5']);
    expect(keys('srv-01,srv-02')).toEqual(['srv-01', 'srv-02']);
    expect(keys('2025,123')).toEqual(['2025']);
  });

  it('strips leading $#@+\'"([{<: and trailing .,;:!?%\'")]}> punctuation', () => {
    expect(keys('($41,200.) "srv-db-04", [fc1/3]; <job_7>! #1234? 99.95% :8080')).toEqual(['41200', 'srv-db-04', 'fc1/3', 'job_7', '1234', '99.95', '8080']);
  });

  it('folds case and NFKC: SRV-DB-04 ≡ srv-db-04, fullwidth digits are digits', () => {
    expect(keys('SRV-DB-04 ４１２００')).toEqual(['srv-db-04', '41200']);
  });

  it('keeps distinct tokens in first-appearance order, raw as first written', () => {
    const t = extractDataTokens('41,200 then 41200 then SRV-DB-04 and srv-db-04', 10).tokens;
    expect(t.map((x) => x.raw)).toEqual(['41,200', 'SRV-DB-04']);
  });

  it('bounds the tokens per text and says truncated', () => {
    const text = Array.from({ length: 30 }, (_, i) => `job-${1000 + i}`).join(' ');
    const out = extractDataTokens(text, 10);
    expect(out.tokens).toHaveLength(10);
    expect(out.truncated).toBe(true);
    expect(extractDataTokens(text, 30).truncated).toBe(false);
  });

  it('dataTokenKey: a single value only', () => {
    expect(dataTokenKey(' srv-db-04 ')).toBe('srv-db-04');
    expect(dataTokenKey('srv-db-04 ok')).toBeUndefined();
    expect(dataTokenKey('ok')).toBeUndefined();
  });
});

describe('unit: evidence index', () => {
  const JOBS = '[{"job":"nightly-db-primary-full","status":"ok","bytes":41200,"host":"srv-db-04"}]';

  it('walks JSON leaves: numbers and strings, whole and tokenised', () => {
    const idx = buildEvidenceIndex([{ text: JOBS, request: 2 }, { text: '{"note":"moved to srv-db-05 on 2025-11-30"}', request: 3 }], 1000);
    expect(idx.lookup('41200')).toBe(0);
    expect(idx.lookup('srv-db-04')).toBe(0);
    expect(idx.lookup('srv-db-05')).toBe(1);
    expect(idx.lookup('2025-11-30')).toBe(1);
    expect(idx.truncated).toBe(false);
  });

  it('walks JSON keys', () => {
    const idx = buildEvidenceIndex([{ text: '{"srv-db-04":{"state":"ok"},"vol_0007":1}' }], 100);
    expect(idx.lookup('srv-db-04')).toBe(0);
    expect(idx.lookup('vol_0007')).toBe(0);
  });

  it('is token-exact, never substring: srv-db-0 and db-04 are not in srv-db-04, 4120 is not in 41200', () => {
    const idx = buildEvidenceIndex([{ text: JOBS }], 100);
    expect(idx.lookup('srv-db-0')).toBeUndefined();
    expect(idx.lookup('db-04')).toBeUndefined();
    expect(idx.lookup('4120')).toBeUndefined();
  });

  it('tokenises non-JSON text with the same rules', () => {
    const idx = buildEvidenceIndex([{ text: 'Backed up 41,200 files from SRV-DB-04.' }], 100);
    expect(idx.lookup('41200')).toBe(0);
    expect(idx.lookup('srv-db-04')).toBe(0);
  });

  it('an ISO-8601 date-time also indexes its date, month, year and times; a date its month and year', () => {
    const idx = buildEvidenceIndex([{ text: '{"last_run":"2025-11-30T02:00:00Z"}' }], 100);
    for (const k of ['2025-11-30t02:00:00z', '2025-11-30', '2025-11', '2025', '02:00:00', '02:00']) expect(idx.lookup(k)).toBe(0);
    expect(idx.lookup('11-30')).toBeUndefined();
    const date = buildEvidenceIndex([{ text: 'due 2026-01-15' }], 100);
    for (const k of ['2026-01-15', '2026-01', '2026']) expect(date.lookup(k)).toBe(0);
    expect(date.lookup('01:00')).toBeUndefined();
  });

  it('an absence envelope grounds only checked / not_checked / cannot_cover items, never looked_for, short or kind', () => {
    const absent = JSON.stringify({
      af_absent: true,
      looked_for: 'backup jobs for srv-db-99',
      checked: [{ what: 'catalog cat-0001' }],
      not_checked: [{ what: 'tape vault tv-0002', why: 'offline since 2025-11-29', kind: 'existence', short: 'vault vt-0003' }],
      cannot_cover: [{ what: 'region eu-west-2', why: 'another tenant' }],
    });
    const idx = buildEvidenceIndex([{ text: absent }], 100);
    expect(idx.lookup('srv-db-99')).toBeUndefined();
    expect(idx.lookup('vt-0003')).toBeUndefined();
    for (const k of ['cat-0001', 'tv-0002', '2025-11-29', 'eu-west-2']) expect(idx.lookup(k)).toBe(0);
  });

  it('keeps integers past 2^53 that JSON.parse would round', () => {
    const idx = buildEvidenceIndex([{ text: '{"id":12345678901234567891}' }], 100);
    expect(idx.lookup('12345678901234567891')).toBe(0);
  });

  it('"last served": a later request wins; without requests, the later source wins', () => {
    const idx = buildEvidenceIndex([{ text: 'srv-db-04', request: 5 }, { text: 'srv-db-04', request: 2 }, { text: 'srv-db-04', request: 5 }], 100);
    expect(idx.lookup('srv-db-04')).toBe(2);
    expect(buildEvidenceIndex([{ text: 'job-1234' }, { text: 'job-1234' }], 10).lookup('job-1234')).toBe(1);
  });

  it('bounds distinct keys and says truncated; keys past the bound are not indexed', () => {
    const text = JSON.stringify(Array.from({ length: 50 }, (_, i) => `job-${1000 + i}`));
    const idx = buildEvidenceIndex([{ text }], 20);
    expect(idx.size).toBe(20);
    expect(idx.truncated).toBe(true);
    expect(idx.lookup('job-1000')).toBe(0);
    expect(idx.lookup('job-1049')).toBeUndefined();
  });

  it('indexes a large result whole (its speed is the scaling-window benchmark\'s, not a timed test\'s)', () => {
    const text = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ job: `job-${i}-full`, host: `srv-${i}`, bytes: 100000 + i })));
    const idx = buildEvidenceIndex([{ text }], 200_000);
    expect(idx.lookup('job-9999-full')).toBe(0);
    expect(idx.lookup('srv-0')).toBe(0);
    expect(idx.truncated).toBe(false);
  });
});
