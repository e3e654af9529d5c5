// openai@6 + @opentelemetry/instrumentation-openai (content capture on) + footprint-otel's helpers,
// with footprint() in front of a BatchSpanProcessor and the OTLP/HTTP exporter. Runs the two-turn
// backup-triage conversation against the stub in ../stub-openai. Run: npm run example:openai (or node examples/in-process-openai/agent.mjs once dist/ is built)
import { register } from 'node:module';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { footprint } from 'footprint-otel';
import { traceAgentTurn, traceTool } from 'footprint-otel/trace';
import { startStubOpenAI } from '../stub-openai/server.mjs';
import { startOtlpSink } from '../stub-openai/otlp-sink.mjs';
import * as bt from '../stub-openai/backup-triage.mjs';

const stub = await startStubOpenAI(bt.script);
const sink = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? undefined : await startOtlpSink(); // no collector needed
const fp = footprint({ next: new BatchSpanProcessor(new OTLPTraceExporter(sink ? { url: sink.url } : {})) });
const resource = resourceFromAttributes({ 'service.name': 'backup-triage-agent' });
const tracerProvider = new NodeTracerProvider({ resource, spanProcessors: [fp.spanProcessor] });
tracerProvider.register();
const loggerProvider = new LoggerProvider({ resource, processors: [fp.logRecordProcessor] }); // this instrumentation writes content as logs
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url); // ESM: patch `import 'openai'` too
registerInstrumentations({ tracerProvider, loggerProvider, instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })] });
const { OpenAI } = await import('openai'); // only after registering: the instrumentation patches it as it loads

const client = new OpenAI({ apiKey: 'sk-stub', baseURL: stub.baseURL, maxRetries: 0 });
const memory = [{ role: 'system', content: bt.system }]; // between turns the app keeps only final answers
for (const user of bt.turns) {
  const answer = await traceAgentTurn({ agentName: bt.agentName, conversationId: bt.conversationId, model: bt.model, provider: 'openai' }, async () => {
    const messages = [...memory, { role: 'user', content: user }];
    for (;;) {
      const msg = (await client.chat.completions.create({ model: bt.model, messages, tools: bt.tools })).choices[0].message;
      if (!msg.tool_calls?.length) return msg.content ?? '';
      messages.push({ role: 'assistant', content: null, tool_calls: msg.tool_calls });
      for (const call of msg.tool_calls) {
        const { name, arguments: args } = call.function;
        const result = await traceTool(name, args, async () => bt.toolResult(call.id), { callId: call.id, argumentsFrom: bt.argumentsFrom[name], readOnly: bt.readOnly[name] });
        messages.push({ role: 'tool', tool_call_id: call.id, content: result });
      }
    }
  });
  console.log(`user: ${user}\nagent: ${answer}`);
  memory.push({ role: 'assistant', content: answer });
}

await Promise.all([tracerProvider.shutdown(), loggerProvider.shutdown(), stub.close()]); // flushes the batch to the exporter
if (sink) for (const line of sink.findingLines()) console.log(line);
else console.log(`spans sent to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT}; findings by kind: ${JSON.stringify(fp.spanProcessor.stats().core?.findingsByKind ?? {})}`);
await sink?.close();
