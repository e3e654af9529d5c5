// Pins check `unsupported-argument` and every fence: booleans, null, non-identifier integers and
// short values are never checked, whole served tokens (case-insensitive) pass and a proper part of
// one is a fragment, example values of a description do not, enum values pass, external grounds pass and
// are recorded, the two failure groundings (assistant-only, nowhere) have their own messages and
// witnesses, one finding per argument path, and no declaration means no output at all.
import { describe, it, expect } from 'vitest';
import { unsupportedArguments, type ChoiceCheckInput } from '../../src/checks/unsupported-argument.js';
import type { Frame } from '../../src/model/frame.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';
import type { ToolCall } from '../../src/model/agent.js';

const span = { traceId: 'ab971de46025cb7d8b0b22f5b48216e6', spanId: 'a9b04d13ac76df2a' };
const SYSTEM = 'You are a backup triage assistant for customer acme.';
const JOBS = '[{"job":"nightly-db-primary-full","status":"ok"}]';

function frame(over: Partial<Frame> = {}): Frame {
  return {
    served: [
      { source: 'system', message: 0, text: SYSTEM },
      { source: 'user', message: 1, text: "What's the backup status of that machine?" },
    ],
    written: [{ source: 'assistant-text', message: 2, text: 'Jobs: nightly-db-primary-full and hourly-db-primary-wal.' }],
    external: [],
    ...over,
  };
}

const armed: Record<string, ToolDeclaration> = {
  backup_status: { argumentsFrom: ['list_machines', 'backup_jobs'] },
  backup_jobs: { argumentsFrom: ['list_machines'], inputSchema: { type: 'object', properties: { statuses: { type: 'array', items: { enum: ['ok', 'failed'] } } } } },
};

function run(toolCalls: ToolCall[], over: Partial<ChoiceCheckInput> = {}, decl: Record<string, ToolDeclaration> = armed) {
  return unsupportedArguments({
    span,
    toolCalls,
    frame: frame(),
    declarationOf: (n) => decl[n],
    inputCaptured: true,
    maxArgumentLeaves: 1000,
    quotedValueChars: 64,
    ...over,
  });
}

const call = (args: unknown, name = 'backup_status', id = 'call_bt_003'): ToolCall => ({ id, name, arguments: args });

describe('unit: unsupported-argument and every fence', () => {
  it('flags a value present only in the model\'s own earlier answer (assistant-only)', () => {
    const out = run([call({ machine_id: 'db-primary-full' })]);
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'unsupported-argument', seam: 'choice', predicate: 'args.machine_id', value: 'db-primary-full', grounding: 'assistant-only', toolName: 'backup_status', toolCallId: 'call_bt_003', span });
    expect(f.message).toContain("its own earlier answer");
    expect(f.message).toContain('Call list_machines or backup_jobs again');
    expect(f.message.endsWith('Nothing here blocked the call.')).toBe(true);
    expect(f.witnesses.map((w) => w.stratum)).toEqual(['chosen', 'written', 'absent']);
    expect(out.tally).toMatchObject({ checked: 1, findings: 1, notApplicable: 0, unreachable: 0 });
  });

  it('flags a value served by nothing in the window (nowhere), with its own message', () => {
    const out = run([call({ machine_id: 'srv-db-99' })]);
    expect(out.findings[0]!.grounding).toBe('nowhere');
    expect(out.findings[0]!.message).toContain('nothing in the window the model saw served that value');
    expect(out.findings[0]!.message).not.toContain('own earlier answer');
    expect(out.findings[0]!.witnesses.map((w) => w.stratum)).toEqual(['chosen', 'absent']);
  });

  it('fence: booleans, null and integers that are not identifiers are never checked', () => {
    const out = run([call({ window: { days: 7 }, limit: 5000, force: true, none: null })]);
    expect(out.findings).toEqual([]);
    expect(out.tally.checked).toBe(0);
    expect(out.tally.notApplicable).toBe(1);
  });

  it('an integer identifier (named as an id) is checked against served numbers (issue 9: it used to skip)', () => {
    const out = run([call({ machine_id: 12345678, window: { days: 7 } })]);
    expect(out.findings.map((f) => [f.predicate, f.value, f.grounding])).toEqual([['args.machine_id', '12345678', 'nowhere']]);
    expect(out.tally.checked).toBe(1);
  });

  it('fence: trimmed values under 4 characters are never checked, 4 are', () => {
    expect(run([call({ a: 'zq9', b: '  zq9  ' })]).findings).toEqual([]);
    expect(run([call({ a: 'zq9x' })]).findings).toHaveLength(1);
  });

  it('fence: an identifier matches a whole served token case-insensitively; a word matches as a substring', () => {
    const f = frame({ served: [...frame().served, { source: 'tool-result', message: 3, text: JOBS, callId: 'call_bt_002' }] });
    expect(run([call({ machine_id: 'NIGHTLY-DB-PRIMARY-FULL' })], { frame: f }).findings).toEqual([]);
    expect(run([call({ customer: 'ACME' })], {}).findings).toEqual([]);
    // A proper part of a served token is no longer a pass (issue 9): it is a fragment.
    expect(run([call({ machine_id: 'DB-PRIMARY-FULL' })], { frame: f }).findings.map((x) => x.grounding)).toEqual(['fragment']);
  });

  it('fence: tool-schema text is served, except its example values', () => {
    const f = frame({ served: [...frame().served, { source: 'tool-schema', message: -1, text: 'backup_status: modes are degraded-mode and normal-mode, e.g. degraded-mode-2.', toolName: 'backup_status' }] });
    expect(run([call({ mode: 'degraded-mode' })], { frame: f }).findings).toEqual([]);
    expect(run([call({ mode: 'degraded-mode-2' })], { frame: f }).findings.map((x) => x.grounding)).toEqual(['nowhere']);
  });

  it('fence: a declared enum value passes, from the declaration or from offered tool definitions', () => {
    expect(run([call({ statuses: ['failed'] }, 'backup_jobs')]).findings).toEqual([]);
    const offered = frame({ toolDefinitions: [{ name: 'backup_status', inputSchema: { properties: { level: { enum: ['Verbose'] } } } }] });
    expect(run([call({ level: 'verbose' })], { frame: offered }).findings).toEqual([]);
    // An enum of another tool does not serve this one.
    expect(run([call({ level: 'failed' })]).findings).toHaveLength(1);
  });

  it('fence: an external ground passes and is recorded with its source', () => {
    const f = frame({ external: [{ value: 'fc1/3', source: 'viewer-selection' }, { value: 'x', source: ' ' }] });
    const out = run([call({ port: 'FC1/3' })], { frame: f });
    expect(out.findings).toEqual([]);
    expect(out.externalGroundsUsed).toEqual([{ toolName: 'backup_status', toolCallId: 'call_bt_003', path: 'args.port', value: 'FC1/3', source: 'viewer-selection' }]);
    const blankSource = frame({ external: [{ value: 'fc1/3', source: '  ' }] });
    expect(run([call({ port: 'fc1/3' })], { frame: blankSource }).findings).toHaveLength(1);
  });

  it('assistant text and tool-call arguments never ground', () => {
    const f = frame({ written: [{ source: 'assistant-tool-call', message: 2, text: '{"machine_id":"srv-zz-01"}', callId: 'c1' }] });
    const out = run([call({ machine_id: 'srv-zz-01' })], { frame: f });
    expect(out.findings[0]!.grounding).toBe('assistant-only');
    expect(out.findings[0]!.witnesses[1]!.provenance).toContain('tool-call arguments');
  });

  it('walks nested leaves with dot-paths and files one finding per argument path', () => {
    const out = run([call({ filters: [{ id: 'ghost-0001' }, { id: 'ghost-0002' }] }), call({ filters: [{ id: 'ghost-0003' }] }, 'backup_status', 'call_2')]);
    expect(out.findings.map((f) => f.predicate)).toEqual(['args.filters.0.id', 'args.filters.1.id']);
    expect(out.tally).toMatchObject({ checked: 3, findings: 2 });
  });

  it('says when it was served earlier in the conversation, outside this window', () => {
    const out = run([call({ machine_id: 'db-primary-full' })], {
      earlierServed: [{ source: 'tool-result', message: 5, text: JOBS, callId: 'call_bt_002', toolName: 'backup_jobs', request: 3 }],
    });
    const f = out.findings[0]!;
    expect(f.message).toContain('It was served earlier in this conversation (tool result of backup_jobs (call call_bt_002), served to request 3)');
    expect(f.witnesses.some((w) => w.stratum === 'served' && w.provenance.includes('outside'))).toBe(true);
  });

  it('says when calls were matched by name and order only', () => {
    expect(run([call({ machine_id: 'db-primary-full' })], { idsMatchedByOrder: true }).findings[0]!.message).toContain('matched by name and order only');
  });

  it('quotes values: NFKC, control and format characters removed, backticks, capped at 64 code points', () => {
    const long = 'ｘ'.repeat(70) + '\u200b`';
    const f = run([call({ v: long })]).findings[0]!;
    expect(f.value).toBe(long); // raw value kept; quoting is for display
    expect(f.message).toContain(`"${'x'.repeat(64)}…"`);
  });

  it('zero delta: with no declaration there is no output at all', () => {
    const out = run([call({ machine_id: 'db-primary-full' })], {}, {});
    expect(out.findings).toEqual([]);
    expect(out.externalGroundsUsed).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, findings: 0, notApplicable: 1, unreachable: 0 });
  });

  it('content not captured: armed calls are unreachable, never a pass', () => {
    const out = run([call({ machine_id: 'db-primary-full' })], { inputCaptured: false });
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 0, unreachable: 1 });
    expect(out.tally.unreachableReasons).toEqual({ 'message content was not captured': 1 });
  });

  it('bounds the leaves it walks and says so', () => {
    const args = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `ghost-value-${i}`]));
    const out = run([call(args)], { maxArgumentLeaves: 5 });
    expect(out.findings).toHaveLength(5);
    expect(Object.keys(out.tally.unreachableReasons)[0]).toContain('more than 5 leaves');
  });
});

describe('regression: the served-text index answers exactly like a scan', () => {
  it('with many arguments over a large window, served values pass and the unserved one is found', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `srv-db-${String(i).padStart(4, '0')}`);
    const big = JSON.stringify(ids.map((id) => ({ machine_id: id, note: 'x'.repeat(200) })));
    const f = frame({ served: [...frame().served, { source: 'tool-result', message: 3, text: big }] });
    const args: Record<string, string> = Object.fromEntries(ids.map((id, i) => [`a${i}`, id.toUpperCase()]));
    args.spanning = 'db-0007","note'; // not a whole token: found by the scan, not the index (a fragment)
    args.inside = 'b-00'; // a fragment inside a token
    args.segments = 'x'.repeat(200); // a whole JSON leaf
    args.missing = 'srv-db-9999';
    const out = run([call(args)], { frame: f });
    expect(out.findings.map((x) => [x.predicate, x.grounding])).toEqual([
      ['args.spanning', 'fragment'],
      ['args.inside', 'fragment'],
      ['args.missing', 'nowhere'],
    ]);
    expect(out.tally.checked).toBe(204);
  });
});
