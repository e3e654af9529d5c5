// The input window's read alone, with the conversation's window memo (src/runs/window-memo.ts,
// src/conventions/genai-window.ts) or without it (every window parsed in full), on the workloads of
// bench/core-turns.mjs (issue 36): what the memo saves in parsing against what holding its windows
// costs the collector. Each window is a fresh copy of its JSON (as the worker or the decoder hands
// it). A measuring tool: prints the read's own time (the loop's wall clock around each read) and
// the process's CPU a request (every thread: the collector's helpers included; the fresh copy's
// ~5 µs too), never writes bench/results.json. Run with --trace-gc-nvp to see the bytes promoted.
// Usage: node bench/window-read.mjs [DIST] [memo|full] [windows|conversation|growing]
//   (defaults ../dist, memo, windows; windows: 5-request conversations over bench/sdk.mjs's ten
//   windows; conversation: workload.mjs agentConversationTurns, 5 requests each; growing: 80-request
//   conversations, workload.mjs conversationTurns)
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AGENT_WINDOW_BYTES, agentConversationTurns, chatContent, conversationTurns } from './workload.mjs';

const dist = resolve(process.argv[2] ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../dist'));
const mode = process.argv[3] ?? 'memo';
const workload = process.argv[4] ?? 'windows';
const load = (p) => import(pathToFileURL(resolve(dist, p)).href);
const { readWindowAttribute } = await load('conventions/genai-window.js');
const { readMessagesAttribute } = await load('conventions/genai-parts.js');
const { WindowMemos } = await load('runs/window-memo.js');
const { resolveOptions } = await load('runs/options.js');

const perConversation = workload === 'growing' ? 80 : 5;
const raws =
  workload === 'growing'
    ? (() => {
        const turn = conversationTurns('pool');
        return Array.from({ length: 80 }, (_, i) => JSON.stringify(turn(i + 1).input));
      })()
    : workload === 'conversation'
      ? Array.from({ length: 200 }, (_, k) => {
          const turn = agentConversationTurns(`pool-${k}`);
          return Array.from({ length: 5 }, (_, i) => JSON.stringify(turn(i).input));
        }).flat()
      : Array.from({ length: 10 }, (_, i) => JSON.stringify(chatContent({ windowBytes: AGENT_WINDOW_BYTES, salt: ` #${i}` }).input));
const fresh = (x) => Buffer.from(x, 'latin1').toString('latin1');
const scope = { span: { traceId: 't', spanId: 's', attributes: {} }, limits: resolveOptions({}).limits, diagnostics: { report() {} } };
const memos = new WindowMemos(Number.MAX_SAFE_INTEGER, () => 0);
const requests = workload === 'growing' ? 4000 : 10_000;
const warm = requests / 5;
let readNs = 0n;
let c0 = process.cpuUsage();
for (let r = 0; r < requests; r++) {
  if (r === warm) c0 = process.cpuUsage();
  const value = fresh(raws[r % raws.length]);
  const t0 = process.hrtime.bigint();
  if (mode === 'memo') readWindowAttribute(value, 'gen_ai.input.messages', scope, memos.slot(`c${Math.floor(r / perConversation)}`));
  else readMessagesAttribute(value, 'gen_ai.input.messages', scope);
  if (r >= warm) readNs += process.hrtime.bigint() - t0;
}
const c = process.cpuUsage(c0);
const n = requests - warm;
console.log(JSON.stringify({ dist, mode, workload, requests: n, usRead: +(Number(readNs) / n / 1e3).toFixed(1), usCpuPerRequest: +((c.user + c.system) / n).toFixed(1) }));
