// What `serve` says when it has started, for a person reading the terminal: where it listens,
// which checks are armed by the declarations and which by inference (and, with no declarations,
// the one command that drafts them),
// and where findings go. Also the one line said when an address cannot be bound, naming the flag
// that changes it. Pure: builds lines from config and declarations; never prints, never throws.

import type { Declarations } from '../declarations/types.js';
import { armedChecks, armedLine, checkTiers, tierLine } from '../declarations/armed.js';
import type { ServiceConfig } from './config.js';
import { authRequired } from './auth.js';
import * as N from './names.js';

/** The command that drafts declarations from a recorded trace (the CLI's). */
export const SUGGEST_COMMAND = 'footprint-otel declarations suggest <trace file>';

export function startSummary(config: ServiceConfig, declarations: Declarations | undefined, address: string, grpcAddress: string | null): string[] {
  const lines: string[] = [];
  lines.push(`footprint-otel serve: OTLP/HTTP on ${address}${N.PATH_TRACES} and ${N.PATH_LOGS}${grpcAddress ? `; OTLP/gRPC on ${grpcAddress}` : ' (gRPC off: --grpc-listen HOST:PORT to add it)'}`);
  lines.push(`  auth: ${authRequired(config.auth) ? 'bearer token required (health probes open)' : 'none (loopback only is the safe default; set FOOTPRINT_AUTH_TOKEN before listening elsewhere)'}`);
  if (!config.checks) lines.push('  checks: off (checks: false in the config); spans pass through unchanged');
  else {
    const armed = armedChecks(declarations);
    if (armed.declared.length === 0 && armed.inferred.length === 0) {
      lines.push(`  checks: none armed — ${declarations ? `${config.declarationsPath} declares nothing that arms a check, and turns inference off` : 'no declarations given (--declarations FILE)'}`);
      lines.push(`  draft declarations from a recorded trace with: ${SUGGEST_COMMAND}`);
    } else {
      lines.push(`  checks: ${armedLine(armed, config.declarationsPath ?? 'declarations')}`);
      lines.push(`  ${tierLine(checkTiers(declarations))}`);
      if (armed.declared.length === 0) lines.push(`  draft declarations from a recorded trace with: ${SUGGEST_COMMAND}`);
    }
  }
  const ds = config.downstream;
  if (ds) {
    lines.push(`  findings: span events on the spans exported to ${ds.tracesUrl} (${ds.protocol})${ds.logsUrl ? `; log records forwarded to ${ds.logsUrl}${config.evaluations && config.evaluationEvents !== 'off' ? `, with the gen_ai.evaluation.result events as log records (${config.evaluationEvents})` : ''}` : '; no logs endpoint'}`);
  } else {
    lines.push(`  findings: ${config.embedded.print ? 'printed here, one line each, and ' : ''}kept for the last ${config.embedded.runs} traces at ${address}${N.PATH_FINDINGS}; spans are not exported (set ${N.OTEL_ENDPOINT} to forward them)`);
  }
  return lines;
}

/** One line for an address that could not be bound, naming the flag that changes it. */
export function bindFailureLine(what: 'http' | 'grpc', host: string, port: number, e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const raw = String((e as Error | undefined)?.message ?? e).split('\n')[0]!.slice(0, 200);
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const reason = code === 'EADDRINUSE' || /in use|No address added/i.test(raw) ? 'is already in use (another footprint-otel, a collector or Jaeger?)' : code === 'EACCES' ? 'is not allowed for this user' : code === 'EADDRNOTAVAIL' ? 'is not an address of this machine' : `could not be bound (${raw})`;
  return what === 'http'
    ? `serve: ${where} ${reason}; choose another address with --listen HOST:PORT (or ${N.ENV_LISTEN})`
    : `serve: gRPC ${where} ${reason}; choose another with --grpc-listen HOST:PORT, or leave gRPC off (the default)`;
}
