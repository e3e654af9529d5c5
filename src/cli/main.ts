#!/usr/bin/env node
// The `footprint-otel` command: dispatches to `check` (offline, over exported traces) and `serve`
// (the OTLP service for the collector path). Prints a one-line reason and exits 2 on bad usage.

import { runCheck, CHECK_USAGE } from './check.js';

const USAGE = `usage: footprint-otel <command> [options]
commands:
  check FILE...   check exported traces and print findings (footprint-otel check --help)
  declarations suggest TRACE...  draft declarations from what the agent did (footprint-otel declarations --help)
  serve           run the OTLP/HTTP service for the collector path (footprint-otel serve --help)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'check') {
    const r = runCheck(rest);
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    return r.exitCode;
  }
  if (command === 'declarations') {
    const r = (await import('./suggest.js')).runDeclarations(rest);
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    return r.exitCode;
  }
  if (command === 'serve') {
    const { runServeCommand } = await import('./serve.js');
    return runServeCommand(rest);
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n\n${CHECK_USAGE}\n`);
    return 0;
  }
  process.stderr.write(`footprint-otel: ${command ? `unknown command "${command}"` : 'no command given'}\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`footprint-otel: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
