// "Show me": every allow and deny rule, the deny list winning, foreign values, both bounds and
// redaction on top, over the demo trace run through the real core.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainTrace } from '../../src/explain/explain.js';
import { gatherFacts } from '../../src/explain/facts.js';
import { composeAccount } from '../../src/explain/account.js';
import { ALLOW, deniedBy, matchesPattern, showLeaf, showLeaves, MORE_KEY } from '../../src/explain/shown.js';
import { EXPLAIN_LIMITS } from '../../src/limits.js';
import { annotatedSpans } from '../../src/explain/annotate.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import type { ExplainRecord } from '../../src/explain/record.js';
import type { Pointer } from '../../src/explain/types.js';
import { DEMO, DEMO_TURN_1, DEMO_TURN_2, decodeFiles, demoDeclarations, demoRecord } from './helpers.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';

const CHAT = '72a396a7302dd225'; // turn 2, first request (asked)
const ANSWER = '6f63423909175aaf';
const TOOL = 'c0392af615cb619b';
const TURN = 'cb24f131e0f16fde';
const at = (spanId: string, path: string, traceId = DEMO_TURN_2): Pointer => ({ traceId, spanId, path });

function setup(record: ExplainRecord = demoRecord(), redaction: 'quote' | 'hash' | 'omit' = 'quote') {
  const facts = gatherFacts(record, { declarations: demoDeclarations(), redaction });
  const account = composeAccount(facts);
  return { facts, account, leaf: (p: Pointer) => showLeaf(facts, account, p) };
}

describe('allow-list by span role and path', () => {
  const { leaf } = setup();
  it('shows tool names, call ids, statuses and row counts', () => {
    expect(leaf(at(TOOL, '/attributes/gen_ai.tool.name'))).toEqual({ value: 'backup_status' });
    expect(leaf(at(TOOL, '/attributes/gen_ai.tool.call.id'))).toEqual({ value: 'call_bt_003' });
    expect(leaf(at(TOOL, '/status/code'))).toEqual({ value: 0 });
    expect(leaf(at(TOOL, '#rows'))).toEqual({ rows: 0, at: '/attributes/gen_ai.tool.call.result' });
    expect(leaf(at(CHAT, '/attributes/gen_ai.request.model'))).toEqual({ value: 'gpt-4o-mini' });
    expect(leaf(at(TURN, '/attributes/gen_ai.agent.name'))).toEqual({ value: 'backup-triage' });
  });
  it('shows the tool-call names and ids in a chat span, and the log records\' roles', () => {
    const { facts } = setup();
    const view = facts.index.view(`${DEMO_TURN_2}/${CHAT}`)!;
    const i = view.logs.findIndex((l) => JSON.stringify(l.body).includes('call_bt_003'));
    expect(i).toBeGreaterThanOrEqual(0);
    const base = `/logs/${i}/body${'message' in (view.logs[i]!.body as object) ? '/message' : ''}/tool_calls/0`;
    expect(leaf(at(CHAT, `${base}/id`))).toEqual({ value: 'call_bt_003' });
    expect(leaf(at(CHAT, `${base}/function/name`))).toEqual({ value: 'backup_status' });
    expect(leaf(at(CHAT, `/logs/${i}/attributes/event.name`))).toMatchObject({ value: expect.stringMatching(/^gen_ai\./) });
  });
  it("shows the person's message of the turn and the final answer", () => {
    const { account } = setup();
    expect(leaf(account.asked!)).toEqual({ value: "What's the backup status of that machine?" });
    expect(leaf(account.answer!)).toEqual({ value: 'That machine has no backup record.' });
  });
  it("shows footprint's own written events (already redacted by the core)", () => {
    expect(leaf(at(CHAT, '/events/0/attributes/footprint.finding.value'))).toEqual({ value: 'db-primary-full' });
    expect(leaf(at(CHAT, '/events/0/attributes/footprint.finding.kind'))).toEqual({ value: 'unsupported-argument' });
    expect(leaf(at(ANSWER, '/events/0/attributes/footprint.answer.reasons/0'))).toEqual({ value: 'empty-undeclared' });
  });
  it('withholds what no rule allows, objects and arrays, and names what is not there', () => {
    expect(leaf(at(CHAT, '/attributes/server.address'))).toEqual({ withheld: 'not-shown-here' });
    expect(leaf(at(ANSWER, '/events/0/attributes/footprint.answer.reasons'))).toEqual({ withheld: 'not-shown-here' });
    expect(leaf(at(ANSWER, '/events/0/attributes/footprint.answer.statement'))).toEqual({ withheld: 'not-shown-here' });
    expect(leaf(at(TOOL, '/attributes/gen_ai.tool.nope'))).toEqual({ withheld: 'not-shown-here' });
    expect(leaf(at(CHAT, '/events/9/attributes/footprint.finding.kind'))).toEqual({ withheld: 'not-found' });
    expect(leaf(at('0000000000000000', '/name'))).toEqual({ withheld: 'not-found' });
  });
  it('patterns: * is one token, ** any, {a,b} one of', () => {
    expect(matchesPattern('/a/b/c', '/a/*/c')).toBe(true);
    expect(matchesPattern('/a/b/x/c', '/a/*/c')).toBe(false);
    expect(matchesPattern('/a/b/x/c', '/a/**/c')).toBe(true);
    expect(matchesPattern('/a/c', '/a/**/c')).toBe(true);
    expect(matchesPattern('/a/q', '/a/{p,q}')).toBe(true);
    expect(matchesPattern('/a/r', '/a/{p,q}')).toBe(false);
    expect(ALLOW.tool).toContain('#rows');
  });
});

describe('the deny list wins', () => {
  const none = new Set<string>();
  it('tool arguments, even where an allow pattern matches (a tool argument named "role")', () => {
    expect(matchesPattern('/attributes/gen_ai.tool.call.arguments/role', ALLOW.chat.find((p) => p.endsWith('**/role'))!)).toBe(true);
    expect(deniedBy('/attributes/gen_ai.tool.call.arguments/role', 'chat', undefined, none)).toBe('tool-arguments');
    expect(deniedBy('/logs/3/body/message/tool_calls/0/function/arguments', 'chat', undefined, none)).toBe('tool-arguments');
    const { leaf } = setup();
    expect(leaf(at(TOOL, '/attributes/gen_ai.tool.call.arguments'))).toEqual({ withheld: 'not-shown-here' });
  });
  it('tool results, except the tools\' declared coverage words', () => {
    expect(deniedBy('/attributes/gen_ai.tool.call.result/0/tool_call_id', 'chat', undefined, none)).toBe('tool-result');
    expect(deniedBy('/attributes/gen_ai.tool.call.result/items/0/name', 'tool', undefined, none)).toBe('tool-result');
    expect(deniedBy('/attributes/gen_ai.tool.call.result/not_checked/0/what', 'tool', undefined, none)).toBeUndefined();
    expect(deniedBy('/attributes/gen_ai.tool.call.result/looked_for', 'tool', undefined, none)).toBeUndefined();
    // Coverage words are the tool's own declaration only on its own span.
    expect(deniedBy('/attributes/gen_ai.tool.call.result/not_checked/0/what', 'chat', undefined, none)).toBe('tool-result');
    const { leaf } = setup();
    expect(leaf(at(TOOL, '/attributes/gen_ai.tool.call.result'))).toEqual({ withheld: 'not-shown-here' });
  });
  it('system and other prompts, even the role of a system message', () => {
    expect(deniedBy('/attributes/gen_ai.system_instructions/0/role', 'chat', undefined, none)).toBe('prompt');
    const { facts, leaf } = setup();
    const view = facts.index.view(`${DEMO_TURN_2}/${CHAT}`)!;
    const sys = view.logs.findIndex((l) => String(l.attributes['event.name']).includes('system'));
    expect(sys).toBeGreaterThanOrEqual(0);
    expect(deniedBy(`/logs/${sys}/body/role`, 'chat', view, none)).toBe('prompt');
    expect(leaf(at(CHAT, `/logs/${sys}/body/content`))).toEqual({ withheld: 'not-shown-here' });
  });
  it("message history: earlier messages are withheld, the turn's own message is not", () => {
    const { facts, account, leaf } = setup();
    const view = facts.index.view(`${DEMO_TURN_2}/${CHAT}`)!;
    const earlierAnswer = view.logs.findIndex((l) => String(l.attributes['event.name']).includes('assistant'));
    expect(earlierAnswer).toBeGreaterThanOrEqual(0);
    expect(deniedBy(`/logs/${earlierAnswer}/body/content`, 'chat', view, none)).toBe('history');
    expect(leaf(at(CHAT, `/logs/${earlierAnswer}/body/content`))).toEqual({ withheld: 'not-shown-here' });
    expect(deniedBy(account.asked!.path, 'chat', view, none)).toBe('history');
    expect(deniedBy(account.asked!.path, 'chat', view, new Set([account.asked!.path]))).toBeUndefined();
    // The same path on another span of the turn (the next request's copy of the window) is history there.
    expect(leaf(at(ANSWER, account.asked!.path))).toEqual({ withheld: 'not-shown-here' });
    expect(deniedBy('/attributes/gen_ai.input.messages/3/content', 'chat', undefined, none)).toBe('history');
    expect(deniedBy('/attributes/gen_ai.input.messages/3/parts/0/content', 'chat', undefined, none)).toBe('history');
    // Shape keys of a message are not its words.
    expect(deniedBy('/attributes/gen_ai.input.messages/3/role', 'chat', undefined, none)).toBeUndefined();
  });
  it('foreign: another trace, or another tenant', () => {
    const { leaf } = setup();
    expect(leaf(at('aa0b0c50ac8db839', '/attributes/gen_ai.request.model', DEMO_TURN_1))).toEqual({ withheld: 'foreign' });
    const record = demoRecord();
    const spans = record.spans.map((s) => (s.spanId === TOOL ? { ...s, resource: { ...s.resource, 'service.name': 'another-tenant' } } : s));
    const other = setup({ ...record, spans });
    expect(other.leaf(at(TOOL, '/attributes/gen_ai.tool.name'))).toEqual({ withheld: 'foreign' });
    // And the other tenant's span is not in this tenant's account: the call is there only as this
    // tenant's own model window shows it (read from the chat span, never from the foreign one).
    expect(other.account.ledger.map((r) => r.spanId === TOOL)).toEqual([false]);
  });
});

describe('bounds', () => {
  it(`a leaf over ${EXPLAIN_LIMITS.maxShownLeafChars} serialized characters is too-large`, () => {
    const doc = decodeFiles([join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json')]);
    const long = 'x'.repeat(EXPLAIN_LIMITS.maxShownLeafChars);
    for (const l of doc.logs) {
      const body = l.body as Record<string, unknown> | undefined;
      if (l.spanId === CHAT && body && body.content === "What's the backup status of that machine?") body.content = long;
    }
    const core = new FootprintCore({ declarations: demoDeclarations() });
    const spans = doc.spans.map((d) => d.span);
    const result = core.process({ spans, logs: doc.logs });
    const { turns: [account], shown } = explainTrace({ traceId: DEMO_TURN_2, spans: annotatedSpans(spans, result), logs: doc.logs }, { declarations: demoDeclarations() });
    expect(account!.asked).toBeDefined();
    expect(Object.entries(shown).find(([k]) => k.endsWith(account!.asked!.path))![1]).toEqual({ withheld: 'too-large' });
    // One character less fits: the bound is on the serialized leaf {"value":"…"}.
    expect(JSON.stringify({ value: long }).length).toBeGreaterThan(EXPLAIN_LIMITS.maxShownLeafChars);
  });
  it(`the map stops at ${EXPLAIN_LIMITS.maxShownBytes} bytes of UTF-8 with one #more entry`, () => {
    const { facts, account } = setup();
    const many = Array.from({ length: 3000 }, (_, i) => at(TOOL, `/attributes/gen_ai.tool.nope-${'é'.repeat(10)}-${i}`));
    const map = showLeaves(facts, account, many);
    expect(map[MORE_KEY]).toEqual({ withheld: 'too-large' });
    expect(Buffer.byteLength(JSON.stringify(map), 'utf8')).toBeLessThanOrEqual(EXPLAIN_LIMITS.maxShownBytes);
    expect(Buffer.byteLength(JSON.stringify(map), 'utf8')).toBeGreaterThan(EXPLAIN_LIMITS.maxShownBytes - 300);
    expect(Object.keys(map).filter((k) => k === MORE_KEY)).toHaveLength(1);
    // The demo's own map is far below the bound and has no #more.
    expect(explainTrace(demoRecord(), { declarations: demoDeclarations() }).shown[MORE_KEY]).toBeUndefined();
  });
});

describe('redaction on top', () => {
  it('hash: quoted content is shown only as its hash, in the map and in the sentence', () => {
    const { turns: [account], shown } = explainTrace(demoRecord(DEMO_TURN_2, 'hash'), { declarations: demoDeclarations(), redaction: 'hash' });
    const asked = Object.entries(shown).find(([k]) => k.endsWith(account!.asked!.path))![1] as { value: string };
    expect(asked.value).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(account)).not.toContain('backup status of that machine');
    expect(JSON.stringify(shown)).not.toContain('backup status of that machine');
    expect(JSON.stringify(shown)).not.toContain('no backup record');
    expect(JSON.stringify(account)).not.toContain('db-primary-full');
  });
  it('omit: quoted content is withheld', () => {
    const { turns: [account], shown } = explainTrace(demoRecord(DEMO_TURN_2, 'omit'), { declarations: demoDeclarations(), redaction: 'omit' });
    expect(Object.entries(shown).find(([k]) => k.endsWith(account!.asked!.path))![1]).toEqual({ withheld: 'not-shown-here' });
    expect(JSON.stringify({ account, shown })).not.toContain('db-primary-full');
    expect(JSON.stringify({ account, shown })).not.toContain('no backup record');
  });
  it("a tool's declared words that hold a finding's value are redacted whole; without the values in hand, every such word is", () => {
    const dir = join(DEMO, '..', '..', 'test', 'fixtures', 'scenarios');
    const r = loadDeclarationsFile(join(dir, 'declarations.yaml'));
    if (!r.ok) throw new Error(r.errors.join());
    const doc = decodeFiles([join(dir, 'declared-absence-gaps.otlp.json')]);
    const spans = doc.spans.map((d) => d.span);
    const traceId = 'aac71d214e75325a9b00c6167291da06';
    const result = new FootprintCore({ declarations: r.declarations, redaction: 'hash' }).process({ spans, logs: doc.logs });
    const record = { traceId, spans: annotatedSpans(spans, result), logs: doc.logs };
    const lookedFor = (e: ReturnType<typeof explainTrace>) => e.turns[0]!.rows.find((x) => x.row === 'it-found')!.sentences[0]!.text;
    const open = explainTrace(record, { declarations: r.declarations });
    expect(lookedFor(open)).toMatch(/looked for ".*srv-db-04.*" and found none/);
    // The value "srv-db-04" is a finding's value: the words that hold it go whole.
    const held = explainTrace(record, { declarations: r.declarations, redaction: 'hash', sensitive: { values: ['srv-db-04'], witnessValues: [] } });
    expect(lookedFor(held)).toMatch(/^backup_status looked for "sha256:[0-9a-f]{16}" and found none\.$/);
    expect(JSON.stringify(held)).not.toMatch(/srv-db-04/);
    // Words that hold no value stay; without the values, none can be told safe.
    const blind = explainTrace(record, { declarations: r.declarations, redaction: 'omit' });
    expect(JSON.stringify(blind)).not.toMatch(/srv-db-04/);
    const notChecked = blind.turns[0]!.rows.find((x) => x.row === 'it-did-not-check')!.sentences.map((x) => x.text);
    expect(notChecked.every((t) => t.includes('"(omitted)"'))).toBe(true);
    const kept = held.turns[0]!.rows.find((x) => x.row === 'it-did-not-check')!.sentences.map((x) => x.text);
    expect(kept.some((t) => !t.includes('sha256:'))).toBe(true);
  });
});
