// What `serve` says when it has started, for a person reading the terminal: where it listens,
// which checks are armed by the declarations (and, with none, the one command that drafts them),
// and where findings go. Also the one line said when an address cannot be bound, naming the flag
// that changes it. Pure: builds lines from config and declarations; never prints, never throws.

import type { Declarations } from '../declarations/types.js';
import { CHECK_CATALOG } from '../checks/catalog.js';
import type { ServiceConfig } from './config.js';
import { authRequired } from './auth.js';
import * as N from './names.js';

/** The command that drafts declarations from a recorded trace (the CLI's). */
export const SUGGEST_COMMAND = 'footprint-otel declarations suggest <trace file>';

/** Which registered checks the declarations arm (declared, never inferred: see src/declarations/types.ts). */
export function armedChecks(d: Declarations | undefined): string[] {
  if (!d) return [];
  const tools = Object.values(d.tools ?? {});
  const armed = new Set<string>();
  if (tools.some((t) => (t.argumentsFrom?.length ?? 0) > 0)) for (const id of ['dangling-reference', 'unsupported-argument', 'empty-lookup']) armed.add(id);
  if (tools.some((t) => t.resultColumns && Object.keys(t.resultColumns).length > 0)) armed.add('result-columns');
  if (d.answers?.checkValues) for (const id of ['unsupported-value', 'prior-turn-evidence']) armed.add(id);
  if (d.claims && Object.keys(d.claims).length > 0) armed.add('unsupported-claim');
  if (tools.length > 0) armed.add('refusal-asserts-absence');
  return CHECK_CATALOG.map((c) => c.id).filter((id) => armed.has(id));
}

export function startSummary(config: ServiceConfig, declarations: Declarations | undefined, address: string, grpcAddress: string | null): string[] {
  const lines: string[] = [];
  lines.push(`footprint-otel serve: OTLP/HTTP on ${address}${N.PATH_TRACES} and ${N.PATH_LOGS}${grpcAddress ? `; OTLP/gRPC on ${grpcAddress}` : ' (gRPC off: --grpc-listen HOST:PORT to add it)'}`);
  lines.push(`  auth: ${authRequired(config.auth) ? 'bearer token required (health probes open)' : 'none (loopback only is the safe default; set FOOTPRINT_AUTH_TOKEN before listening elsewhere)'}`);
  if (!config.checks) lines.push('  checks: off (checks: false in the config); spans pass through unchanged');
  else {
    const armed = armedChecks(declarations);
    const all = CHECK_CATALOG.map((c) => c.id);
    if (armed.length === 0) {
      lines.push(`  checks: none armed — ${declarations ? `${config.declarationsPath} declares nothing that arms a check` : 'no declarations given (--declarations FILE)'}; every check needs a declaration to examine a tool or an answer`);
      lines.push(`  draft declarations from a recorded trace with: ${SUGGEST_COMMAND}`);
    } else {
      const rest = all.filter((id) => !armed.includes(id));
      lines.push(`  checks armed (${config.declarationsPath}): ${armed.join(', ')}${rest.length ? `; not armed (nothing declared for them): ${rest.join(', ')}` : ''}`);
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
