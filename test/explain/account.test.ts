// The account of a turn, over recorded traces run through the real core: rows in order, reading
// as written; facts taken from what the core wrote (findings, disposition, standing); pointers
// that resolve in the trace to the fact they carry; "not recorded" where content was not captured.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainTrace } from '../../src/explain/explain.js';
import { gatherFacts } from '../../src/explain/facts.js';
import { resolvePath, encodePath, decodePath, pointerKey, locate } from '../../src/explain/pointer.js';
import { spanKey } from '../../src/model/telemetry.js';
import type { Account, Pointer, Sentence } from '../../src/explain/types.js';
import type { ExplainRecord } from '../../src/explain/record.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { DEMO, DEMO_TURN_1, DEMO_TURN_2, ROOT, demoDeclarations, demoRecord, recordOf } from './helpers.js';

const rowText = (a: Account, row: string) => a.rows.find((r) => r.row === row)!.sentences.map((s) => s.text);

function resolves(record: ExplainRecord, p: Pointer): unknown {
  const f = gatherFacts(record);
  const view = f.index.view(spanKey(p));
  expect(view, `span ${p.spanId} is in the record`).toBeDefined();
  return resolvePath(view, p.path);
}

describe('account of the demo trace (turn 2: the unsupported argument)', () => {
  const record = demoRecord();
  const { account } = explainTrace(record, { declarations: demoDeclarations() });

  it('has the rows in the fixed order', () => {
    expect(account.rows.map((r) => r.title)).toEqual(['You asked', 'It checked', 'It did not check', 'It found', 'How sure', 'Anything wrong', 'Checks that could not run']);
  });
  it('reads as written', () => {
    expect(rowText(account, 'you-asked')).toEqual(['"What\'s the backup status of that machine?"']);
    expect(rowText(account, 'it-checked')).toEqual(['It called backup_status (call call_bt_003).']);
    expect(rowText(account, 'it-did-not-check')).toEqual(['No tool declared what it did not check, so what was left unchecked cannot be told.']);
    expect(rowText(account, 'it-found')).toEqual(['backup_status returned an empty result without saying what it searched.']);
    expect(rowText(account, 'how-sure')).toEqual(['Not sure: empty-undeclared.']);
    const wrong = rowText(account, 'anything-wrong');
    expect(wrong).toHaveLength(2);
    expect(wrong[0]).toMatch(/^unsupported-argument at choice: 'backup_status' was called with machine_id = "db-primary-full"/);
    expect(wrong[1]).toMatch(/^empty-lookup at write \(advisory, a place to look\): /);
    expect(rowText(account, 'could-not-run')).toEqual(['dangling-reference could not run: tool definitions were not recorded.']);
    expect(account.summary).toMatchObject({ tone: 'bad', sentence: { text: '1 finding on this turn: see Anything wrong.' } });
  });
  it('states the sources: the person asked, the library read, the tool said', () => {
    expect(account.rows[0]!.sentences[0]!.source).toBe('person');
    expect(account.rows.find((r) => r.row === 'it-found')!.sentences[0]!.source).toBe('library');
  });
  it('"not recorded" where a fact is missing, never a guess', () => {
    expect(account.rows.find((r) => r.row === 'it-did-not-check')!.sentences[0]!.status).toBe('not-recorded');
  });
  it('every pointer resolves in the trace it came from, to the fact it carries', () => {
    const all: Sentence[] = account.rows.flatMap((r) => r.sentences);
    const pointers = all.flatMap((s) => s.pointers).filter((p) => p.path !== '' && !p.path.startsWith('#'));
    expect(pointers.length).toBeGreaterThan(5);
    for (const p of pointers) {
      expect(p.traceId).toBe(DEMO_TURN_2);
      expect(resolves(record, p), pointerKey(p)).toBeDefined();
    }
    expect(account.asked).toEqual({ traceId: DEMO_TURN_2, spanId: '72a396a7302dd225', path: '/logs/2/body/content' });
    expect(resolves(record, account.asked!)).toBe("What's the backup status of that machine?");
    expect(resolves(record, account.answer!)).toBe('That machine has no backup record.');
    const toolPtr = account.rows.find((r) => r.row === 'it-checked')!.sentences[0]!.pointers[0]!;
    expect(resolves(record, toolPtr)).toBe('backup_status');
    for (const v of account.findings) expect(resolves(record, v.pointer)).toBe(v.message);
    expect(resolves(record, account.disposition!.pointer)).toBe(account.disposition!.summary);
  });
  it('takes findings, standing and disposition from the events the core wrote', () => {
    expect(account.findings.map((x) => [x.kind, x.advisory, x.value])).toEqual([
      ['unsupported-argument', false, 'db-primary-full'],
      ['empty-lookup', true, 'db-primary-full'],
    ]);
    expect(account.disposition!.checks.find((c) => c.check === 'unsupported-argument')).toMatchObject({ checked: 1, findings: 1 });
  });
  it('marks the value: chosen, written in the window, absent from it, last served in turn 1 (backtrack)', () => {
    const w = account.windows.find((x) => x.spanId === '72a396a7302dd225')!;
    expect(w.inTurn).toBe(true);
    expect(w.chosen[0]).toMatchObject({ toolName: 'backup_status', callId: 'call_bt_003' });
    // Both findings concern that one call and value: it is marked chosen once.
    expect(w.chosen[0]!.marks.map((m) => [m.mark, m.value])).toEqual([['chosen', 'db-primary-full']]);
    expect(w.messages[1]!.marks.filter((m) => m.mark === 'written')).toHaveLength(1);
    expect(w.messages[1]!.marks.map((m) => m.mark)).toContain('written');
    expect(w.absent.map((m) => m.mark)).toContain('absent');
    const back = w.absent.find((m) => m.mark === 'last-served')!;
    expect(back.backtrack).toEqual({ traceId: DEMO_TURN_1, spanId: 'aa0b0c50ac8db839', path: '' });
    const earlier = account.windows.find((x) => x.spanId === 'aa0b0c50ac8db839')!;
    expect(earlier.inTurn).toBe(false);
    expect(earlier.messages.find((m) => m.callId === 'call_bt_002' && m.role === 'tool')!.marks.map((m) => m.mark)).toContain('served');
  });
});

describe('account of turn 1 (clean)', () => {
  const { account } = explainTrace(demoRecord(DEMO_TURN_1), { declarations: demoDeclarations() });
  it('reads as written', () => {
    expect(rowText(account, 'it-checked')).toEqual(['It called list_machines (call call_bt_001).', 'It called backup_jobs (call call_bt_002).']);
    expect(rowText(account, 'it-found')).toEqual(['list_machines returned 2 rows.', 'backup_jobs returned 2 rows.']);
    expect(rowText(account, 'how-sure')).toEqual(['Consistent: the checks that ran found nothing against the answer. This is not a proof it is right.']);
    expect(rowText(account, 'anything-wrong')).toEqual(['No finding: 4 checks ran on this turn and found nothing.']);
    expect(account.rows.find((r) => r.row === 'it-found')!.sentences[0]!.source).toBe('tool:list_machines');
    expect(account.summary.tone).toBe('ok');
  });
});

describe('declared coverage (declared-absence-gaps scenario)', () => {
  const dir = join(ROOT, 'test', 'fixtures', 'scenarios');
  const r = loadDeclarationsFile(join(dir, 'declarations.yaml'));
  if (!r.ok) throw new Error(r.errors.join());
  const { record } = recordOf([join(dir, 'declared-absence-gaps.otlp.json')], 'aac71d214e75325a9b00c6167291da06', { declarations: r.declarations });
  const { account } = explainTrace(record, { declarations: r.declarations });
  it('says what the tool checked, did not check and cannot cover, vouched by the tool', () => {
    const checked = account.rows.find((x) => x.row === 'it-checked')!.sentences;
    expect(checked.some((s) => /says it checked "/.test(s.text) && s.source === 'tool:backup_status')).toBe(true);
    const not = account.rows.find((x) => x.row === 'it-did-not-check')!.sentences;
    expect(not.length).toBeGreaterThanOrEqual(2);
    expect(not.every((s) => s.source === 'tool:backup_status' && s.status === 'recorded')).toBe(true);
    expect(not.some((s) => s.text.includes('says it cannot cover'))).toBe(true);
    expect(rowText(account, 'it-found')[0]).toMatch(/^backup_status looked for ".+" and found none\.$/);
    expect(rowText(account, 'how-sure')).toEqual(['Not sure: declared-absent, coverage-gap.']);
    expect(account.summary.tone).toBe('warn');
  });
  it("coverage words' pointers resolve to the words", () => {
    for (const s of account.rows.find((x) => x.row === 'it-did-not-check')!.sentences) {
      const p = s.pointers[0]!;
      const quote = s.parts.find((x) => 'quote' in x) as { quote: string };
      expect(resolves(record, p)).toBe(quote.quote);
    }
  });
});

describe('content not captured', () => {
  it('says what was asked was not recorded, and the answer cannot be told', () => {
    const { record } = recordOf([join(DEMO, 'trace.otlp.json')], DEMO_TURN_2, { declarations: demoDeclarations() });
    const { account } = explainTrace(record, { declarations: demoDeclarations() });
    expect(rowText(account, 'you-asked')).toEqual(['What was asked was not recorded: message content was not captured.']);
    expect(account.rows[0]!.sentences[0]!.status).toBe('not-recorded');
    expect(rowText(account, 'how-sure')).toEqual(['No final answer of this turn was recorded, so how sure it can be cannot be told.']);
    expect(rowText(account, 'could-not-run').some((t) => t.includes('message content was not captured'))).toBe(true);
    // The write seam needs no message content: the empty lookup is still found on the tool span.
    expect(account.findings.map((x) => x.kind)).toEqual(['empty-lookup']);
    expect(account.summary).toMatchObject({ tone: 'warn', sentence: { text: 'No defect found; 1 place to look.' } });
    expect(account.asked).toBeUndefined();
  });
  it('an empty record gives an account, not a throw', () => {
    const { account } = explainTrace({ traceId: 'f'.repeat(32), spans: [], logs: [] });
    expect(rowText(account, 'you-asked')).toEqual(['No LLM request of this turn was recorded, so what was asked cannot be told.']);
    expect(account.summary.tone).toBe('unknown');
  });
});

describe('RFC 6901 pointers', () => {
  it('escape ~ and / and round-trip', () => {
    expect(encodePath(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(decodePath('/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0']);
    expect(decodePath('nope')).toBeUndefined();
    expect(resolvePath({ 'a/b': { 'c~d': ['x'] } }, '/a~1b/c~0d/0')).toBe('x');
  });
  it('descend into JSON held in a string attribute', () => {
    const doc = { attributes: { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: 'hi' }]) } };
    expect(resolvePath(doc, '/attributes/gen_ai.input.messages/0/content')).toBe('hi');
    expect(locate(doc, (s) => s === 'hi')).toBe('/attributes/gen_ai.input.messages/0/content');
    expect(resolvePath(doc, '/attributes/gen_ai.input.messages/1/content')).toBeUndefined();
    expect(resolvePath({ a: [1] }, '/a/01')).toBeUndefined();
    expect(resolvePath({}, '/__proto__')).toBeUndefined();
  });
});
