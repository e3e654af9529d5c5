// Entry points for `footprint-otel serve`: startService(config) runs a validated config and
// returns its addresses and shutdown(); runServe(argv) is the CLI body (flags, config file, env,
// signals) returning an exit code. The CLI wiring itself lives in src/cli (the lead's).
// Must never call process.exit, and never throw at the CLI: errors are printed and returned as
// exit code 2 (bad usage or config) or 1 (could not start).

import { loadDeclarationsFile } from '../declarations/load.js';
import type { DeclarationsResult } from '../declarations/schema.js';
import { loadServiceConfig, type ServiceConfig } from './config.js';
import { BindError, serviceFactory, type ServiceSettings } from './factory.js';

export interface RunningService {
  address: string;
  grpcAddress: string | null;
  shutdown(): Promise<void>;
}

/** Starts the service on a resolved config. Rejects only when it cannot start (e.g. address in use, bad declarations). */
export async function startService(config: ServiceConfig, settings: ServiceSettings = {}): Promise<RunningService> {
  const created = serviceFactory.create(config, { loadDeclarations: loadDeclarationsFile, ...settings });
  if (!created.ok) throw new Error(created.errors.join('\n'));
  const svc = created.service;
  const { address, grpcAddress } = await svc.start();
  return { address, grpcAddress, shutdown: () => svc.shutdown() };
}

export interface ServeDeps {
  env?: Record<string, string | undefined>;
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Declarations loader (the CLI's); default src/declarations' file loader. */
  loadDeclarations?: (path: string) => DeclarationsResult;
  /** Resolves when the service should stop; default SIGINT/SIGTERM. */
  stopSignal?: Promise<unknown>;
  /** Called once the service listens (tests read the addresses). */
  onStarted?: (s: RunningService) => void;
  settings?: Omit<ServiceSettings, 'loadDeclarations'>;
}

const USAGE = `usage: footprint-otel serve [--config FILE] [--listen HOST:PORT] [--grpc-listen HOST:PORT|off] [--declarations FILE]
                             [--state memory|redis://HOST:PORT]
  Receives OTLP/HTTP (/v1/traces, /v1/logs; default 127.0.0.1:4318) and, when --grpc-listen is
  given, OTLP/gRPC; writes findings as span events and exports onward to
  OTEL_EXPORTER_OTLP_ENDPOINT (or downstream.endpoint in the config file).
  With no downstream, prints findings and serves them at GET /api/findings.
  --state (FOOTPRINT_STATE): where conversation state lives; a Valkey/Redis URL shares it between
  instances and restarts (default memory: this process only).`;

export async function runServe(argv: readonly string[], deps: ServeDeps = {}): Promise<number> {
  const out = deps.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = deps.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const flags: { config?: string; listen?: string; grpcListen?: string; declarations?: string; state?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : undefined;
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case '--config': flags.config = value(); break;
      case '--listen': flags.listen = value(); break;
      case '--grpc-listen': flags.grpcListen = value(); break;
      case '--declarations': flags.declarations = value(); break;
      case '--state': flags.state = value(); break;
      case '-h':
      case '--help':
        out(USAGE);
        return 0;
      default:
        err(`serve: unknown argument "${a.slice(0, 80)}"\n${USAGE}`);
        return 2;
    }
    for (const [k, v] of Object.entries(flags)) {
      if (v === undefined || v === '' || v.startsWith('--')) {
        err(`serve: --${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs a value`);
        return 2;
      }
    }
  }
  const loaded = loadServiceConfig({
    ...(flags.config ? { file: flags.config } : {}),
    env: deps.env ?? process.env,
    overrides: {
      ...(flags.listen ? { listen: flags.listen } : {}),
      ...(flags.grpcListen ? { grpcListen: flags.grpcListen } : {}),
      ...(flags.declarations ? { declarations: flags.declarations } : {}),
      ...(flags.state ? { state: flags.state } : {}),
    },
  });
  if (!loaded.ok) {
    for (const e of loaded.errors) err(`serve: ${e}`);
    return 2;
  }
  for (const w of loaded.warnings) err(`serve: warning: ${w}`);
  const created = serviceFactory.create(loaded.config, { ...(deps.settings ?? {}), loadDeclarations: deps.loadDeclarations ?? loadDeclarationsFile });
  if (!created.ok) {
    for (const e of created.errors) err(`serve: ${e}`);
    return 2;
  }
  const svc = created.service;
  let running: RunningService;
  try {
    const a = await svc.start();
    running = { ...a, shutdown: () => svc.shutdown() };
  } catch (e) {
    // One clear line (the address and the flag that changes it), never a stack trace.
    err(e instanceof BindError ? e.line : `serve: could not start: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
    return 1;
  }
  for (const line of svc.summary()) err(line);
  deps.onStarted?.(running);
  let stop: Promise<unknown>;
  const cleanups: (() => void)[] = [];
  if (deps.stopSignal) stop = deps.stopSignal;
  else {
    stop = new Promise<void>((resolve) => {
      for (const sig of ['SIGINT', 'SIGTERM'] as const) {
        const h = () => resolve();
        process.once(sig, h);
        cleanups.push(() => process.off(sig, h));
      }
    });
  }
  await stop;
  for (const c of cleanups) c();
  await running.shutdown();
  return 0;
}
