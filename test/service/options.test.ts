// Config options reach the core and the pipeline: spansPerBatch (the rest forwarded unanalysed and
// counted), checks: false (pure pass-through), redaction: hash (values hashed in events and in
// /api/findings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../src/service/serve.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { EVENT_FINDING, ATTR_FINDING_VALUE } from '../../src/findings/names.js';
import { DECLARATIONS, downstreamTo, exporterFor, exportVia, readable, retraced, startSink, testConfig, silentLog, type Sink, parseMetrics, metricSum } from './helpers.js';

let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
});
afterAll(async () => {
  await sink?.close();
});

const settings = { loadDeclarations: loadDeclarationsFile, log: silentLog };

describe('options reach the core and the pipeline', () => {
  it('limits.spansPerBatch: spans past it are forwarded unanalysed and counted', async () => {
    const cfg = testConfig({ downstream: downstreamTo(sink), declarationsPath: DECLARATIONS });
    cfg.limits = { ...cfg.limits, spansPerBatch: 3 };
    const s = await startService(cfg, settings);
    try {
      const { spans, traceId } = retraced('vercel-ai');
      expect(spans.length).toBeGreaterThan(3);
      expect((await exportVia(exporterFor('proto', s.address), readable(spans))).code).toBe(0);
      expect(sink.spans.filter((x) => x.traceId === traceId).length).toBe(spans.length);
      const m = parseMetrics(await (await fetch(`${s.address}/metrics`)).text());
      expect(metricSum(m, 'footprint_spans_unanalysed_total', 'reason="spans-per-batch"')).toBe(spans.length - 3);
    } finally {
      await s.shutdown();
    }
  });

  it('checks: false forwards every span with no finding events', async () => {
    const s = await startService(testConfig({ downstream: downstreamTo(sink), declarationsPath: DECLARATIONS, checks: false }), settings);
    try {
      const { spans, traceId } = retraced('vercel-ai');
      expect((await exportVia(exporterFor('proto', s.address), readable(spans))).code).toBe(0);
      const got = sink.spans.filter((x) => x.traceId === traceId);
      expect(got.length).toBe(spans.length);
      expect(got.flatMap((x) => x.events).filter((e) => e.name === EVENT_FINDING)).toEqual([]);
    } finally {
      await s.shutdown();
    }
  });

  it('redaction: hash reaches the span events and /api/findings', async () => {
    const s = await startService(testConfig({ downstream: downstreamTo(sink), declarationsPath: DECLARATIONS, redaction: 'hash' }), settings);
    try {
      const { spans, traceId } = retraced('vercel-ai');
      expect((await exportVia(exporterFor('proto', s.address), readable(spans))).code).toBe(0);
      const values = sink.spans.filter((x) => x.traceId === traceId).flatMap((x) => x.events).filter((e) => e.name === EVENT_FINDING).map((e) => e.attributes[ATTR_FINDING_VALUE]).filter((v) => v !== undefined);
      expect(values.length).toBeGreaterThan(0);
      for (const v of values) expect(v).toMatch(/^sha256:[0-9a-f]{16}$/);
      const api = (await (await fetch(`${s.address}/api/findings?traceId=${traceId}`)).json()) as { runs: { findings: { value?: string }[] }[] };
      for (const f of api.runs[0]!.findings) if (f.value !== undefined) expect(f.value).toMatch(/^sha256:/);
    } finally {
      await s.shutdown();
    }
  });
});
