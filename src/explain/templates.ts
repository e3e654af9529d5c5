// The closed, versioned table of the account's sentences. A sentence is only ever one of these,
// filled by render.ts. Changing a template's words requires bumping its `version` and
// TEMPLATE_SET_VERSION: test/explain/templates.test.ts pins each template's digest and fails a word
// change without a bump. Placeholders: {{name}} text, {{name:code}}, {{name:quote}},
// {{name:label}}, {{plural:name|one|many}} (the number in `name` and the right word).
// Data only; must never hold logic or HTML.

import type { Source } from './types.js';

export const TEMPLATE_SET_VERSION = 2;

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
  // It answered
  T('answered.message', 1, 'model', '{{answer:quote}}'),
  T('answered.not-recorded', 1, 'library', 'What it answered was not recorded: message content was not captured.'),
  T('answered.none', 1, 'library', 'No final reply of this turn was recorded.'),
  // The verdict on top: a head, then the main reason (a why.* sentence) or the standing's reasons.
  T('verdict.bad', 1, 'library', 'The reply {{answer:quote}} is probably wrong:'),
  T('verdict.bad-unquoted', 1, 'library', 'The reply is probably wrong:'),
  T('verdict.bad-no-reply', 1, 'library', 'Something on this turn is probably wrong:'),
  T('verdict.warn', 1, 'library', 'The reply {{answer:quote}} may be wrong:'),
  T('verdict.warn-unquoted', 1, 'library', 'The reply may be wrong:'),
  T('verdict.warn-no-reply', 1, 'library', 'Something on this turn is worth a look:'),
  T('verdict.not-sure', 1, 'library', 'The reply {{answer:quote}} cannot be confirmed: {{reasons}}.'),
  T('verdict.not-sure-unquoted', 1, 'library', 'The reply cannot be confirmed: {{reasons}}.'),
  T('verdict.ok', 1, 'library', 'No problem found with the reply {{answer:quote}}: {{plural:ran|check|checks}} ran on this turn and found nothing. That is not proof it is right.'),
  T('verdict.ok-unquoted', 1, 'library', 'No problem found with the reply: {{plural:ran|check|checks}} ran on this turn and found nothing. That is not proof it is right.'),
  T('verdict.unknown', 1, 'library', 'Nothing on this turn was checked, so nothing can be said about the reply.'),
  // Why: one plain sentence per finding, by kind (kinds.ts picks the row). A lower-case start: it
  // follows the verdict's colon; the list of problems shows it capitalised.
  T('why.argument.assistant-only', 1, 'library', "the {{tool}} call used {{value:quote}} as the {{arg}}, a value that came only from the model's own earlier reply, not from a tool or from you."),
  T('why.argument.assistant-only-earlier', 1, 'library', "the {{tool}} call used {{value:quote}} as the {{arg}}, which the model took from its own earlier reply instead of from the {{source}} result it first came from."),
  T('why.argument.nowhere', 1, 'library', 'the {{tool}} call used {{value:quote}} as the {{arg}}, a value that appears nowhere in what the model was shown.'),
  T('why.argument.fragment', 1, 'library', 'the {{tool}} call used {{value:quote}} as the {{arg}}, which is only part of {{whole:quote}}, a cut-off value.'),
  T('why.argument.wrong-producer', 1, 'library', 'the {{tool}} call used {{value:quote}} as the {{arg}}, taken from a tool that is not meant to supply it.'),
  T('why.argument.derived', 1, 'library', 'the {{tool}} call used {{value:quote}} as the {{arg}}, a date the model worked out itself.'),
  T('why.argument.other', 1, 'library', 'the {{tool}} call used {{value:quote}} as the {{arg}}, a value nothing the model was shown supplied.'),
  T('why.empty.fragment', 1, 'library', 'the {{tool}} call found nothing for {{value:quote}}, which is only part of {{whole:quote}} that {{source}} returned, and the cut-off value may be why.'),
  T('why.empty.other', 1, 'library', 'the {{tool}} call found nothing for {{value:quote}}: that may be true, or the wrong thing was looked up.'),
  T('why.value.nowhere', 1, 'library', '{{value:quote}} in the reply is in no tool result: nothing the agent looked up supplied it.'),
  T('why.value.assistant-only', 1, 'library', "{{value:quote}} in the reply comes only from the model's own earlier words, not from any tool result."),
  T('why.value.derived', 1, 'library', '{{value:quote}} in the reply was calculated by the model from other figures, not read from a tool.'),
  T('why.claim.contradicts', 1, 'library', 'the reply says {{value:quote}} where the latest {{tool}} result says {{settled:quote}}.'),
  T('why.claim.leaves-out', 1, 'library', 'the reply leaves out {{settled:quote}}, which the {{tool}} result stated.'),
  T('why.refusal', 1, 'library', 'the reply says {{said:quote}}, but the {{tool}} call was refused or failed, so it could not know.'),
  T('why.prior-turn', 1, 'library', 'the reply repeats {{value:quote}} from an earlier turn without looking it up again, so it may be out of date.'),
  T('why.dangling', 1, 'library', 'the {{tool}} step worked from memory: the {{source}} results it needs were no longer in view.'),
  T('why.missing-column', 1, 'library', 'the {{tool}} result lacks the {{column}} it is declared to have.'),
  T('why.column-type', 1, 'library', 'the {{tool}} result holds {{value:quote}} where the {{column}} should be a {{type}}.'),
  T('why.generic', 1, 'library', 'a check found a problem ({{kind}}): {{message}}'),
  // The standing's reasons, as phrases (joined into {{reasons}}).
  T('reason.declared-absent', 1, 'library', 'it rests on a lookup that found nothing'),
  T('reason.coverage-gap', 1, 'library', 'a tool said there are things it did not or could not check'),
  T('reason.empty-undeclared', 1, 'library', 'a lookup came back empty without saying what it searched'),
  T('reason.period-not-held', 1, 'library', 'the data does not cover the period asked about'),
  T('reason.period-partly-held', 1, 'library', 'the data covers only part of the period asked about'),
  T('reason.period-unknown', 1, 'library', 'which period the data covers cannot be told'),
  T('reason.value-unsupported', 1, 'library', 'a value in the reply is not backed by any tool result'),
  T('reason.refused-read', 1, 'library', 'a lookup was refused or failed'),
  T('reason.answer-check-failed', 1, 'library', 'a check on the reply itself found a problem'),
  T('reason.other', 1, 'library', 'a reason recorded as {{code}}'),
  // What it looked up
  T('checked.call', 2, 'library', 'It used {{tool:code}}.'),
  T('checked.coverage', 1, 'tool', '{{tool:code}} says it checked {{what:quote}}.'),
  T('checked.none', 1, 'library', 'No tool was called this turn.'),
  // What it did not check
  T('not-checked.item', 1, 'tool', '{{tool:code}} says it did not check {{what:quote}}.'),
  T('not-checked.item-why', 1, 'tool', '{{tool:code}} says it did not check {{what:quote}}: {{why:quote}}.'),
  T('not-checked.cannot', 1, 'tool', '{{tool:code}} says it cannot cover {{what:quote}}: {{why:quote}}.'),
  T('not-checked.undeclared', 2, 'library', 'No tool said what it left out, so what was not checked cannot be told.'),
  T('not-checked.none-declared-gap', 1, 'library', 'Every tool that declared its coverage declared no gap.'),
  // What it found
  T('found.rows', 2, 'library', '{{tool:code}} returned {{plural:rows|result|results}}.'),
  T('found.result', 1, 'library', '{{tool:code}} returned a result whose shape does not say whether anything was found.'),
  T('found.absent', 1, 'tool', '{{tool:code}} looked for {{lookedFor:quote}} and found none.'),
  T('found.absent-bare', 1, 'tool', '{{tool:code}} declared that it found nothing.'),
  T('found.empty-undeclared', 1, 'library', '{{tool:code}} returned an empty result without saying what it searched.'),
  T('found.refused', 1, 'library', '{{tool:code}} was refused.'),
  T('found.failed', 1, 'library', '{{tool:code}} failed.'),
  T('found.not-recorded', 1, 'library', "{{tool:code}}'s result was not recorded, so what it found cannot be told."),
  T('found.nothing', 1, 'library', 'Nothing was read this turn, so nothing was found.'),
  // How sure: one statement, consistent with the verdict.
  T('sure.bad', 1, 'library', 'Not reliable: {{plural:problems|problem was|problems were}} found on the way to this reply (see What is likely wrong).'),
  T('sure.warn', 1, 'library', 'Uncertain: {{plural:advisories|thing is|things are}} worth a look, though none is a proven mistake.'),
  T('sure.not-sure', 2, 'library', 'Cannot be confirmed: {{reasons}}.'),
  T('sure.also-not-sure', 1, 'library', 'Besides, it cannot be confirmed: {{reasons}}.'),
  T('sure.ok', 1, 'library', 'No problem found: {{plural:ran|check|checks}} ran and found nothing against this reply. That is not proof it is right.'),
  T('sure.not-assessed', 2, 'library', 'Not assessed: no check gave a verdict on this reply.'),
  T('sure.no-answer', 1, 'library', 'No final answer of this turn was recorded, so how sure it can be cannot be told.'),
  // What is likely wrong, when nothing is
  T('wrong.none', 2, 'library', 'Nothing: {{plural:ran|check|checks}} ran on this turn and found nothing.'),
  T('wrong.none-unchecked', 2, 'library', 'Nothing found, but no check ran on this turn, so nothing was looked for.'),
  // Checks that could not run (engineer detail)
  T('unreachable.check', 1, 'library', '{{check:code}} could not run: {{why}}.'),
  T('unreachable.none', 1, 'library', 'Every armed check could run.'),
  T('unreachable.no-disposition', 1, 'library', "The turn's disposition was not recorded, so which checks ran cannot be told."),
  // A sentence that could not be filled
  T('unreadable.line', 1, 'library', 'This line could not be read from the record.'),
]);

const byId = new Map(TEMPLATES.map((t) => [t.id, t]));

export function templateOf(id: string): Template | undefined {
  return byId.get(id);
}
