// Pins identifiers written in display groups (src/values/identifiers.ts; docs/checks-answer.md and
// docs/checks-arguments.md): an IBAN or ICCID printed in groups meets the served joined value in
// `unsupported-value` (and a served grouped one meets the joined answer), a joined argument is
// grounded by the user's grouped typing in `unsupported-argument`; the fences hold — `12 34` is
// never `1234`, prose words are never groups, a shorter group ends a run, and a run whose join no
// source holds is judged group by group (a wrong digit is still found). Pure, realistic data.
import { describe, it, expect } from 'vitest';
import { groupedJoins } from '../../src/values/identifiers.js';
import { unsupportedValues, type WindowResult, DEFAULT_EVIDENCE_BOUNDS } from '../../src/checks/unsupported-value.js';
import { unsupportedArguments } from '../../src/checks/unsupported-argument.js';
import type { Frame, ServedString } from '../../src/model/frame.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';

const span = { traceId: '5c2e8a1f9b3d4e6f7a8b9c0d1e2f3a4b', spanId: '1a2b3c4d5e6f7081' };
const ACCOUNTS: WindowResult = {
  text: JSON.stringify([{ iban: 'DE89370400440532013000', product: 'Girokonto Plus', holder: 'Miriam Okafor' }]),
  toolName: 'find_accounts',
  callId: 'call_fa_001',
  request: 1,
  turnTraceId: span.traceId,
};
const judge = (answer: string, results: WindowResult[] = [ACCOUNTS], exemptTexts: string[] = []) =>
  unsupportedValues({ span, answerText: answer, windowResults: results, exemptTexts, bounds: DEFAULT_EVIDENCE_BOUNDS });

describe('groupedJoins (the reading both checks share)', () => {
  it('joins single-blank groups of one width, the last no longer, from each start, longest first', () => {
    const keys = groupedJoins('IBAN: DE89 3704 0044 0532 0130 00.', 100).map((g) => g.key);
    expect(keys[0]).toBe('de89370400440532013000');
    expect(keys).toContain('370400440532013000');
    expect(groupedJoins('**DE89 3704 0044 0532 0130 00**', 100)[0]!.raw).toBe('DE89 3704 0044 0532 0130 00');
  });

  it('never joins short runs, prose words, double blanks, or past a shorter group', () => {
    expect(groupedJoins('codes 12 34 and 1234 5678', 100)).toEqual([]);
    expect(groupedJoins('Your account holder is Miriam Okafor since 2019', 100)).toEqual([]);
    expect(groupedJoins('DE89  3704  0044  0532', 100)).toEqual([]);
    // `00` is shorter than 4: it may end a run, never continue one.
    expect(groupedJoins('DE89 3704 00 0532 0130', 100).map((g) => g.key)).toEqual(['de89370400']);
  });

  it("joins a code's letter prefix and the longer number after it (a blank for a hyphen), and nothing shorter", () => {
    expect(groupedJoins('Flight UA 2291 leaves at 09:10.', 100).map((g) => [g.raw, g.key])).toEqual([['UA 2291', 'ua2291']]);
    expect(groupedJoins('Invoice INV 30981 is paid.', 100).map((g) => g.key)).toEqual(['inv30981']);
    expect(groupedJoins('It is 10 AM 12 now; GATE B 12.', 100)).toEqual([]);
  });
});

describe('unsupported-value reads a code written with a blank whole', () => {
  it('grounds `UA 2291` against a served `UA-2291`; a wrong number stays a finding', () => {
    const flight: WindowResult = { text: JSON.stringify({ flight: 'UA-2291', price: 1289.5 }), toolName: 'get_flight', callId: 'call_f1', request: 1 };
    expect(judge('Flight UA 2291 costs USD 1,289.50.', [flight]).findings).toEqual([]);
    expect(judge('Flight UA 2219 costs USD 1,289.50.', [flight]).findings.map((f) => f.value)).toEqual(['2219']);
  });
});

describe('unsupported-value reads a display-grouped identifier whole', () => {
  it('grounds a served IBAN printed in groups of four (no finding per group)', () => {
    const out = judge('The IBAN of your Girokonto Plus is:\n\n**DE89 3704 0044 0532 0130 00**\n\nYou can give it to your employer as is.');
    expect(out.findings).toEqual([]);
    expect(out.grounded.map((g) => [g.key, g.raw])).toEqual([['de89370400440532013000', 'DE89 3704 0044 0532 0130 00']]);
  });

  it('grounds a joined answer against a served grouped IBAN, and an IBAN the user typed grouped exempts it', () => {
    const grouped: WindowResult = { ...ACCOUNTS, text: JSON.stringify({ iban_display: 'DE89 3704 0044 0532 0130 00' }) };
    expect(judge('Your IBAN is DE89370400440532013000.', [grouped]).findings).toEqual([]);
    const user = judge('Noted: DE02200505501015871393 is your savings account.', [ACCOUNTS], ['My savings IBAN is DE02 2005 0550 1015 8713 93.']);
    expect(user.findings).toEqual([]);
    expect(user.exempt).toEqual(['de02200505501015871393']);
  });

  it('judges a run whose join nothing served group by group: the wrong group is found', () => {
    const out = judge('Your IBAN is DE89 3704 0044 0532 0103 00.');
    expect(out.findings.map((f) => f.value)).toContain('0103');
    expect(out.grounded).toEqual([]);
  });
});

describe('unsupported-argument grounds a joined value the user typed in groups', () => {
  const DECL: Record<string, ToolDeclaration> = { list_transactions: { argumentsFrom: ['find_accounts'] } };
  const run = (iban: string, user: string) => {
    const served: ServedString[] = [{ source: 'user', message: 1, text: user }];
    const f: Frame = { served, written: [], external: [] };
    return unsupportedArguments({
      span,
      toolCalls: [{ id: 'call_lt_001', name: 'list_transactions', arguments: { iban } }],
      frame: f,
      declarationOf: (n) => DECL[n],
      inputCaptured: true,
      maxArgumentLeaves: 1000,
      quotedValueChars: 64,
    });
  };

  it('passes the join of the groups the user typed', () => {
    const out = run('DE02200505501015871393', 'Welche Abbuchungen gab es zuletzt auf DE02 2005 0550 1015 8713 93?');
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
  });

  it('still reports a joined value no run of the typed groups makes', () => {
    const out = run('DE02200505501015871339', 'Welche Abbuchungen gab es zuletzt auf DE02 2005 0550 1015 8713 93?');
    expect(out.findings.map((f) => [f.predicate, f.grounding])).toEqual([['args.iban', 'nowhere']]);
  });
});
