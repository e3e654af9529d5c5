// The Vercel AI SDK (ai@6 + @ai-sdk/openai@3) with experimental_telemetry, and FootprintSpanProcessor
// in front of a BatchSpanProcessor and the OTLP/HTTP exporter. Runs the two-turn backup-triage
// conversation against the stub in ../stub-openai. Run: npm run example:vercel-ai (or node examples/in-process-vercel-ai/agent.mjs once dist/ is built)
import { fileURLToPath } from 'node:url';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { FootprintSpanProcessor } from 'footprint-otel';
import { startStubOpenAI } from '../stub-openai/server.mjs';
import { startOtlpSink } from '../stub-openai/otlp-sink.mjs';
import * as bt from '../stub-openai/backup-triage.mjs';

const stub = await startStubOpenAI(bt.script);
const sink = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? undefined : await startOtlpSink(); // no collector needed
const fp = new FootprintSpanProcessor({
  next: new BatchSpanProcessor(new OTLPTraceExporter(sink ? { url: sink.url } : {})),
  declarations: fileURLToPath(new URL('./declarations.yaml', import.meta.url)), // the SDK's spans carry none
});
const tracerProvider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'backup-triage-agent' }), spanProcessors: [fp] });
tracerProvider.register(); // the AI SDK writes its spans through the global tracer provider

const openai = createOpenAI({ apiKey: 'sk-stub', baseURL: stub.baseURL });
const tools = Object.fromEntries(
  bt.tools.map(({ function: f }) => [
    f.name,
    tool({ description: f.description, inputSchema: jsonSchema(f.parameters), execute: async (_input, { toolCallId }) => JSON.parse(bt.toolResult(toolCallId)) }),
  ]),
);
const memory = []; // between turns the app keeps only final answers
for (const user of bt.turns) {
  const { text } = await generateText({
    model: openai.chat(bt.model),
    system: bt.system,
    messages: [...memory, { role: 'user', content: user }],
    tools,
    stopWhen: stepCountIs(8),
    maxRetries: 0,
    experimental_telemetry: { isEnabled: true, functionId: bt.agentName, metadata: { conversationId: bt.conversationId } },
  });
  console.log(`user: ${user}\nagent: ${text}`);
  memory.push({ role: 'assistant', content: text });
}

await Promise.all([tracerProvider.shutdown(), stub.close()]); // flushes the batch to the exporter
if (sink) for (const line of sink.findingLines()) console.log(line);
else console.log(`spans sent to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT}; findings by kind: ${JSON.stringify(fp.stats().core?.findingsByKind ?? {})}`);
await sink?.close();
