// The re-send key (src/service/batch-key.ts): equal for the same batch, different whenever the
// spans differ (ids, order, count), the length differs, or a sampled byte differs; log batches and
// small bodies hashed whole.
import { describe, expect, it } from 'vitest';
import { batchKey } from '../../src/service/batch-key.js';
import type { LogsBatch, TraceBatch } from '../../src/service/pipeline.js';
import type { DecodedTraceSpan } from '../../src/otlp/proto.js';

const span = (traceId: string, spanId: string): DecodedTraceSpan => ({
  span: { traceId, spanId, name: 'x', kind: 0, startTimeUnixNano: 0n, endTimeUnixNano: 0n, attributes: {}, events: [], status: { code: 0 }, resource: {}, scope: { name: '' } },
  extras: {},
});
const ids = (n: number, salt = 'a') => Array.from({ length: n }, (_, i) => span(`${salt}`.repeat(16).slice(0, 16) + i.toString(16).padStart(16, '0'), (i + 1).toString(16).padStart(16, '0')));
const traces = (body: Uint8Array, spans: DecodedTraceSpan[]): TraceBatch => ({ signal: 'traces', transport: 'http', spans, rejected: 0, diagnostics: [], body });
const big = () => Buffer.alloc(4_500_000, 7);

describe('batch key', () => {
  it('the same batch gives the same key; another span id, order or count gives another', () => {
    const s = ids(512);
    expect(batchKey(traces(big(), s))).toBe(batchKey(traces(big(), ids(512))));
    expect(batchKey(traces(big(), s))).not.toBe(batchKey(traces(big(), ids(512, 'b'))));
    expect(batchKey(traces(big(), s))).not.toBe(batchKey(traces(big(), [...s].reverse())));
    expect(batchKey(traces(big(), s))).not.toBe(batchKey(traces(big(), s.slice(1))));
  });

  it('a different length, edge or sampled byte gives another key', () => {
    const s = ids(512);
    const k = batchKey(traces(big(), s));
    expect(batchKey(traces(Buffer.alloc(4_500_001, 7), s))).not.toBe(k);
    for (const at of [0, 4095, 4_500_000 - 1, Math.floor((4_500_000 - 256) / 63) * 10 + 3]) {
      const b = big();
      b[at] = 8;
      expect(batchKey(traces(b, s)), `byte ${at}`).not.toBe(k);
    }
  });

  it('small trace bodies and every log body are hashed whole', () => {
    const s = ids(3);
    const small = Buffer.alloc(60_000, 1);
    const small2 = Buffer.alloc(60_000, 1);
    small2[30_123] = 2;
    expect(batchKey(traces(small, s))).not.toBe(batchKey(traces(small2, s)));
    const logs = (body: Uint8Array): LogsBatch => ({ signal: 'logs', transport: 'http', logs: [], rejected: 0, diagnostics: [], body, contentType: 'application/x-protobuf' });
    const l1 = big();
    const l2 = big();
    l2[2_000_001] = 9;
    expect(batchKey(logs(l1))).toBe(batchKey(logs(big())));
    expect(batchKey(logs(l1))).not.toBe(batchKey(logs(l2)));
    expect(batchKey(logs(l1))).not.toBe(batchKey(traces(l1, [])));
  });
});
