// Pins `YYYY-MM` month arguments derived from a served date and the user's words (src/values:
// relative.ts reads the expression with chrono-node, derive.ts `deriveDate` shifts the served
// date; argument-grounding.ts FrameGrounds): "last month", "N months ago", "this month" and a named
// month ("in March") with today's date served PASS as derived, the arithmetic kept as the witness;
// a month nobody asked for, a month with no served anchor, a day span and a year-long span stay
// `nowhere`. Realistic energy-utility billing frames; pure, no clock.
import { describe, it, expect } from 'vitest';
import { unsupportedArguments } from '../../src/checks/unsupported-argument.js';
import { relativeShifts } from '../../src/values/relative.js';
import { deriveDate } from '../../src/values/derive.js';
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
const derived = (out: ReturnType<typeof run>) => out.derived.map((d) => [d.path, d.value]);

describe('a YYYY-MM month computed from a served date and the user\'s words', () => {
  it('"last month" across a year boundary passes as derived, the arithmetic kept as the witness', () => {
    const out = run({ account_no: 'RE-5520-0917', month: '2026-12' }, [TODAY, asked('How much power did account RE-5520-0917 use last month?'), ACCOUNT]);
    expect(out.findings).toEqual([]);
    expect(out.derived).toEqual([
      { toolName: 'meter_readings', toolCallId: 'call_mr_002', path: 'args.month', value: '2026-12', formula: 'month of 2027-01-12 − 1 ("last month") = 2026-12', from: '2027-01-12, served by the system prompt' },
    ]);
    expect(out.tally).toMatchObject({ checked: 2, findings: 0 });
  });

  it('"this month", "3 months ago" and "in March" (the March before, or the one to come) are derived', () => {
    // A written "January 12, 2027" is read as the date it is (chrono-node): its month is served as it stands.
    const written: ServedString = { ...TODAY, text: 'You are the billing assistant of Rhein Energie. Today is January 12, 2027.' };
    const own = run({ month: '2027-01' }, [written, asked("Show this month's readings so far.")]);
    expect([own.findings, derived(own), own.tally.checked]).toEqual([[], [], 1]);
    expect(derived(run({ month: '2026-10' }, [TODAY, asked('What was the reading 3 months ago?')]))).toEqual([['args.month', '2026-10']]);
    expect(derived(run({ month: '2026-03' }, [TODAY, asked('What did we pay in March?')]))).toEqual([['args.month', '2026-03']]);
    expect(derived(run({ month: '2027-03' }, [TODAY, asked('Will the new tariff apply in March?')]))).toEqual([['args.month', '2027-03']]);
  });

  it('a month nobody asked for stays nowhere (non-advisory)', () => {
    expect(groundings(run({ month: '2026-11' }, [TODAY, asked('How much power did we use last month?')]))).toEqual([['args.month', 'nowhere', false]]);
    // "this month" is the anchor's month only: never last month.
    expect(groundings(run({ month: '2026-12' }, [TODAY, asked("Show this month's readings so far.")]))).toEqual([['args.month', 'nowhere', false]]);
    expect(groundings(run({ month: '2026-04' }, [TODAY, asked('What did we pay in March?')]))).toEqual([['args.month', 'nowhere', false]]);
    // A day span names no month, and a year (12 months) is no one month.
    expect(groundings(run({ month: '2026-12' }, [TODAY, asked('Show the readings of the last 30 days.')]))).toEqual([['args.month', 'nowhere', false]]);
    expect(groundings(run({ month: '2026-01' }, [TODAY, asked('Compare with the last 12 months.')]))).toEqual([['args.month', 'nowhere', false]]);
  });

  it('with no served anchor, or no phrase of the user, the month stays nowhere', () => {
    expect(groundings(run({ month: '2026-12' }, [NO_DATE, asked('How much power did we use last month?')]))).toEqual([['args.month', 'nowhere', false]]);
    expect(groundings(run({ month: '2026-12' }, [TODAY, asked('How much power did we use?')]))).toEqual([['args.month', 'nowhere', false]]);
  });

  it('an expression that counts from today shifts the date the user or system wrote, not one a tool served beside it', () => {
    const stale: ServedString = { source: 'tool-result', message: 3, callId: 'call_fa_001', toolName: 'find_account', text: '{"account_no":"RE-5520-0917","last_bill":"2026-06-30"}' };
    expect(groundings(run({ month: '2026-05' }, [TODAY, asked('How much did we use last month?'), stale]))).toEqual([['args.month', 'nowhere', false]]);
    // With no date in the user's or system's words, the tool's date stands for now.
    expect(derived(run({ month: '2026-05' }, [NO_DATE, asked('How much did we use last month?'), stale]))).toEqual([['args.month', '2026-05']]);
  });
});

describe('the relative expressions read', () => {
  it('"in may" in lower case is the verb; "in May" and "for the month of June" are months', () => {
    expect(relativeShifts(['The bill in may be late.'], 8).filter((s) => s.month !== undefined)).toEqual([]);
    expect(relativeShifts(['What did we use in May?', 'And for the month of June?'], 8).map((s) => s.month)).toEqual([5, 6]);
  });

  it('a named month never derives a date, only a month; a day shift is tried both ways when the words give no direction', () => {
    const anchors = [{ date: '2027-01-12', at: 0 }];
    expect(deriveDate('2026-03', anchors, relativeShifts(['in March'], 8))?.formula).toBe('"March" read beside 2027-01-12 = 2026-03');
    expect(deriveDate('2026-03-01', anchors, relativeShifts(['in March'], 8))?.formula).toBe('"March" read beside 2027-01-12 = 2026-03');
    const back = relativeShifts(['Also, I want to adjust my return flight by moving it back one day.'], 8);
    expect(back).toEqual([{ phrase: 'moving it back one day', days: 1, eitherWay: true, anaphoric: true }]);
    expect(deriveDate('2024-05-23', [{ date: '2024-05-22', at: 0 }], back)?.formula).toBe('2024-05-22 + 1 day(s) ("moving it back one day") = 2024-05-23');
    expect(deriveDate('2024-05-21', [{ date: '2024-05-22', at: 0 }], back)?.formula).toBe('2024-05-22 − 1 day(s) ("moving it back one day") = 2024-05-21');
    expect(deriveDate('2024-05-24', [{ date: '2024-05-22', at: 0 }], back)).toBeUndefined();
  });
});
