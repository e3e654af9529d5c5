// Reliability, issue 10 item 2: OTLP/JSON and protobuf carry the same fields end to end. One
// ExportTraceServiceRequest with EVERY field of the OTLP trace schema set (resource and scope
// attributes, dropped counts and schema URLs; span trace state, flags, parent, kind, times, every
// AnyValue kind, dropped counts; events and links with all their fields; status) goes through a
// running service in both directions: sent as OTLP/JSON to a service exporting protobuf, and as
// protobuf to a service exporting OTLP/JSON. What the sink receives must equal what was sent,
// field for field (compared as protobufjs objects: 64-bit numbers as decimal strings, bytes as
// base64). Before the fix the JSON path dropped span links, both schema URLs and the scope's
// attributes with a 200. Also: a JSON `spans` that is an object is refused with a reason and
// counted (partialSuccess), not silently dropped; alone, it is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService, type RunningService } from '../../src/service/serve.js';
import { OtlpTypes } from '../../src/otlp/otlp-schema.js';
import { readAll, testConfig } from '../service/helpers.js';

const hex = (h: string) => Buffer.from(h, 'hex');
const T1 = '5b8efff798038103d269b633813fc60c';
const S1 = 'eee19b7ec3c1b174';
const P1 = 'eee19b7ec3c1b173';
const LT = '1af7651916cd43dd8448eb211c80319c';
const LS = 'c7ad6b7169203331';

const attrs = (prefix: string) => [
  { key: `${prefix}.str`, value: { stringValue: 'value é 😀' } },
  { key: `${prefix}.bool`, value: { boolValue: true } },
  { key: `${prefix}.int`, value: { intValue: 42 } },
  { key: `${prefix}.double`, value: { doubleValue: 2.5 } },
  { key: `${prefix}.bytes`, value: { bytesValue: Buffer.from([1, 2, 255]) } },
  { key: `${prefix}.array`, value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 7 }, { arrayValue: { values: [{ boolValue: false }] } }] } } },
  { key: `${prefix}.kvlist`, value: { kvlistValue: { values: [{ key: 'inner', value: { kvlistValue: { values: [{ key: 'leaf', value: { doubleValue: 0.125 } }] } } }] } } },
];

/** The request, as protobufjs message fields. */
function fullRequest(name: string): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'roundtrip' } }, ...attrs('res')], droppedAttributesCount: 1 },
        schemaUrl: 'https://opentelemetry.io/schemas/1.30.0',
        scopeSpans: [
          {
            scope: { name: 'rt-scope', version: '1.2.3', attributes: attrs('scope'), droppedAttributesCount: 2 },
            schemaUrl: 'https://opentelemetry.io/schemas/1.31.0',
            spans: [
              {
                traceId: hex(T1),
                spanId: hex(S1),
                traceState: 'vendor=a,other=b',
                parentSpanId: hex(P1),
                flags: 0x301,
                name,
                kind: 3,
                startTimeUnixNano: '1730000000123456789',
                endTimeUnixNano: '1730000000223456789',
                attributes: attrs('span'),
                droppedAttributesCount: 3,
                events: [
                  { timeUnixNano: '1730000000133456789', name: 'ev.one', attributes: attrs('ev'), droppedAttributesCount: 4 },
                  { timeUnixNano: '1730000000143456789', name: 'ev.two', attributes: [] },
                ],
                droppedEventsCount: 5,
                links: [
                  { traceId: hex(LT), spanId: hex(LS), traceState: 'l=1', attributes: attrs('link'), droppedAttributesCount: 6, flags: 0x301 },
                  { traceId: hex(T1), spanId: hex(P1), attributes: [], flags: 0x100 },
                ],
                droppedLinksCount: 7,
                status: { message: 'it failed', code: 2 },
              },
            ],
          },
        ],
      },
    ],
  };
}

const T = OtlpTypes.ExportTraceServiceRequest;
const canon = (bytes: Uint8Array) => T.toObject(T.decode(bytes), { longs: String, bytes: String, defaults: false });

/** OTLP/JSON of the request, written independently of the service's encoder (hex ids, decimal 64-bit ints, base64 bytes). */
function toOtlpJson(v: unknown, key = ''): unknown {
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return ['traceId', 'spanId', 'parentSpanId'].includes(key) ? Buffer.from(v).toString('hex') : Buffer.from(v).toString('base64');
  if (key === 'intValue') return String(v);
  if (Array.isArray(v)) return v.map((x) => toOtlpJson(x));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toOtlpJson(x, k)]));
  return v;
}

/** A received OTLP/JSON body in the canonical (protobufjs object) form: ids back to base64; an empty repeated field is an absent one. */
function canonFromJson(doc: unknown, key = ''): unknown {
  if (typeof doc === 'string' && ['traceId', 'spanId', 'parentSpanId'].includes(key)) return Buffer.from(doc, 'hex').toString('base64');
  if (Array.isArray(doc)) return doc.map((x) => canonFromJson(x));
  if (doc && typeof doc === 'object') return Object.fromEntries(Object.entries(doc).filter(([, x]) => !(Array.isArray(x) && x.length === 0)).map(([k, x]) => [k, canonFromJson(x, k)]));
  return doc;
}

let received: { contentType: string; body: Buffer }[] = [];
let sinkServer: Server;
let sinkUrl = '';
const services: RunningService[] = [];

async function serviceExporting(protocol: 'http/protobuf' | 'http/json'): Promise<RunningService> {
  const s = await startService(testConfig({ downstream: { tracesUrl: `${sinkUrl}/v1/traces`, logsUrl: null, headers: {}, protocol, compression: 'none', timeoutMs: 5000 } }), { log: () => {} });
  services.push(s);
  return s;
}

beforeAll(async () => {
  sinkServer = createServer((req, res) => {
    void readAll(req).then((body) => {
      received.push({ contentType: String(req.headers['content-type'] ?? ''), body });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => sinkServer.listen(0, '127.0.0.1', r));
  sinkUrl = `http://127.0.0.1:${(sinkServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of services) await s.shutdown();
  sinkServer.closeAllConnections();
  await new Promise((r) => sinkServer.close(r));
});

describe('item 2: every field of the OTLP trace schema survives, both encodings', () => {
  it('sent as OTLP/JSON, exported as protobuf: the sink gets every field', async () => {
    received = [];
    const svc = await serviceExporting('http/protobuf');
    const message = fullRequest('json-in');
    const expected = canon(T.encode(T.fromObject(message)).finish());
    const r = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(toOtlpJson(message)) });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(await r.json()).toEqual({});
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toBe('application/x-protobuf');
    expect(canon(received[0]!.body)).toEqual(expected);
  });

  it('sent as protobuf, exported as OTLP/JSON: the sink gets every field', async () => {
    received = [];
    const svc = await serviceExporting('http/json');
    const message = fullRequest('proto-in');
    const bytes = T.encode(T.fromObject(message)).finish();
    const r = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: bytes });
    expect(r.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toBe('application/json');
    const got = JSON.parse(received[0]!.body.toString('utf8')) as unknown;
    expect(canonFromJson(got)).toEqual(canon(bytes));
  });

  it('a JSON "spans" that is an object is refused with a reason and counted; alone it is a 400', async () => {
    received = [];
    const svc = services[0] ?? (await serviceExporting('http/protobuf'));
    const good = toOtlpJson(fullRequest('beside-bad')) as { resourceSpans: { scopeSpans: unknown[] }[] };
    good.resourceSpans[0]!.scopeSpans.push({ scope: { name: 'bad' }, spans: { traceId: T1, spanId: S1, name: 'not in an array' } });
    const r = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(good) });
    expect(r.status).toBe(200);
    const partial = ((await r.json()) as { partialSuccess?: { rejectedSpans?: string; errorMessage?: string } }).partialSuccess;
    expect(partial?.rejectedSpans).toBe('1');
    expect(partial?.errorMessage).toMatch(/"spans" of a scopeSpans is an object, not an array/);
    expect(received).toHaveLength(1);

    const alone = { resourceSpans: [{ scopeSpans: [{ scope: { name: 'bad' }, spans: { traceId: T1, spanId: S1 } }] }] };
    const r2 = await fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(alone) });
    expect(r2.status).toBe(400);
    expect(((await r2.json()) as { message: string }).message).toMatch(/no usable span in the request .*"spans" of a scopeSpans is an object/);
    expect(received).toHaveLength(1);
  });
});
