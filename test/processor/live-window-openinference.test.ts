// Live: openai@6 + @arizeai/openinference-instrumentation-openai alone (no app execute_tool or
// invoke_agent span; each turn inside setSession): the ledger read from the windows, the
// disposition on each turn's root (issue 27).
import { context } from '@opentelemetry/api';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { setSession } from '@arizeai/openinference-core';
import { liveWindowSuite } from './live-window-suite.js';

liveWindowSuite({
  title: 'live, LLM client spans only: openai@6 + @arizeai/openinference-instrumentation-openai',
  instrumentation: new OpenAIInstrumentation(),
  scope: '@arizeai/openinference-instrumentation-openai',
  wrapTurn: (conversationId, fn) => context.with(setSession(context.active(), { sessionId: conversationId }), fn),
});
