// Pins `YYYY-MM` month arguments derived from a served anchor (argument-dates.ts `derivedMonth`,
// argument-grounding.ts FrameGrounds): "last month", "N months ago", "this month" and a named month
// ("in March") with today's date served are advisory `derived`, the arithmetic in the witness; a
// month nobody asked for, a month with no served anchor, and a day span stay `nowhere`. Realistic
// energy-utility billing frames; pure, no clock.
import { describe, it, expect } from 'vitest';
import { unsupportedArguments } from '../../src/checks/unsupported-argument.js';
import { derivedMonth, isoMonthOf, spansOf } from '../../src/checks/argument-dates.js';
import type { Frame, ServedString } from '../../src/model/frame.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';
import type { ToolCall } from '../../src/model/agent.js';

const span = { traceId: '7f3c1a9e5b2d4f6081a3c5e7b9d1f3a5', spanId: 'c0ffee00ba5eba11' };
const TODAY: ServedString = { source: 'system', message: 0, text: 'You are the billing assistant of Rhein Energie. Today is 2027-01-12. Meter readings are monthly.' };
const NO_DATE: ServedString = { source: 'system', message: 0, text: 'You are the billing assistant of Rhein Energie. Meter readings are monthly.' };
const ACCOUNT: ServedString = { source: 'tool-result', message: 3, callId: 'call_fa_001', toolName: 'find_account', text: '{"account_no":"RE-5520-0917","holder":"Lena Vogt","tariff":"Grün 24"}' };
const asked = (text: string): ServedString => ({ source: 'user', message: 1, text });
const DECL: Record<string, ToolDeclaration> = { meter_readings: { argumentsFrom: ['find_account'] } };

function run(args: unknown, served: ServedString[]) {
  const f: Frame = { served, written: [], external: [] };
  const call: ToolCall = { id: 'call_mr_002', name: 'meter_readings', arguments: args };
  return unsupportedArguments({ span, toolCalls: [call], frame: f, declarationOf: (n) => DECL[n], inputCaptured: true, maxArgumentLeaves: 1000, quotedValueChars: 64 });
}
const groundings = (out: ReturnType<typeof run>) => out.findings.map((f) => [f.predicate, f.grounding, f.advisory === true]);

describe('a YYYY-MM month computed from a served anchor', () => {
  it('"last month" across a year boundary is advisory derived, the arithmetic in the message and witnesses', () => {
    const out = run({ account_no: 'RE-5520-0917', month: '2026-12' }, [TODAY, asked('How much power did account RE-5520-0917 use last month?'), ACCOUNT]);
    expect(groundings(out)).toEqual([['args.month', 'derived', true]]);
    const f = out.findings[0]!;
    expect(f.message).toContain('month of 2027-01-12 − 1 month(s) = 2026-12');
    expect(f.witnesses.map((w) => w.value)).toEqual(['2026-12', '2027-01-12', 'last month']);
    expect(out.tally).toMatchObject({ checked: 2, findings: 0 });
  });

  it('"this month", "3 months ago" and "in March" (the March before, or the one to come) are derived', () => {
    // With an ISO "Today is 2027-01-12" the anchor's own month is served as it stands; a written date is not.
    const written: ServedString = { ...TODAY, text: 'You are the billing assistant of Rhein Energie. Today is January 12, 2027.' };
    const own = run({ month: '2027-01' }, [written, asked('Show this month\'s readings so far.')]);
    expect(groundings(own)).toEqual([['args.month', 'derived', true]]);
    expect(own.findings[0]!.message).toContain('month of 2027-01-12 = 2027-01');
    expect(groundings(run({ month: '2026-10' }, [TODAY, asked('What was the reading 3 months ago?')]))).toEqual([['args.month', 'derived', true]]);
    expect(groundings(run({ month: '2026-03' }, [TODAY, asked('What did we pay in March?')]))).toEqual([['args.month', 'derived', true]]);
    expect(groundings(run({ month: '2027-03' }, [TODAY, asked('Will the new tariff apply in March?')]))).toEqual([['args.month', 'derived', true]]);
  });

  it('a month nobody asked for stays nowhere (non-advisory)', () => {
    expect(groundings(run({ month: '2026-11' }, [TODAY, asked('How much power did we use last month?')]))).toEqual([['args.month', 'nowhere', false]]);
    // "this month" is the anchor's month only: its rolling reading never makes last month.
    expect(groundings(run({ month: '2026-12' }, [TODAY, asked('Show this month\'s readings so far.')]))).toEqual([['args.month', 'nowhere', false]]);
    expect(groundings(run({ month: '2026-04' }, [TODAY, asked('What did we pay in March?')]))).toEqual([['args.month', 'nowhere', false]]);
    // A day span names no month, and a year (12 months) is no one month.
    expect(groundings(run({ month: '2026-12' }, [TODAY, asked('Show the readings of the last 30 days.')]))).toEqual([['args.month', 'nowhere', false]]);
    expect(groundings(run({ month: '2026-01' }, [TODAY, asked('Compare with the last 12 months.')]))).toEqual([['args.month', 'nowhere', false]]);
  });

  it('with no served anchor, or no phrase of the user, the month stays nowhere', () => {
    expect(groundings(run({ month: '2026-12' }, [NO_DATE, asked('How much power did we use last month?')]))).toEqual([['args.month', 'nowhere', false]]);
    expect(groundings(run({ month: '2026-12' }, [TODAY, asked('How much power did we use?')]))).toEqual([['args.month', 'nowhere', false]]);
  });
});

describe('the month reader', () => {
  it('reads only YYYY-MM with a real month', () => {
    expect(isoMonthOf('2026-12')).toBe('2026-12');
    expect(isoMonthOf(' 2026-09 ')).toBe('2026-09');
    expect(isoMonthOf('2026-13')).toBeUndefined();
    expect(isoMonthOf('2026-12-01')).toBeUndefined();
    expect(isoMonthOf('RE-5520')).toBeUndefined();
  });

  it('"in may" in lower case is the verb; "in May" and "for the month of June" are months; "in March 2026" is left to the user\'s own words', () => {
    expect(spansOf(['The bill in may be late.']).filter((s) => s.month !== undefined)).toEqual([]);
    expect(spansOf(['What did we use in May?', 'And for the month of June?']).map((s) => s.month)).toEqual([5, 6]);
    expect(spansOf(['Show in March 2026']).filter((s) => s.month !== undefined)).toEqual([]);
  });

  it('a named month never derives a date, only a month', () => {
    const anchors = [{ date: '2027-01-12', served: TODAY }];
    expect(derivedMonth('2026-03', anchors, spansOf(['in March']))?.arithmetic).toBe('"in March" read beside 2027-01-12 = 2026-03');
  });
});
