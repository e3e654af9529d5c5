// `footprint-otel check FILE... --html report.html`: one self-contained page for every agent trace.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { DEMO, DEMO_TURN_1, DEMO_TURN_2 } from './helpers.js';

const files = [join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json'), '--declarations', join(DEMO, 'declarations.yaml')];

describe('check --html', () => {
  it('writes one page with both turns of the demo and still prints the findings', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'fp-html-')), 'report.html');
    const r = runCheck([...files, '--html', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('unsupported-argument @ choice');
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(`<code>${DEMO_TURN_1}</code>`);
    expect(html).toContain(`<code>${DEMO_TURN_2}</code>`);
    expect(html).toContain('Explain these answers · 2 turns');
    // Turn 2 (the bad one) first; its backtrack link lands in its own folded windows.
    expect(html.indexOf('id="t2-turn"')).toBeLessThan(html.indexOf('id="t1-turn"'));
    expect(html).toContain('href="#t2-span-aa0b0c50ac8db839"');
    expect(html).toContain('id="t2-span-aa0b0c50ac8db839"');
  });
  it('redaction reaches the page', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'fp-html-')), 'report.html');
    expect(runCheck([...files, '--redaction', 'hash', '--html', out]).exitCode).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toContain('db-primary-full');
    expect(html).not.toContain('backup status of that machine');
    expect(html).toMatch(/sha256:[0-9a-f]{16}/);
  });
  it('an unwritable path is exit 2 with a reason', () => {
    const r = runCheck([...files, '--html', '/nonexistent-dir/x/report.html']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/cannot write \/nonexistent-dir\/x\/report\.html \(ENOENT\)/);
  });
});
