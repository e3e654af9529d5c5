// A minimal OTLP/HTTP trace receiver on 127.0.0.1, so the examples run with no collector: it takes
// what `@opentelemetry/exporter-trace-otlp-http` sends (JSON, POST /v1/traces), keeps the spans,
// and `findingLines()` turns their `footprint.finding` events into one readable line each.
// Not a collector: no protobuf, no gzip, no retries. Loopback only.

import { createServer } from 'node:http';

/** OTLP JSON AnyValue -> a JS value. */
function anyValue(v) {
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(anyValue);
  if ('kvlistValue' in v) return attrs(v.kvlistValue.values);
  return undefined;
}
const attrs = (list) => Object.fromEntries((list ?? []).map((kv) => [kv.key, anyValue(kv.value)]));

export async function startOtlpSink() {
  const spans = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/traces') || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415, { 'content-type': 'application/json' }).end('{"error":"this sink takes OTLP/HTTP JSON traces only"}');
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) spans.push({ ...s, attributes: attrs(s.attributes), events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attrs(e.attributes) })) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (e) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: e.message }));
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/v1/traces`,
    spans,
    findingLines: () => findingLines(spans),
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

/**
 * One line per `footprint.finding` event, then its message, indented. A finding footprint could
 * only reach after its subject span had gone on travels on a `footprint.findings` carrier span,
 * parented to that subject; the line names the subject either way. Turns are numbered by the
 * order of the traces' root spans (each turn is its own trace).
 */
export function findingLines(spans) {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const roots = spans.filter((s) => !s.parentSpanId).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  const turnOf = new Map(roots.map((r, i) => [r.traceId, i + 1]));
  const lines = [];
  for (const s of spans) {
    for (const e of s.events) {
      if (e.name !== 'footprint.finding') continue;
      const a = e.attributes;
      const carried = s.name === 'footprint.findings';
      const subject = carried ? byId.get(s.attributes['footprint.subject.span_id'] ?? s.parentSpanId) : s;
      const respId = subject?.attributes['gen_ai.response.id'] ?? subject?.attributes['ai.response.id'];
      const where = [`turn ${turnOf.get(s.traceId) ?? '?'}`, subject ? `span "${subject.name}"${respId ? ` (${respId})` : ''}` : 'a span that did not arrive', ...(carried ? ['on a footprint.findings carrier'] : [])].join(', ');
      const value = a['footprint.finding.value'] !== undefined ? ` = ${JSON.stringify(a['footprint.finding.value'])}` : '';
      const grounding = a['footprint.finding.grounding'] ? ` (grounding: ${a['footprint.finding.grounding']})` : '';
      lines.push(`footprint.finding ${a['footprint.finding.kind']}${a['footprint.finding.advisory'] ? ' (advisory)' : ''} | ${where} | ${a['footprint.tool.name'] ?? '?'} ${a['footprint.finding.predicate'] ?? ''}${value}${grounding}`);
      if (a['footprint.finding.message']) lines.push(`    ${a['footprint.finding.message']}`);
    }
  }
  return lines;
}
