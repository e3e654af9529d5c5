// The account of a turn, over recorded traces run through the real core: the verdict and its plain
// sentence, rows in order, reading as written; How sure consistent with the verdict; facts taken
// from what the core wrote (findings, disposition, standing); pointers that resolve in the trace
// to the fact they carry; "not recorded" where content was not captured; a trace of three turns
// split into three accounts, each with its own findings and standing.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainTrace } from '../../src/explain/explain.js';
import { gatherFacts } from '../../src/explain/facts.js';
import { resolvePath, encodePath, decodePath, pointerKey, locate } from '../../src/explain/pointer.js';
import { spanKey } from '../../src/model/telemetry.js';
import type { Account, Pointer, Sentence } from '../../src/explain/types.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { annotatedSpans } from '../../src/explain/annotate.js';
import { whySentence } from '../../src/explain/kinds.js';
import { threeTurns } from './conversation.js';
import type { ExplainRecord } from '../../src/explain/record.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { DEMO, DEMO_TURN_1, DEMO_TURN_2, ROOT, decodeFiles, demoDeclarations, demoRecord, recordOf } from './helpers.js';

const rowText = (a: Account, row: string) => a.rows.find((r) => r.row === row)!.sentences.map((s) => s.text);

function resolves(record: ExplainRecord, p: Pointer): unknown {
  const f = gatherFacts(record);
  const view = f.index.view(spanKey(p));
  expect(view, `span ${p.spanId} is in the record`).toBeDefined();
  return resolvePath(view, p.path);
}

describe('account of the demo trace (turn 2: the unsupported argument)', () => {
  const record = demoRecord();
  const e = explainTrace(record, { declarations: demoDeclarations() });
  const account = e.turns[0]!;

  it('is one turn, with the rows in the fixed order', () => {
    expect(e.turns).toHaveLength(1);
    expect(account).toMatchObject({ turnIndex: 1, turnCount: 1 });
    expect(account.rows.map((r) => r.title)).toEqual(['You asked', 'It answered', 'What is likely wrong', 'How sure', 'What it looked up', 'What it found', 'What it did not check', 'Checks that could not run']);
  });
  it('opens with the verdict: the reply, quoted, is probably wrong, and why in plain words', () => {
    expect(account.verdict.tone).toBe('bad');
    expect(account.verdict.label).toBe('Probably wrong');
    expect(account.verdict.head.text).toBe('The reply "That machine has no backup record." is probably wrong:');
    // The cut value on the same call says best why the lookup found nothing.
    expect(account.verdict.reason!.text).toBe('the backup status call found nothing for "db-primary-full", which is only part of "nightly-db-primary-full" that backup jobs returned, and the cut-off value may be why.');
  });
  it('reads as written', () => {
    expect(rowText(account, 'you-asked')).toEqual(['"What\'s the backup status of that machine?"']);
    expect(rowText(account, 'it-answered')).toEqual(['"That machine has no backup record."']);
    expect(rowText(account, 'likely-wrong')).toEqual([
      'The backup status call used "db-primary-full" as the machine id, which the model took from its own earlier reply instead of from the backup jobs result it first came from.',
      'The backup status call found nothing for "db-primary-full", which is only part of "nightly-db-primary-full" that backup jobs returned, and the cut-off value may be why.',
    ]);
    expect(rowText(account, 'it-checked')).toEqual(['It used backup_status.']);
    expect(rowText(account, 'it-did-not-check')).toEqual(['No tool said what it left out, so what was not checked cannot be told.']);
    expect(rowText(account, 'it-found')).toEqual(['backup_status returned an empty result without saying what it searched.']);
    expect(rowText(account, 'could-not-run')).toEqual(['dangling-reference could not run: tool definitions were not recorded.']);
  });
  it('How sure says what the verdict says (never "consistent" beside a problem), and the reason codes as phrases', () => {
    expect(rowText(account, 'how-sure')).toEqual([
      'Not reliable: 1 problem was found on the way to this reply (see What is likely wrong).',
      'Besides, it cannot be confirmed: a lookup came back empty without saying what it searched.',
    ]);
    expect(rowText(account, 'how-sure').join(' ')).not.toMatch(/empty-undeclared|Consistent/);
  });
  it('states the sources: the person asked, the model answered, the library read, the tool said', () => {
    expect(account.rows[0]!.sentences[0]!.source).toBe('person');
    expect(account.rows[1]!.sentences[0]!.source).toBe('model');
    expect(account.rows.find((r) => r.row === 'it-found')!.sentences[0]!.source).toBe('library');
  });
  it('"not recorded" where a fact is missing, never a guess', () => {
    expect(account.rows.find((r) => r.row === 'it-did-not-check')!.sentences[0]!.status).toBe('not-recorded');
  });
  it('every pointer resolves in the trace it came from, to the fact it carries', () => {
    const all: Sentence[] = [account.verdict.head, account.verdict.reason!, ...account.rows.flatMap((r) => r.sentences)];
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
  const account = explainTrace(demoRecord(DEMO_TURN_1), { declarations: demoDeclarations() }).turns[0]!;
  it('reads as written, the verdict and How sure one statement', () => {
    expect(rowText(account, 'it-checked')).toEqual(['It used list_machines.', 'It used backup_jobs.']);
    expect(rowText(account, 'it-found')).toEqual(['list_machines returned 2 results.', 'backup_jobs returned 2 results.']);
    expect(rowText(account, 'how-sure')).toEqual(['No problem found: 4 checks ran and found nothing against this reply. That is not proof it is right.']);
    expect(rowText(account, 'likely-wrong')).toEqual(['Nothing: 4 checks ran on this turn and found nothing.']);
    expect(account.rows.find((r) => r.row === 'it-found')!.sentences[0]!.source).toBe('tool:list_machines');
    expect(account.verdict).toMatchObject({ tone: 'ok', label: 'No problem found' });
    expect(account.verdict.head.text).toMatch(/^No problem found with the reply "srv-db-04 \(db-primary\) is protected\. .*": 4 checks ran on this turn and found nothing\. That is not proof it is right\.$/);
  });
});

describe('declared coverage (declared-absence-gaps scenario)', () => {
  const dir = join(ROOT, 'test', 'fixtures', 'scenarios');
  const r = loadDeclarationsFile(join(dir, 'declarations.yaml'));
  if (!r.ok) throw new Error(r.errors.join());
  const { record } = recordOf([join(dir, 'declared-absence-gaps.otlp.json')], 'aac71d214e75325a9b00c6167291da06', { declarations: r.declarations });
  const account = explainTrace(record, { declarations: r.declarations }).turns[0]!;
  it('says what the tool checked, did not check and cannot cover, vouched by the tool', () => {
    const checked = account.rows.find((x) => x.row === 'it-checked')!.sentences;
    expect(checked.some((s) => /says it checked "/.test(s.text) && s.source === 'tool:backup_status')).toBe(true);
    const not = account.rows.find((x) => x.row === 'it-did-not-check')!.sentences;
    expect(not.length).toBeGreaterThanOrEqual(2);
    expect(not.every((s) => s.source === 'tool:backup_status' && s.status === 'recorded')).toBe(true);
    expect(not.some((s) => s.text.includes('says it cannot cover'))).toBe(true);
    expect(rowText(account, 'it-found')[0]).toMatch(/^backup_status looked for ".+" and found none\.$/);
    expect(rowText(account, 'how-sure')).toEqual(['Cannot be confirmed: it rests on a lookup that found nothing; a tool said there are things it did not or could not check.']);
    expect(account.verdict).toMatchObject({ tone: 'warn', label: 'Not confirmed' });
    expect(account.verdict.head.text).toBe('The reply "No. srv-db-04 has no backups in the last 7 days." cannot be confirmed: it rests on a lookup that found nothing; a tool said there are things it did not or could not check.');
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
    const account = explainTrace(record, { declarations: demoDeclarations() }).turns[0]!;
    expect(rowText(account, 'you-asked')).toEqual(['What was asked was not recorded: message content was not captured.']);
    expect(account.rows[0]!.sentences[0]!.status).toBe('not-recorded');
    expect(rowText(account, 'it-answered')).toEqual(['What it answered was not recorded: message content was not captured.']);
    expect(rowText(account, 'could-not-run').some((t) => t.includes('message content was not captured'))).toBe(true);
    // The write seam needs no message content: the empty lookup is still found on the tool span.
    expect(account.findings.map((x) => x.kind)).toEqual(['empty-lookup']);
    expect(account.verdict).toMatchObject({ tone: 'warn', label: 'Worth a look' });
    expect(account.verdict.head.text).toBe('Something on this turn is worth a look:');
    expect(rowText(account, 'how-sure')).toEqual(['Uncertain: 1 thing is worth a look, though none is a proven mistake.']);
    expect(account.asked).toBeUndefined();
  });
  it('an empty record gives an account, not a throw', () => {
    const account = explainTrace({ traceId: 'f'.repeat(32), spans: [], logs: [] }).turns[0]!;
    expect(rowText(account, 'you-asked')).toEqual(['No LLM request of this turn was recorded, so what was asked cannot be told.']);
    expect(rowText(account, 'it-answered')).toEqual(['No final reply of this turn was recorded.']);
    expect(account.verdict).toMatchObject({ tone: 'unknown', label: 'Not checked' });
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

describe('a trace that holds three turns', () => {
  const c = threeTurns({ oneTrace: true });
  const spans = c.doc.spans.map((d) => d.span);
  const result = new FootprintCore({ declarations: c.declarations }).process({ spans, logs: c.doc.logs });
  const e = explainTrace({ traceId: c.traceIds[0]!, spans: annotatedSpans(spans, result), logs: c.doc.logs }, { declarations: c.declarations });

  it('is split at each final answer into three accounts, in order', () => {
    expect(result.findings.map((f) => f.kind).sort()).toEqual(['unsupported-argument', 'unsupported-value']);
    expect(e.turns.map((t) => [t.turnIndex, t.turnCount])).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(e.turns.map((t) => rowText(t, 'you-asked')[0])).toEqual([
      '"Which of our machines are protected by a backup plan?"',
      '"How much storage does srv-db-04 use?"',
      '"What\'s the backup status of srv-db-04?"',
    ]);
    expect(e.turns.map((t) => rowText(t, 'it-answered')[0])).toEqual([
      '"srv-db-04 (db-primary) is protected; srv-web-11 (web-edge) is not."',
      '"srv-db-04 uses 1,512 GB of backup storage."',
      '"There is no backup on record for srv-db-04: its status is unknown."',
    ]);
    const starts = e.turns.map((t) => BigInt(t.startedAt));
    expect(starts[0]! < starts[1]! && starts[1]! < starts[2]!).toBe(true);
  });
  it('each turn has its own reads, findings and verdict: no "BAD" beside "consistent"', () => {
    expect(e.turns.map((t) => rowText(t, 'it-checked'))).toEqual([['It used list_machines.'], ['It used storage_usage.'], ['It used backup_status.']]);
    expect(e.turns.map((t) => t.findings.map((f) => f.kind))).toEqual([[], ['unsupported-value'], ['unsupported-argument']]);
    expect(e.turns.map((t) => t.verdict.tone)).toEqual(['ok', 'bad', 'bad']);
    expect(rowText(e.turns[0]!, 'how-sure')[0]).toMatch(/^No problem found: /);
    for (const t of e.turns.slice(1)) expect(rowText(t, 'how-sure')[0]).toMatch(/^Not reliable: 1 problem was found/);
    expect(e.turns[1]!.verdict.reason!.text).toBe('"1,512" in the reply is in no tool result: nothing the agent looked up supplied it.');
    expect(e.turns[2]!.verdict.reason!.text).toBe('the backup status call used "db-04" as the machine id, which is only part of "srv-db-04", a cut-off value.');
  });
  it('the same conversation as three traces gives the same three verdicts', () => {
    const m = threeTurns();
    const ms = m.doc.spans.map((d) => d.span);
    const r = new FootprintCore({ declarations: m.declarations }).process({ spans: ms, logs: m.doc.logs });
    const verdicts = m.traceIds.map((id) => explainTrace({ traceId: id, spans: annotatedSpans(ms, r), logs: m.doc.logs }, { declarations: m.declarations }).turns);
    expect(verdicts.map((t) => t.length)).toEqual([1, 1, 1]);
    expect(verdicts.map((t) => [t[0]!.verdict.tone, t[0]!.verdict.reason?.text])).toEqual(e.turns.map((t) => [t.verdict.tone, t.verdict.reason?.text]));
  });
});

describe('the kind table', () => {
  it('a kind without a row says the event\'s own sentence, under the kind in words', () => {
    const s = whySentence({ kind: 'status-contradiction', advisory: false, message: 'The reply says shipped; get_order says pending.', witnesses: [] }, []);
    expect(s.template.id).toBe('why.generic');
    expect(s.text).toBe('a check found a problem (status contradiction): The reply says shipped; get_order says pending.');
  });
  it('a row that cannot fill its template falls back too, never a throw or an unreadable line', () => {
    const s = whySentence({ kind: 'unsupported-argument', advisory: false, message: 'm.', witnesses: [] }, []);
    expect(s.template.id).toBe('why.generic');
  });
});

describe('an LLM-client-only trace (no execute_tool spans): the calls are read from the windows', () => {
  it('lists the same calls and results as the trace with its tool spans', () => {
    const doc = decodeFiles([join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json')]);
    const accountOf = (keepTools: boolean) => {
      const spans = doc.spans.map((d) => d.span).filter((s) => keepTools || !s.name.startsWith('execute_tool'));
      const result = new FootprintCore({ declarations: demoDeclarations() }).process({ spans, logs: doc.logs });
      return explainTrace({ traceId: DEMO_TURN_2, spans: annotatedSpans(spans, result), logs: doc.logs }, { declarations: demoDeclarations() }).turns[0]!;
    };
    const withSpans = accountOf(true);
    const windowsOnly = accountOf(false);
    expect(rowText(withSpans, 'it-checked').length).toBeGreaterThan(0);
    expect(rowText(windowsOnly, 'it-checked')).toEqual(rowText(withSpans, 'it-checked'));
    expect(rowText(windowsOnly, 'it-found')).toEqual(rowText(withSpans, 'it-found'));
  });
});
