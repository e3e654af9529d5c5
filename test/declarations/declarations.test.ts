// Pins the declarations file: the shared fixtures' file loads, every shape error is refused with a
// one-line reason, and unknown keys name the nearest valid key.
import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { loadDeclarationsFile, parseDeclarationsText } from '../../src/declarations/load.js';
import { validateDeclarations } from '../../src/declarations/schema.js';
import { nearest } from '../../src/declarations/nearest.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

describe('unit: declarations load and validate', () => {
  it('loads the recorded conversations\' declarations', () => {
    const r = loadDeclarationsFile(join(FIXTURES_DIR, 'declarations.yaml'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.declarations.tools.backup_status!.argumentsFrom).toEqual(['list_machines', 'backup_jobs']);
    expect(r.declarations.tools.list_machines!.readOnly).toBe(true);
  });
  it('accepts JSON (a subset of YAML) and an empty file (no declarations)', () => {
    const r = parseDeclarationsText('{"tools":{"a":{"argumentsFrom":["b"]}}}', 'x.json');
    expect(r.ok && r.declarations.tools.a!.argumentsFrom).toEqual(['b']);
    const empty = parseDeclarationsText('', 'empty.yaml');
    expect(empty.ok && empty.declarations.tools).toEqual({});
  });
  it('refuses an unknown tool key naming the nearest valid one', () => {
    const r = validateDeclarations({ tools: { backup_status: { argumentFrom: ['x'] } } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toContain('tools.backup_status.argumentFrom: unknown key (did you mean "argumentsFrom"?)');
  });
  it('refuses an unknown top-level key naming the nearest valid one', () => {
    const r = validateDeclarations({ tool: {} });
    expect(!r.ok && r.errors[0]).toContain('tool: unknown key (did you mean "tools"?)');
  });
  it('refuses bad shapes with the path named', () => {
    const cases: [unknown, string][] = [
      [{ tools: { a: { argumentsFrom: [] } } }, 'tools.a.argumentsFrom: must name at least one tool'],
      [{ tools: { a: { argumentsFrom: ['  '] } } }, 'tools.a.argumentsFrom.0'],
      [{ tools: { a: { argumentsFrom: ['a'] } } }, 'cannot take its arguments from its own results'],
      [{ tools: { a: { readOnly: 'yes' } } }, 'tools.a.readOnly'],
      [{ tools: { a: { resultColumns: { n: 'integer' } } } }, 'tools.a.resultColumns.n'],
      [{ tools: { a: { rowsAt: 'a..b' } } }, 'tools.a.rowsAt: must be a key, a dotted path'],
      [{ tools: { a: { rowsAt: '/data/' } } }, 'tools.a.rowsAt: must be a key, a dotted path'],
      [{ claims: { total: { entity: 'x' } } }, 'claims.total.field'],
    ];
    for (const [input, needle] of cases) {
      const r = validateDeclarations(input);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) expect(r.errors.join('\n')).toContain(needle);
    }
  });
  it('says which file is broken and why, never throws', () => {
    const r = parseDeclarationsText('tools: [unclosed', 'bad.yaml');
    expect(!r.ok && r.errors[0]).toMatch(/^bad\.yaml: not valid YAML or JSON/);
    const list = parseDeclarationsText('- a\n- b', 'list.yaml');
    expect(!list.ok && list.errors[0]).toContain('must be a mapping');
    const missing = loadDeclarationsFile('/nonexistent/decl.yaml');
    expect(!missing.ok && missing.errors[0]).toContain('ENOENT');
  });
  it('nearest() finds close names and nothing for far ones', () => {
    expect(nearest('readonly', ['readOnly', 'rowsAt'])).toBe('readOnly');
    expect(nearest('result_columns', ['resultColumns', 'rowsAt'])).toBe('resultColumns');
    expect(nearest('zzzzzz', ['tools', 'claims'])).toBeUndefined();
  });
});
