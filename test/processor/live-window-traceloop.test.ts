// Live: openai@6 + @traceloop/instrumentation-openai@0.27 alone (no app execute_tool or invoke_agent
// span; the app's root span carries the conversation id): the ledger read from the windows, the
// disposition on each turn's root (issue 27).
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import { liveWindowSuite } from './live-window-suite.js';

liveWindowSuite({
  title: 'live, LLM client spans only: openai@6 + @traceloop/instrumentation-openai',
  instrumentation: new OpenAIInstrumentation({ traceContent: true }),
  scope: '@traceloop/instrumentation-openai',
  conversationOnRoot: true,
});
