// "Explain this answer" in the service: a bounded store of recent traces as they left the core
// (spans with the events it added, carriers, joined log records, and the raw values the findings
// quoted, kept in memory only so the page can redact tool words that hold one), a core wrapper
// that fills it and, when a public base URL is configured, writes `footprint.explain.url` on each
// finding event (with auth on: a signed, short-lived link, and its token alone as
// `footprint.explain.link`), and the routes GET /api/explain/{traceId} (JSON: the turns' accounts
// + shown map) and GET /explain/{traceId} (the page), tenant-scoped (`?tenant=`), behind the
// receiver's auth; a token bound to tenants (auth.tokens) sees only those tenants' traces. For a
// browser with auth on: GET /explain/link/{token} opens the page a signed link names, and
// GET /explain/{traceId} without a token answers a sign-in form (POST /explain/login) that sets a
// session cookie (HttpOnly, SameSite=Lax, Path=/explain) for the tenants the token may see.
// Bounded in traces, spans and logs per trace, bytes and idle time. Must never throw at the
// receiver or the pipeline, never answer a trace of a tenant the request did not name when the
// trace holds more than one, and never grant more than the link, session or token names.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogData, SpanData, SpanEventData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import type { ProcessInput, ProcessResult } from '../runs/options.js';
import type { Declarations } from '../declarations/types.js';
import type { Redaction } from '../model/finding.js';
import { EXPLAIN_LIMITS } from '../limits.js';
import { annotatedSpans } from '../explain/annotate.js';
import { explainTrace } from '../explain/explain.js';
import { renderPage, pageHeaders, renderSignIn, signInHeaders } from '../explain/html.js';
import { escapeHtml } from '../explain/escape.js';
import { tenantOfSpan } from '../explain/record.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
import { ATTR_CARRIER_SUBJECT_SPAN_ID, CARRIER_SPAN_NAME } from '../findings/names.js';
import { createHmac } from 'node:crypto';
import type { Finding } from '../model/finding.js';
import type { SensitiveValues } from '../explain/record.js';
import { sensitiveOfFindings } from '../explain/page.js';
import { linkFindingEvents, signSession, verifyLink, verifySession, ALL } from '../explain/link.js';
import { authorize, authRequired, type AuthConfig } from './auth.js';
import type { CoreLike } from './pipeline.js';
import * as N from './names.js';

/** Raw sensitive values kept per trace (values, and witness values), and characters per value. */
const MAX_SENSITIVE_PER_TRACE = 2000;
const MAX_SENSITIVE_CHARS = 4096;

interface Kept {
  spans: SpanData[];
  logs: LogData[];
  sensitive: { values: string[]; witnessValues: string[] };
  conversation?: string;
  bytes: number;
  at: number;
  /** Spans or logs past the per-trace bounds were not kept. */
  cut: boolean;
}

function approxBytes(v: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [v];
  let visited = 0;
  while (stack.length > 0 && visited++ < 200_000) {
    const x = stack.pop();
    if (typeof x === 'string') bytes += x.length * 2 + 16;
    else if (x instanceof Uint8Array) bytes += x.byteLength + 64;
    else if (x !== null && typeof x === 'object') {
      bytes += 32;
      for (const k in x as Record<string, unknown>) {
        bytes += k.length * 2 + 16;
        stack.push((x as Record<string, unknown>)[k]);
      }
    } else bytes += 16;
  }
  return bytes;
}

type ExplainLimits = Record<keyof typeof EXPLAIN_LIMITS, number>;

export interface ExplainStoreOptions {
  limits?: Partial<ExplainLimits>;
  now?: () => number;
}

export class ExplainStore {
  private readonly traces = new Map<string, Kept>();
  private bytes = 0;
  private readonly limits: ExplainLimits;
  private readonly now: () => number;

  constructor(o: ExplainStoreOptions = {}) {
    this.limits = { ...EXPLAIN_LIMITS, ...o.limits };
    this.now = o.now ?? Date.now;
  }

  get size(): number {
    return this.traces.size;
  }

  private kept(traceId: string): Kept {
    let k = this.traces.get(traceId);
    if (k) this.traces.delete(traceId); // most recently written last
    else k = { spans: [], logs: [], sensitive: { values: [], witnessValues: [] }, bytes: 0, at: 0, cut: false };
    k.at = this.now();
    this.traces.set(traceId, k);
    return k;
  }

  add(spans: readonly SpanData[], logs: readonly LogData[], sensitive?: ReadonlyMap<string, SensitiveValues>): void {
    this.expire();
    for (const [traceId, v] of sensitive ?? []) {
      const k = this.kept(traceId);
      for (const [into, from] of [[k.sensitive.values, v.values], [k.sensitive.witnessValues, v.witnessValues]] as const) {
        for (const x of from) {
          if (into.length >= MAX_SENSITIVE_PER_TRACE) {
            k.cut = true;
            break;
          }
          const clipped = x.length > MAX_SENSITIVE_CHARS ? x.slice(0, MAX_SENSITIVE_CHARS) : x;
          if (into.includes(clipped)) continue;
          into.push(clipped);
          k.bytes += clipped.length * 2 + 16;
          this.bytes += clipped.length * 2 + 16;
        }
      }
    }
    for (const s of spans) {
      const k = this.kept(s.traceId);
      if (k.spans.length >= this.limits.maxSpansPerTrace) {
        k.cut = true;
        continue;
      }
      // A span seen again (a retried batch) replaces the earlier copy.
      const i = k.spans.findIndex((x) => x.spanId === s.spanId);
      const n = approxBytes(s);
      if (i >= 0) {
        const before = approxBytes(k.spans[i]);
        k.spans[i] = s;
        k.bytes += n - before;
        this.bytes += n - before;
      } else {
        k.spans.push(s);
        k.bytes += n;
        this.bytes += n;
      }
      if (!k.conversation) for (const key of CONVERSATION_ID_KEYS) if (typeof s.attributes[key] === 'string' && s.attributes[key] !== '') k.conversation = s.attributes[key] as string;
    }
    for (const l of logs) {
      if (!l.traceId) continue;
      const k = this.kept(l.traceId);
      if (k.logs.length >= this.limits.maxLogsPerTrace) {
        k.cut = true;
        continue;
      }
      const n = approxBytes(l);
      k.logs.push(l);
      k.bytes += n;
      this.bytes += n;
    }
    while ((this.traces.size > this.limits.maxTraces || this.bytes > this.limits.maxBytes) && this.traces.size > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const oldest = this.traces.keys().next().value;
    if (oldest === undefined) return;
    this.bytes -= this.traces.get(oldest)!.bytes;
    this.traces.delete(oldest);
  }

  private expire(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [id, k] of this.traces) {
      if (k.at >= cutoff) break;
      this.bytes -= k.bytes;
      this.traces.delete(id);
    }
  }

  /** The record of a trace: its spans and logs, plus those of kept traces of the same conversation. */
  record(traceId: string): { spans: SpanData[]; logs: LogData[]; sensitive: SensitiveValues; cut: boolean } | undefined {
    this.expire();
    const k = this.traces.get(traceId);
    if (!k || k.spans.length === 0) return undefined;
    const spans = [...k.spans];
    const logs = [...k.logs];
    const values = [...k.sensitive.values];
    const witnessValues = [...k.sensitive.witnessValues];
    if (k.conversation) {
      for (const [id, other] of this.traces) {
        if (id === traceId || other.conversation !== k.conversation) continue;
        spans.push(...other.spans);
        logs.push(...other.logs);
        values.push(...other.sensitive.values);
        witnessValues.push(...other.sensitive.witnessValues);
      }
    }
    return { spans, logs, sensitive: { values, witnessValues }, cut: k.cut };
  }
}

/** Signed links and browser sessions (auth on): the HMAC secret and how long each lasts. */
export interface ExplainLinkOptions {
  secret: string;
  ttlSeconds: number;
  sessionSeconds: number;
  /** Set the session cookie `Secure` (the public URL is https). */
  secureCookie: boolean;
}

export interface ExplainServiceOptions {
  declarations?: Declarations;
  redaction: Redaction;
  tenantAttribute: string;
  /** Base URL people reach the service at; null: no footprint.explain.url is written. */
  publicUrl: string | null;
  /** With auth on: sign links and sessions; null (auth off): links are plain and the page is open. */
  links?: ExplainLinkOptions | null;
  /** The auth the sign-in form checks a token against. */
  auth?: AuthConfig;
  /** Unix milliseconds (tests pass a clock). */
  now?: () => number;
}

/** The link secret: configured, else derived from the auth tokens (so every instance with the same tokens agrees); null with auth off. */
export function explainLinkSecret(configured: string | null, auth: AuthConfig): string | null {
  if (configured) return configured;
  if (!authRequired(auth)) return null;
  const tokens = [auth.token ?? '', ...(auth.tokens ?? []).map((t) => t.token)].filter((t) => t !== '').sort();
  return createHmac('sha256', tokens.join('\u0000')).update('footprint-otel explain link secret v1', 'utf8').digest('base64url');
}

export { explainUrl } from '../explain/link.js';

/** A core that keeps what it returns for the explain routes, and links each finding to its page. */
export function explainingCore(core: CoreLike, store: ExplainStore, o: ExplainServiceOptions): CoreLike {
  return {
    stats: () => core.stats(),
    process(input: ProcessInput): ProcessResult {
      const result = core.process(input);
      try {
        if (o.publicUrl) addExplainUrls(input, result, o);
        const byTrace = new Map<string, Finding[]>();
        for (const f of result.findings) byTrace.set(f.span.traceId, [...(byTrace.get(f.span.traceId) ?? []), f]);
        store.add(annotatedSpans(input.spans, result), input.logs ?? [], new Map([...byTrace].map(([t, fs]) => [t, sensitiveOfFindings(fs)])));
      } catch {
        // Explaining is secondary: a failure here never costs the batch its analysis.
      }
      return result;
    },
  };
}

function addExplainUrls(input: ProcessInput, result: ProcessResult, o: ExplainServiceOptions): void {
  const byKey = new Map(input.spans.map((s) => [spanKey(s), s]));
  const now = (o.now ?? Date.now)();
  const signed = o.links ? { secret: o.links.secret, expiresAt: Math.floor(now / 1000) + o.links.ttlSeconds } : undefined;
  const mark = (traceId: string, tenant: string, events: SpanEventData[]) => linkFindingEvents(events, o.publicUrl!, traceId, tenant, signed);
  for (const [key, ann] of result.annotations) {
    const span = byKey.get(key);
    if (span) mark(span.traceId, tenantOfSpan(span, o.tenantAttribute), ann.events);
  }
  for (const c of result.carriers) {
    const subject = c.attributes[ATTR_CARRIER_SUBJECT_SPAN_ID];
    const of = typeof subject === 'string' ? byKey.get(spanKey({ traceId: c.traceId, spanId: subject })) : undefined;
    if (c.name === CARRIER_SPAN_NAME) mark(c.traceId, tenantOfSpan(of ?? c, o.tenantAttribute), c.events);
  }
}

function sendText(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.end(body);
}

/**
 * Answers GET /api/explain/{traceId} and GET /explain/{traceId} (and the link and sign-in paths);
 * returns false for any other path (the receiver goes on). Call it after the receiver's auth check.
 */
export function handleExplain(req: IncomingMessage, res: ServerResponse, url: URL, store: ExplainStore, o: ExplainServiceOptions, allowed?: readonly string[]): boolean {
  const api = url.pathname.startsWith(N.PATH_EXPLAIN_API);
  const page = url.pathname.startsWith(N.PATH_EXPLAIN_PAGE);
  if (!api && !page) return false;
  if (url.pathname === N.PATH_EXPLAIN_LOGIN) {
    signIn(req, res, o);
    return true;
  }
  req.resume();
  const fail = failWith(res, api);
  if (req.method !== 'GET') {
    res.setHeader('Allow', 'GET');
    fail(405, `${url.pathname.slice(0, 100)} takes GET`);
    return true;
  }
  if (url.pathname.startsWith(N.PATH_EXPLAIN_LINK)) {
    openLink(res, url, store, o);
    return true;
  }
  const traceId = url.pathname.slice(api ? N.PATH_EXPLAIN_API.length : N.PATH_EXPLAIN_PAGE.length).toLowerCase();
  if (page && traceId === '') {
    sendText(res, 200, pageHeaders(), renderPageMessage('Open an "Explain this answer" link from a finding in your trace viewer, or /explain/{traceId}.'));
    return true;
  }
  answerTrace(res, api, traceId, url.searchParams.get('tenant'), store, o, allowed);
  return true;
}

/**
 * For a request with no valid bearer token while auth is on: a signed link, the sign-in, or a page
 * with a valid session cookie is answered; any other page path gets the sign-in form (401). False
 * for the JSON routes and other paths (the receiver answers 401 as for any route).
 */
export function handleExplainUnauthed(req: IncomingMessage, res: ServerResponse, url: URL, store: ExplainStore, o: ExplainServiceOptions): boolean {
  if (!o.links || !url.pathname.startsWith(N.PATH_EXPLAIN_PAGE)) return false;
  if (url.pathname === N.PATH_EXPLAIN_LOGIN || url.pathname.startsWith(N.PATH_EXPLAIN_LINK)) return handleExplain(req, res, url, store, o, []);
  const session = cookieOf(req, N.EXPLAIN_COOKIE);
  const s = session ? verifySession(o.links.secret, session, nowSeconds(o)) : { ok: false as const };
  if (s.ok) return handleExplain(req, res, url, store, o, s.tenants);
  req.resume();
  const next = `${url.pathname}${url.search}`;
  sendText(res, 401, { ...signInHeaders(), 'WWW-Authenticate': 'Bearer realm="footprint-otel"' }, renderSignIn({ next: safeNext(next) }));
  return true;
}

const nowSeconds = (o: ExplainServiceOptions) => Math.floor((o.now ?? Date.now)() / 1000);

function failWith(res: ServerResponse, api: boolean): (status: number, message: string) => void {
  return (status, message) =>
    api
      ? sendText(res, status, { 'Content-Type': N.CONTENT_TYPE_JSON, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }, JSON.stringify({ code: status, message }))
      : sendText(res, status, pageHeaders(), renderPageMessage(message));
}

/** The trace's page or JSON, for the tenant asked (or its only one), within the tenants allowed. */
function answerTrace(res: ServerResponse, api: boolean, traceId: string, asked: string | null, store: ExplainStore, o: ExplainServiceOptions, allowed?: readonly string[]): void {
  const fail = failWith(res, api);
  if (!/^[0-9a-f]{32}$/.test(traceId)) return fail(400, 'the trace id must be 32 hex characters');
  const record = store.record(traceId);
  const notHeld = `trace ${traceId} is not held (the service keeps the last ${EXPLAIN_LIMITS.maxTraces} traces for ${EXPLAIN_LIMITS.idleMs / 60_000} minutes)`;
  if (!record) return fail(404, notHeld);
  // Only the tenants the token may see (undefined: every tenant); a trace with none of them is "not held".
  const tenants = [...new Set(record.spans.filter((s) => s.traceId === traceId && s.name !== CARRIER_SPAN_NAME).map((s) => tenantOfSpan(s, o.tenantAttribute)))].filter((t) => !allowed || allowed.includes(t));
  if (tenants.length === 0) return fail(404, notHeld);
  let tenant: string;
  if (asked !== null) {
    if (!tenants.includes(asked)) return fail(404, `trace ${traceId} holds nothing of that tenant`);
    tenant = asked;
  } else if (tenants.length === 1) tenant = tenants[0]!;
  else return fail(400, `trace ${traceId} holds spans of ${tenants.length} tenants: name one with ?tenant=`);
  const e = explainTrace(
    { traceId, spans: record.spans, logs: record.logs },
    { ...(o.declarations ? { declarations: o.declarations } : {}), redaction: o.redaction, tenantAttribute: o.tenantAttribute, tenant, sensitive: record.sensitive },
  );
  if (api) sendText(res, 200, { 'Content-Type': N.CONTENT_TYPE_JSON, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }, JSON.stringify({ ...e, ...(record.cut ? { incomplete: 'spans or log records past the per-trace bound were not kept' } : {}) }));
  else sendText(res, 200, pageHeaders(), renderPage([e]));
}

/** GET /explain/link/{token}: the page the signed link names, for its one tenant; else the sign-in form. */
function openLink(res: ServerResponse, url: URL, store: ExplainStore, o: ExplainServiceOptions): void {
  const token = decodeURIComponent(url.pathname.slice(N.PATH_EXPLAIN_LINK.length));
  if (!o.links) return failWith(res, false)(404, 'signed links are off: auth is off, open /explain/{traceId} directly');
  const v = verifyLink(o.links.secret, token, nowSeconds(o));
  if (!v.ok) {
    const traceId = /^l1\.([0-9a-f]{32})\./.exec(token)?.[1];
    const why = v.reason === 'expired' ? 'This link has expired.' : 'This link is not valid.';
    return sendText(res, 403, signInHeaders(), renderSignIn({ message: `${why} Sign in with your access token to open the page.`, next: traceId ? `${N.PATH_EXPLAIN_PAGE}${traceId}` : N.PATH_EXPLAIN_PAGE }));
  }
  answerTrace(res, false, v.traceId, v.tenant, store, o, [v.tenant]);
}

/** Form bodies above this are refused (a token and a path). */
const MAX_SIGN_IN_BYTES = 8 * 1024;

/** POST /explain/login (token, next): a session cookie for what the token may see, then back to the page. */
function signIn(req: IncomingMessage, res: ServerResponse, o: ExplainServiceOptions): void {
  if (req.method !== 'POST' || !o.links || !o.auth) {
    req.resume();
    res.setHeader('Allow', 'POST');
    return failWith(res, false)(o.links ? 405 : 404, o.links ? 'sign-in takes POST' : 'sign-in is off: auth is off');
  }
  const links = o.links;
  const auth = o.auth;
  // A form posted from another site is refused (the browser names its origin): this service's
  // host as the request names it, or as the public URL does (behind a proxy they differ).
  const origin = req.headers.origin;
  const ours = [req.headers.host, o.publicUrl ? originHost(o.publicUrl) : undefined].filter((h): h is string => !!h);
  const from = originHost(origin ?? '');
  if (origin !== undefined && (from === undefined || !ours.includes(from))) {
    req.resume();
    return failWith(res, false)(403, 'sign-in is accepted only from this service\'s own form');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_SIGN_IN_BYTES) refused = true;
    else chunks.push(c);
  });
  req.on('error', () => undefined);
  req.on('end', () => {
    if (refused) return failWith(res, false)(413, 'the sign-in form is too large');
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const next = safeNext(form.get('next') ?? '');
    const access = authorize(auth, `Bearer ${(form.get('token') ?? '').trim()}`);
    if (!access.ok) return sendText(res, 401, signInHeaders(), renderSignIn({ message: 'That token was not accepted.', next }));
    const session = signSession(links.secret, access.tenants ?? [ALL], nowSeconds(o) + links.sessionSeconds);
    res.setHeader('Set-Cookie', `${N.EXPLAIN_COOKIE}=${session}; Path=${N.PATH_EXPLAIN_PAGE.replace(/\/$/, '')}; HttpOnly; SameSite=Lax; Max-Age=${links.sessionSeconds}${links.secureCookie ? '; Secure' : ''}`);
    res.setHeader('Location', next);
    sendText(res, 303, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, `signed in; go to ${next}`);
  });
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** Where sign-in may send a browser back to: a page of this service, never elsewhere. */
function safeNext(next: string): string {
  return /^\/explain\/[0-9a-f]{32}(\?tenant=[^#\s]{0,1000})?$/.test(next) ? next : N.PATH_EXPLAIN_PAGE;
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function renderPageMessage(message: string): string {
  return renderPage([]).replace('<p>No agent trace to explain.</p>', `<p>${escapeHtml(message)}</p>`);
}
