// Synthetic agent workload for the benchmarks: GenAI-semconv chat and execute_tool spans as plain
// SpanData (the core's input), with a chosen window size and argument count. Deterministic.

const TRACE = 'ab'.repeat(16);
let spanCounter = 0;
const nextSpanId = () => (++spanCounter).toString(16).padStart(16, '0');

/** A served tool result of about `bytes` bytes, holding the ids the arguments will use. */
export function toolResult(ids, bytes) {
  const rows = [];
  let size = 2;
  let i = 0;
  while (size < bytes) {
    const row = { machine_id: ids[i % ids.length] ?? `srv-${i}`, hostname: `host-${i}-${'x'.repeat(24)}`, protected: i % 2 === 0, note: 'nightly backup completed without warnings' };
    const s = JSON.stringify(row);
    rows.push(row);
    size += s.length + 1;
    i++;
  }
  return JSON.stringify(rows);
}

/**
 * One chat span whose window holds `messages` messages (~`windowBytes` of text in all) and whose
 * response chooses `calls` tool calls with `argsPerCall` string arguments each, all grounded.
 */
export function chatSpan({ messages = 50, windowBytes = 40_000, calls = 3, argsPerCall = 5, traceId = TRACE, conversationId = 'conv-bench' } = {}) {
  const ids = Array.from({ length: calls * argsPerCall }, (_, i) => `srv-db-${String(i).padStart(4, '0')}`);
  const per = Math.max(64, Math.floor(windowBytes / messages));
  const input = [
    { role: 'system', parts: [{ type: 'text', content: 'You are a backup triage assistant. Use only identifiers tools return.' }] },
    // The inventory that grounds every argument the response chooses.
    { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_inventory', response: JSON.stringify(ids.map((id) => ({ machine_id: id }))) }] },
  ];
  for (let m = 2; m < messages; m++) {
    if (m % 3 === 1) input.push({ role: 'user', parts: [{ type: 'text', content: `Question ${m}: ${'please check the machines '.repeat(Math.ceil(per / 26)).slice(0, per)}` }] });
    else if (m % 3 === 2) input.push({ role: 'assistant', parts: [{ type: 'tool_call', id: `call_${m}`, name: 'list_machines', arguments: { customer: 'acme' } }] });
    else input.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: `call_${m - 1}`, response: toolResult(ids, per) }] });
  }
  const toolCalls = [];
  for (let c = 0; c < calls; c++) {
    const args = {};
    for (let a = 0; a < argsPerCall; a++) args[`arg_${a}`] = ids[(c * argsPerCall + a) % ids.length];
    toolCalls.push({ type: 'tool_call', id: `call_out_${c}`, name: 'backup_status', arguments: args });
  }
  const output = [{ role: 'assistant', finish_reason: 'tool_call', parts: toolCalls }];
  return {
    traceId,
    spanId: nextSpanId(),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.conversation.id': conversationId,
      'gen_ai.input.messages': JSON.stringify(input),
      'gen_ai.output.messages': JSON.stringify(output),
    },
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'bench-agent' },
    scope: { name: 'bench' },
  };
}

export const BENCH_DECLARATIONS = { tools: { backup_status: { argumentsFrom: ['list_machines'] }, list_machines: { readOnly: true } } };
