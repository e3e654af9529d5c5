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
 * The content of one chat call: an input window of `messages` messages (~`windowBytes` of text in
 * all) and a response choosing `calls` tool calls with `argsPerCall` string arguments each. Every
 * argument is grounded in the window, except `ungrounded` of them (the last call's first ones),
 * which take a value nothing served. `salt` varies the text so windows are not identical.
 */
export function chatContent({ messages = 50, windowBytes = 40_000, calls = 3, argsPerCall = 5, ungrounded = 0, salt = '' } = {}) {
  const ids = Array.from({ length: calls * argsPerCall }, (_, i) => `srv-db-${String(i).padStart(4, '0')}`);
  const per = Math.max(64, Math.floor(windowBytes / messages));
  const input = [
    { role: 'system', parts: [{ type: 'text', content: `You are a backup triage assistant. Use only identifiers tools return.${salt}` }] },
    // The inventory that grounds every argument the response chooses.
    { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_inventory', response: JSON.stringify(ids.map((id) => ({ machine_id: id }))) }] },
  ];
  for (let m = 2; m < messages; m++) {
    if (m % 3 === 1) input.push({ role: 'user', parts: [{ type: 'text', content: `Question ${m}${salt}: ${'please check the machines '.repeat(Math.ceil(per / 26)).slice(0, per)}` }] });
    else if (m % 3 === 2) input.push({ role: 'assistant', parts: [{ type: 'tool_call', id: `call_${m}`, name: 'list_machines', arguments: { customer: 'acme' } }] });
    else input.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: `call_${m - 1}`, response: toolResult(ids, per) }] });
  }
  const toolCalls = [];
  for (let c = 0; c < calls; c++) {
    const args = {};
    for (let a = 0; a < argsPerCall; a++) {
      const bad = c === calls - 1 && a < ungrounded;
      args[`arg_${a}`] = bad ? `srv-db-${9000 + a}` : ids[(c * argsPerCall + a) % ids.length];
    }
    toolCalls.push({ type: 'tool_call', id: `call_out_${c}`, name: 'backup_status', arguments: args });
  }
  const output = [{ role: 'assistant', finish_reason: 'tool_call', parts: toolCalls }];
  return { input, output, toolCalls, ids };
}

/**
 * One chat span whose window holds `messages` messages (~`windowBytes` of text in all) and whose
 * response chooses `calls` tool calls with `argsPerCall` string arguments each, all grounded.
 */
export function chatSpan({ messages = 50, windowBytes = 40_000, calls = 3, argsPerCall = 5, traceId = TRACE, conversationId = 'conv-bench', ungrounded = 0, salt = '', parentSpanId } = {}) {
  const { input, output } = chatContent({ messages, windowBytes, calls, argsPerCall, ungrounded, salt });
  const span = {
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
  if (parentSpanId) span.parentSpanId = parentSpanId;
  return span;
}

/** The `execute_tool` span of one chosen call (SpanData), with a small JSON result. */
export function toolSpan(call, { traceId = TRACE, parentSpanId } = {}) {
  const span = {
    traceId,
    spanId: nextSpanId(),
    name: `execute_tool ${call.name}`,
    kind: 1,
    startTimeUnixNano: 3n,
    endTimeUnixNano: 4n,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call.name,
      'gen_ai.tool.call.id': call.id,
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.arguments': JSON.stringify(call.arguments),
      'gen_ai.tool.call.result': JSON.stringify({ status: 'ok', last_backup: '2024-05-01T02:00:00Z' }),
    },
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'bench-agent' },
    scope: { name: 'bench' },
  };
  if (parentSpanId) span.parentSpanId = parentSpanId;
  return span;
}

/**
 * One agent turn as SpanData: the `invoke_agent` root, its chat span and one `execute_tool` span
 * per chosen call (5 spans with the defaults), in the order they end (children first).
 */
export function agentTurnSpans({ traceId, conversationId, ungrounded = 0, salt = '', windowBytes = 40_000 } = {}) {
  const rootId = nextSpanId();
  const chat = chatSpan({ traceId, conversationId, ungrounded, salt, windowBytes, parentSpanId: rootId });
  const output = JSON.parse(chat.attributes['gen_ai.output.messages']);
  const tools = output[0].parts.map((call) => toolSpan(call, { traceId, parentSpanId: rootId }));
  const root = {
    traceId,
    spanId: rootId,
    name: 'invoke_agent backup-triage',
    kind: 1,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 5n,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'backup-triage', 'gen_ai.conversation.id': conversationId, 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.provider.name': 'openai' },
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'bench-agent' },
    scope: { name: 'bench' },
  };
  return [chat, ...tools, root];
}

/** windowBytes that makes the 50-message window about 41 KB of JSON (the agent workload). */
export const AGENT_WINDOW_BYTES = 50_000;

export const BENCH_DECLARATIONS = { tools: { backup_status: { argumentsFrom: ['list_machines'] }, list_machines: { readOnly: true } } };

/**
 * One growing conversation (the sdk-conversation workload): turn t's window repeats turn t-1's
 * window verbatim, then that turn's response (its chosen calls) and their results, then the new
 * user question, a list_machines call and its ~0.7 KB result: about 2 KB of new content a turn
 * (turn 80's window is ~160 KB). Each turn's response chooses 3 backup_status calls whose
 * arguments are grounded both in the newest message (this turn's result) and in the oldest one
 * (the inventory right after the system prompt). Deterministic. Returns a function turn(t) (1-based,
 * called in order) -> { input, output, toolCalls }.
 */
export function conversationTurns(conv) {
  const oldest = Array.from({ length: 12 }, (_, i) => `inv-${conv}-${String(i).padStart(3, '0')}`);
  const input = [
    { role: 'system', parts: [{ type: 'text', content: 'You are a backup triage assistant. Use only identifiers tools return.' }] },
    { role: 'assistant', parts: [{ type: 'tool_call', id: `call_inv_${conv}`, name: 'list_machines', arguments: { customer: 'acme', scope: 'inventory' } }] },
    { role: 'tool', parts: [{ type: 'tool_call_response', id: `call_inv_${conv}`, response: JSON.stringify(oldest.map((id, i) => ({ machine_id: id, site: `dc-${i % 3}` }))) }] },
  ];
  let previous = null;
  return (t) => {
    if (previous) {
      input.push({ role: 'assistant', parts: previous.toolCalls });
      for (const c of previous.toolCalls) input.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: c.id, response: JSON.stringify({ status: 'ok', last_backup: '2024-05-01T02:00:00Z' }) }] });
    }
    const newest = Array.from({ length: 6 }, (_, i) => `srv-${conv}-t${t}-${i}`);
    input.push({ role: 'user', parts: [{ type: 'text', content: `Turn ${t}: which of the machines in rack ${t} missed last night's backup? Please check each machine and say which are protected.` }] });
    input.push({ role: 'assistant', parts: [{ type: 'tool_call', id: `call_list_${conv}_${t}`, name: 'list_machines', arguments: { customer: 'acme', rack: String(t) } }] });
    input.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: `call_list_${conv}_${t}`, response: JSON.stringify(newest.map((id, i) => ({ machine_id: id, hostname: `host-${t}-${i}.acme`, protected: i % 2 === 0, note: 'nightly window' }))) }] });
    const toolCalls = Array.from({ length: 3 }, (_, c) => ({
      type: 'tool_call',
      id: `call_out_${conv}_${t}_${c}`,
      name: 'backup_status',
      // Two values from the newest message, two from the oldest one.
      arguments: { machine_id: newest[c], peer_id: newest[c + 3], inventory_id: oldest[(t + c) % oldest.length], site_peer: oldest[(t + c + 5) % oldest.length] },
    }));
    previous = { toolCalls };
    return { input: input.slice(), output: [{ role: 'assistant', finish_reason: 'tool_call', parts: toolCalls }], toolCalls };
  };
}

/**
 * The sdk-agent workload as a conversation (issue 36): each turn's window holds 50 messages, its
 * system prompt and the inventory that grounds every argument, then the last 48 messages of the
 * conversation so far, as an agent whose context is cut to a budget sends them: turn t's window
 * repeats turn t-1's, less its oldest five history messages, plus the previous turn's response
 * (its 3 chosen calls), their 3 results and the next question (~4 KB new of ~41 KB). Every
 * argument is grounded in the window, except `ungrounded(t)` values of the last call of turn t. Deterministic. Returns turn(t) (0-based, called in order) -> { input, output, toolCalls }.
 */
export function agentConversationTurns(conv, { windowBytes = AGENT_WINDOW_BYTES, messages = 50, calls = 3, argsPerCall = 5, ungrounded = () => 0 } = {}) {
  const ids = Array.from({ length: calls * argsPerCall }, (_, i) => `srv-db-${String(i).padStart(4, '0')}`);
  const per = Math.max(64, Math.floor(windowBytes / messages));
  // The system prompt and the inventory that grounds every argument stay; the history after them slides.
  const head = [
    { role: 'system', parts: [{ type: 'text', content: `You are a backup triage assistant (${conv}). Use only identifiers tools return.` }] },
    { role: 'tool', parts: [{ type: 'tool_call_response', id: `call_inventory_${conv}`, response: JSON.stringify(ids.map((id) => ({ machine_id: id }))) }] },
  ];
  const history = [];
  let m = 1;
  const question = () => ({ role: 'user', parts: [{ type: 'text', content: `Question ${m} (${conv}): ${'please check the machines '.repeat(Math.ceil(per / 26)).slice(0, per)}` }] });
  // The history before the first turn: questions, list_machines calls and their results, as in chatContent.
  while (history.length < messages - head.length) {
    m++;
    if (m % 3 === 1) history.push(question());
    else if (m % 3 === 2) history.push({ role: 'assistant', parts: [{ type: 'tool_call', id: `call_${conv}_${m}`, name: 'list_machines', arguments: { customer: 'acme' } }] });
    else history.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: `call_${conv}_${m - 1}`, response: toolResult(ids, per) }] });
  }
  let previous = null;
  return (t) => {
    if (previous) {
      history.push({ role: 'assistant', parts: previous });
      for (const c of previous) history.push({ role: 'tool', parts: [{ type: 'tool_call_response', id: c.id, response: toolResult(ids, per) }] });
      m++;
      history.push(question());
      history.splice(0, history.length - (messages - head.length));
    }
    const bad = ungrounded(t);
    const toolCalls = [];
    for (let c = 0; c < calls; c++) {
      const args = {};
      for (let a = 0; a < argsPerCall; a++) args[`arg_${a}`] = c === calls - 1 && a < bad ? `srv-db-${9000 + a}` : ids[(c * argsPerCall + a) % ids.length];
      toolCalls.push({ type: 'tool_call', id: `call_out_${conv}_${t}_${c}`, name: 'backup_status', arguments: args });
    }
    previous = toolCalls;
    return { input: [...head, ...history], output: [{ role: 'assistant', finish_reason: 'tool_call', parts: toolCalls }], toolCalls };
  };
}

/**
 * `count` distinct 512-span agent batches as OTLP/protobuf bodies, as bench/service.mjs sends them:
 * 5-turn conversations, one turn in five with an ungrounded argument, ten salts of the window.
 * `toReadableSpans` and `serializeRequest` come from the caller (the build under test, the exporter).
 */
export function agentBatchBodies(count, toReadableSpans, serializeRequest) {
  const hex = (n, w) => n.toString(16).padStart(w, '0');
  const bodies = [];
  for (let b = 0; b < count; b++) {
    const spans = [];
    for (let t = 0; spans.length < 512; t++) {
      spans.push(...agentTurnSpans({ traceId: `b0b0${hex(b, 4)}${hex(t, 8)}c0c0c0c000000001`, conversationId: `c-${b}-${Math.floor(t / 5)}`, ungrounded: t % 5 === 4 ? 1 : 0, salt: ` #${t % 10}`, windowBytes: AGENT_WINDOW_BYTES }));
    }
    spans.length = 512;
    bodies.push(Buffer.from(serializeRequest(toReadableSpans(spans.map((span) => ({ span }))))));
  }
  return bodies;
}
