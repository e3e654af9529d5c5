// Live: openai@6 + @opentelemetry/instrumentation-openai@0.21 (content capture on: messages as
// log records, joined to the chat span by FootprintLogRecordProcessor) through the stub.
import { expect } from 'vitest';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { liveOpenAISuite } from './live-openai-suite.js';

liveOpenAISuite({
  title: 'live: openai@6 + @opentelemetry/instrumentation-openai',
  instrumentation: new OpenAIInstrumentation({ captureMessageContent: true }),
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
});
