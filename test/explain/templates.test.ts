// The template table is closed and versioned: a word change without a version bump fails here,
// against the pinned digests in golden/templates.digest.txt. Filling is non-recursive; a missing
// var gives the unreadable line; the voucher is the weakest truth-deciding source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATES, TEMPLATE_SET_VERSION } from '../../src/explain/templates.js';
import { render, MAX_VAR_CHARS, MAX_POINTERS } from '../../src/explain/render.js';
import { rankOf, weakest } from '../../src/explain/voucher.js';
import { digestLines } from './template-digest.js';

const golden = readFileSync(join(__dirname, 'golden', 'templates.digest.txt'), 'utf8').trim().split('\n');

describe('template table', () => {
  it('every template matches its pinned digest (a word change needs a version bump and a new golden line)', () => {
    const pinned = new Map(golden.map((l) => l.split(' ') as [string, string]));
    for (const line of digestLines()) {
      const [key, digest] = line.split(' ') as [string, string];
      expect(pinned.get(key), `${key}: changed without a version bump, or a bumped version without its golden line`).toBe(digest);
    }
  });
  it('the set version is pinned with the whole table', () => {
    expect(golden[0]).toBe(digestLines()[0]);
    expect(golden[0]!.startsWith(`set@${TEMPLATE_SET_VERSION} `)).toBe(true);
  });
  it('a changed word is caught: the digest of a template depends on its text', () => {
    const t = TEMPLATES.find((x) => x.id === 'found.rows')!;
    const mutated = digestLines().find((l) => l.startsWith('found.rows@'));
    const original = { ...t };
    (t as { text: string }).text = t.text.replace('returned', 'gave');
    try {
      expect(digestLines().find((l) => l.startsWith('found.rows@'))).not.toBe(mutated);
    } finally {
      (t as { text: string }).text = original.text;
    }
  });
  it('ids are unique and every template is frozen in a frozen table', () => {
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
    expect(Object.isFrozen(TEMPLATES)).toBe(true);
  });
});

describe('render', () => {
  it('fills placeholders into typed parts with their sources', () => {
    const s = render('found.rows', { tool: { value: 'list_machines', source: 'library' }, rows: { value: 2, source: 'tool:list_machines' } });
    expect(s.text).toBe('list_machines returned 2 results.');
    expect(s.parts).toEqual([{ code: 'list_machines', source: 'library' }, { text: ' returned 2 results.' }]);
    expect(s.template).toEqual({ id: 'found.rows', version: 2 });
    expect(render('found.rows', { tool: { value: 't', source: 'library' }, rows: { value: 1, source: 'library' } }).text).toBe('t returned 1 result.');
  });
  it('is non-recursive: a value that holds {{x}} prints {{x}}', () => {
    const s = render('asked.message', { message: { value: 'say {{tool:code}} and {{plural:rows|a|b}}', source: 'person' } });
    expect(s.parts).toEqual([{ quote: 'say {{tool:code}} and {{plural:rows|a|b}}', source: 'person' }]);
    expect(s.text).toBe('"say {{tool:code}} and {{plural:rows|a|b}}"');
  });
  it('a missing var or an unknown template gives the unreadable line, never a throw', () => {
    expect(render('found.rows', { tool: { value: 't', source: 'library' } }).template.id).toBe('unreadable.line');
    expect(render('no.such-template').template.id).toBe('unreadable.line');
    expect(render('no.such-template').status).toBe('not-recorded');
  });
  it('clips long values and keeps at most 12 pointers', () => {
    const s = render('asked.message', { message: { value: 'x'.repeat(MAX_VAR_CHARS + 50), source: 'person' } }, Array.from({ length: 20 }, (_, i) => ({ traceId: 't', spanId: String(i), path: '' })));
    expect(Array.from((s.parts[0] as { quote: string }).quote).length).toBe(MAX_VAR_CHARS + 1);
    expect(s.pointers).toHaveLength(MAX_POINTERS);
  });
});

describe('voucher', () => {
  it('ranks person > library > tool > model > app', () => {
    expect(['app', 'model', 'tool:x', 'library', 'person'].map((s) => rankOf(s as never))).toEqual([4, 3, 2, 1, 0]);
    expect(weakest(['person', 'library'])).toBe('library');
    expect(weakest(['library', 'tool:x', 'person'])).toBe('tool:x');
    expect(weakest(['tool:x', 'model'])).toBe('model');
    expect(weakest(['model', 'app', 'person'])).toBe('app');
  });
  it("a sentence's voucher is the weakest of its template's and its vars' sources", () => {
    // Template voucher library, rows from the tool: the tool vouches.
    expect(render('found.rows', { tool: { value: 'db', source: 'library' }, rows: { value: 3, source: 'tool:db' } }).source).toBe('tool:db');
    // A `tool` template resolves to the tool named by its `tool` var.
    expect(render('found.absent-bare', { tool: { value: 'inventory', source: 'library' } }).source).toBe('tool:inventory');
    // The person's words are vouched by the person.
    expect(render('asked.message', { message: { value: 'hi', source: 'person' } }).source).toBe('person');
    // A model-sourced value makes the sentence the model's.
    expect(render('found.rows', { tool: { value: 'db', source: 'library' }, rows: { value: 3, source: 'model' } }).source).toBe('model');
  });
});
