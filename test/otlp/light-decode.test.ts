// The service's light read of ordinary spans (issue 11): with the byte layout, spans of traces in
// which no span carries a key or scope of src/conventions/agent-span-keys.ts are read without
// their attributes, events and links, are not given to the core, and go on from their original
// bytes; read whole they equal the whole decoder's spans. Checked here: the key list holds every
// span a reader claims in every recorded fixture; a mixed request (recorded agent trace + an
// ordinary trace + an ordinary span with nested values) reads to the same spans; the core gives the
// same findings and annotations on the light batch as on the whole one; and the pipeline forwards
// the original bytes, or the whole spans to an encoder.
import { describe, expect, it } from 'vitest';
import { decodeTraceRequestProto } from '../../src/otlp/proto.js';
import { encodeTraceRequest, type ExportItem } from '../../src/otlp/encode-traces.js';
import { decodeTraceBody } from '../../src/service/decode.js';
import { CONVENTIONS } from '../../src/conventions/registry.js';
import { marksAgentSpan } from '../../src/conventions/agent-span-keys.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { Pipeline, type CoreLike, type TraceBatch } from '../../src/service/pipeline.js';
import { ServiceMetrics } from '../../src/service/metrics.js';
import { FindingsStore } from '../../src/service/findings-store.js';
import type { Downstream } from '../../src/service/downstream.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { LIBRARIES, SCENARIOS, loadFixture } from '../helpers/fixtures.js';
import { declarations } from '../processor/scenario.js';
import { testConfig } from '../service/helpers.js';

const ORDINARY_TRACE = '0af7651916cd43dd8448eb211c80319c';
const NESTED_TRACE = '1af7651916cd43dd8448eb211c80319d';

function ordinary(traceId: string, i: number, attributes: SpanData['attributes']): ExportItem {
  return {
    span: {
      traceId,
      spanId: (0x1000 + i).toString(16).padStart(16, '0'),
      ...(i > 0 ? { parentSpanId: (0x1000).toString(16).padStart(16, '0') } : {}),
      name: i === 0 ? 'GET /orders' : 'SELECT orders',
      kind: i === 0 ? 2 : 3,
      startTimeUnixNano: 1_730_000_000_000_000_000n + BigInt(i),
      endTimeUnixNano: 1_730_000_000_100_000_000n + BigInt(i),
      attributes,
      events: [{ name: 'exception', timeUnixNano: 1_730_000_000_050_000_000n, attributes: { 'exception.type': 'Timeout' } }],
      links: [{ traceId: NESTED_TRACE, spanId: '00000000000000a1', attributes: { 'link.kind': 'follows' } }],
      status: i === 0 ? { code: 2, message: 'timeout' } : { code: 0 },
      resource: { 'service.name': 'orders', 'host.name': 'h1' },
      scope: { name: '@opentelemetry/instrumentation-http', version: '0.57.0' },
    },
    extras: { traceState: 'vendor=a', flags: 0x301, droppedAttributesCount: 2 },
  };
}

/** A recorded agent trace, an ordinary HTTP/DB trace, and an ordinary span holding nested values. */
function mixedRequest(lib: (typeof LIBRARIES)[number], scenario: (typeof SCENARIOS)[number] = 'backup-triage'): Uint8Array {
  const agent = loadFixture(lib, scenario).doc.spans.map((s) => ({ span: s.span, extras: s.extras }));
  const plain = [0, 1, 2].map((i) => ordinary(ORDINARY_TRACE, i, { 'http.request.method': 'GET', 'db.system': 'postgresql', 'server.port': 5432, ok: true, ratio: 0.5 }));
  const nested = ordinary(NESTED_TRACE, 0, { 'app.tags': ['a', 'b'], 'app.meta': { deep: { deeper: [1, [2, [3]]] } } });
  return encodeTraceRequest([...plain.slice(0, 2), ...agent, plain[2]!, nested]);
}

describe('light read of ordinary spans', () => {
  it('the key list marks every span a reader claims, in every recorded fixture', () => {
    let claimed = 0;
    for (const lib of LIBRARIES) {
      for (const scenario of SCENARIOS) {
        for (const { span } of loadFixture(lib, scenario).doc.spans) {
          if (!CONVENTIONS.some((c) => c.claims(span))) continue;
          claimed++;
          expect(marksAgentSpan(span.attributes, span.scope.name), `${lib} ${scenario} ${span.name}`).toBe(true);
        }
      }
    }
    expect(claimed).toBeGreaterThan(20);
  });

  it('a mixed request: agent traces read whole, ordinary spans light, and whole they equal the whole decoder', () => {
    for (const lib of LIBRARIES) {
      const body = mixedRequest(lib);
      const whole = decodeTraceRequestProto(body);
      const read = decodeTraceBody(body, 'protobuf', 'http');
      expect(whole.ok && read.ok, lib).toBe(true);
      if (!whole.ok || !read.ok) continue;
      const spans = read.value.spans;
      expect(spans.length).toBe(whole.value.spans.length);
      expect(read.value.tally).toEqual(whole.value.tally);
      const light = spans.filter((s) => s.whole);
      // The three spans of the ordinary trace are light; the nested one is read whole (its values could be cut).
      expect(light.map((s) => s.span.traceId), lib).toEqual([ORDINARY_TRACE, ORDINARY_TRACE, ORDINARY_TRACE]);
      for (let i = 0; i < spans.length; i++) {
        const s = spans[i]!;
        const w = whole.value.spans[i]!;
        if (s.whole) {
          expect(s.span.attributes).toEqual({});
          expect({ ...s.span, attributes: w.span.attributes, events: w.span.events, links: w.span.links, droppedAttributesCount: w.span.droppedAttributesCount }).toEqual(
            Object.fromEntries(Object.entries({ ...w.span }).filter(([, v]) => v !== undefined)),
          );
          const full = s.whole();
          expect({ span: full.span, extras: full.extras }, lib).toEqual(w);
          expect(full.ref).toBe(s.ref);
        } else expect({ span: s.span, extras: s.extras }, lib).toEqual(w);
      }
    }
  });

  it('the core gives the same findings and annotations on the light batch as on the whole one', () => {
    let findings = 0;
    for (const lib of LIBRARIES) {
      for (const scenario of SCENARIOS) {
        const body = mixedRequest(lib, scenario);
        const whole = decodeTraceRequestProto(body);
        const read = decodeTraceBody(body, 'protobuf', 'http');
        if (!whole.ok || !read.ok) throw new Error('not decoded');
        const a = new FootprintCore({ declarations: declarations() }).process({ spans: whole.value.spans.map((s) => s.span), logs: [] });
        const b = new FootprintCore({ declarations: declarations() }).process({ spans: read.value.spans.filter((s) => !s.whole).map((s) => s.span), logs: [] });
        expect(b.findings, `${lib} ${scenario}`).toEqual(a.findings);
        expect([...b.annotations], `${lib} ${scenario}`).toEqual([...a.annotations]);
        expect(b.carriers).toEqual(a.carriers);
        findings += a.findings.length;
      }
    }
    expect(findings).toBeGreaterThan(0);
  });

  it('the pipeline gives the core only agent traces, forwards the original bytes, and gives an encoder whole spans', async () => {
    const body = mixedRequest('traceloop-openai');
    const read = decodeTraceBody(body, 'protobuf', 'http');
    const whole = decodeTraceRequestProto(body);
    if (!read.ok || !whole.ok) throw new Error('not decoded');
    const seen: string[] = [];
    const core: CoreLike = {
      process: (input) => {
        seen.push(...input.spans.map((s) => s.traceId));
        return { annotations: new Map(), carriers: [], findings: [], diagnostics: [] };
      },
      stats: () => ({ conversations: 0, stateBytes: 0, evictedConversations: 0, findingsByKind: {} }),
    };
    const run = async (downstream: Downstream) => {
      const metrics = new ServiceMetrics(() => core.stats());
      const p = new Pipeline({ config: testConfig(), core, downstream, store: new FindingsStore(10, 'quote', 64), metrics, log: () => {}, stdout: () => {} });
      const batch: TraceBatch = { ...(read.value as TraceBatch) };
      expect((await p.submit(batch)).status).toBe('ok');
    };
    const bytes: Uint8Array[] = [];
    const encoded: ExportItem[][] = [];
    const base = { hasLogs: false, forwardLogs: async () => ({ ok: true as const }), shutdown: async () => {} };
    await run({ ...base, exportSpans: async () => ({ ok: true }), exportTraceBytes: async (b: readonly Uint8Array[]) => (bytes.push(Buffer.concat(b)), { ok: true }) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain(ORDINARY_TRACE);
    expect(seen).toContain(NESTED_TRACE);
    expect(Buffer.from(bytes[0]!).equals(Buffer.from(body))).toBe(true);
    await run({ ...base, exportSpans: async (items) => (encoded.push([...items]), { ok: true }) });
    expect(encoded[0]!.map((x) => ({ span: x.span, extras: x.extras }))).toEqual(whole.value.spans);
  });
});
