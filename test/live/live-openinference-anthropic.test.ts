// Live: @anthropic-ai/sdk@0.137 + @arizeai/openinference-instrumentation-anthropic@0.2.8
// (flattened llm.input_messages.* / llm.output_messages.* span attributes).
import { expect } from 'vitest';
import { AnthropicInstrumentation } from '@arizeai/openinference-instrumentation-anthropic';
import { liveAnthropicSuite } from './live-anthropic-suite.js';

liveAnthropicSuite({
  library: 'openinference-anthropic',
  instrumentation: new AnthropicInstrumentation(),
  scope: '@arizeai/openinference-instrumentation-anthropic',
  outputKey: 'output.value',
  recorded(llm) {
    for (const s of llm) expect(s.attributes['openinference.span.kind']).toBe('LLM');
  },
});
