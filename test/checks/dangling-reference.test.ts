// Pins check `dangling-reference` and its fences: a tool declaring argumentsFrom offered while a
// ground an earlier request held is missing from this window is one finding naming every missing
// ground; a ground never fetched is silent; a ground fetched again is silent; tools without
// argumentsFrom are not applicable; unrecorded tool definitions and uncaptured input are
// unreachable, never a pass; and no declaration means no finding at all.
import { describe, it, expect } from 'vitest';
import { danglingReferences, type OfferCheckInput } from '../../src/checks/dangling-reference.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';

const span = { traceId: 'ab971de46025cb7d8b0b22f5b48216e6', spanId: 'c4f1a6d2e07b3398' };

const armed: Record<string, ToolDeclaration> = {
  backup_status: { argumentsFrom: ['list_machines', 'backup_jobs'] },
  backup_jobs: { argumentsFrom: ['list_machines'] },
  list_machines: { readOnly: true },
};

function run(over: Partial<OfferCheckInput> = {}, decl: Record<string, ToolDeclaration> = armed) {
  return danglingReferences({
    span,
    offeredTools: ['list_machines', 'backup_jobs', 'backup_status'],
    declarationOf: (n) => decl[n],
    presentResultTools: new Set(),
    earlierResultTools: new Set(),
    inputCaptured: true,
    ...over,
  });
}

describe('unit: dangling-reference and every fence', () => {
  it('flags an offered tool whose ground an earlier request held and this window does not (advisory: not called)', () => {
    const out = run({ offeredTools: ['list_machines', 'backup_jobs'], earlierResultTools: new Set(['list_machines']) });
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({
      kind: 'dangling-reference',
      seam: 'offer',
      subjects: [{ kind: 'tool', id: 'backup_jobs' }, { kind: 'ground', id: 'list_machines' }],
      predicate: 'argument-ground',
      toolName: 'backup_jobs',
      advisory: true,
      span,
    });
    expect(f.toolCallId).toBeUndefined();
    expect(f.value).toBeUndefined();
    expect(f.message).toBe(
      "'backup_jobs' was offered to the model, but the results of 'list_machines' it takes its arguments from are no longer in the window: an earlier request of this conversation held it and it was not fetched again, so any value the model passes to 'backup_jobs' would come from memory (this request does not call it yet, so this is a warning). Have the model call list_machines again first, or keep that result in the window. Nothing here blocked the offer.",
    );
    expect(f.witnesses.map((w) => w.stratum)).toEqual(['declared', 'absent']);
    expect(f.witnesses[1]!.provenance).toContain('evicted, not fetched again');
    expect(out.tally).toMatchObject({ check: 'dangling-reference', seam: 'offer', checked: 1, findings: 1, notApplicable: 1, unreachable: 0 });
  });

  it('a request that calls the dangling tool: a finding on that call, not advisory', () => {
    const out = run({
      offeredTools: ['list_machines', 'backup_jobs'],
      earlierResultTools: new Set(['list_machines']),
      toolCalls: [{ id: 'call_bt_002', name: 'list_machines' }, { id: 'call_bt_003', name: 'backup_jobs' }],
    });
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ toolName: 'backup_jobs', toolCallId: 'call_bt_003' });
    expect(f.advisory).toBeUndefined();
    expect(f.message).toContain("this request calls 'backup_jobs' (call call_bt_003), so the values it passes come from memory");
    expect(f.witnesses.at(-1)).toMatchObject({ subject: 'tool backup_jobs', stratum: 'chosen', value: 'call_bt_003' });
  });

  it('one finding per request, grouping every tool whose grounds left and every missing ground', () => {
    const out = run({ earlierResultTools: new Set(['list_machines', 'backup_jobs']) });
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f.subjects).toEqual([
      { kind: 'tool', id: 'backup_jobs' },
      { kind: 'tool', id: 'backup_status' },
      { kind: 'ground', id: 'list_machines' },
      { kind: 'ground', id: 'backup_jobs' },
    ]);
    // Advisory (neither is called) and no single tool to name.
    expect(f.advisory).toBe(true);
    expect(f.toolName).toBeUndefined();
    expect(f.message).toContain("'backup_jobs' and 'backup_status' were offered to the model");
    expect(f.message).toContain("('backup_jobs' from 'list_machines'; 'backup_status' from 'list_machines' and 'backup_jobs')");
    expect(f.message).toContain('held them and they were not fetched again');
    expect(f.message).toContain('call list_machines or backup_jobs again');
    expect(f.witnesses.filter((w) => w.stratum === 'declared').map((w) => w.subject)).toEqual(['tool backup_jobs', 'tool backup_status']);
    expect(f.witnesses.filter((w) => w.stratum === 'absent').map((w) => w.value)).toEqual(['list_machines', 'backup_jobs']);
    expect(out.tally).toMatchObject({ checked: 2, findings: 1, notApplicable: 1 });
  });

  it('eight armed tools over one evicted list: one finding, not eight', () => {
    const decl: Record<string, ToolDeclaration> = { list_machines: { readOnly: true } };
    const tools = Array.from({ length: 8 }, (_, i) => `machine_tool_${i + 1}`);
    for (const t of tools) decl[t] = { argumentsFrom: ['list_machines'] };
    const out = run({ offeredTools: ['list_machines', ...tools], earlierResultTools: new Set(['list_machines']), toolCalls: [{ id: 'call_7', name: 'machine_tool_7' }] }, decl);
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.subjects.filter((x) => x.kind === 'tool')).toHaveLength(8);
    expect(out.findings[0]).toMatchObject({ toolName: 'machine_tool_7', toolCallId: 'call_7' });
    expect(out.tally).toMatchObject({ checked: 8, findings: 1, notApplicable: 1 });
  });

  it('names only the grounds that are missing', () => {
    const out = run({ offeredTools: ['backup_status'], earlierResultTools: new Set(['list_machines', 'backup_jobs']), presentResultTools: new Set(['backup_jobs']) });
    expect(out.findings[0]!.subjects.map((s) => s.id)).toEqual(['backup_status', 'list_machines']);
  });

  it('fence: a ground never fetched is silent (ordinary sequencing)', () => {
    const out = run();
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 2, findings: 0, notApplicable: 1 });
  });

  it('fence: a ground fetched again is silent however often it was evicted', () => {
    const out = run({ earlierResultTools: new Set(['list_machines', 'backup_jobs']), presentResultTools: new Set(['list_machines', 'backup_jobs']) });
    expect(out.findings).toEqual([]);
    expect(out.tally.checked).toBe(2);
  });

  it('fence: only declared grounds count; an earlier result of another tool is no ground', () => {
    expect(run({ earlierResultTools: new Set(['get_weather']) }).findings).toEqual([]);
  });

  it('fence: a tool that is not offered is not judged', () => {
    const out = run({ offeredTools: ['list_machines'], earlierResultTools: new Set(['list_machines']) });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1 });
  });

  it('a tool offered twice is one encounter', () => {
    const out = run({ offeredTools: ['backup_jobs', 'backup_jobs'], earlierResultTools: new Set(['list_machines']) });
    expect(out.findings).toHaveLength(1);
    expect(out.tally.checked).toBe(1);
  });

  it('tool definitions not recorded: unreachable with its reason, never a pass', () => {
    const out = run({ offeredTools: undefined, earlierResultTools: new Set(['list_machines']) });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 0, unreachable: 1, unreachableReasons: { 'tool definitions were not recorded': 1 } });
  });

  it('input not captured: armed tools are unreachable (an empty window is not an evicted ground)', () => {
    const out = run({ inputCaptured: false, earlierResultTools: new Set(['list_machines']) });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, notApplicable: 1, unreachable: 2, unreachableReasons: { 'message content was not captured': 2 } });
  });

  it('no tools offered: nothing to judge', () => {
    expect(run({ offeredTools: [] }).tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 0, unreachable: 0 });
  });

  it('zero delta: with no declaration there is no finding, every offered tool not applicable', () => {
    const out = run({ earlierResultTools: new Set(['list_machines', 'backup_jobs']) }, {});
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 3, unreachable: 0, unreachableReasons: {} });
  });
});
