// Shared helpers for the benches: median, side-by-side interleaved rounds, the baseline exporters,
// thread CPU time, bench child processes, and the one line each bench child prints for
// bench/run.mjs to collect.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

export const round = (x, digits = 2) => +x.toFixed(digits);

/**
 * Runs `variants` (name -> async () => number of nanoseconds for the round) in alternating order,
 * `rounds` times each after `warmup` untimed rounds each, so machine noise falls on both alike.
 * Returns each variant's per-round figures and median.
 */
export async function interleave(variants, { rounds = 5, warmup = 1 } = {}) {
  const names = Object.keys(variants);
  for (let w = 0; w < warmup; w++) for (const n of names) await variants[n]();
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const n of order) {
      if (globalThis.gc) globalThis.gc();
      times[n].push(await variants[n]());
    }
  }
  return Object.fromEntries(names.map((n) => [n, { rounds: times[n], median: median(times[n]) }]));
}

/**
 * Side by side at a fine grain: each round runs `blocks` blocks of each variant, alternating
 * A B B A ..., so a burst of machine noise lands on both alike. `variants` maps a name to an
 * async function(blockIndex) that runs one block; `setup()` / `teardown()` run once per round
 * around the blocks, untimed. Returns per variant the time of each round (ns, sum of its blocks)
 * and the median, and the median of the per-round ratios second/first.
 */
export async function interleaveBlocks(makeRound, { rounds = 5, blocks = 50, warmupBlocks = 5 } = {}) {
  const perRound = [];
  for (let r = -1; r < rounds; r++) {
    const variants = await makeRound(r);
    const names = Object.keys(variants).filter((n) => n !== 'teardown');
    const sums = Object.fromEntries(names.map((n) => [n, 0]));
    const count = r < 0 ? warmupBlocks : blocks; // round -1 warms up, untimed
    for (let b = 0; b < count; b++) {
      const order = b % 2 === 0 ? names : [...names].reverse();
      for (const n of order) {
        const t0 = process.hrtime.bigint();
        await variants[n](b);
        sums[n] += Number(process.hrtime.bigint() - t0);
      }
    }
    if (variants.teardown) await variants.teardown();
    if (r >= 0) perRound.push(sums);
    if (globalThis.gc) globalThis.gc();
  }
  const names = Object.keys(perRound[0]);
  const out = Object.fromEntries(names.map((n) => [n, { rounds: perRound.map((s) => s[n]), median: median(perRound.map((s) => s[n])) }]));
  out.ratio = median(perRound.map((s) => s[names[1]] / s[names[0]]));
  return out;
}

/** An exporter that accepts every batch at once, counts its spans and, given `bytesOf`, what that reads of them. */
function countingExporter(bytesOf) {
  const ex = {
    exported: 0,
    bytes: 0,
    export(spans, done) {
      ex.exported += spans.length;
      if (bytesOf) ex.bytes += bytesOf(spans);
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  return ex;
}

/** An exporter that drops every batch unread. */
export const noopExporter = () => countingExporter();

/**
 * An exporter that does what an OTLP/protobuf exporter does on the app's thread before it sends:
 * serializes the batch with the real serializer (@opentelemetry/otlp-transformer), then drops the
 * bytes. A baseline needs it wherever footprint's cost is compared with the app's own: the app's
 * exporter reads every string attribute, and the first read of a string that JSON.stringify built
 * (a rope of parts in V8) flattens it, ~0.5 ms for 170 KB. With a no-op exporter nobody reads the
 * window in the baseline and footprint, reading it first, would be charged the app's own flatten.
 */
export async function serializingExporter() {
  const { ProtobufTraceSerializer } = await import('@opentelemetry/otlp-transformer');
  return countingExporter((spans) => ProtobufTraceSerializer.serializeRequest(spans)?.length ?? 0);
}

/**
 * An exporter that does only what every exporter must: read each string attribute once (here its
 * UTF-8 length, as a serializer sizes a field before writing it), then drops the batch. The low-
 * noise baseline where footprint's per-request cost is small beside the app's own: it carries the
 * flatten of the app's JSON.stringify ropes (see serializingExporter) and none of the rest of the
 * serialization, whose own noise would swamp the difference.
 */
export function readingExporter() {
  return countingExporter((spans) => {
    let n = 0;
    for (const s of spans) {
      const a = s.attributes;
      for (const k in a) if (typeof a[k] === 'string') n += Buffer.byteLength(a[k], 'utf8');
    }
    return n;
  });
}

/** The exporter a bench's BENCH_*_EXPORTER names: 'noop', 'read' or 'otlp-proto'. */
export async function exporterNamed(name) {
  if (name === 'noop') return noopExporter();
  if (name === 'read') return readingExporter();
  if (name === 'otlp-proto') return serializingExporter();
  throw new Error(`unknown exporter "${name}": noop, read or otlp-proto`);
}

/** CPU nanoseconds a thread of this process has run (Linux schedstat); undefined elsewhere. */
export function threadCpuNs(tid) {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

/** CPU nanoseconds of the whole process (every thread). */
export const processCpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

/**
 * Runs a bench's own child mode, `node --expose-gc SCRIPT child VARIANT DIST` (each run in a fresh
 * process), with `env` added, and resolves with the JSON of its result line: the stdout line that
 * starts with `prefix`, else its last line.
 */
export function runBenchChild(script, variant, dist, { env = {}, prefix } = {}) {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--expose-gc', script, 'child', variant, dist], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      const line = prefix === undefined ? out.trim().split('\n').pop() : out.split('\n').find((l) => l.startsWith(prefix))?.slice(prefix.length);
      if (code !== 0 || !line) rej(new Error(`${basename(script)} child ${variant} exited ${code}`));
      else res(JSON.parse(line));
    });
  });
}

export const yieldToLoop = () => new Promise((r) => setImmediate(r));

/** The line bench/run.mjs reads from a bench child: `BENCH-RESULT <key> <json>`. */
export function emit(key, result) {
  console.log(`BENCH-RESULT ${key} ${JSON.stringify(result)}`);
}

export const isMain = (url) => url === `file://${process.argv[1]}`;
