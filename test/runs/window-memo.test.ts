// Pins per-conversation window reuse (issue 11): a request whose raw window extends the previous
// request's reads only the new suffix, and gets exactly what a full read gives (messages,
// diagnostics, findings); edited or truncated history, a suffix that is not valid JSON and a
// window that crosses maxMessagesPerRequest all fall back to the full read.
import { describe, it, expect } from 'vitest';
import { readWindowAttribute } from '../../src/conventions/genai-window.js';
import { readMessagesAttribute, nameToolResults, type GenAiScope } from '../../src/conventions/genai-parts.js';
import type { PriorWindow, WindowMemo } from '../../src/conventions/types.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { resolveLimits, type Limits } from '../../src/limits.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { WindowMemos } from '../../src/runs/window-memo.js';
import type { SpanData } from '../../src/model/telemetry.js';
// @ts-expect-error plain .mjs module without types
import { conversationTurns, BENCH_DECLARATIONS } from '../../bench/workload.mjs';

const KEY = 'gen_ai.input.messages';
const span = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'chat m' } as SpanData;
const scopeOf = (limits: Limits = resolveLimits({})) => {
  const diagnostics = new DiagnosticList();
  const scope: GenAiScope = { span, limits, diagnostics };
  return { scope, diagnostics };
};

/** A memo slot that counts the prior windows it handed out. */
function countingMemo(): WindowMemo & { hits: number; last?: PriorWindow } {
  const m = {
    hits: 0,
    last: undefined as PriorWindow | undefined,
    prior() {
      if (m.last) m.hits++;
      return m.last;
    },
    remember(w: PriorWindow) {
      m.last = w;
    },
  };
  return m;
}

/** Reads `raw` with the memo and in full, and checks both give the same messages and diagnostics. */
function readBoth(raw: string, memo: WindowMemo, limits?: Limits) {
  const a = scopeOf(limits);
  const b = scopeOf(limits);
  const withMemo = readWindowAttribute(raw, KEY, a.scope, memo);
  const full = readMessagesAttribute(raw, KEY, b.scope);
  if (withMemo) nameToolResults(withMemo);
  if (full) nameToolResults(full);
  expect(withMemo).toEqual(full);
  expect(a.diagnostics.items).toEqual(b.diagnostics.items);
  return { messages: withMemo, diagnostics: a.diagnostics.items };
}

const msg = (i: number) => ({ role: i % 2 ? 'user' : 'tool', parts: i % 2 ? [{ type: 'text', content: `question ${i}` }] : [{ type: 'tool_call_response', id: `c${i}`, response: `{"machine_id":"srv-${i}"}` }] });
const window = (n: number, from = 0) => Array.from({ length: n - from }, (_, i) => msg(from + i));

describe('window reuse: same result as a full read', () => {
  it('a growing conversation reuses every window after the first, and reads the same messages', () => {
    const memo = countingMemo();
    const next = conversationTurns(7);
    for (let t = 1; t <= 12; t++) readBoth(JSON.stringify(next(t).input), memo);
    expect(memo.hits).toBe(11);
  });

  it('edited history falls back to the full read (and the edit is seen)', () => {
    const memo = countingMemo();
    readBoth(JSON.stringify(window(6)), memo);
    const edited = window(8);
    edited[2] = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c2', response: '{"machine_id":"srv-EDITED"}' }] };
    const { messages } = readBoth(JSON.stringify(edited), memo);
    expect(JSON.stringify(messages)).toContain('srv-EDITED');
  });

  it('an edit that keeps every length the same is still seen (the history is compared, not measured)', () => {
    const memo = countingMemo();
    readBoth(JSON.stringify(window(6)), memo);
    const raw = JSON.stringify(window(8)).replace('srv-2\\', 'srv-X\\');
    expect(raw).toContain('srv-X');
    const { messages } = readBoth(raw, memo);
    expect(JSON.stringify(messages)).toContain('srv-X');
  });

  it('a truncated history (oldest messages dropped) falls back to the full read', () => {
    const memo = countingMemo();
    readBoth(JSON.stringify(window(6)), memo);
    const { messages } = readBoth(JSON.stringify(window(9, 3)), memo);
    expect(messages).toHaveLength(6);
  });

  it('a suffix that is not valid JSON reports what the full read reports', () => {
    const memo = countingMemo();
    readBoth(JSON.stringify(window(4)), memo);
    const good = JSON.stringify(window(6));
    const { messages, diagnostics } = readBoth(`${good.slice(0, -1)},{"role":]`, memo);
    expect(messages).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(['attribute.json-invalid']);
  });

  it('a suffix with a bad item reports the one shape diagnostic a full read does, and is not remembered', () => {
    const memo = countingMemo();
    readBoth(JSON.stringify(window(4)), memo);
    const { diagnostics } = readBoth(JSON.stringify([...window(5), 42, ...window(7, 5)]), memo);
    expect(diagnostics.map((d) => d.code)).toEqual(['message.shape-invalid']);
    expect(memo.last!.messages).toHaveLength(4);
  });

  it('a window crossing maxMessagesPerRequest is cut and reported exactly as in a full read', () => {
    const limits = resolveLimits({ maxMessagesPerRequest: 6 });
    const memo = countingMemo();
    readBoth(JSON.stringify(window(5)), memo, limits);
    const { messages, diagnostics } = readBoth(JSON.stringify(window(8)), memo, limits);
    expect(messages).toHaveLength(6);
    expect(diagnostics.map((d) => d.code)).toEqual(['messages.over-bound']);
  });
});

describe('window reuse through the core: the same findings as reads that never reuse', () => {
  function conversation(forceFullReads: boolean) {
    const core = new FootprintCore({ declarations: BENCH_DECLARATIONS });
    const next = conversationTurns(1);
    const out: unknown[] = [];
    let id = 0;
    const sid = () => (++id).toString(16).padStart(16, '0');
    for (let t = 1; t <= 10; t++) {
      const c = next(t);
      // An ungrounded argument every third turn, so findings (and their witnesses) are compared.
      if (t % 3 === 0) c.toolCalls[1].arguments.peer_id = `srv-never-${t}`;
      const traceId = t.toString(16).padStart(32, '0');
      const base = { traceId, kind: 1, events: [], status: { code: 0 }, resource: { 'service.name': 'app' }, scope: { name: 'test' } };
      const rootId = sid();
      const raw = JSON.stringify(c.input);
      // A leading space on every other turn: the raw window then never extends the previous one.
      const input = forceFullReads && t % 2 === 0 ? ` ${raw}` : raw;
      const chat = { ...base, spanId: sid(), parentSpanId: rootId, name: 'chat m', startTimeUnixNano: BigInt(t * 10), endTimeUnixNano: BigInt(t * 10 + 1), attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': input, 'gen_ai.output.messages': JSON.stringify(c.output) } };
      const root = { ...base, spanId: rootId, name: 'invoke_agent a', startTimeUnixNano: BigInt(t * 10), endTimeUnixNano: BigInt(t * 10 + 5), attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'conv-1' } };
      core.noteSpanStart(root as SpanData);
      for (const s of [chat, root]) {
        const r = core.process({ spans: [s as SpanData] });
        out.push({ findings: r.findings, annotations: [...r.annotations.values()], diagnostics: r.diagnostics });
      }
    }
    return out;
  }

  it('findings, annotations and diagnostics are identical with and without reuse', () => {
    const reused = conversation(false);
    const full = conversation(true);
    const text = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(text(reused)).toBe(text(full));
    // Real findings were compared: the ungrounded values of turns 3, 6 and 9.
    for (const t of [3, 6, 9]) expect(text(reused)).toContain(`srv-never-${t}`);
  });

  it('the memo keeps within its entry bound and counts its bytes', () => {
    let now = 0;
    const memos = new WindowMemos(60_000, () => now, 1_000_000);
    for (let i = 0; i < 1100; i++) memos.slot(`c${i}`).remember({ body: `[${'x'.repeat(100)}`, messages: [] }, false);
    expect(memos.size).toBe(1000);
    expect(memos.bytes).toBe(1000 * (101 * 2 + 128));
    now = 120_000;
    expect(memos.slot('c1099').prior()).toBeUndefined();
  });

  it("messages are kept for a conversation's first window and each window that extends the one before; an unrelated one keeps its raw JSON alone", () => {
    const memos = new WindowMemos(60_000, () => 0);
    const slot = memos.slot('c');
    const next = conversationTurns(5);
    const kept: (number | undefined)[] = [];
    const raws: string[] = [];
    for (let t = 1; t <= 5; t++) raws.push(JSON.stringify(next(t).input));
    // From turn 4 on the history is trimmed (turn 4 does not extend turn 3; turn 5 extends turn 4).
    for (const t of [3, 4]) raws[t] = JSON.stringify(JSON.parse(raws[t]!).slice(2));
    for (const raw of raws) {
      readBoth(raw, slot);
      kept.push(slot.prior()?.messages?.length);
    }
    // Turns 1-3: messages kept (the first, then extensions). Turn 4 does not extend turn 3: raw
    // JSON only. Turn 5 extends turn 4 (read in full, messages kept again).
    expect(kept.map((n) => n !== undefined)).toEqual([true, true, true, false, true]);
    expect(slot.prior()!.body).toBe(raws[4]!.slice(0, raws[4]!.lastIndexOf(']')));
    // A window kept without messages is counted as its raw JSON.
    slot.remember({ body: '[{"a":1}', messages: [{ role: 'user', parts: [] }] }, false);
    expect(slot.prior()!.messages).toBeUndefined();
    expect(memos.bytes).toBe(2 * '[{"a":1}'.length + 128);
  });
});
