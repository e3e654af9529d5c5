// The sending scope of a tenant-bound token (auth.tokens[].tenants): such a token may send only
// spans and log records whose resource names one of its tenants. A request holding another
// tenant's records is refused whole (HTTP 403 / gRPC PERMISSION_DENIED), before it is analysed
// or forwarded, so one team's token can neither ground a value in, nor raise findings on, another
// team's conversations. A token that sees every tenant (auth.token, `*`) sends anything.
// Whatever any token sends, a log record joins only a span of its own tenant (the core refuses the
// rest; ownTenantLogs holds the explain routes to the same rule).
// Pure; must never throw on odd resources.

import { tenantOfResource } from '../model/tenant.js';
import { spanKey, type LogData, type SpanData } from '../model/telemetry.js';
import type { LogsBatch, TraceBatch } from './pipeline.js';

/** At most this many foreign tenants are named in a refusal. */
const NAMED_AT_MOST = 5;

/** The tenants in `resources` that `allowed` does not hold (none when `allowed` is undefined: every tenant). */
export function foreignTenants(allowed: readonly string[] | undefined, resources: Iterable<Readonly<Record<string, unknown>>>, tenantAttribute: string): string[] {
  if (allowed === undefined) return [];
  const ok = new Set(allowed);
  const foreign = new Set<string>();
  let last: Readonly<Record<string, unknown>> | undefined;
  for (const r of resources) {
    if (r === last) continue; // the records of one resource share its object
    last = r;
    const t = tenantOfResource(r, tenantAttribute);
    if (!ok.has(t)) foreign.add(t);
  }
  return [...foreign];
}

/** foreignTenants over the resources of a decoded request's spans or log records. */
export function foreignTenantsOf(allowed: readonly string[] | undefined, batch: Pick<TraceBatch, 'signal' | 'spans'> | Pick<LogsBatch, 'signal' | 'logs'>, tenantAttribute: string): string[] {
  if (allowed === undefined) return [];
  return foreignTenants(allowed, batch.signal === 'traces' ? batch.spans.map((s) => s.span.resource) : batch.logs.map((l) => l.resource), tenantAttribute);
}

/** The refusal's message: which tenants the token may send for, and which the request held. */
export function foreignTenantsMessage(signal: 'traces' | 'logs', allowed: readonly string[], foreign: readonly string[], tenantAttribute: string): string {
  const named = foreign.slice(0, NAMED_AT_MOST).map((t) => JSON.stringify(t)).join(', ');
  const more = foreign.length > NAMED_AT_MOST ? ` and ${foreign.length - NAMED_AT_MOST} more` : '';
  return `this token may send ${signal} only for tenants ${JSON.stringify(allowed)} (resource attribute ${tenantAttribute}); the request holds ${named}${more}: nothing in it was analysed or forwarded`;
}

/** The records of `logs` that may join the span they name among `spans`: those of the span's own tenant (and those naming no span held). */
export function ownTenantLogs(spans: readonly SpanData[], logs: readonly LogData[], tenantAttribute: string): LogData[] {
  const tenantOf = new Map<string, string>();
  for (const s of spans) if (!tenantOf.has(spanKey(s))) tenantOf.set(spanKey(s), tenantOfResource(s.resource, tenantAttribute));
  return logs.filter((l) => {
    const t = l.traceId && l.spanId ? tenantOf.get(spanKey({ traceId: l.traceId, spanId: l.spanId })) : undefined;
    return t === undefined || t === tenantOfResource(l.resource, tenantAttribute);
  });
}
