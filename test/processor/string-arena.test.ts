// Worker mode's string arena (src/processor/string-arena.ts), both sides in one thread over the
// same shared memory: every long string of a span (attributes, event attributes, log attributes
// and bodies) comes back exactly, one-byte, two-byte and with a lone surrogate, keys in their
// order; short strings never move; a full ring leaves strings in the message and takes them again
// once the reader has freed it; a string never straddles the ring's end.
import { describe, expect, it } from 'vitest';
import { ARENA_MIN_STRING_CHARS, StringArenaReader, StringArenaWriter } from '../../src/processor/string-arena.js';
import type { LogData, SpanData } from '../../src/model/telemetry.js';

const window = (n: number, salt: string) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', parts: [{ type: 'text', content: `${salt} message ${i}: which backups of customer acme failed last night?` }] })));

function chatSpan(input: string, output: string): SpanData {
  return {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    name: 'chat gpt-4o',
    kind: 3,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': input, 'gen_ai.request.model': 'gpt-4o', 'gen_ai.output.messages': output },
    events: [{ name: 'gen_ai.content.prompt', timeUnixNano: 1n, attributes: { 'gen_ai.prompt': input } }],
    status: { code: 0 },
    resource: { 'service.name': 'triage' },
    scope: { name: 'test' },
  } as SpanData;
}

const copy = <T>(v: T): T => structuredClone(v);

describe('string arena', () => {
  it('carries every long string back exactly, keys in their order, short ones untouched', () => {
    const w = new StringArenaWriter(1 << 20);
    const r = new StringArenaReader(w.shared);
    const oneByte = window(40, 'Café');
    const twoByte = window(40, 'Zürich 東京 🚀');
    const loneSurrogate = window(30, 'broken \uD83D pair');
    const span = chatSpan(oneByte, twoByte);
    span.attributes['gen_ai.system_instructions'] = loneSurrogate;
    const log: LogData = { timeUnixNano: 3n, body: window(35, 'log body'), attributes: { 'event.name': 'gen_ai.choice', long: window(33, 'Ω') }, resource: {}, scope: { name: 'l' } } as LogData;
    const before = copy({ span, log });
    const moved = w.moveLongStrings([span], [log]);
    expect(moved?.length).toBe(6);
    expect(span.attributes['gen_ai.input.messages']).toBe('');
    expect(span.attributes['gen_ai.request.model']).toBe('gpt-4o');
    expect(log.body).toBe('');
    // what crosses the thread is the posted copy
    const posted = copy({ span, log });
    r.restore([posted.span], [posted.log], moved!);
    expect(posted).toEqual(before);
    expect(Object.keys(posted.span.attributes)).toEqual(Object.keys(before.span.attributes));
    expect(posted.span.attributes['gen_ai.system_instructions']).toBe(loneSurrogate);
  });

  it('moves nothing shorter than its threshold', () => {
    const w = new StringArenaWriter(1 << 16);
    const span = chatSpan('x'.repeat(ARENA_MIN_STRING_CHARS - 1), '[]');
    expect(w.moveLongStrings([span], undefined)).toBeUndefined();
    expect(span.attributes['gen_ai.input.messages']).toHaveLength(ARENA_MIN_STRING_CHARS - 1);
  });

  it('a full ring leaves strings in the message, and takes them again once freed; none straddles the end', () => {
    const size = 64 * 1024;
    const w = new StringArenaWriter(size);
    const r = new StringArenaReader(w.shared);
    const pending: { span: SpanData; moved: ReturnType<StringArenaWriter['moveLongStrings']>; want: string }[] = [];
    let inMessage = 0;
    for (let i = 0; i < 40; i++) {
      const text = window(60, `turn ${i}`); // ~5 KB a string, two a span (attribute and event)
      const span = chatSpan(text, '[]');
      const moved = w.moveLongStrings([span], undefined);
      if (span.attributes['gen_ai.input.messages'] !== '') inMessage++;
      for (const m of moved ?? []) expect((m[2] % size) + m[3]).toBeLessThanOrEqual(size);
      pending.push({ span: copy(span), moved, want: text });
      // the reader falls behind by six spans, then catches up
      if (i % 6 === 5) {
        for (const p of pending.splice(0)) {
          if (p.moved) r.restore([p.span], undefined, p.moved);
          expect(p.span.attributes['gen_ai.input.messages']).toBe(p.want);
          expect(p.span.events[0]!.attributes['gen_ai.prompt']).toBe(p.want);
        }
      }
    }
    expect(inMessage).toBeGreaterThan(0);
    expect(inMessage).toBeLessThan(40);
  });
});
