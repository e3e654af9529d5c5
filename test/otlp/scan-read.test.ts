// The light read from the bytes alone (src/otlp/scan-read.ts + span-scan.ts): protobufjs decodes
// only the spans of agent traces; every other span is scanned at the wire level. It must give
// exactly what the previous read (protobufjs over the whole request, then tracesOfMessage light)
// gave, on ANY valid encoding: fields in any order, repeated fields split, singular fields sent
// twice, unknown fields, non-canonical varints, invalid UTF-8, truncation and random byte damage.
// Each case is checked against that previous read (kept here as `previousRead`) and, where it
// decodes, against protobufjs's whole decode of the same bytes.
import { describe, expect, it } from 'vitest';
import { decodeTraceRequestProto, tracesOfMessage, type DecodedTraceSpan } from '../../src/otlp/proto.js';
import { encodeTraceRequest, type ExportItem } from '../../src/otlp/encode-traces.js';
import { readTraceLayout } from '../../src/otlp/trace-layout.js';
import { readTracesLight } from '../../src/otlp/scan-read.js';
import { decodeTraceBody } from '../../src/service/decode.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { LIBRARIES, loadFixture } from '../helpers/fixtures.js';

const ORDINARY = '0af7651916cd43dd8448eb211c80319c';
const OTHER = '2af7651916cd43dd8448eb211c80319e';

function ordinary(traceId: string, i: number, over: Partial<SpanData> = {}, extras: ExportItem['extras'] = {}): ExportItem {
  return {
    span: {
      traceId,
      spanId: (0x1000 + i).toString(16).padStart(16, '0'),
      ...(i > 0 ? { parentSpanId: (0x1000).toString(16).padStart(16, '0') } : {}),
      name: i === 0 ? 'GET /orders' : `SELECT orders ${i}`,
      kind: i === 0 ? 2 : 3,
      startTimeUnixNano: 1_730_000_000_000_000_000n + BigInt(i),
      endTimeUnixNano: 18_446_744_073_709_551_615n - BigInt(i),
      attributes: { 'http.request.method': 'GET', 'server.port': 5432, ok: true, ratio: 0.5, big: -12, raw: new Uint8Array([1, 2, 255]) },
      events: [{ name: 'exception', timeUnixNano: 1_730_000_000_050_000_000n, attributes: { 'exception.type': 'Timeout' } }],
      links: [{ traceId: OTHER, spanId: '00000000000000a1', attributes: { 'link.kind': 'follows' } }],
      status: i === 0 ? { code: 2, message: 'timeout ✓' } : { code: 0 },
      resource: { 'service.name': 'orders', 'host.name': 'h1' },
      scope: { name: i % 2 ? '@opentelemetry/instrumentation-pg' : '@opentelemetry/instrumentation-http', version: '0.57.0' },
      ...over,
    },
    extras: { traceState: 'vendor=a', flags: 0x301, droppedAttributesCount: 2, ...extras },
  };
}

/** Recorded agent traces of every library, ordinary traces (one with a nested value), odd names and ids. */
function corpus(): Uint8Array[] {
  const out: Uint8Array[] = [];
  const odd = [
    ordinary(ORDINARY, 5, { name: '\uFEFFbom ünïcödé 名前 😀', kind: 5 }),
    ordinary(ORDINARY, 6, { parentSpanId: '0000000000000000' }),
    ordinary(OTHER, 7, { attributes: { 'app.tags': ['a', 'b'], 'app.meta': { deep: [1, [2]] } } }),
    ordinary(OTHER, 8, { status: { code: 1 }, kind: 0, name: '' }),
  ];
  for (const lib of LIBRARIES) {
    const agent = loadFixture(lib, 'backup-triage').doc.spans.map((s) => ({ span: s.span, extras: s.extras }));
    const plain = [0, 1, 2, 3].map((i) => ordinary(ORDINARY, i));
    out.push(encodeTraceRequest([plain[0]!, plain[1]!, ...agent, plain[2]!, plain[3]!, ...odd]));
  }
  out.push(encodeTraceRequest([0, 1, 2, 3, 4].map((i) => ordinary(ORDINARY, i)).concat(odd)));
  return out;
}

/** The read before scan-read.ts: protobufjs over the whole request, light spans by tracesOfMessage. */
function previousRead(body: Uint8Array) {
  const laid = readTraceLayout(body);
  return laid ? tracesOfMessage(laid.message, 'http', (s) => laid.spanIndex.get(s), true) : decodeTraceRequestProto(body, 'http');
}

const view = (s: DecodedTraceSpan) => {
  const w = s.whole?.();
  return { span: s.span, extras: s.extras, ref: s.ref, light: !!s.whole, whole: w ? { span: w.span, extras: w.extras, ref: w.ref } : undefined };
};

/** The new read (decodeTraceBody, scan first) and the previous one agree exactly, errors included. */
function agree(body: Uint8Array, label: string): 'scanned' | 'fallback' | 'error' {
  const before = previousRead(body);
  const now = decodeTraceBody(body, 'protobuf', 'http');
  if (!before.ok) {
    expect(now.ok, `${label}: the previous read refused it (${before.error})`).toBe(false);
    return 'error';
  }
  if (before.value.spans.length === 0 && before.value.rejected > 0) {
    expect(now.ok, label).toBe(false);
    return 'error';
  }
  expect(now.ok, `${label}: ${now.ok ? '' : now.error}`).toBe(true);
  if (!now.ok) return 'error';
  expect(now.value.spans.map(view), label).toEqual(before.value.spans.map(view));
  expect(now.value.rejected, label).toBe(before.value.rejected);
  expect(now.value.diagnostics, label).toEqual(before.value.diagnostics);
  expect(now.value.tally, label).toEqual(before.value.tally);
  // And against protobufjs's whole decode: every span, read whole, is what it decodes to.
  const truth = decodeTraceRequestProto(body, 'http');
  if (truth.ok) expect(now.value.spans.map((s) => { const w = s.whole ? s.whole() : s; return { span: w.span, extras: w.extras }; }), label).toEqual(truth.value.spans);
  return readTracesLight(body, 'http') ? 'scanned' : 'fallback';
}

// --- a wire-level rewriter that knows which fields hold which messages --------------------------
type Kind = 'req' | 'rs' | 'res' | 'ss' | 'scope' | 'span' | 'event' | 'link' | 'status' | 'kv' | 'any' | 'arr' | 'kvl';
const SUB: Record<Kind, Record<number, Kind>> = {
  req: { 1: 'rs' }, rs: { 1: 'res', 2: 'ss' }, res: { 1: 'kv' }, ss: { 1: 'scope', 2: 'span' }, scope: { 3: 'kv' },
  span: { 9: 'kv', 11: 'event', 13: 'link', 15: 'status' }, event: { 3: 'kv' }, link: { 4: 'kv' }, status: {},
  kv: { 2: 'any' }, any: { 5: 'arr', 6: 'kvl' }, arr: { 1: 'any' }, kvl: { 1: 'kv' },
};

interface Node { num: number; wire: number; raw?: Uint8Array; kids?: Node[] }

/** The fields of a well-formed message (varints of any value, up to 10 bytes). */
function walkFields(b: Uint8Array, s: number, e: number): { num: number; wire: number; start: number; end: number }[] | undefined {
  const out: { num: number; wire: number; start: number; end: number }[] = [];
  const vint = (): number | undefined => {
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 10 && s < e; i++) {
      const byte = b[s++]!;
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 128;
    }
    return undefined;
  };
  while (s < e) {
    const t = vint();
    if (t === undefined) return undefined;
    const wire = t % 8;
    let start = s;
    if (wire === 0 && vint() === undefined) return undefined;
    if (wire === 1) s += 8;
    if (wire === 5) s += 4;
    if (wire === 2) {
      const l = vint();
      if (l === undefined) return undefined;
      start = s;
      s += l;
    }
    if (wire === 3 || wire === 4 || wire > 5 || s > e) return undefined;
    out.push({ num: Math.floor(t / 8), wire, start, end: s });
  }
  return out;
}

function parse(b: Uint8Array, s: number, e: number, kind: Kind): Node[] {
  const fields = walkFields(b, s, e);
  if (!fields) throw new Error(`not walkable as ${kind}: ${Buffer.from(b.subarray(s, e)).toString('hex').slice(0, 80)}`);
  return fields.map((f) => {
    const sub = f.wire === 2 ? SUB[kind][f.num] : undefined;
    return sub ? { num: f.num, wire: 2, kids: parse(b, f.start, f.end, sub) } : { num: f.num, wire: f.wire, raw: b.slice(f.start, f.end) };
  });
}

const varint = (n: number, pad = 0): number[] => {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  // Non-canonical: the same value in more bytes (continuation bits and zero groups).
  for (let i = 0; i < pad; i++) {
    out[out.length - 1]! |= 0x80;
    out.push(0);
  }
  return out;
};

/** The bytes of `nodes`; the tag of the `padAt`-th field (in emit order) padded with `padBy` extra bytes. */
function emit(nodes: Node[], padAt = -1, padBy = 0, counter = { n: 0 }): number[] {
  const out: number[] = [];
  for (const n of nodes) {
    const pad = counter.n++ === padAt ? padBy : 0;
    out.push(...varint(n.num * 8 + n.wire, pad));
    const content = n.kids ? emit(n.kids, padAt, padBy, counter) : [...n.raw!];
    if (n.wire === 2) out.push(...varint(content.length));
    out.push(...content);
  }
  return out;
}

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every message's fields interleaved at random, fields of one number kept in their order (as protobuf allows). */
function shuffle(nodes: Node[], r: () => number): Node[] {
  const groups = new Map<number, Node[]>();
  for (const n of nodes) (groups.get(n.num) ?? groups.set(n.num, []).get(n.num)!).push(n.kids ? { ...n, kids: shuffle(n.kids, r) } : n);
  const queues = [...groups.values()];
  const out: Node[] = [];
  while (queues.some((q) => q.length)) {
    const live = queues.filter((q) => q.length);
    out.push(live[Math.floor(r() * live.length)]!.shift()!);
  }
  return out;
}

/** Walks every span node (and its kind path) to change it. */
function eachSpan(req: Node[], f: (span: Node[]) => void): void {
  for (const rs of req) for (const ss of rs.kids ?? []) if (ss.num === 2) for (const sp of ss.kids ?? []) if (sp.num === 2) f(sp.kids!);
}

const lenNode = (num: number, bytes: number[] | Uint8Array): Node => ({ num, wire: 2, raw: Uint8Array.from(bytes) });
const varNode = (num: number, v: number): Node => ({ num, wire: 0, raw: Uint8Array.from(varint(v)) });

describe('the light read from the bytes alone', () => {
  it('reads canonical requests from the bytes (no whole decode) to exactly what the previous read gave', () => {
    for (const [i, body] of corpus().entries()) expect(agree(body, `corpus ${i}`)).toBe('scanned');
    // The spans of ordinary traces are light, agent traces and the nested ordinary span are whole.
    const read = readTracesLight(corpus()[0]!, 'http')!;
    expect(read.traces.spans.filter((s) => s.whole).map((s) => s.span.traceId).sort()).toEqual([...Array(6).fill(ORDINARY), OTHER]);
  });

  it('fields in any order, status split in two, singular fields sent twice, unknown fields: the same spans', () => {
    const r = rng(11);
    let scanned = 0;
    for (const [i, body] of corpus().entries()) {
      for (let k = 0; k < 12; k++) {
        const tree = shuffle(parse(body, 0, body.length, 'req'), r);
        eachSpan(tree, (span) => {
          const at = (n: number) => Math.floor(r() * (n + 1));
          // A decoy name, ids, kind and time before the real ones: the last occurrence wins.
          if (r() < 0.5) span.unshift(lenNode(5, Buffer.from('decoy')), lenNode(1, [1, 2, 3]), varNode(6, 4), { num: 7, wire: 1, raw: new Uint8Array(8).fill(7) });
          // Status split: code in one Status message, message in another (they merge).
          const st = span.findIndex((n) => n.num === 15);
          if (st >= 0 && r() < 0.7) {
            const kids = span[st]!.kids!;
            span.splice(st, 1, { num: 15, wire: 2, kids: kids.filter((n) => n.num !== 2) }, { num: 15, wire: 2, kids: kids.filter((n) => n.num === 2) });
          }
          // Unknown fields of every wire type, anywhere.
          span.splice(at(span.length), 0, varNode(99, 123456789), lenNode(1000, [0xff, 0xfe]), { num: 77, wire: 5, raw: new Uint8Array(4) }, { num: 78, wire: 1, raw: new Uint8Array(8) });
        });
        const bytes = Uint8Array.from(emit(tree));
        if (agree(bytes, `corpus ${i} shuffle ${k}`) === 'scanned') scanned++;
      }
    }
    expect(scanned).toBeGreaterThan(50);
  });

  it('what protobufjs would read differently or refuse: non-canonical varints, wrong wire types, bad UTF-8, groups, truncation', () => {
    const body = corpus()[0]!;
    const tree = parse(body, 0, body.length, 'req');
    const total = emit(tree).length; // an upper bound of the node count
    let fallbacks = 0;
    // A tag padded to 3 bytes (still read alike) or to 6 (protobufjs's 32-bit reader skips differently).
    let scanned = 0;
    for (let at = 0; at < Math.min(total, 4000); at += 37) {
      if (agree(Uint8Array.from(emit(tree, at, 2)), `pad 2 at ${at}`) === 'scanned') scanned++;
      if (agree(Uint8Array.from(emit(tree, at, 5)), `pad 5 at ${at}`) !== 'scanned') fallbacks++;
    }
    expect(scanned).toBeGreaterThan(10);
    expect(fallbacks).toBeGreaterThan(10);
    // In an ordinary span: a wrong wire type, bad UTF-8 in a value, key, name or status, a group.
    const edits: [string, (span: Node[]) => void][] = [
      ['name as varint', (s) => s.push(varNode(5, 3))],
      ['kind as bytes', (s) => s.push(lenNode(6, [1]))],
      ['kind 6 bytes', (s) => s.push({ num: 6, wire: 0, raw: Uint8Array.from(varint(2, 1)) })],
      ['kind negative', (s) => s.push({ num: 6, wire: 0, raw: Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]) })],
      ['time as varint', (s) => s.push(varNode(7, 1))],
      ['bad utf-8 name', (s) => s.push(lenNode(5, [0x61, 0xc3]))],
      ['bad utf-8 value', (s) => s.push({ num: 9, wire: 2, kids: [lenNode(1, Buffer.from('k')), { num: 2, wire: 2, kids: [lenNode(1, [0xed, 0xa0, 0x80])] }] })],
      ['bad utf-8 key', (s) => s.push({ num: 9, wire: 2, kids: [lenNode(1, [0x80])] })],
      ['bad utf-8 status', (s) => s.push({ num: 15, wire: 2, kids: [lenNode(2, [0xff])] })],
      ['bad utf-8 event name', (s) => s.push({ num: 11, wire: 2, kids: [lenNode(2, [0xc0, 0xaf])] })],
      ['bool 7 bytes', (s) => s.push({ num: 9, wire: 2, kids: [lenNode(1, Buffer.from('b')), { num: 2, wire: 2, kids: [{ num: 2, wire: 0, raw: Uint8Array.from(varint(1, 6)) }] }] })],
      ['value twice, second nested', (s) => s.push({ num: 9, wire: 2, kids: [lenNode(1, Buffer.from('v')), { num: 2, wire: 2, kids: [lenNode(1, Buffer.from('x'))] }, { num: 2, wire: 2, kids: [{ num: 5, wire: 2, kids: [] }] }] })],
      ['marking key in a second KeyValue key', (s) => s.push({ num: 9, wire: 2, kids: [lenNode(1, Buffer.from('x')), lenNode(1, Buffer.from('gen_ai.operation.name'))] })],
      ['status code 2^32 + 2', (s) => s.push({ num: 15, wire: 2, kids: [{ num: 3, wire: 0, raw: Uint8Array.from(varint(2 ** 32 + 2)) }] })],
      ['group', (s) => s.push({ num: 50, wire: 3, raw: new Uint8Array() }, { num: 50, wire: 4, raw: new Uint8Array() })],
    ];
    for (const [label, edit] of edits) {
      const t = parse(body, 0, body.length, 'req');
      let n = 0;
      eachSpan(t, (span) => {
        if (n++ === 1) edit(span); // the second span: an ordinary one
      });
      agree(Uint8Array.from(emit(t)), label);
    }
    // Truncated anywhere.
    for (let cut = 1; cut < body.length; cut += Math.max(1, Math.floor(body.length / 300))) agree(body.subarray(0, cut), `cut ${cut}`);
  });

  it('random byte damage: the same answer as the previous read, or the same refusal', () => {
    const r = rng(5);
    const bodies = corpus();
    const outcomes = { scanned: 0, fallback: 0, error: 0 };
    for (let k = 0; k < 600; k++) {
      const b = Uint8Array.from(bodies[k % bodies.length]!);
      const flips = 1 + Math.floor(r() * 3);
      for (let j = 0; j < flips; j++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256);
      outcomes[agree(b, `damage ${k}`)]++;
    }
    // Most damaged requests still decode (a flipped value byte), some are refused.
    expect(outcomes.scanned).toBeGreaterThan(100);
    expect(outcomes.error).toBeGreaterThan(10);
  });
});
