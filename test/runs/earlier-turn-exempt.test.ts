// Pins "user messages of earlier turns exempt their values" (unsupported-value) through the core,
// on the recorded dangling-ground conversation: its app keeps only the system prompt and the final
// answers between turns, so turn 2's window no longer holds turn 1's user message. A ticket id the
// user gave in turn 1 and the answer repeats in turn 2 is exempt; the same id the user never gave
// is still a finding.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FootprintCore } from '../../src/runs/footprint.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

const DIR = join(FIXTURES_DIR, 'scenarios');
const decl = (() => {
  const r = loadDeclarationsFile(join(DIR, 'declarations.yaml'));
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.declarations;
})();
const TURN1_USER = 'Which acme machines are not protected by a backup plan?';
const TURN2_ANSWER = 'finished ok at 2026-11-30T02:00:00Z.';

function run(turn1Mentions: boolean) {
  let text = readFileSync(join(DIR, 'dangling-ground.otlp.json'), 'utf8');
  expect(text.split(TURN1_USER)).toHaveLength(3);
  expect(text.split(TURN2_ANSWER)).toHaveLength(2);
  if (turn1Mentions) text = text.split(TURN1_USER).join(`${TURN1_USER} This is for change ticket CHG-20417.`);
  text = text.replace(TURN2_ANSWER, 'finished ok at 2026-11-30T02:00:00Z, in time for change ticket CHG-20417.');
  const doc = decodeOtlpJsonText(text, 'dangling-ground-edited');
  return new FootprintCore({ declarations: decl }).process({ spans: doc.spans.map((s) => s.span) });
}

describe('functional: earlier turns\' user messages exempt answer values', () => {
  it('a value the user gave in turn 1 (no longer in the window) is exempt in turn 2', () => {
    const values = run(true).findings.filter((f) => f.kind === 'unsupported-value');
    expect(values).toEqual([]);
  });
  it('control: the same value the user never gave is a finding', () => {
    const values = run(false).findings.filter((f) => f.kind === 'unsupported-value');
    expect(values.map((f) => [f.predicate, f.grounding])).toEqual([['chg-20417', 'nowhere']]);
  });
});
