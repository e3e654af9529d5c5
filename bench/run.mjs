// `npm run bench`: runs each benchmark in its own child process (fresh heap), prints each one's
// output, then a summary table, and writes the results (one key per benchmark with its measured
// figures, its ratio where it has one, and its target) where bench/output.mjs says: an untracked
// file unless --write asks for the tracked bench/results.json. Needs a current build (dist/).

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BENCH_USAGE, benchOptions } from './output.mjs';

const here = new URL('.', import.meta.url);
const BENCHES = [
  { key: 'sdk-ordinary', file: 'sdk.mjs', args: ['ordinary'] },
  { key: 'sdk-agent', file: 'sdk.mjs', args: ['agent'] },
  { key: 'sdk-conversation', file: 'sdk-conversation.mjs', args: [] },
  { key: 'service-throughput', file: 'service.mjs', args: [] },
  { key: 'scaling-window', file: 'scaling-run.mjs', args: ['window'] },
  { key: 'scaling-args', file: 'scaling-run.mjs', args: ['args'] },
  { key: 'memory', file: 'memory.mjs', args: [], node: ['--expose-gc'] },
  { key: 'state-store', file: 'state-store.mjs', args: [] },
];

function runChild(b) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [...(b.node ?? []), new URL(b.file, here).pathname, ...b.args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      for (const line of String(d).split('\n')) if (line && !line.startsWith('BENCH-RESULT ')) process.stdout.write(`  ${line}\n`);
    });
    child.on('exit', (code) => {
      const results = {};
      for (const line of out.split('\n')) {
        const m = /^BENCH-RESULT (\S+) (.*)$/.exec(line);
        if (m) results[m[1]] = JSON.parse(m[2]);
      }
      resolve({ code, results, seconds: (Date.now() - t0) / 1000 });
    });
  });
}

const options = benchOptions(process.argv.slice(2), process.env, BENCHES.map((b) => b.key));
if (!options.ok) {
  if (options.reason === 'help') console.log(BENCH_USAGE);
  else console.error(`bench: ${options.reason}\n${BENCH_USAGE}`);
  process.exit(options.reason === 'help' ? 0 : 2);
}
const selected = BENCHES.filter((b) => options.only.includes(b.key));

const cpuModel = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  } catch {
    return cpus()[0]?.model;
  }
})();
const machine = { nproc: cpus().length, cpu: cpuModel, node: process.version, platform: `${process.platform} ${process.arch}` };
console.log(`footprint-otel benchmarks: ${machine.nproc} CPUs (${machine.cpu}), node ${machine.node}`);

const results = { machine, command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''} (npm run build --silent && node bench/run.mjs)`, date: new Date().toISOString() };
const t0 = Date.now();
for (const b of selected) {
  console.log(`\n== ${b.key}`);
  const r = await runChild(b);
  if (r.code !== 0 || !r.results[b.key]) {
    console.log(`  ${b.key} failed (exit ${r.code})`);
    results[b.key] = { error: `exit ${r.code}`, target: null };
  } else results[b.key] = { ...r.results[b.key], benchSeconds: Math.round(r.seconds) };
}
results.totalSeconds = Math.round((Date.now() - t0) / 1000);

const fmt = (key) => {
  const r = results[key];
  if (!r || r.error) return ['failed', '', ''];
  switch (key) {
    case 'sdk-ordinary':
      return [`BSP ${r.nsPerSpanBsp} ns/span, +footprint ${r.nsPerSpanFootprint} ns/span (+${r.overheadNsPerSpan})`, r.ratio, r.target];
    case 'sdk-agent':
      return [`total CPU: BSP ${r.usPerTurn.bsp.process.median} µs/turn, worker mode ${r.usPerTurn.worker.process.median} µs; app thread: BSP ${r.usPerChatSpanBsp} µs, worker mode ${r.usPerChatSpanFootprint} µs (ratio ${r.ratioAppThread}); worker thread ${r.usPerChatSpanWorkerThread} µs`, r.ratio, r.target];
    case 'sdk-conversation':
      return [`cost per request: turn 5 ${r.checkpoints[1].usCost} µs, turn 80 ${r.checkpoints[6].usCost} µs (window ${Math.round(r.windowJsonBytes.turn80 / 1000)} KB); conversation ${r.conversationMs.footprint} ms vs app ${r.conversationMs.bsp} ms`, r.ratio, r.target];
    case 'service-throughput':
      return [`per service CPU-s (median of ${r.runsPerVariant}): full ${r.full.spansPerServiceCpuSecond.median}, true pass-through ${r.passThrough.spansPerServiceCpuSecond.median}, ordinary ${r.ordinary.spansPerServiceCpuSecond.median}; decode+encode ${r.decodeEncode.spansPerSecond} spans/s`, r.ratio, r.target];
    case 'scaling-window':
      return [r.points.map((p) => `${p.windowKB}KB ${p.microseconds}µs`).join(', '), r.ratio, r.target];
    case 'scaling-args':
      return [r.points.map((p) => `${p.arguments} ${p.microseconds}µs`).join(', '), r.ratio, r.target];
    case 'memory':
      return [`rss ${r.final.rssMB} MB (peak ${r.final.peakRssMB}), heap ${r.final.heapUsedMB} MB; held ${r.coreStats.conversations}, evicted ${r.coreStats.evictedConversations}, state ${r.coreStats.stateMB} MB, ${r.statePerHeldConversationKiB} KiB a held conversation (${r.stateRatio} of the issue's)`, r.ratio ?? '', r.target];
    case 'state-store':
      if (r.skipped) return [`skipped: ${r.skipped}`, '', ''];
      return [`store wait per turn p50 ${r.storeCostPerTurnMs.p50} ms, p99 ${r.storeCostPerTurnMs.p99} ms; ${r.turnsPerSecond.store} turns/s with the store vs ${r.turnsPerSecond.memory} with memory`, r.ratio, `store ≥ ${r.target} × memory`];
  }
};
console.log(`\n== summary (${results.totalSeconds} s)`);
const rows = selected.map((b) => [b.key, ...fmt(b.key), results[b.key]?.met === undefined ? '' : results[b.key].met ? 'met' : 'MISSED']);
const head = ['benchmark', 'figures', 'ratio', 'target', 'verdict'];
const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r) => `| ${r.map((c, i) => String(c).padEnd(w[i])).join(' | ')} |`;
console.log(line(head));
console.log(`|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
// A subset written to the tracked record keeps the other benchmarks' figures as they were (each
// key then says when it was measured), so `--write --only KEY` updates one key only.
const written = (() => {
  for (const b of selected) if (results[b.key] && !results[b.key].error) results[b.key].measuredAt = results.date;
  if (!options.tracked || selected.length === BENCHES.length) return results;
  try {
    const before = JSON.parse(readFileSync(options.path, 'utf8'));
    const kept = Object.fromEntries(BENCHES.filter((b) => !selected.includes(b) && before[b.key]).map((b) => [b.key, { measuredAt: before.date, ...before[b.key] }]));
    return { ...kept, ...results, command: results.command };
  } catch {
    return results;
  }
})();
writeFileSync(options.path, `${JSON.stringify(written, null, 2)}\n`);
const shown = relative(process.cwd(), options.path);
console.log(`\nwrote ${shown.startsWith('..') ? options.path : shown}${options.tracked ? ' (the tracked record)' : ' (not tracked; --write updates bench/results.json)'}`);
