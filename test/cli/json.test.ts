// `--format json`: every finding carries `advisory` as true or false, over every recorded
// instrumentation's backup-triage run and the demo.
import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { runCheck } from '../../src/cli/check.js';
import { FIXTURES_DIR, LIBRARIES, fixturePaths } from '../helpers/fixtures.js';
import { DEMO, DEMO_DECLARATIONS } from './helpers.js';

const findings = (argv: string[]) => JSON.parse(runCheck([...argv, '--format', 'json']).stdout).findings as Record<string, unknown>[];

describe('check --format json: advisory on every finding', () => {
  it('the demo: the unsupported-argument is advisory false, the empty-lookup true', () => {
    const f = findings([...DEMO, '--declarations', DEMO_DECLARATIONS]);
    expect(f.map((x) => [x.kind, x.advisory])).toEqual([
      ['unsupported-argument', false],
      ['empty-lookup', true],
    ]);
  });
  for (const lib of LIBRARIES)
    it(`${lib}: every finding has a boolean advisory`, () => {
      const f = findings([...fixturePaths(lib, 'backup-triage'), '--declarations', join(FIXTURES_DIR, 'declarations.yaml')]);
      expect(f.length).toBeGreaterThan(0);
      for (const x of f) expect(typeof x.advisory, `${lib} ${String(x.kind)}`).toBe('boolean');
      expect(f.some((x) => x.advisory === false)).toBe(true);
    });
});
