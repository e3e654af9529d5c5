#!/usr/bin/env node
// The `footprint-otel` command: a table from command name to its runner (`check` offline over
// exported traces, `serve` the OTLP service), plus --help and --version. Exit codes are those of
// exit-codes.ts. It must never run a command's logic itself: one table line per command.

import { runCheck, CHECK_USAGE } from './check.js';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { versionLine } from './version.js';
import { outputWidth } from './wrap.js';
import { nearest } from '../declarations/nearest.js';

const USAGE = `usage: footprint-otel <command> [options]
commands:
  check FILE...   check exported traces and print findings (footprint-otel check --help)
  declarations suggest TRACE...  draft declarations from what the agent did (footprint-otel declarations --help)
  serve           run the OTLP/HTTP service for the collector path (footprint-otel serve --help)
  --version       print the version`;

type Runner = (argv: string[]) => Promise<number>;

/** One line per command. */
const COMMANDS: Record<string, Runner> = {
  check: async (argv) => {
    const r = runCheck(argv, { width: outputWidth(process.stdout) });
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    return r.exitCode;
  },
  declarations: async (argv) => {
    const r = (await import('./suggest.js')).runDeclarations(argv);
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    return r.exitCode;
  },
  serve: async (argv) => (await import('./serve.js')).runServeCommand(argv),
  help: async () => (process.stdout.write(`${USAGE}\n\n${CHECK_USAGE}\n\n${EXIT_CODES_HELP}\n`), EXIT.ok),
  version: async () => (process.stdout.write(`${versionLine()}\n`), EXIT.ok),
};
const ALIASES: Record<string, string> = { '--help': 'help', '-h': 'help', '--version': 'version', '-V': 'version' };

async function main(argv: string[]): Promise<number> {
  const [given, ...rest] = argv;
  const command = given === undefined ? undefined : (ALIASES[given] ?? given);
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run) return run(rest);
  const near = given === undefined ? undefined : nearest(given.replace(/^-+/, ''), Object.keys(COMMANDS));
  const reason = given === undefined ? 'no command given' : `unknown command "${given}"${near ? `; did you mean ${near}?` : ''}`;
  process.stderr.write(`footprint-otel: ${reason}\n${USAGE}\n`);
  return EXIT.usage;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`footprint-otel: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = EXIT.internal;
  },
);
