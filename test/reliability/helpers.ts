// Helpers of the reliability suite: a loopback OTLP sink that can be switched between answering,
// failing (503), holding requests past the service's downstream timeout, and resetting
// connections; the service as a child process (dist/cli/main.js serve) with its port read from
// its start line; dist/ built when missing or stale; fixture batches with fresh trace ids.
// Everything listens on 127.0.0.1 and every wait is bounded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { decodeLogsRequestProto, decodeTraceRequestProto } from '../../src/otlp/proto.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import type { LogData, SpanData } from '../../src/model/telemetry.js';
import { readAll, readable } from '../service/helpers.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The long run (npm run test:reliability) sets this; npm test runs the scaled-down cases. */
export const LONG = process.env.FOOTPRINT_RELIABILITY_LONG === '1';

export type SinkMode = 'ok' | '503' | 'hang' | 'reset';

export interface FaultSink {
  url: string;
  mode: SinkMode;
  /** How long a request is held in `hang` mode before its socket is destroyed. */
  holdMs: number;
  /** Delay before a 200 (`ok` mode). */
  delayMs: number;
  /** Spans and log records the sink ANSWERED 200 for. */
  spans: SpanData[];
  logs: LogData[];
  /** Requests seen, by the mode they were handled in. */
  handled: Record<SinkMode, number>;
  /** false: decode and count spans (spanCount) but keep nothing (long load runs). */
  keep: boolean;
  spanCount: number;
  close(): Promise<void>;
}


export async function startFaultSink(): Promise<FaultSink> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const sink: FaultSink = { url: '', mode: 'ok', holdMs: 2000, delayMs: 0, spans: [], logs: [], handled: { ok: 0, '503': 0, hang: 0, reset: 0 }, keep: true, spanCount: 0, close: async () => {} };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const mode = sink.mode;
    sink.handled[mode]++;
    if (mode === 'reset') {
      req.socket.destroy();
      return;
    }
    let body = await readAll(req).catch(() => null);
    if (!body) return;
    if (mode === '503') {
      res.writeHead(503, { 'Retry-After': '0' }).end();
      return;
    }
    if (mode === 'hang') {
      const t = setTimeout(() => {
        timers.delete(t);
        req.socket.destroy();
      }, sink.holdMs);
      timers.add(t);
      return;
    }
    if (sink.delayMs) await new Promise((r) => setTimeout(r, sink.delayMs));
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const ct = (req.headers['content-type'] ?? '').split(';')[0]!;
    let spans: SpanData[] = [];
    let logs: LogData[] = [];
    if (req.url === '/v1/traces') {
      if (ct === 'application/x-protobuf') {
        const r = decodeTraceRequestProto(body);
        if (!r.ok) throw new Error(r.error);
        spans = r.value.spans.map((s) => s.span);
      } else spans = decodeOtlpJsonText(body.toString('utf8'), 'sink').spans.map((s) => s.span);
    } else if (req.url === '/v1/logs') {
      if (ct === 'application/x-protobuf') {
        const r = decodeLogsRequestProto(body);
        if (!r.ok) throw new Error(r.error);
        logs = r.value.logs;
      } else logs = decodeOtlpJsonText(body.toString('utf8'), 'sink').logs;
    }
    res.writeHead(200, { 'Content-Type': ct });
    res.end(() => {
      sink.spanCount += spans.length;
      if (!sink.keep) return;
      sink.spans.push(...spans);
      sink.logs.push(...logs);
    });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sink.close = () =>
    new Promise<void>((r) => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return sink;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist/ (npx tsc -p tsconfig.build.json) when dist/cli/main.js is missing or older than src/. Returns what it did. */
export function ensureDist(): 'built' | 'up to date' {
  const main = join(ROOT, 'dist', 'cli', 'main.js');
  let stale: boolean;
  try {
    stale = statSync(main).mtimeMs < newestMtime(join(ROOT, 'src'));
  } catch {
    stale = true;
  }
  if (!stale) return 'up to date';
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe', timeout: 170_000 });
  // As `npm run build` does: the bin runs by itself (`npm exec footprint-otel` in the checkout).
  chmodSync(main, 0o755);
  return 'built';
}

export interface ChildService {
  child: ChildProcess;
  address: string;
  port: number;
  stderr: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const children = new Set<ChildProcess>();

/** Kills every child this module started (afterAll). */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...children].map((c) => killChild(c, 'SIGKILL')));
}

function killChild(c: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) {
    children.delete(c);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      try {
        c.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    c.once('exit', () => {
      clearTimeout(t);
      children.delete(c);
      resolve();
    });
    c.kill(signal);
  });
}

/** Writes a service config file (YAML is JSON) into a temp dir; returns its path. */
export function writeConfig(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'footprint-reliability-'));
  const p = join(dir, 'footprint.json');
  writeFileSync(p, JSON.stringify(config, null, 2));
  return p;
}

/** Starts `node dist/cli/main.js serve --config FILE --listen 127.0.0.1:PORT --grpc-listen off`; resolves once it listens. */
export async function startChildService(configFile: string, port = 0, timeoutMs = 20_000): Promise<ChildService> {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('OTEL_') || k.startsWith('FOOTPRINT_')) delete env[k];
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'serve', '--config', configFile, '--listen', `127.0.0.1:${port}`, '--grpc-listen', 'off'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  const stderr: string[] = [];
  const address = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`service child did not start in ${timeoutMs} ms:\n${stderr.join('')}`)), timeoutMs);
    let buf = '';
    child.stderr!.on('data', (c: Buffer) => {
      const s = c.toString();
      if (stderr.length < 200) stderr.push(s);
      buf += s;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
      if (buf.length > 100_000) buf = buf.slice(-1000);
    });
    child.once('exit', (code, sig) => {
      clearTimeout(t);
      reject(new Error(`service child exited (${code ?? sig}) before listening:\n${stderr.join('')}`));
    });
  });
  return { child, address, port: Number(new URL(address).port), stderr, stop: (signal = 'SIGTERM') => killChild(child, signal) };
}

/** The VmRSS of a process in KiB (Linux), or NaN. */
export function rssKiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

export function protoBody(spans: SpanData[]): Uint8Array {
  return ProtobufTraceSerializer.serializeRequest(readable(spans))!;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every span id of `spans` that the sink does not hold. */
export function missingAtSink(sink: { spans: SpanData[] }, spans: readonly { traceId: string; spanId: string }[]): string[] {
  const have = new Set(sink.spans.map((s) => `${s.traceId}/${s.spanId}`));
  return spans.map((s) => `${s.traceId}/${s.spanId}`).filter((k) => !have.has(k));
}
