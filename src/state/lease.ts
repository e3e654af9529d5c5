// A batch's lease on a conversation in the shared state store (issue 31): set in the same step as
// the batch reads the conversation, removed by the write of the batch's result. While a lease of
// another instance is there, its write is owed: a reader whose turn started after that batch's
// turn is judged without it and says so; a lease past its expiry means that state was lost. The
// lease names the traces it covers, so a re-send of the same turn to another instance is not
// taken for an earlier one. Pure; never throws on a malformed value (it reads as expired).

/** At most this many trace ids are named in one lease. */
export const MAX_LEASE_TRACES = 16;

export interface Lease {
  /** When the lease lapses (ms since the epoch). */
  expiresAt: number;
  /** Start of the earliest span (or log record) of the batch, in ms since the epoch (Infinity: unknown). */
  start: number;
  /** Trace ids of the batch (at most MAX_LEASE_TRACES). */
  traces: string[];
}

/** The lease field of one batch of one instance. */
export function leaseField(instance: string, seq: number): string {
  return `p:${instance}:${seq}`;
}

/** Whether a lease field is one of `instance`'s. */
export function isOwnLease(field: string, instance: string): boolean {
  return field.startsWith(`p:${instance}:`);
}

export function encodeLease(l: Lease): string {
  return JSON.stringify({ e: l.expiresAt, s: Number.isFinite(l.start) ? l.start : null, t: l.traces.slice(0, MAX_LEASE_TRACES) });
}

/** The lease a stored value says, or undefined when it is not one (read as lapsed by the caller). */
export function parseLease(value: string): Lease | undefined {
  try {
    const o = JSON.parse(value) as { e?: unknown; s?: unknown; t?: unknown };
    if (typeof o.e !== 'number' || !Array.isArray(o.t)) return undefined;
    return { expiresAt: o.e, start: typeof o.s === 'number' ? o.s : Infinity, traces: o.t.filter((x): x is string => typeof x === 'string') };
  } catch {
    return undefined;
  }
}
