// Live: openai@6 + @arizeai/openinference-instrumentation-openai@4.2.7 (flattened llm.* keys),
// each turn inside @arizeai/openinference-core's setSession (session.id = conversation id).
import { expect } from 'vitest';
import { context } from '@opentelemetry/api';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { setSession } from '@arizeai/openinference-core';
import { liveOpenAISuite } from './live-openai-suite.js';

liveOpenAISuite({
  title: 'live: openai@6 + @arizeai/openinference-instrumentation-openai',
  instrumentation: new OpenAIInstrumentation(),
  scope: '@arizeai/openinference-instrumentation-openai',
  wrapTurn: (conversationId, fn) => context.with(setSession(context.active(), { sessionId: conversationId }), fn),
  recorded(llm) {
    for (const s of llm) {
      expect(s.attributes['openinference.span.kind']).toBe('LLM');
      expect(s.attributes['session.id']).toBe('conv-backup-triage-0001');
      expect(s.attributes['llm.input_messages.0.message.role']).toBe('system');
      expect(typeof s.attributes['llm.tools.0.tool.json_schema']).toBe('string');
    }
  },
});
