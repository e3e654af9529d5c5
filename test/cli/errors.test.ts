// Error texts are complete: a YAML error keeps its line, column, whole message and the parser's
// excerpt; an unknown option is named as typed, with the nearest valid one and the usage line.
import { describe, it, expect } from 'vitest';
import { runCheck, CHECK_USAGE } from '../../src/cli/check.js';
import { DEMO, tempFile } from './helpers.js';

describe('check: YAML errors in declarations', () => {
  it('names the file, line and column, and keeps the message and the excerpt', () => {
    const path = tempFile('declarations.yaml', 'tools:\n  backup_status:\n    argumentsFrom: [backup_jobs\n    readOnly: true\n');
    const r = runCheck([...DEMO, '--declarations', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^footprint-otel check: declarations refused: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid YAML or JSON at line \\d+, column \\d+: .+`));
    // The parser's own sentence, unshortened (it ends with the missing bracket), and its excerpt.
    expect(r.stderr).toMatch(/must be sufficiently indented and end with a \]/);
    expect(r.stderr).toContain('    argumentsFrom: [backup_jobs');
    expect(r.stderr).toMatch(/\n +\^/);
  });

  it('a duplicate key names its line too', () => {
    const path = tempFile('dup.yaml', 'tools:\n  a:\n    readOnly: true\n  a:\n    readOnly: false\n');
    const r = runCheck([...DEMO, '--declarations', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('not valid YAML or JSON at line 4, column 3: Map keys must be unique');
  });
});

describe('check: unknown options', () => {
  const cases: [string, string[], string][] = [
    ['a misspelt long option', ['--fromat', 'json'], 'unknown option "--fromat"; did you mean --format?'],
    ['an option with =', ['--fial-on=findings'], 'unknown option "--fial-on" (in "--fial-on=findings"); did you mean --fail-on?'],
    ['a short group', ['-xq'], 'unknown option "-x" (in "-xq")'],
  ];
  for (const [name, argv, reason] of cases)
    it(`${name}: named in full, the options listed, then the usage`, () => {
      const r = runCheck([...DEMO, ...argv]);
      expect(r.exitCode).toBe(2);
      const [first, ...rest] = r.stderr.trimEnd().split('\n');
      expect(first).toContain(`footprint-otel check: ${reason}`);
      expect(first).toContain('the options are --declarations, --format, --write, --redaction, --fail-on, --html, --evaluation-events, --help');
      // No quote left open, nothing cut: the line ends where the sentence ends.
      expect(first).toMatch(/goes after "--"$/);
      expect(rest.join('\n')).toBe(CHECK_USAGE);
    });

  it('a missing value names its option', () => {
    const r = runCheck([...DEMO, '--format']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('footprint-otel check: option --format needs a value');
  });
});
