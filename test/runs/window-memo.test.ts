// Pins per-conversation window reuse (issues 11, 36): a request reads only the messages the
// previous request of its conversation did not hold (by identity of their raw JSON, wherever they
// stand), and gets exactly what a full read gives (messages, tool results' names, diagnostics,
// findings); edited, truncated and reordered history, JSON that is not valid, an item too deep and
// a window that crosses maxMessagesPerRequest are all read as a full read reads them.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
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

  it('a truncated history (oldest messages dropped) reuses the messages it still holds', () => {
    const memo = countingMemo();
    const first = readBoth(JSON.stringify(window(6)), memo).messages!;
    const { messages } = readBoth(JSON.stringify(window(9, 3)), memo);
    expect(messages).toHaveLength(6);
    // Messages 3-5 are the objects read before; 6-8 are new.
    expect(messages!.slice(0, 3).every((m, i) => m === first[i + 3])).toBe(true);
  });

  it('a window whose messages were edited, inserted or moved reuses every message it held, wherever it stands', () => {
    const memo = countingMemo();
    const first = readBoth(JSON.stringify(window(8)), memo).messages!;
    const w = window(8);
    const edited = [w[0], { role: 'system', parts: [{ type: 'text', content: 'a reminder inserted' }] }, w[5], w[2], w[3], { ...w[4]!, parts: [{ type: 'text', content: 'edited' }] }, w[6], w[7]];
    const { messages } = readBoth(JSON.stringify(edited), memo);
    expect(messages![0]).toBe(first[0]);
    expect(messages![2]).toBe(first[5]);
    expect(messages![3]).toBe(first[2]);
    expect(messages![6]).toBe(first[6]);
    expect(messages![1]).not.toBe(first[1]);
    expect(messages![5]).not.toBe(first[4]);
  });

  it("a reused tool result is named from its own window's calls: the name an earlier window gave it is taken back when this one holds no such call", () => {
    const memo = countingMemo();
    const call = { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'list_machines', arguments: { customer: 'acme' } }] };
    const result = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: '[{"machine_id":"srv-1"}]' }] };
    const user = { role: 'user', parts: [{ type: 'text', content: 'which machines?' }] };
    const a = readBoth(JSON.stringify([user, call, result]), memo).messages!;
    expect(a[2]!.parts[0]).toMatchObject({ name: 'list_machines' });
    // The oldest messages dropped with the call: the result stands alone, with no name.
    const b = readBoth(JSON.stringify([result, user]), memo).messages!;
    expect(b[0]).toBe(a[2]);
    expect(b[0]!.parts[0]).not.toHaveProperty('name');
    // Another call with the same id before it: that call's name.
    const other = { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_machine', arguments: {} }] };
    const c = readBoth(JSON.stringify([other, result, user]), memo).messages!;
    expect(c[1]!.parts[0]).toMatchObject({ name: 'get_machine' });
  });

  it('keeps the raw window for a conversation\'s first window and one that extended the one before, each item\'s own copy for any other', () => {
    const memo = countingMemo();
    readBoth(JSON.stringify(window(4)), memo);
    expect(memo.last!.body).toBeDefined();
    expect(memo.last!.items).toBeUndefined();
    readBoth(JSON.stringify(window(6)), memo);
    expect(memo.last!.body).toBeDefined();
    // Trimmed: no raw window; items of its own, the same raw JSON the window holds.
    const trimmed = window(7, 2);
    readBoth(JSON.stringify(trimmed), memo);
    expect(memo.last!.body).toBeUndefined();
    expect(memo.last!.items).toEqual(trimmed.map((m) => JSON.stringify(m)));
    // The next one extends it: read by items (there is no raw window to compare), kept with its raw window again.
    const { messages } = readBoth(JSON.stringify(window(9, 2)), memo);
    expect(messages).toHaveLength(7);
    expect(memo.last!.body).toBeDefined();
    readBoth(JSON.stringify(window(10, 2)), memo);
    expect(memo.last!.body).toBeDefined();
  });

  it('a window that did not extend the one before is kept only when it reused at least minReusedShare of its raw JSON; else the one before stays for the next request', () => {
    const memo = countingMemo();
    const big = (i: number, salt: string) => ({ role: 'user', parts: [{ type: 'text', content: `question ${i} ${salt} ${'please check the machines '.repeat(8)}` }] });
    const tool = (i: number) => ({ role: 'tool', parts: [{ type: 'tool_call_response', id: `c${i}`, response: `{"machine_id":"srv-${i}"}` }] });
    // Half the raw JSON repeats: the first window stays (what it holds is still reused next time).
    const first = [big(0, 'a'), tool(1), big(2, 'a'), tool(3)];
    readBoth(JSON.stringify(first), memo);
    const kept = memo.last;
    const half = [big(0, 'b'), tool(1), big(2, 'b'), tool(3)];
    const read = readBoth(JSON.stringify(half), memo).messages!;
    expect(memo.last).toBe(kept);
    // The next request still reuses the first window's messages; all of it repeats (moved): kept.
    const again = readBoth(JSON.stringify([tool(1), big(0, 'a'), big(2, 'a'), tool(3)]), memo).messages!;
    expect(again[0]).toBe(read[1]);
    expect(memo.last).not.toBe(kept);
    expect(memo.last!.items).toBeDefined();
    // Most of it repeats (one message of four dropped, one added): kept in its place.
    const before = memo.last;
    readBoth(JSON.stringify([big(0, 'a'), big(2, 'a'), tool(3), tool(5)]), memo);
    expect(memo.last).not.toBe(before);
    expect(memo.last!.items).toBeDefined();
  });

  it('a message standing twice in a window is two objects, each named from its own place (a reused object would carry one name for both)', () => {
    const memo = countingMemo();
    const call = { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'list_machines', arguments: {} }] };
    const result = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'ok' }] };
    const user = { role: 'user', parts: [{ type: 'text', content: 'and now?' }] };
    readBoth(JSON.stringify([result, call, user]), memo);
    // The third place held another message before: the result is looked for, and found at the first place, already taken.
    const { messages } = readBoth(JSON.stringify([result, call, result]), memo);
    expect(messages![0]).not.toBe(messages![2]);
    expect(messages![0]!.parts[0]).not.toHaveProperty('name');
    expect(messages![2]!.parts[0]).toMatchObject({ name: 'list_machines' });
    // And in a window that extends the one before.
    const again = readBoth(JSON.stringify([result, call, result, result]), memo).messages!;
    expect(new Set(again).size).toBe(4);
  });

  it("json.dumps spacing, pretty-printed JSON and items whose own parts open like the window's items are cut right", () => {
    const memo = countingMemo();
    const w = window(6);
    readBoth(JSON.stringify(w).replace(/},{"role":/g, '}, {"role": '), memo);
    readBoth(JSON.stringify(window(8), null, 2), memo);
    // A part that is itself a {"role": ...} object after "},": the first guess cuts there, does not parse, and the items are scanned.
    const nested = { role: 'user', parts: [{ type: 'text', content: 'x' }, { role: 'user', type: 'text', content: 'y' }] };
    const { messages } = readBoth(JSON.stringify([w[0], nested, w[2]]).replace('},{"type":"text","content":"x"}', '},{"type":"text","content":"x"}'), memo);
    expect(messages).toHaveLength(3);
    const tricky = [{ role: 'user', parts: [{ type: 'text', content: 'a' }], extra: [{ a: 1 }, { role: 'x' }] }, w[1]];
    expect(readBoth(JSON.stringify(tricky), memo).messages).toHaveLength(2);
  });

  it('an item nested deeper than the bound allows inside the array reports what the full read reports', () => {
    const limits = resolveLimits({ maxJsonDepth: 6 });
    const memo = countingMemo();
    readBoth(JSON.stringify(window(3)), memo, limits);
    const deep = { role: 'user', parts: [{ type: 'text', content: 'x', meta: { a: { b: { c: 1 } } } }] };
    const ok = { role: 'user', parts: [{ type: 'text', content: 'x', meta: { a: { b: 1 } } }] };
    expect(readBoth(JSON.stringify([...window(3), deep]), memo, limits).diagnostics.map((d) => d.code)).toEqual(['attribute.too-deep']);
    expect(readBoth(JSON.stringify([...window(3), ok]), memo, limits).diagnostics).toEqual([]);
  });

  it('random edits of a conversation\'s windows (dropped, inserted, moved, edited, duplicated, re-spaced, broken messages) read exactly as full reads', () => {
    const message = fc.oneof(
      fc.record({ role: fc.constantFrom('user', 'system', 'assistant', 'developer', 'wizard'), parts: fc.array(fc.record({ type: fc.constant('text'), content: fc.string({ maxLength: 12 }) }), { maxLength: 2 }) }),
      fc.record({ role: fc.constant('assistant'), parts: fc.array(fc.record({ type: fc.constant('tool_call'), id: fc.constantFrom('c1', 'c2', 'c3'), name: fc.constantFrom('list', 'get', ''), arguments: fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }) }), { maxLength: 2 }) }),
      fc.record({ role: fc.constant('tool'), parts: fc.tuple(fc.record({ type: fc.constant('tool_call_response'), id: fc.constantFrom('c1', 'c2', 'c3'), response: fc.oneof(fc.string({ maxLength: 8 }), fc.constant('{"a":[1,{"role":"x"}]}')) })) }),
      fc.record({ role: fc.constant('tool'), tool_call_id: fc.constantFrom('c1', 'c2'), content: fc.string({ maxLength: 6 }) }),
      fc.constantFrom(42, 'text', null, { parts: [] }),
    );
    const spacing = fc.constantFrom(0, 1, 2, 'dumps');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(message, { maxLength: 7 }), spacing, fc.boolean()), { minLength: 2, maxLength: 5 }), fc.array(message, { maxLength: 6 }), (steps, base) => {
        const memo = countingMemo();
        let cur: unknown[] = base;
        for (const [added, sp, dropFirst] of steps) {
          cur = [...(dropFirst ? cur.slice(1) : cur), ...added];
          if (cur.length > 3 && added.length % 2 === 1) cur = [cur[2], cur[0], cur[1], ...cur.slice(3)];
          const raw = sp === 'dumps' ? JSON.stringify(cur).replace(/},{/g, '}, {') : JSON.stringify(cur, null, sp as number);
          readBoth(raw, memo);
          // Broken JSON now and then: what the full read says.
          if (added.length === 3) readBoth(raw.slice(0, -2), memo);
        }
      }),
      { numRuns: 300 },
    );
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
    // Bad items among reused ones: counted as the full read counts them.
    const again = readBoth(JSON.stringify([...window(2), { role: 'wizard', parts: [] }, ...window(4, 2), 'x']), memo);
    expect(again.diagnostics.map((d) => d.code)).toEqual(['message.shape-invalid']);
    expect(again.diagnostics[0]!.message).toContain('2 item(s)');
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

  it('the memo keeps within its entry bound and counts its bytes: the raw window or the items\' own copies, the strings their messages hold, the message objects', () => {
    let now = 0;
    const memos = new WindowMemos(60_000, () => now, 1_000_000);
    const items = [`{"role":"user","content":"${'x'.repeat(50)}"}`];
    for (let i = 0; i < 1100; i++) memos.slot(`c${i}`).remember({ items, messages: [{ role: 'user', parts: [] }] });
    expect(memos.size).toBe(1000);
    expect(memos.bytes).toBe(1000 * (items[0]!.length * 4 + 96 + 128));
    // A window kept with its raw JSON: that, and where each item stands in it.
    const body = `[${items[0]}`;
    memos.slot('c-raw').remember({ body, bounds: Int32Array.of(1, body.length), messages: [{ role: 'user', parts: [] }] });
    expect(memos.bytes).toBe(999 * (items[0]!.length * 4 + 96 + 128) + (body.length * 4 + 8 + 96 + 128));
    now = 120_000;
    expect(memos.slot('c1099').prior()).toBeUndefined();
  });

  it('a window over a quarter of the byte bound is not kept (it would push every other one out), and the oldest go past the bound', () => {
    const memos = new WindowMemos(60_000, () => 0, 10_000);
    const item = (n: number) => `{"role":"user","content":"${'y'.repeat(n)}"}`;
    memos.slot('big').remember({ items: [item(2_000)], messages: [] });
    expect(memos.size).toBe(0);
    for (let i = 0; i < 20; i++) memos.slot(`c${i}`).remember({ items: [item(200)], messages: [] });
    expect(memos.bytes).toBeLessThanOrEqual(10_000);
    expect(memos.slot('c19').prior()).toBeDefined();
    expect(memos.slot('c0').prior()).toBeUndefined();
  });
});
