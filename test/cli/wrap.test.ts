// Printed lines are wrapped at word boundaries to the width and never cut: every printed line fits
// (or is one word too long to fit), and the words read in order are exactly the unwrapped report's.
import { describe, it, expect } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { DEFAULT_WIDTH, outputWidth, wrapLine } from '../../src/cli/wrap.js';
import { DEMO, DEMO_DECLARATIONS } from './helpers.js';

const words = (s: string) => s.split(/\s+/).filter(Boolean);

describe('wrapLine', () => {
  it('breaks at spaces under a hanging indent', () => {
    expect(wrapLine('  alpha beta gamma delta', 14)).toEqual(['  alpha beta', '    gamma', '    delta']);
  });
  it('keeps a word longer than the width whole', () => {
    const long = 'x'.repeat(30);
    expect(wrapLine(`a ${long} b`, 10)).toEqual(['a', `  ${long}`, '  b']);
  });
  it('leaves short lines alone', () => {
    expect(wrapLine('short', 100)).toEqual(['short']);
  });
  it('width: the terminal columns, 100 when not a terminal', () => {
    expect(outputWidth({ isTTY: true, columns: 132 })).toBe(132);
    expect(outputWidth({ isTTY: false, columns: 132 })).toBe(DEFAULT_WIDTH);
    expect(outputWidth({})).toBe(100);
  });
});

describe('check text output is wrapped, not cut', () => {
  for (const width of [60, 100, 132]) {
    it(`width ${width}: every line fits, every word is there in order`, () => {
      const argv = [...DEMO, '--declarations', DEMO_DECLARATIONS];
      const wrapped = runCheck(argv, { width }).stdout;
      const unwrapped = runCheck(argv, { width: 1_000_000 }).stdout;
      const lines = wrapped.split('\n');
      expect(lines.length).toBeGreaterThan(unwrapped.split('\n').length);
      for (const l of lines) if (l.length > width) expect(words(l)).toHaveLength(1);
      expect(words(wrapped)).toEqual(words(unwrapped));
      // The finding's sentence ends whole (the demo's ends with this).
      expect(wrapped.replace(/\s+/g, ' ')).toContain('Call list_machines or backup_jobs again and use a value it returns. Nothing here blocked the call.');
    });
  }
  it('the default is 100 columns', () => {
    const r = runCheck([...DEMO, '--declarations', DEMO_DECLARATIONS]).stdout;
    expect(Math.max(...r.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
    expect(Math.max(...r.split('\n').map((l) => l.length))).toBeGreaterThan(90);
  });
});
