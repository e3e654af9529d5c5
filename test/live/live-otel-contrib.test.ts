// Live: openai@6 + @opentelemetry/instrumentation-openai@0.21 (content capture on: messages as
// log records, joined to the chat span by FootprintLogRecordProcessor) through the stub.
import { expect, it } from 'vitest';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { liveOpenAISuite } from './live-openai-suite.js';
import { assertPassedThrough } from '../processor/harness.js';
import { coreReady, findingEvents, responseIdOf } from '../processor/scenario.js';
import { EVENT_DISPOSITION } from '../../src/findings/names.js';

const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });

liveOpenAISuite({
  title: 'live: openai@6 + @opentelemetry/instrumentation-openai',
  instrumentation,
  scope: '@opentelemetry/instrumentation-openai',
  recorded(llm, p) {
    // No content on the spans: it is in log records, one per message, tied to the chat span.
    for (const s of llm) expect(Object.keys(s.attributes).filter((k) => k.includes('messages'))).toEqual([]);
    const logs = p.logExporter.getFinishedLogRecords();
    expect(logs.length).toBeGreaterThan(10);
    expect(new Set(logs.map((l) => l.spanContext?.spanId))).toEqual(new Set(llm.map((s) => s.spanContext().spanId)));
    expect(new Set(logs.map((l) => l.attributes['event.name']))).toEqual(new Set(['gen_ai.system.message', 'gen_ai.user.message', 'gen_ai.assistant.message', 'gen_ai.tool.message', 'gen_ai.choice']));
    // every record was joined, none left waiting
    expect(p.fp.stats().pendingLogs).toMatchObject({ spans: 0, records: 0, late: 0 });
  },
  extra(run) {
    // A declaration carried on an execute_tool span arrives after the chat span that chose the call
    // has gone on: the core keeps that choice pending and judges it when the declaration arrives,
    // and the finding reaches next on a carrier span parented to the chat span.
    it('backup-triage with declarations carried by traceTool only (no file): the finding reaches next (on the chat span or a carrier)', async () => {
      const p = await run('backup-triage', { declarationsVia: 'helpers' });
      const { carriers } = assertPassedThrough(p);
      const chooser = p.next.received.find((s) => responseIdOf(s) === 'chatcmpl-backup-triage-004')!;
      const onChooser = findingEvents(chooser);
      const onCarriers = carriers.filter((c) => c.parentSpanContext?.spanId === chooser.spanContext().spanId).flatMap(findingEvents);
      const kinds = [...onChooser, ...onCarriers].filter((e) => e.attributes?.['footprint.finding.kind'] === 'unsupported-argument');
      expect(kinds.map((e) => e.attributes?.['footprint.finding.predicate'])).toEqual(['args.machine_id']);
      expect(onCarriers.length).toBeGreaterThan(0);
    });

    it.skipIf(!coreReady)('content capture off: no finding, and the disposition says the check was unreachable', async () => {
      instrumentation.setConfig({ captureMessageContent: false });
      try {
        const p = await run('backup-triage');
        assertPassedThrough(p);
        // the records still come, without message content
        for (const l of p.logExporter.getFinishedLogRecords()) expect(JSON.stringify(l.body ?? {})).not.toContain('backup triage assistant');
        expect(p.next.received.flatMap(findingEvents).filter((e) => e.attributes?.['footprint.finding.kind'] === 'unsupported-argument')).toEqual([]);
        const dispositions = p.next.received.flatMap((s) => s.events.filter((e) => e.name === EVENT_DISPOSITION));
        expect(dispositions.length).toBeGreaterThan(0);
        const checks = dispositions.flatMap((d) => JSON.parse(String(d.attributes?.['footprint.disposition.checks'] ?? '[]')) as { check: string; unreachable: number; unreachable_reasons?: Record<string, number> }[]);
        const ua = checks.filter((c) => c.check === 'unsupported-argument');
        expect(ua.length).toBe(2); // one disposition per turn
        for (const c of ua) expect(Object.keys(c.unreachable_reasons ?? {})).toEqual(['message content was not captured']);
      } finally {
        instrumentation.setConfig({ captureMessageContent: true });
      }
    });
  },
});
