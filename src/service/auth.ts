// Who a request is: the bearer token checked against the configured tokens (auth.token, one
// token that sees every tenant; auth.tokens, each bound to the tenants it may see), compared in
// constant time. Used by the HTTP and gRPC receivers and the findings/explain routes.
// Must never log or echo a token, never throw on a malformed header, and never grant a tenant
// a token was not bound to.

import { createHash, timingSafeEqual } from 'node:crypto';

/** A token bound to tenants; `*` among them: every tenant. */
export interface TokenGrant {
  token: string;
  tenants: string[];
}

export interface AuthConfig {
  /** One token that sees every tenant (FOOTPRINT_AUTH_TOKEN, auth.token), or null. */
  token: string | null;
  /** Tokens bound to tenants (auth.tokens); absent: none. */
  tokens?: TokenGrant[];
}

/** Tenant wildcard in auth.tokens[].tenants. */
export const ALL_TENANTS = '*';

/** refused, or who the request may see: `tenants` undefined means every tenant. */
export type Access = { ok: false } | { ok: true; tenants?: readonly string[] };

export function authRequired(auth: AuthConfig): boolean {
  return !!auth.token || (auth.tokens?.length ?? 0) > 0;
}

function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1]! : undefined;
}

function sameToken(expected: string, given: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function tokenMatches(expected: string, header: string | undefined): boolean {
  const given = bearer(header);
  return given !== undefined && sameToken(expected, given);
}

/** What an `Authorization` header grants. With no token configured, everything is open. */
export function authorize(auth: AuthConfig, header: string | undefined): Access {
  if (!authRequired(auth)) return { ok: true };
  const given = bearer(header);
  if (given === undefined) return { ok: false };
  // Every token is compared (no early exit), so timing does not tell which one matched.
  let all = !!auth.token && sameToken(auth.token, given);
  const tenants = new Set<string>();
  let bound = false;
  for (const g of auth.tokens ?? []) {
    if (!sameToken(g.token, given)) continue;
    bound = true;
    for (const t of g.tenants) {
      if (t === ALL_TENANTS) all = true;
      tenants.add(t);
    }
  }
  if (all) return { ok: true };
  return bound ? { ok: true, tenants: [...tenants] } : { ok: false };
}
