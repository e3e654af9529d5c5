// Live: openai@6 + @traceloop/instrumentation-openai@0.27 (content as gen_ai.input/output.messages
// JSON span attributes) through the stub.
import { expect } from 'vitest';
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import { liveOpenAISuite } from './live-openai-suite.js';

liveOpenAISuite({
  title: 'live: openai@6 + @traceloop/instrumentation-openai',
  instrumentation: new OpenAIInstrumentation({ traceContent: true }),
  scope: '@traceloop/instrumentation-openai',
  recorded(llm, p) {
    for (const s of llm) {
      expect(typeof s.attributes['gen_ai.input.messages']).toBe('string');
      expect(typeof s.attributes['gen_ai.output.messages']).toBe('string');
      expect(typeof s.attributes['gen_ai.tool.definitions']).toBe('string');
      expect(s.attributes['gen_ai.conversation.id']).toBeUndefined();
    }
    expect(p.logExporter.getFinishedLogRecords()).toEqual([]);
  },
});
