// Signed, short-lived links to the "Explain this answer" page, and the browser session a person
// gets by signing in with a token: so a page behind bearer-token auth opens from Jaeger, Grafana
// or a copied URL in a plain browser. A link names one trace and one tenant and expires; a session
// names the tenants its token could see and expires. Both are HMAC-SHA256 over a fixed, versioned
// layout with the service's link secret, carry only [0-9A-Za-z._-] (Jaeger's link patterns
// URI-encode what they insert, which leaves these as they are) and are compared in constant time.
// Pure (the caller gives the time); must never accept a token whose signature, layout or expiry
// does not check, and never put a secret into a token.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { DEFAULT_LIMITS } from '../limits.js';
import { ATTR_EXPLAIN_LINK, ATTR_EXPLAIN_URL, ATTR_FINDING_ID, EVENT_FINDING } from '../findings/names.js';
import type { Attributes } from '../model/telemetry.js';

const LINK_VERSION = 'l1';
const SESSION_VERSION = 's1';
/** Every tenant (a token bound to `*`, or the one token that sees all). */
export const ALL = '*';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string): string | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return undefined;
  const out = Buffer.from(s, 'base64url').toString('utf8');
  return b64(out) === s ? out : undefined;
};
const mac = (secret: string, parts: readonly string[]) => createHmac('sha256', secret).update(parts.join('\n'), 'utf8').digest('base64url');

function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A link token for one trace and tenant, valid until `expiresAt` (Unix seconds). */
export function signLink(secret: string, traceId: string, tenant: string, expiresAt: number): string {
  const t = b64(tenant);
  const exp = String(Math.floor(expiresAt));
  return `${LINK_VERSION}.${traceId}.${t}.${exp}.${mac(secret, ['footprint-otel explain link', LINK_VERSION, traceId, t, exp])}`;
}

export type LinkCheck = { ok: true; traceId: string; tenant: string; expiresAt: number } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' };

export function verifyLink(secret: string, token: string, now: number): LinkCheck {
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== LINK_VERSION || !/^[0-9a-f]{32}$/.test(parts[1]!) || !/^\d{1,12}$/.test(parts[3]!)) return { ok: false, reason: 'malformed' };
  const [, traceId, t, exp, sig] = parts as [string, string, string, string, string];
  const tenant = unb64(t);
  if (tenant === undefined) return { ok: false, reason: 'malformed' };
  if (!sameMac(mac(secret, ['footprint-otel explain link', LINK_VERSION, traceId, t, exp]), sig)) return { ok: false, reason: 'bad-signature' };
  const expiresAt = Number(exp);
  if (expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, traceId, tenant, expiresAt };
}

/** A session for the tenants a token could see (`[ALL]`: every tenant), valid until `expiresAt`. */
export function signSession(secret: string, tenants: readonly string[], expiresAt: number): string {
  const t = b64(JSON.stringify([...tenants].sort()));
  const exp = String(Math.floor(expiresAt));
  return `${SESSION_VERSION}.${t}.${exp}.${mac(secret, ['footprint-otel explain session', SESSION_VERSION, t, exp])}`;
}

export type SessionCheck = { ok: true; tenants: string[] | undefined } | { ok: false };

/** `tenants` undefined: every tenant. */
export function verifySession(secret: string, token: string, now: number): SessionCheck {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== SESSION_VERSION || !/^\d{1,12}$/.test(parts[2]!)) return { ok: false };
  const [, t, exp, sig] = parts as [string, string, string, string];
  if (!sameMac(mac(secret, ['footprint-otel explain session', SESSION_VERSION, t, exp]), sig)) return { ok: false };
  if (Number(exp) <= now) return { ok: false };
  const json = unb64(t);
  try {
    const tenants = JSON.parse(json ?? 'null') as unknown;
    if (!Array.isArray(tenants) || !tenants.every((x) => typeof x === 'string')) return { ok: false };
    return { ok: true, tenants: tenants.includes(ALL) ? undefined : (tenants as string[]) };
  } catch {
    return { ok: false };
  }
}

/** The page's URL for a link token, with the finding's anchor. */
export function linkUrl(base: string, token: string, findingId?: string): string {
  return `${base}/explain/link/${token}${findingId ? `#finding-${findingId}` : ''}`;
}

/**
 * The URL of a finding's page: with a secret, a signed link to the trace for its tenant (and the
 * token alone, for Jaeger's link pattern); else the plain page URL, the tenant named when it fits
 * the attribute bound.
 */
export function explainUrl(base: string, traceId: string, tenant: string, findingId: string | undefined, signed?: { secret: string; expiresAt: number }): { url: string; link?: string } {
  const bound = DEFAULT_LIMITS.maxWrittenAttributeBytes;
  if (signed) {
    const token = signLink(signed.secret, traceId, tenant, signed.expiresAt);
    const url = linkUrl(base, token, findingId);
    if (Buffer.byteLength(url, 'utf8') <= bound) return { url, link: token };
  }
  const withTenant = `${base}/explain/${traceId}?tenant=${encodeURIComponent(tenant)}${findingId ? `#finding-${findingId}` : ''}`;
  return { url: Buffer.byteLength(withTenant, 'utf8') <= bound ? withTenant : `${base}/explain/${traceId}${findingId ? `#finding-${findingId}` : ''}` };
}

/** Writes footprint.explain.url (and footprint.explain.link when signed) on every finding event of the list. */
export function linkFindingEvents(events: readonly { name: string; attributes: Attributes }[], base: string, traceId: string, tenant: string, signed?: { secret: string; expiresAt: number }): void {
  for (const e of events) {
    if (e.name !== EVENT_FINDING) continue;
    const id = typeof e.attributes[ATTR_FINDING_ID] === 'string' ? (e.attributes[ATTR_FINDING_ID] as string) : undefined;
    const u = explainUrl(base, traceId, tenant, id, signed);
    e.attributes[ATTR_EXPLAIN_URL] = u.url;
    if (u.link) e.attributes[ATTR_EXPLAIN_LINK] = u.link;
  }
}
