// The served history's compact form (issues 11, 36): records read back exactly as they were added
// (texts of any width, call ids and tool names present or not), the user messages' texts in order,
// keys found before and after the index takes over, the estimate is what it allocates, a copy is
// independent, and a lone surrogate is kept as U+FFFD instead of throwing.

import { describe, expect, it } from 'vitest';
import { ServedHistory, CHUNK_BYTES, HISTORY_FIXED_BYTES, RECORD_BYTES, type ServedAddition } from '../../src/runs/served-history.js';
import { servedKey } from '../../src/runs/conversations.js';
import type { EarlierServed } from '../../src/checks/unsupported-argument.js';

const rec = (text: string, request: number, extra: Partial<EarlierServed> = {}): EarlierServed => ({ source: 'tool-result', message: request * 2, text, request, ...extra });
const addition = (r: EarlierServed): ServedAddition => ({ key: servedKey(r.text), request: r.request, served: r });

describe('unit: ServedHistory', () => {
  it('reads back every record as added: sources, messages, requests, texts of any width, labels only when present', () => {
    const records: EarlierServed[] = [
      { source: 'system', message: 0, text: 'You are a backup triage assistant.', request: 1 },
      { source: 'user', message: 1, text: 'Welche Maschinen von Müller & Söhne? → 東京 🙂', request: 1 },
      rec('[{"machine_id":"srv-db-04"}]', 1, { callId: 'call_1', toolName: 'list_machines' }),
      rec('{"status":"missed"}', 2, { callId: 'call_2' }),
      rec('no id here', 2, { toolName: 'backup_status' }),
      rec('', 3),
    ];
    const h = new ServedHistory();
    h.add(records.slice(0, 3).map(addition));
    h.add(records.slice(3).map(addition));
    expect(h.length).toBe(6);
    expect(h.all()).toEqual(records);
    expect(h.textAt(1)).toBe(records[1]!.text);
    expect(h.sourceAt(1)).toBe('user');
    expect(h.requestAt(3)).toBe(2);
    expect(h.keyAt(2)).toBe(servedKey(records[2]!.text));
  });

  it('finds kept keys by scanning while small and by its index past sixteen records', () => {
    const h = new ServedHistory();
    const texts = Array.from({ length: 40 }, (_, i) => `tool result number ${i} of the conversation`);
    for (let i = 0; i < texts.length; i++) {
      h.add([addition(rec(texts[i]!, i + 1))]);
      for (let j = 0; j <= i; j++) expect(h.has(servedKey(texts[j]!))).toBe(true);
      expect(h.has(servedKey('never served'))).toBe(false);
    }
    expect(h.all().map((r) => r.text)).toEqual(texts);
  });

  it('estimates exactly what add allocates, and nothing while empty', () => {
    const h = new ServedHistory();
    expect(h.bytes).toBe(0);
    for (let request = 1; request <= 30; request++) {
      const batch = [addition(rec(`result ${request}: ${'row, '.repeat(request * 3)}`, request)), addition({ source: 'user', message: request, text: `question ${request} — é`, request })];
      const predicted = h.bytesAfter(batch);
      h.add(batch);
      expect(h.bytes).toBe(predicted);
    }
    // Every text in the store as UTF-8, a record each.
    const texts = h.all().reduce((n, r) => n + Buffer.byteLength(r.text), 0);
    const records = 60 * RECORD_BYTES;
    expect(h.bytes).toBeGreaterThanOrEqual(HISTORY_FIXED_BYTES + texts + records);
    // The texts within an eighth (plus 64 bytes) of what they use, the records within half again
    // (the records store grows by half once past 2 KiB), and the index past sixteen records.
    expect(h.bytes).toBeLessThanOrEqual(HISTORY_FIXED_BYTES + Math.floor(texts * 1.125) + 64 + Math.floor(records * 1.5) + 64 + 60 * 40);
  });

  it('a long history grows by chunks: a request past the first few KiB of texts copies nothing that was kept before', () => {
    const h = new ServedHistory();
    const big = (request: number) => [addition(rec(`result ${request}: ${'x'.repeat(6000)}`, request)), addition({ source: 'user', message: request, text: `question ${request}`, request })];
    for (let request = 1; request <= 12; request++) {
      const predicted = h.bytesAfter(big(request));
      h.add(big(request));
      expect(h.bytes).toBe(predicted);
    }
    expect(h.length).toBe(24);
    expect(h.all().map((r) => r.text)).toEqual(Array.from({ length: 12 }, (_, i) => big(i + 1).map((a) => a.served.text)).flat());
    expect(h.textAt(22).length).toBe('result 12: '.length + 6000);
    // A chunk made room for half the history before it (up to 64 KiB): fewer chunks than requests,
    // and texts stored at most half again over what they use (plus a chunk's slack of an eighth).
    const used = h.all().reduce((n, r) => n + Buffer.byteLength(r.text), 0);
    expect(h.bytes).toBeLessThanOrEqual(HISTORY_FIXED_BYTES + Math.floor(used * 1.5 * 1.125) + 12 * 64 + 11 * CHUNK_BYTES + Math.floor(24 * RECORD_BYTES * 1.125) + 64 + 24 * 40);
    expect(h.bytes).toBeLessThan(HISTORY_FIXED_BYTES + Math.floor(used * 1.125) + 12 * 64 + 11 * CHUNK_BYTES + Math.floor(24 * RECORD_BYTES * 1.125) + 64 + 24 * 40 + 16 * 1024);
    const c = h.clone();
    expect(c.all()).toEqual(h.all());
  });

  it('a copy is independent of the original', () => {
    const h = ServedHistory.of([rec('alpha', 1), rec('beta', 2)], servedKey);
    const c = h.clone();
    c.add([addition(rec('gamma', 3))]);
    expect(h.all().map((r) => r.text)).toEqual(['alpha', 'beta']);
    expect(c.all().map((r) => r.text)).toEqual(['alpha', 'beta', 'gamma']);
    expect(c.has(servedKey('gamma'))).toBe(true);
    expect(h.has(servedKey('gamma'))).toBe(false);
  });

  it('of() keeps the first sighting of each text', () => {
    const h = ServedHistory.of([rec('same', 1), rec('other', 2), rec('same', 3)], servedKey);
    expect(h.all().map((r) => [r.text, r.request])).toEqual([
      ['same', 1],
      ['other', 2],
    ]);
  });

  it("gives the user messages' texts, in order (what an answer's check reads)", () => {
    const question = 'Welche Maschinen von Müller & Söhne haben gestern kein Backup gemacht?';
    const h = ServedHistory.of([{ source: 'system', message: 0, text: 'sys', request: 1 }, { source: 'user', message: 1, text: question, request: 1 }, rec('result', 1), { source: 'user', message: 3, text: 'and srv-db-04?', request: 2 }], servedKey);
    expect(h.userTexts()).toEqual([question, 'and srv-db-04?']);
    expect(h.textAt(1)).toBe(question);
    expect(h.clone().userTexts()).toEqual(h.userTexts());
  });

  it('keeps a lone surrogate as U+FFFD (what a UTF-8 encoder writes), never throws', () => {
    const h = new ServedHistory();
    h.add([addition(rec('half an emoji \ud83d here', 1))]);
    expect(h.textAt(0)).toBe('half an emoji \ufffd here');
  });
});
