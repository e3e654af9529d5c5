// Live: openai@6 + @opentelemetry/instrumentation-openai@0.21 (content capture on: messages as
// log records, joined to the chat span by FootprintLogRecordProcessor) through the stub.
import { expect, it } from 'vitest';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { liveOpenAISuite } from './live-openai-suite.js';
import { assertPassedThrough } from './harness.js';
import { coreReady, findingEvents, responseIdOf } from './scenario.js';
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
    it.skipIf(!coreReady)('backup-triage with declarations carried by traceTool only (no file): the finding still reaches next', async () => {
      const p = await run('backup-triage', { declarationsVia: 'helpers' });
      const { carriers } = assertPassedThrough(p);
      const chooser = p.next.received.find((s) => responseIdOf(s) === 'chatcmpl-backup-triage-004')!;
      const onChooser = findingEvents(chooser);
      const onCarriers = carriers.filter((c) => c.parentSpanContext?.spanId === chooser.spanContext().spanId).flatMap(findingEvents);
      console.info(`helper-carried declarations: ${onChooser.length} finding(s) on the chat span, ${onCarriers.length} on carrier spans`);
      expect([...onChooser, ...onCarriers].map((e) => e.attributes?.['footprint.finding.predicate'])).toEqual(['args.machine_id']);
    });

    it.skipIf(!coreReady)('content capture off: no finding, and the disposition says the check was unreachable', async () => {
      instrumentation.setConfig({ captureMessageContent: false });
      try {
        const p = await run('backup-triage');
        assertPassedThrough(p);
        expect(p.logExporter.getFinishedLogRecords().filter((l) => l.attributes['event.name'] !== 'gen_ai.choice').length).toBe(0);
        expect(p.next.received.flatMap(findingEvents)).toEqual([]);
        const dispositions = p.next.received.flatMap((s) => s.events.filter((e) => e.name === EVENT_DISPOSITION));
        expect(dispositions.length).toBeGreaterThan(0);
        expect(JSON.stringify(dispositions.map((d) => d.attributes))).toMatch(/not captured/);
      } finally {
        instrumentation.setConfig({ captureMessageContent: true });
      }
    });
  },
});
