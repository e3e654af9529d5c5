// The sdk-agent workload straight into one FootprintCore, span by span as the analysis worker hands
// them (issue 36): no SDK, no worker, no exporter, so a CPU profile (`node --cpu-prof`) or an
// allocation profile of the core alone is not mixed with the app's. Each chat span's window is a
// fresh copy of its JSON (as a worker's deserialization or the service's decoder hands it), made
// by a memcpy, not a JSON.stringify. A measuring tool: prints CPU a turn (the main thread and every
// other thread of the process: V8's helpers), never writes bench/results.json.
// Usage: node --expose-gc bench/core-turns.mjs [DIST] [TURNS]   (default ../dist, 3000)
//   WORKLOAD=windows (default: bench/sdk.mjs's ten windows) | conversation (workload.mjs agentConversationTurns)
//     | growing (sdk-conversation's: 80-turn conversations, workload.mjs conversationTurns; TURNS rounded to whole conversations)
//   UNG=all | none (every turn / no turn with an ungrounded argument; default one in five)
//   WARM=N (untimed turns first; default 1500)
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chatContent, agentConversationTurns, conversationTurns, AGENT_WINDOW_BYTES, BENCH_DECLARATIONS } from './workload.mjs';

const dist = resolve(process.argv[2] ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist'));
const TURNS = Number(process.argv[3] ?? 3000);
const WORKLOAD = process.env.WORKLOAD ?? 'windows';
const ungrounded = (i) => (process.env.UNG === 'all' ? 1 : process.env.UNG === 'none' ? 0 : i % 5 === 4 ? 1 : 0);
const { FootprintCore } = await import(pathToFileURL(resolve(dist, 'runs/footprint.js')).href);

/** CPU nanoseconds of each thread of this process (Linux), by thread id. */
function threadsNs() {
  const out = {};
  for (const t of readdirSync('/proc/self/task')) {
    try {
      out[t] = Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return out;
}

// The windows: the ten of bench/sdk.mjs, or 200 five-turn conversations, made before the clock starts.
const GROWING = 80;
const contents =
  WORKLOAD === 'growing'
    ? (() => {
        const turn = conversationTurns('pool');
        return Array.from({ length: GROWING }, (_, i) => turn(i + 1));
      })()
    : WORKLOAD === 'conversation'
    ? Array.from({ length: 200 }, (_, k) => {
        const turn = agentConversationTurns(`pool-${k}`, { ungrounded: (i) => ungrounded(i) });
        return Array.from({ length: 5 }, (_, i) => turn(i));
      }).flat()
    : Array.from({ length: 10 }, (_, i) => chatContent({ windowBytes: AGENT_WINDOW_BYTES, ungrounded: ungrounded(i), salt: ` #${i}` }));
for (const c of contents) {
  c.rawIn = JSON.stringify(c.input);
  c.rawOut = JSON.stringify(c.output);
}
const fresh = (x) => Buffer.from(x, 'latin1').toString('latin1');

let sid = 0;
const nid = () => (++sid).toString(16).padStart(16, '0');
const resource = { 'service.name': 'bench-agent' };
const scope = { name: 'bench-agent-app', version: '1.0.0' };
function span(traceId, parent, name, attributes, kind = 1) {
  return { traceId, spanId: nid(), ...(parent ? { parentSpanId: parent } : {}), name, kind, startTimeUnixNano: BigInt(sid) * 1000n, endTimeUnixNano: BigInt(sid) * 1000n + 500n, attributes, events: [], links: [], status: { code: 0 }, resource, scope };
}
/** One turn: invoke_agent (its start noted first), chat, one execute_tool a call, in the order they end. */
function turnSpans(t, conv, c) {
  const traceId = (t + 1).toString(16).padStart(32, '0');
  const root = span(traceId, undefined, 'invoke_agent backup-triage', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'backup-triage', 'gen_ai.conversation.id': conv, 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' });
  const chat = span(traceId, root.spanId, 'chat gpt-4o-mini', { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.input.messages': fresh(c.rawIn), 'gen_ai.output.messages': fresh(c.rawOut), 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18', 'gen_ai.response.finish_reasons': ['tool_calls'], 'gen_ai.usage.input_tokens': 10412, 'gen_ai.usage.output_tokens': 96 }, 3);
  const tools = c.toolCalls.map((call) => span(traceId, root.spanId, `execute_tool ${call.name}`, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': call.name, 'gen_ai.tool.call.id': call.id, 'gen_ai.tool.type': 'function', 'gen_ai.tool.call.arguments': JSON.stringify(call.arguments), 'gen_ai.tool.call.result': JSON.stringify({ status: 'ok', last_backup: '2024-05-01T02:00:00Z' }) }));
  return { root, rest: [chat, ...tools, root] };
}

// As FootprintSpanProcessor builds it: no retry cache of spans.
const core = new FootprintCore({ declarations: BENCH_DECLARATIONS, rememberSpans: false });
let findings = 0;
function run(n, first) {
  for (let t = first; t < first + n; t++) {
    const per = WORKLOAD === 'growing' ? GROWING : 5;
    const { root, rest } = turnSpans(t, `conv-${Math.floor(t / per)}`, contents[t % contents.length]);
    core.noteSpanStart(root);
    for (const s of rest) findings += core.process({ spans: [s] }).findings.length;
  }
}
run(Number(process.env.WARM ?? 1500), 1_000_000);
globalThis.gc?.();
findings = 0;
const th0 = threadsNs();
const c0 = process.cpuUsage();
run(TURNS, 0);
const c = process.cpuUsage(c0);
const th1 = threadsNs();
let main = 0;
let helpers = 0;
for (const t in th1) {
  const d = (th1[t] - (th0[t] ?? 0)) / TURNS / 1e3;
  if (Number(t) === process.pid) main += d;
  else helpers += d;
}
console.log(JSON.stringify({ dist, workload: WORKLOAD, turns: TURNS, usCpuPerTurn: Math.round((c.user + c.system) / TURNS), usMainThread: Math.round(main), usOtherThreads: Math.round(helpers), findings, stateBytes: core.stats().stateBytes }));
