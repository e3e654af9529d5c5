// Pins the protobuf codec and the ReadableSpan adapter against the SDK's own serializers: every
// fixture span survives SpanData -> ReadableSpan -> ProtobufTraceSerializer -> our decoder
// unchanged (and the JSON serializer -> json.ts), responses encode partial_success, garbage is
// refused with a message, never an exception.
import { describe, it, expect } from 'vitest';
import { ProtobufTraceSerializer, JsonTraceSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import {
  decodeTraceRequestProto,
  decodeLogsRequestProto,
  encodeTraceResponseProto,
  encodeLogsResponseProto,
  decodeExportResponseProto,
  encodeLogsRequestProto,
} from '../../src/otlp/proto.js';
import { toReadableSpans } from '../../src/otlp/readable.js';
import { LIBRARIES, loadFixture } from '../helpers/fixtures.js';
import type { SpanData } from '../../src/model/telemetry.js';

const plain = (s: SpanData) => JSON.parse(JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? `b64:${Buffer.from(v).toString('base64')}` : v)));

describe('unit: protobuf round trip through the SDK serializers', () => {
  for (const lib of LIBRARIES)
    it(`${lib} backup-triage: spans survive protobuf and JSON`, () => {
      const { doc } = loadFixture(lib, 'backup-triage');
      const spans = doc.spans.map((d) => d.span);
      const readable = toReadableSpans(spans.map((span) => ({ span })));
      const bytes = ProtobufTraceSerializer.serializeRequest(readable)!;
      const back = decodeTraceRequestProto(bytes);
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.value.rejected).toBe(0);
      const byKey = new Map(back.value.spans.map((d) => [d.span.spanId, d.span]));
      for (const s of spans) expect(plain(byKey.get(s.spanId)!)).toEqual(plain(s));
      const json = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(readable)!);
      const j = decodeOtlpJsonText(json, 'json');
      expect(j.diagnostics).toEqual([]);
      const jByKey = new Map(j.spans.map((d) => [d.span.spanId, d.span]));
      for (const s of spans) expect(plain(jByKey.get(s.spanId)!)).toEqual(plain(s));
    });

  it('structured attribute values (kvlist, arrays, bytes, big ints) keep their shape', () => {
    const span: SpanData = {
      traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'x', kind: 3,
      startTimeUnixNano: 1730000000123456789n, endTimeUnixNano: 1730000000223456789n,
      attributes: { obj: { a: 1, b: [true, 'x', { c: 2.5 }] }, bytes: new Uint8Array([1, 2, 3]), n: null, neg: -7 },
      events: [{ name: 'e', timeUnixNano: 1730000000123456790n, attributes: { k: 'v' } }],
      links: [{ traceId: '1af7651916cd43dd8448eb211c80319c', spanId: 'c7ad6b7169203331', attributes: {} }],
      status: { code: 2, message: 'boom' }, resource: { 'service.name': 'svc' }, scope: { name: 's', version: '1' },
    };
    const back = decodeTraceRequestProto(ProtobufTraceSerializer.serializeRequest(toReadableSpans([{ span, extras: { traceState: 'a=b', flags: 0x301 } }]))!);
    expect(back.ok && plain(back.value.spans[0]!.span)).toEqual(plain(span));
    expect(back.ok && back.value.spans[0]!.extras).toMatchObject({ traceState: 'a=b' });
  });

  it('logs decode from the SDK logs serializer shape (via our own encoder) and from the fixture', () => {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    expect(doc.logs.length).toBeGreaterThan(0);
    const back = decodeLogsRequestProto(encodeLogsRequestProto(doc.logs));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.value.logs.length).toBe(doc.logs.length);
    const key = (l: { traceId?: string; spanId?: string; timeUnixNano: bigint; body: unknown }) => JSON.stringify([l.traceId, l.spanId, String(l.timeUnixNano), l.body]);
    expect(new Set(back.value.logs.map(key))).toEqual(new Set(doc.logs.map(key)));
    expect(typeof ProtobufLogsSerializer.serializeRequest).toBe('function');
  });

  it('responses carry partial_success only when something was rejected', () => {
    expect(encodeTraceResponseProto().length).toBe(0);
    const r = decodeExportResponseProto(encodeTraceResponseProto({ rejected: 3, errorMessage: 'bad ids' }), 'traces');
    expect(r).toEqual({ ok: true, value: { rejected: 3, errorMessage: 'bad ids' } });
    const sdk = ProtobufTraceSerializer.deserializeResponse(encodeTraceResponseProto({ rejected: 2, errorMessage: 'm' }));
    expect(sdk.partialSuccess).toMatchObject({ errorMessage: 'm' });
    expect(Number(sdk.partialSuccess?.rejectedSpans)).toBe(2);
    expect(decodeExportResponseProto(encodeLogsResponseProto({ rejected: 1 }), 'logs')).toEqual({ ok: true, value: { rejected: 1 } });
  });

  it('garbage is refused with a message, never thrown', () => {
    for (const junk of [Buffer.from('{"resourceSpans":[]}'), Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), Buffer.from([0x0a, 0x80])]) {
      const r = decodeTraceRequestProto(junk);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/ExportTraceServiceRequest|could not be read/);
    }
    expect(decodeTraceRequestProto(new Uint8Array()).ok).toBe(true);
  });

  it('spans with unusable ids are counted as rejected', () => {
    const span: SpanData = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'ok', kind: 1, startTimeUnixNano: 1n, endTimeUnixNano: 2n, attributes: {}, events: [], status: { code: 0 }, resource: {}, scope: { name: 's' } };
    const bad = { ...span, spanId: '0000000000000000', name: 'bad' };
    const r = decodeTraceRequestProto(ProtobufTraceSerializer.serializeRequest(toReadableSpans([{ span }, { span: bad }]))!);
    expect(r.ok && r.value.rejected).toBe(1);
    expect(r.ok && r.value.spans.map((s) => s.span.name)).toEqual(['ok']);
  });
});

describe('property: the decoders never throw', () => {
  it('random bytes and mutated real requests decode or refuse, never throw', async () => {
    const fc = (await import('fast-check')).default;
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    const real = ProtobufTraceSerializer.serializeRequest(toReadableSpans(doc.spans.map((d) => ({ span: d.span }))))!;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        const r = decodeTraceRequestProto(bytes);
        const l = decodeLogsRequestProto(bytes);
        return typeof r.ok === 'boolean' && typeof l.ok === 'boolean';
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(real.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat(real.length), (flips, cut) => {
        const b = Uint8Array.from(real.subarray(0, Math.max(1, cut)));
        for (const [i, v] of flips) if (i < b.length) b[i] = v;
        const r = decodeTraceRequestProto(b);
        if (r.ok) for (const s of r.value.spans) expect(s.span.traceId).toMatch(/^[0-9a-f]{32}$/);
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('deeply nested AnyValues are cut at the depth bound, not a stack overflow', () => {
    // kvlist inside kvlist, 10,000 levels deep: bytes built by hand (AnyValue.kvlist_value = 6).
    let inner: Buffer = Buffer.from([0x0a, 0x01, 0x78]); // AnyValue{string_value:"x"}
    for (let i = 0; i < 10_000; i++) {
      const kv = Buffer.concat([Buffer.from([0x0a, 0x01, 0x6b, 0x12]), varint(inner.length), inner]); // KeyValue{key:"k", value}
      const list = Buffer.concat([Buffer.from([0x0a]), varint(kv.length), kv]); // KeyValueList{values}
      inner = Buffer.concat([Buffer.from([0x32]), varint(list.length), list]); // AnyValue{kvlist_value}
    }
    const attr = Buffer.concat([Buffer.from([0x0a, 0x01, 0x61, 0x12]), varint(inner.length), inner]);
    const span = Buffer.concat([
      Buffer.from([0x0a, 0x10]), Buffer.alloc(16, 1), Buffer.from([0x12, 0x08]), Buffer.alloc(8, 2),
      Buffer.from([0x4a]), varint(attr.length), attr,
    ]);
    const ss = Buffer.concat([Buffer.from([0x12]), varint(span.length), span]);
    const rs = Buffer.concat([Buffer.from([0x12]), varint(ss.length), ss]);
    const req = Buffer.concat([Buffer.from([0x0a]), varint(rs.length), rs]);
    const r = decodeTraceRequestProto(req);
    // protobufjs refuses past its own recursion limit; either way the answer is a value.
    if (r.ok) {
      let v: unknown = r.value.spans[0]!.span.attributes.a;
      let depth = 0;
      while (v && typeof v === 'object' && 'k' in (v as object)) {
        v = (v as { k: unknown }).k;
        depth++;
      }
      expect(depth).toBeLessThanOrEqual(70);
    } else expect(r.error).toMatch(/ExportTraceServiceRequest|could not be read/);
    process.stdout.write(`[deep] ${r.ok ? 'decoded, cut at the depth bound' : `refused: ${r.error}`}\n`);
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}
