// Pins the "served earlier in this conversation" witness of unsupported-argument where the
// history is searched by the value's run of case-free characters before anything is decoded
// (issue 36): an earlier string that holds the value in another case is found, one that holds
// only part of its run is not, and the history's byte search answers per record.
import { describe, it, expect } from 'vitest';
import { FootprintCore } from '../../src/runs/footprint.js';
import { ServedHistory } from '../../src/runs/served-history.js';
import { servedKey } from '../../src/runs/conversations.js';
import type { SpanData } from '../../src/model/telemetry.js';

const decl = { tools: { backup_status: { argumentsFrom: ['list_machines'] }, list_machines: { readOnly: true } } };
let n = 0;
function chat(input: unknown[], machine: string): SpanData {
  n++;
  return {
    traceId: n.toString(16).padStart(32, '0'),
    spanId: n.toString(16).padStart(16, '0'),
    name: 'chat m',
    kind: 3,
    startTimeUnixNano: BigInt(n * 10),
    endTimeUnixNano: BigInt(n * 10 + 1),
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.conversation.id': 'conv-earlier',
      'gen_ai.input.messages': JSON.stringify(input),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: `call_${n}`, name: 'backup_status', arguments: { machine_id: machine } }] }]),
    },
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'app' },
    scope: { name: 'test' },
  };
}
/** Whether the UTF-8 bytes of record i's text hold `bytes`: the reference textsHolding answers for every record at once. */
const textHolds = (h: ServedHistory, i: number, bytes: Uint8Array): boolean => Buffer.from(h.textAt(i), 'utf8').includes(Buffer.from(bytes));
const user = (text: string) => ({ role: 'user', parts: [{ type: 'text', content: text }] });
const result = (id: string, text: string) => ({ role: 'tool', parts: [{ type: 'tool_call_response', id, response: text }] });

describe('the served-earlier witness, searched by the value\'s case-free run first', () => {
  it('finds an earlier string holding the value in another case, and no string holding only a part of it', () => {
    const core = new FootprintCore({ declarations: decl });
    const first = [user('Bitte prüfe den Host ÜBER SRV-DB-9000 — danke'), result('r1', '[{"machine_id":"srv-db-9001"}]'), result('r2', '{"note":"host 9000 of srv-db"}')];
    core.process({ spans: [chat(first, 'srv-db-9001')] });
    const r = core.process({ spans: [chat([user('and the other one?')], 'srv-db-9000')] });
    const f = r.findings.find((x) => x.kind === 'unsupported-argument');
    expect(f, JSON.stringify(r.findings)).toBeDefined();
    const earlier = f!.witnesses.filter((w) => w.stratum === 'served');
    expect(earlier).toHaveLength(1);
    expect(earlier[0]!.provenance).toContain('served to request 1');
    expect(f!.message).toContain('served earlier in this conversation');
  });

  it('textHolds: a search of each record\'s bytes, within that record only', () => {
    const texts = ['alpha -9000 beta', 'gamma', 'Ärger -900', 'x-9000'];
    const h = ServedHistory.of(texts.map((text, i) => ({ source: 'tool-result' as const, message: i, text, request: 1 })), servedKey);
    const run = Buffer.from('-9000');
    expect(texts.map((_, i) => textHolds(h, i, run))).toEqual([true, false, false, true]);
    expect(textHolds(h, 2, Buffer.from('-900'))).toBe(true);
    // A run that spans two records' bytes is in neither.
    expect(textHolds(h, 0, Buffer.from('betagamma'))).toBe(false);
    // textsHolding: every record at once, the same answers.
    expect([...h.textsHolding(run)]).toEqual([1, 0, 0, 1]);
    expect([...h.textsHolding(Buffer.from('-900'))]).toEqual([1, 0, 1, 1]);
    expect([...h.textsHolding(Buffer.from('betagamma'))]).toEqual([0, 0, 0, 0]);
    expect([...h.textsHolding(run, 2)]).toEqual([1, 0]);
  });

  it('textsHolding over many chunks and labelled records answers as textHolds record by record', () => {
    const h = new ServedHistory();
    const texts: string[] = [];
    for (let r = 1; r <= 40; r++) {
      const batch = Array.from({ length: 3 }, (_, k) => `req ${r} part ${k}: ${k === 1 ? 'SRV-DB-9000 ' : ''}${'filler '.repeat(r * 40)}${r % 7 === 0 ? '-9000' : ''}`);
      texts.push(...batch);
      h.add(batch.map((text, k) => ({ key: servedKey(text), request: r, served: { source: 'tool-result' as const, message: k, text, callId: `c-9000-${r}`, toolName: 'x' } })));
    }
    for (const run of ['-9000', 'filler', 'c-9000', 'zzz'].map((x) => Buffer.from(x))) {
      expect([...h.textsHolding(run)]).toEqual(texts.map((_, i) => (textHolds(h, i, run) ? 1 : 0)));
    }
  });
});
