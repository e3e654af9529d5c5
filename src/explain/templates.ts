// The closed, versioned table of the account's sentences. A sentence is only ever one of these,
// filled by render.ts. Changing a template's words requires bumping its `version` and
// TEMPLATE_SET_VERSION: test/explain/templates.test.ts pins each template's digest and fails a word
// change without a bump. Placeholders: {{name}} text, {{name:code}}, {{name:quote}},
// {{name:label}}, {{plural:name|one|many}} (the number in `name` and the right word).
// Data only; must never hold logic or HTML.

import type { Source } from './types.js';

export const TEMPLATE_SET_VERSION = 1;

export interface Template {
  id: string;
  version: number;
  /** The template's own voucher: `tool` resolves to `tool:<the tool var>`. */
  voucher: Source | 'tool';
  text: string;
}

const T = (id: string, version: number, voucher: Template['voucher'], text: string): Template => ({ id, version, voucher, text });

export const TEMPLATES: readonly Template[] = Object.freeze([
  // You asked
  T('asked.message', 1, 'person', '{{message:quote}}'),
  T('asked.not-recorded', 1, 'library', 'What was asked was not recorded: message content was not captured.'),
  T('asked.no-request', 1, 'library', 'No LLM request of this turn was recorded, so what was asked cannot be told.'),
  // It checked
  T('checked.call', 1, 'library', 'It called {{tool:code}} (call {{callId:code}}).'),
  T('checked.call-no-id', 1, 'library', 'It called {{tool:code}} (no call id recorded).'),
  T('checked.coverage', 1, 'tool', '{{tool:code}} says it checked {{what:quote}}.'),
  T('checked.none', 1, 'library', 'No tool was called this turn.'),
  // It did not check
  T('not-checked.item', 1, 'tool', '{{tool:code}} says it did not check {{what:quote}}.'),
  T('not-checked.item-why', 1, 'tool', '{{tool:code}} says it did not check {{what:quote}}: {{why:quote}}.'),
  T('not-checked.cannot', 1, 'tool', '{{tool:code}} says it cannot cover {{what:quote}}: {{why:quote}}.'),
  T('not-checked.undeclared', 1, 'library', 'No tool declared what it did not check, so what was left unchecked cannot be told.'),
  T('not-checked.none-declared-gap', 1, 'library', 'Every tool that declared its coverage declared no gap.'),
  // It found
  T('found.rows', 1, 'library', '{{tool:code}} returned {{plural:rows|row|rows}}.'),
  T('found.result', 1, 'library', '{{tool:code}} returned a result whose shape does not say whether anything was found.'),
  T('found.absent', 1, 'tool', '{{tool:code}} looked for {{lookedFor:quote}} and found none.'),
  T('found.absent-bare', 1, 'tool', '{{tool:code}} declared that it found nothing.'),
  T('found.empty-undeclared', 1, 'library', '{{tool:code}} returned an empty result without saying what it searched.'),
  T('found.refused', 1, 'library', '{{tool:code}} was refused.'),
  T('found.failed', 1, 'library', '{{tool:code}} failed.'),
  T('found.not-recorded', 1, 'library', "{{tool:code}}'s result was not recorded, so what it found cannot be told."),
  T('found.nothing', 1, 'library', 'Nothing was read this turn, so nothing was found.'),
  // How sure
  T('sure.consistent', 1, 'library', 'Consistent: the checks that ran found nothing against the answer. This is not a proof it is right.'),
  T('sure.not-sure', 1, 'library', 'Not sure: {{reasons:label}}.'),
  T('sure.not-assessed', 1, 'library', 'Not assessed: no check gave a verdict on this answer.'),
  T('sure.no-answer', 1, 'library', 'No final answer of this turn was recorded, so how sure it can be cannot be told.'),
  // Anything wrong
  T('wrong.finding', 1, 'library', '{{kind:label}} at {{seam:label}}: {{message}}'),
  T('wrong.advisory', 1, 'library', '{{kind:label}} at {{seam:label}} (advisory, a place to look): {{message}}'),
  T('wrong.none', 1, 'library', 'No finding: {{plural:ran|check|checks}} ran on this turn and found nothing.'),
  T('wrong.none-unchecked', 1, 'library', 'No finding, but no check ran on this turn, so nothing was looked for.'),
  // Checks that could not run
  T('unreachable.check', 1, 'library', '{{check:code}} could not run: {{why}}.'),
  T('unreachable.none', 1, 'library', 'Every armed check could run.'),
  T('unreachable.no-disposition', 1, 'library', "The turn's disposition was not recorded, so which checks ran cannot be told."),
  // Summary
  T('summary.bad', 1, 'library', '{{plural:findings|finding|findings}} on this turn: see Anything wrong.'),
  T('summary.warn', 1, 'library', 'No defect found, but the answer is not sure: {{reasons:label}}.'),
  T('summary.warn-advisory', 1, 'library', 'No defect found; {{plural:advisories|place|places}} to look.'),
  T('summary.ok', 1, 'library', 'The checks that ran found nothing against this answer.'),
  T('summary.unknown', 1, 'library', 'Cannot be told: nothing on this turn was checked.'),
  // A sentence that could not be filled
  T('unreadable.line', 1, 'library', 'This line could not be read from the record.'),
]);

const byId = new Map(TEMPLATES.map((t) => [t.id, t]));

export function templateOf(id: string): Template | undefined {
  return byId.get(id);
}
