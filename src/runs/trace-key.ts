// The key of everything the core keeps per trace or per span: the tenant AND the id. A trace id is
// not a secret (it travels in every traceparent header), so a tenant that learns another tenant's
// trace id must not be able to add to that trace's record, tallies, findings or waiting spans by
// sending spans of its own under it: each tenant's part of a trace is a record of its own.
// Pure; must never throw. Tenants are resource attribute values (src/model/tenant.ts); ids are hex.

const SEP = '\u0000';

/** The core's key of one tenant's part of a trace. */
export function traceKey(tenant: string, traceId: string): string {
  return `${tenant}${SEP}${traceId}`;
}

/** The tenant and trace id of a traceKey (the trace id is hex: the last separator splits). */
export function splitTraceKey(key: string): { tenant: string; traceId: string } {
  const at = key.lastIndexOf(SEP);
  return { tenant: key.slice(0, at), traceId: key.slice(at + 1) };
}

/** The core's key of one tenant's span (`traceId/spanId` after the tenant). */
export function tenantSpanKey(tenant: string, spanKey: string): string {
  return `${tenant}${SEP}${spanKey}`;
}
