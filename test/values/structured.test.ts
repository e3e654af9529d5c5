// Result texts read as structure (src/values/structured.ts): JSON, and YAML dumps read by the
// `yaml` library with line folds undone and scalars kept as written; prose, one-line `key: value`
// texts and error texts are not structure. Also the readers that use it: the ledger's rows of a
// YAML list, the leaves typed values are read from, and the token index.

import { describe, expect, it } from 'vitest';
import { looksLikeYaml, readStructured } from '../../src/values/structured.js';
import { textLeaves } from '../../src/values/leaves.js';
import { readToolResult } from '../../src/runs/result-reader.js';
import { buildEvidenceIndex } from '../../src/checks/data-tokens.js';

// What Python's yaml.dump writes for a list of records (a clinic's bookings), a long string folded.
const BOOKINGS = `- booking_ref: CL-0042
  clinic: Northside Physio
  notes: Patient asked for the ground-floor room because of a knee injury; bring the
    referral letter from Dr. Okafor.
  patient_phone: 0612345678
  slot_start: 2025-03-04 09:30:00
  confirmed: yes
- booking_ref: CL-0057
  clinic: Northside Physio
  notes: Follow-up.
  patient_phone: 0687654321
  slot_start: 2025-03-04 11:00:00
  confirmed: no
`;

describe('readStructured', () => {
  it('reads a YAML dump of records as a list of objects, the fold undone and every scalar as written', () => {
    const s = readStructured(BOOKINGS);
    expect(s?.format).toBe('yaml');
    const rows = s!.value as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]!['notes']).toBe('Patient asked for the ground-floor room because of a knee injury; bring the referral letter from Dr. Okafor.');
    // failsafe: the leading zero stays, the date-time stays a string, yes/no stay words.
    expect(rows[0]!['patient_phone']).toBe('0612345678');
    expect(rows[0]!['slot_start']).toBe('2025-03-04 09:30:00');
    expect(rows[1]!['confirmed']).toBe('no');
  });

  it('reads a YAML list of names, and a mapping with nested lists', () => {
    expect(readStructured('- lobby\n- rooftop\n- garage-b\n')?.value).toEqual(['lobby', 'rooftop', 'garage-b']);
    expect(readStructured('gym: Harbour Fitness\nclasses:\n- spin\n- yoga\n')?.value).toEqual({ gym: 'Harbour Fitness', classes: ['spin', 'yoga'] });
  });

  it('reads JSON first, and only objects and arrays', () => {
    expect(readStructured('{"a": [1, 2]}')).toEqual({ format: 'json', value: { a: [1, 2] } });
    expect(readStructured('"just a string"')).toBeUndefined();
    expect(readStructured('42')).toBeUndefined();
  });

  it('is not fooled by prose, one-line key: value texts, errors or tracebacks', () => {
    expect(readStructured('The class was moved to Thursday. Note: bring a towel.')).toBeUndefined();
    expect(readStructured('Error: no such class')).toBeUndefined();
    expect(readStructured('ValueError: No classes found. Try with a different query.')).toBeUndefined();
    expect(readStructured('Booked.\nYour class starts at 9:30: arrive early.')).toBeUndefined();
    expect(readStructured('Subject: Hi\nBody: Hello there, how are you: fine')).toBeUndefined();
    expect(looksLikeYaml('one line only')).toBe(false);
    expect(readStructured('None')).toBeUndefined();
  });
});

describe('readers over YAML results', () => {
  it('the ledger reads a YAML list as rows (its count; its scalars are not typed object rows)', () => {
    const r = readToolResult(BOOKINGS);
    expect(r).toMatchObject({ emptiness: 'non-empty', rows: 2, shape: 'array' });
    expect(r.objectRows).toBeUndefined();
    // A YAML mapping and prose stay text, read for their ending as text is.
    expect(readToolResult('gym: Harbour Fitness\nopen: true\n')).toMatchObject({ shape: 'text', emptiness: 'unknown' });
  });

  it('typed values read the leaves of a YAML dump, unfolded', () => {
    const leaves: [string | number, string | undefined][] = [];
    textLeaves(BOOKINGS, (leaf, key) => (leaves.push([leaf, key]), true));
    expect(leaves).toContainEqual(['2025-03-04 11:00:00', 'slot_start']);
    expect(leaves.find(([, k]) => k === 'notes')?.[0]).toContain('because of a knee injury; bring the referral');
  });

  it('the token index holds a YAML dump both as written and leaf by leaf', () => {
    const index = buildEvidenceIndex([{ text: BOOKINGS }], 10_000);
    expect(index.lookup('cl-0057')).toBe(0);
    expect(index.lookup('0687654321')).toBe(0);
    expect(index.lookup('2025-03-04')).toBe(0);
  });
});
