// Live: @anthropic-ai/sdk@0.137 + @traceloop/instrumentation-anthropic@0.27 (content as
// gen_ai.input/output.messages JSON span attributes, tool_use / tool_result blocks as GenAI parts).
import { expect } from 'vitest';
import { AnthropicInstrumentation } from '@traceloop/instrumentation-anthropic';
import { liveAnthropicSuite } from './live-anthropic-suite.js';

liveAnthropicSuite({
  library: 'traceloop-anthropic',
  instrumentation: new AnthropicInstrumentation({ traceContent: true }),
  scope: '@traceloop/instrumentation-anthropic',
  outputKey: 'gen_ai.output.messages',
  recorded(llm) {
    for (const s of llm) {
      expect(typeof s.attributes['gen_ai.input.messages']).toBe('string');
      expect(typeof s.attributes['gen_ai.output.messages']).toBe('string');
      expect(s.attributes['gen_ai.conversation.id']).toBeUndefined();
    }
  },
});
