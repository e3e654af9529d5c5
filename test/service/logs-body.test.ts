// The onward log-records body encoded in chunks (src/service/logs-body.ts): the same records, in
// the same order, as the body encoded in one piece, and the event loop gets turns meanwhile.
import { describe, expect, it } from 'vitest';
import type { LogData } from '../../src/model/telemetry.js';
import { decodeLogsRequestProto, encodeLogsRequestProto } from '../../src/otlp/proto.js';
import { encodeLogsBody } from '../../src/service/logs-body.js';
import { TimeSlice } from '../../src/service/time-slice.js';

/** Evaluation records as serve writes them: two services, one finding each, on 300 spans. */
function records(n: number): LogData[] {
  return Array.from({ length: n }, (_, i) => ({
    traceId: (i + 1).toString(16).padStart(32, '0'),
    spanId: (i + 7).toString(16).padStart(16, '0'),
    eventName: 'gen_ai.evaluation.result',
    timeUnixNano: 1_764_000_000_000_000_000n + BigInt(i),
    severityNumber: 9,
    body: undefined,
    attributes: { 'gen_ai.evaluation.name': 'footprint.unsupported-argument', 'gen_ai.evaluation.score.label': 'fail', 'gen_ai.evaluation.explanation': `argument machine_id "srv-${i}" was not served`, 'footprint.finding.id': `f${i}` },
    resource: { 'service.name': i % 2 ? 'billing-agent' : 'backup-agent' },
    scope: { name: 'footprint-otel', version: '0.1.0' },
  }));
}

const key = (l: LogData) => [l.resource['service.name'], l.traceId, l.spanId, l.eventName, String(l.timeUnixNano), JSON.stringify(l.attributes)].join('|');

describe('encodeLogsBody', () => {
  it('decodes to the records of the one-piece body, in their order per resource, and yields between chunks', async () => {
    const logs = records(300);
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 100) setImmediate(tick);
    };
    setImmediate(tick);
    const body = await encodeLogsBody(logs, new TimeSlice(0));
    expect(turns).toBeGreaterThanOrEqual(2);
    const chunked = decodeLogsRequestProto(body);
    const whole = decodeLogsRequestProto(encodeLogsRequestProto(logs));
    if (!chunked.ok || !whole.ok) throw new Error('undecodable');
    expect(chunked.value.logs).toHaveLength(300);
    const byResource = (ls: readonly LogData[]) => ['backup-agent', 'billing-agent'].map((r) => ls.filter((l) => l.resource['service.name'] === r).map(key));
    expect(byResource(chunked.value.logs)).toEqual(byResource(whole.value.logs));
    expect(new Set(chunked.value.logs.map(key))).toEqual(new Set(logs.map(key)));
  });

  it('a small batch is the one-piece body, byte for byte', async () => {
    const logs = records(5);
    expect(Buffer.compare(Buffer.from(await encodeLogsBody(logs, new TimeSlice(0))), Buffer.from(encodeLogsRequestProto(logs)))).toBe(0);
  });
});
