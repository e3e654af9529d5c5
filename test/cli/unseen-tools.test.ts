// `check` with declarations for tools the traces never name: each gets a note naming the nearest
// name seen (a misspelling as "did you mean"); tools the traces name get none; and nothing is said
// when the traces name no tool at all (nothing to compare with).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { fixturePaths } from '../helpers/fixtures.js';
import { unseenDeclaredTools } from '../../src/declarations/unseen.js';

function declarationsFile(yaml: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'fp-unseen-')), 'declarations.yaml');
  writeFileSync(f, yaml);
  return f;
}

describe('declared tools the traces never name', () => {
  it('a misspelt one and a renamed one are named, each with the nearest seen name; seen ones are not', () => {
    const decl = declarationsFile(['tools:', '  list_machines:', '    readOnly: true', '  backup_statuss:', '    readOnly: true', '  get_backup_report:', '    readOnly: true', ''].join('\n'));
    const r = runCheck([...fixturePaths('traceloop-openai', 'backup-triage'), '--declarations', decl, '--format', 'json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).notes).toEqual([
      "Declared tool 'backup_statuss' never appears in these traces (no tool definition, call or execution names it), so its declaration arms nothing; did you mean 'backup_status'?",
      "Declared tool 'get_backup_report' never appears in these traces (no tool definition, call or execution names it), so its declaration arms nothing; the nearest name seen is 'backup_jobs'.",
    ]);
    const text = runCheck([...fixturePaths('traceloop-openai', 'backup-triage'), '--declarations', decl]).stdout;
    expect(text).toContain("did you mean 'backup_status'?");
  });

  it('every declared tool seen: no note', () => {
    const decl = declarationsFile(['tools:', '  list_machines:', '    readOnly: true', '  backup_status:', '    readOnly: true', ''].join('\n'));
    expect(JSON.parse(runCheck([...fixturePaths('traceloop-openai', 'backup-triage'), '--declarations', decl, '--format', 'json']).stdout).notes).toEqual([]);
  });

  it('unit: nothing seen, nothing said; a tie goes to the alphabetically first name', () => {
    expect(unseenDeclaredTools(['a_tool'], new Set())).toEqual([]);
    expect(unseenDeclaredTools(['qqqqqqqq'], new Set(['bbbbbbbb', 'aaaaaaaa']))).toEqual([{ tool: 'qqqqqqqq', nearest: 'aaaaaaaa', close: false }]);
  });
});
