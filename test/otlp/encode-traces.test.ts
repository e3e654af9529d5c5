// Pins our ExportTraceServiceRequest encoder against our decoder and against the SDK's own
// ProtobufTraceSerializer: every recorded fixture (OTLP/JSON, read with json.ts) comes back from
// both with the same spans (ids, times, kinds, status, attributes with structured values, events,
// links) and the same extras; grouping by resource and scope; structured values fuzzed; the
// response reader; and the service's http/protobuf downstream over the SDK's export delegate
// (content type, headers, gzip, retry on 503, partial success).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { decodeTraceRequestProto, encodeTraceResponseProto, type SpanExtras } from '../../src/otlp/proto.js';
import { OtlpTypes } from '../../src/otlp/otlp-schema.js';
import { toReadableSpans } from '../../src/otlp/readable.js';
import { decodeTraceResponse, encodeTraceRequest, TraceRequestSerializer, type ExportItem } from '../../src/otlp/encode-traces.js';
import { createDownstream } from '../../src/service/downstream.js';
import type { AttrValue, SpanData } from '../../src/model/telemetry.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';

const plain = (s: unknown) => JSON.parse(JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? `b64:${Buffer.from(v).toString('base64')}` : typeof v === 'number' && !Number.isFinite(v) ? `num:${v}` : v)));

/** Every test/fixtures/<dir>/*.otlp.json holding spans. */
function fixtureFiles(): string[] {
  const out: string[] = [];
  for (const d of readdirSync(FIXTURES_DIR)) {
    const dir = join(FIXTURES_DIR, d);
    if (!statSync(dir).isDirectory()) continue;
    for (const f of readdirSync(dir)) if (f.endsWith('.otlp.json') && !f.endsWith('.logs.otlp.json')) out.push(join(dir, f));
  }
  return out.sort();
}


function decodeBoth(items: ExportItem[]) {
  const ours = decodeTraceRequestProto(encodeTraceRequest(items));
  const sdk = decodeTraceRequestProto(ProtobufTraceSerializer.serializeRequest(toReadableSpans(items))!);
  if (!ours.ok) throw new Error(ours.error);
  if (!sdk.ok) throw new Error(sdk.error);
  return { ours: ours.value, sdk: sdk.value };
}

const FILES = fixtureFiles();

describe('unit: encode-traces round trip over every fixture', () => {
  it('finds the fixtures', () => expect(FILES.length).toBeGreaterThanOrEqual(20));
  for (const file of FILES)
    it(`${file.slice(FIXTURES_DIR.length + 1)}: our encoder and the SDK's give the same spans back`, () => {
      const doc = decodeOtlpJsonText(readFileSync(file, 'utf8'), file);
      expect(doc.diagnostics).toEqual([]);
      expect(doc.spans.length).toBeGreaterThan(0);
      const items: ExportItem[] = doc.spans.map((d) => ({ span: d.span, extras: d.extras }));
      const { ours, sdk } = decodeBoth(items);
      expect(ours.rejected).toBe(0);
      expect(ours.spans.length).toBe(items.length);
      expect(sdk.spans.length).toBe(items.length);
      const oursById = new Map(ours.spans.map((d) => [d.span.spanId, d]));
      const sdkById = new Map(sdk.spans.map((d) => [d.span.spanId, d]));
      for (const { span, extras } of items) {
        const o = oursById.get(span.spanId)!;
        const s = sdkById.get(span.spanId)!;
        expect(plain(o.span)).toEqual(plain(span));
        expect(plain(s.span)).toEqual(plain(span));
        expect(o.span.kind).toBe(span.kind);
        expect(o.span.status).toEqual(span.status);
        expect(o.span.startTimeUnixNano).toBe(span.startTimeUnixNano);
        expect(o.span.endTimeUnixNano).toBe(span.endTimeUnixNano);
        // Flags as received (0x101 when none); everything else in the extras as the SDK path gives it.
        expect(o.extras.flags).toBe(extras?.flags ?? 0x101);
        const { flags: _of, ...oRest } = o.extras;
        const { flags: _sf, ...sRest } = s.extras;
        expect(oRest).toEqual(sRest);
        if (extras?.traceState) expect(o.extras.traceState).toBe(extras.traceState);
      }
    });
});

const BASE: SpanData = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  parentSpanId: 'a7ad6b7169203330',
  name: 'chat gpt-4o',
  kind: 3,
  startTimeUnixNano: 1730000000123456789n,
  endTimeUnixNano: 1730000000223456789n,
  attributes: {},
  events: [],
  status: { code: 0 },
  resource: { 'service.name': 'svc' },
  scope: { name: 's', version: '1' },
};

describe('unit: encode-traces fields', () => {
  it("an attribute named '__proto__' is an ordinary key: kept by both decoders, never a prototype", () => {
    const attributes = JSON.parse('{"__proto__": {"polluted": "yes"}, "s": "x"}') as { [k: string]: AttrValue };
    const span: SpanData = { ...BASE, attributes, resource: { 'service.name': 'svc' } };
    const viaProto = decodeTraceRequestProto(encodeTraceRequest([{ span }]));
    expect(viaProto.ok).toBe(true);
    if (!viaProto.ok) return;
    const got = viaProto.value.spans[0]!.span.attributes;
    expect(Object.keys(got).sort()).toEqual(['__proto__', 's']);
    expect((got as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    const json = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [{ traceId: BASE.traceId, spanId: BASE.spanId, name: 'n', startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: '__proto__', value: { kvlistValue: { values: [{ key: 'polluted', value: { stringValue: 'yes' } }] } } }] }] }] }] });
    const doc = decodeOtlpJsonText(json, 'proto-key.json');
    const attrs = doc.spans[0]!.span.attributes;
    expect(Object.keys(attrs)).toEqual(['__proto__']);
    expect((attrs as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('structured values, events, links, status and every extra survive, as through the SDK', () => {
    const span: SpanData = {
      ...BASE,
      attributes: { obj: { a: 1, b: [true, 'x', { c: 2.5 }], e: [], k: {} }, bytes: new Uint8Array([1, 2, 3]), empty: new Uint8Array(), n: null, neg: -7, big: 2 ** 53 - 1, s: 'é😀\u0000', d: 0.1, long: 'x'.repeat(100_000) },
      events: [
        { name: 'e', timeUnixNano: 1730000000123456790n, attributes: { k: 'v', nested: [[1, 2], { x: null }] } },
        { name: '', timeUnixNano: 0n, attributes: {} },
      ],
      links: [
        { traceId: '1af7651916cd43dd8448eb211c80319c', spanId: 'c7ad6b7169203331', attributes: { l: 1 } },
        { traceId: '2af7651916cd43dd8448eb211c80319c', spanId: 'd7ad6b7169203331', attributes: {} },
      ],
      status: { code: 2, message: 'boom' },
      resource: { 'service.name': 'svc', 'res.list': ['a', 'b'] },
    };
    const extras: SpanExtras = {
      traceState: 'a=b,c=d',
      flags: 0x301,
      droppedAttributesCount: 3,
      droppedEventsCount: 4,
      droppedLinksCount: 5,
      resourceSchemaUrl: 'https://opentelemetry.io/schemas/1.30.0',
      scopeSchemaUrl: 'https://opentelemetry.io/schemas/1.31.0',
      scopeAttributes: { 'scope.attr': 'v', 'scope.n': 2 },
      links: [{ traceState: 'x=y', flags: 0x301 }, { flags: 0x100 }],
    };
    const { ours, sdk } = decodeBoth([{ span, extras }]);
    // The protobuf decoder, like the JSON one, puts the span's dropped attribute count on SpanData too.
    expect(plain(ours.spans[0]!.span)).toEqual(plain({ ...span, droppedAttributesCount: 3 }));
    expect(ours.spans[0]!.extras).toEqual(extras);
    expect(plain(sdk.spans[0]!.span)).toEqual(plain({ ...span, droppedAttributesCount: 3 }));
    expect(sdk.spans[0]!.extras).toEqual(extras);
  });

  it('kinds 0-5 and status codes 0-2; no parent; a span without extras gets the SDK path default flags', () => {
    const items: ExportItem[] = [];
    for (let kind = 0; kind <= 5; kind++)
      for (const code of [0, 1, 2] as const) {
        const { parentSpanId: _p, ...rest } = BASE;
        items.push({ span: { ...rest, spanId: `10000000000000${kind}${code}`, kind, status: code === 2 ? { code, message: 'm' } : { code } } });
      }
    const { ours, sdk } = decodeBoth(items);
    for (const it of items) {
      const o = ours.spans.find((d) => d.span.spanId === it.span.spanId)!;
      expect(plain(o.span)).toEqual(plain(it.span));
      expect(o.span.parentSpanId).toBeUndefined();
      expect(o.extras).toEqual({ flags: 0x101 });
      expect(plain(sdk.spans.find((d) => d.span.spanId === it.span.spanId)!.span)).toEqual(plain(it.span));
    }
  });

  it('numbers: safe integers as int_value, the rest as double_value; unsafe int64 text stays a string', () => {
    const attributes = { i: 42, neg: -(2 ** 53 - 1), f: 1.5, unsafe: 2 ** 60, huge: 1e300, nan: NaN, inf: -Infinity, text: '9223372036854775807' };
    const msg = OtlpTypes.ExportTraceServiceRequest.decode(encodeTraceRequest([{ span: { ...BASE, attributes } }])) as unknown as {
      resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[];
    };
    const kv = Object.fromEntries(msg.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.map((a) => [a.key, Object.keys(a.value)[0]]));
    expect(kv).toEqual({ i: 'intValue', neg: 'intValue', f: 'doubleValue', unsafe: 'doubleValue', huge: 'doubleValue', nan: 'doubleValue', inf: 'doubleValue', text: 'stringValue' });
    const back = decodeTraceRequestProto(encodeTraceRequest([{ span: { ...BASE, attributes } }]));
    expect(back.ok && plain(back.value.spans[0]!.span.attributes)).toEqual(plain(attributes));
  });

  it('times: 0, 2^63 and the uint64 maximum are written as fixed64', () => {
    for (const t of [0n, 1n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n]) {
      const back = decodeTraceRequestProto(encodeTraceRequest([{ span: { ...BASE, startTimeUnixNano: t, endTimeUnixNano: t, events: [{ name: 'e', timeUnixNano: t, attributes: {} }] } }]));
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.value.spans[0]!.span.startTimeUnixNano).toBe(t);
      expect(back.value.spans[0]!.span.endTimeUnixNano).toBe(t);
      expect(back.value.spans[0]!.span.events[0]!.timeUnixNano).toBe(t);
    }
  });

  it('groups by resource (content and schema URL) and by scope (name, version, schema URL, attributes)', () => {
    const r1 = { 'service.name': 'a' };
    const r1copy = { 'service.name': 'a' };
    const r2 = { 'service.name': 'b' };
    const mk = (i: number, resource: SpanData['resource'], scope: SpanData['scope'], extras?: SpanExtras): ExportItem => ({ span: { ...BASE, spanId: `10000000000000${String(i).padStart(2, '0')}`, resource, scope }, ...(extras ? { extras } : {}) });
    const items = [
      mk(0, r1, { name: 's', version: '1' }),
      mk(1, r1copy, { name: 's', version: '1' }),
      mk(2, r2, { name: 's', version: '1' }),
      mk(3, r1, { name: 's', version: '2' }),
      mk(4, r1, { name: 's', version: '1' }, { scopeSchemaUrl: 'u' }),
      mk(5, r1, { name: 's', version: '1' }, { scopeAttributes: { a: 1 } }),
      mk(6, r1, { name: 's', version: '1' }, { resourceSchemaUrl: 'r' }),
      mk(7, r1copy, { name: 's', version: '1' }),
    ];
    const msg = OtlpTypes.ExportTraceServiceRequest.decode(encodeTraceRequest(items)) as unknown as {
      resourceSpans: { schemaUrl?: string; scopeSpans: { schemaUrl?: string; scope: { version?: string }; spans: { spanId: Uint8Array }[] }[] }[];
    };
    const shape = msg.resourceSpans.map((rs) => rs.scopeSpans.map((ss) => ss.spans.map((s) => Number(Buffer.from(s.spanId).toString('hex').slice(-2)))));
    expect(shape).toEqual([[[0, 1, 7], [3], [4], [5]], [[2]], [[6]]]);
    const back = decodeTraceRequestProto(encodeTraceRequest(items));
    expect(back.ok && back.value.spans.map((d) => d.span.spanId).sort()).toEqual(items.map((i) => i.span.spanId).sort());
  });

  it('an empty batch encodes to an empty request; the input is not mutated', () => {
    expect(encodeTraceRequest([]).length).toBe(0);
    const span = { ...BASE, attributes: { a: { b: [1, 'x'] } } };
    const before = plain(span);
    encodeTraceRequest([{ span, extras: { flags: 1 } }]);
    expect(plain(span)).toEqual(before);
  });
});

/** Values as our decoder reads them back: -0 is the integer 0. */
function normalised(v: AttrValue): AttrValue {
  if (typeof v === 'number') return Object.is(v, -0) ? 0 : v;
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map(normalised);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalised(x)]));
}

/** True when the SDK writes the value as ours does (it writes integers up to 2^63 as int_value). */
function sdkAgrees(v: AttrValue): boolean {
  if (typeof v === 'number') return !Number.isInteger(v) || Number.isSafeInteger(v) || Math.abs(v) >= 2 ** 63;
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return true;
  return (Array.isArray(v) ? v : Object.values(v)).every(sdkAgrees);
}

const attrValue: fc.Arbitrary<AttrValue> = fc.letrec<{ v: AttrValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.boolean(),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double(),
    fc.constant(null),
    fc.uint8Array({ maxLength: 16 }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('v'), { maxKeys: 4 }),
  ),
})).v;

describe('property: structured values round-trip', () => {
  it('random attribute, event and resource values come back as they were (and as from the SDK)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 10 }), attrValue, { maxKeys: 6 }), attrValue, (attributes, ev) => {
        const span: SpanData = { ...BASE, attributes, events: [{ name: 'e', timeUnixNano: 5n, attributes: { v: ev } }], resource: { 'service.name': 'svc', r: ev } };
        const back = decodeTraceRequestProto(encodeTraceRequest([{ span }]));
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        const got = back.value.spans[0]!.span;
        expect(plain(got.attributes)).toEqual(plain(normalised(attributes)));
        expect(plain(got.events[0]!.attributes.v)).toEqual(plain(normalised(ev)));
        expect(plain(got.resource.r)).toEqual(plain(normalised(ev)));
        if (sdkAgrees(attributes) && sdkAgrees(ev)) {
          const sdk = decodeTraceRequestProto(ProtobufTraceSerializer.serializeRequest(toReadableSpans([{ span }]))!);
          expect(sdk.ok && plain(sdk.value.spans[0]!.span.attributes)).toEqual(plain(got.attributes));
          expect(sdk.ok && plain(sdk.value.spans[0]!.span.events)).toEqual(plain(got.events));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('unit: response reader', () => {
  it('reads partial_success as the SDK deserializer does, and throws on garbage', () => {
    expect(decodeTraceResponse(new Uint8Array())).toEqual({});
    expect(decodeTraceResponse(encodeTraceResponseProto({ rejected: 3, errorMessage: 'bad ids' }))).toEqual({ partialSuccess: { rejectedSpans: 3, errorMessage: 'bad ids' } });
    const sdk = ProtobufTraceSerializer.deserializeResponse(encodeTraceResponseProto({ rejected: 3, errorMessage: 'bad ids' }));
    expect(Number(sdk.partialSuccess?.rejectedSpans)).toBe(3);
    expect(TraceRequestSerializer.deserializeResponse(encodeTraceResponseProto({ rejected: 0, errorMessage: 'note' }))).toEqual({ partialSuccess: { errorMessage: 'note' } });
    expect(() => decodeTraceResponse(Buffer.from([0x0a, 0x80]))).toThrow();
  });
});

describe('integration: the http/protobuf downstream over the SDK export delegate', () => {
  it('posts our bytes with the content type, headers and gzip in ONE attempt; a 503 is retryable with its Retry-After; reads a partial success', async () => {
    const seen: { headers: Record<string, string | string[] | undefined>; body: Buffer; status: number }[] = [];
    let failFirst = 1;
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = failFirst-- > 0 ? 503 : 200;
        seen.push({ headers: req.headers, body: Buffer.concat(chunks), status });
        if (status === 503) res.writeHead(503, { 'Retry-After': '120' }).end();
        else res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(encodeTraceResponseProto({ rejected: 1, errorMessage: 'one' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
    const ds = createDownstream({ tracesUrl: url, logsUrl: null, headers: { 'x-tenant': 't1' }, protocol: 'http/protobuf', compression: 'gzip', timeoutMs: 10_000 }, 4);
    try {
      const items: ExportItem[] = [{ span: { ...BASE, attributes: { obj: { a: [1, 'x'] } } }, extras: { traceState: 'a=b', flags: 0x301 } }];
      const first = await ds.exportSpans(items);
      expect(first).toMatchObject({ ok: false, retryable: true, status: 503, retryAfterSeconds: 120 });
      expect(seen.map((s) => s.status)).toEqual([503]);
      expect(await ds.exportSpans(items)).toEqual({ ok: true, rejected: 1, errorMessage: 'one' });
      expect(seen.map((s) => s.status)).toEqual([503, 200]);
      const last = seen[1]!;
      expect(last.headers['content-type']).toBe('application/x-protobuf');
      expect(last.headers['content-encoding']).toBe('gzip');
      expect(last.headers['x-tenant']).toBe('t1');
      const body = gunzipSync(last.body);
      expect(Buffer.compare(body, Buffer.from(encodeTraceRequest(items)))).toBe(0);
      const back = decodeTraceRequestProto(body);
      expect(back.ok && plain(back.value.spans[0]!.span)).toEqual(plain(items[0]!.span));
      // A permanent failure is reported with its status as not retryable, and not retried.
      failFirst = 0;
      server.removeAllListeners('request');
      server.on('request', (_req, res) => {
        seen.push({ headers: {}, body: Buffer.alloc(0), status: 400 });
        res.writeHead(400).end();
      });
      const before = seen.length;
      const bad = await ds.exportSpans(items);
      expect(bad).toMatchObject({ ok: false, retryable: false, status: 400 });
      expect(seen.length - before).toBe(1);
    } finally {
      await ds.shutdown();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
