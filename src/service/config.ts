// The service's configuration: one YAML file validated with zod (unknown keys refused, naming the
// nearest valid key), standard OTEL_EXPORTER_OTLP_* and FOOTPRINT_* environment overrides, CLI
// overrides on top. Produces a fully resolved ServiceConfig (defaults applied) or a list of
// one-line errors. Must never throw and never start anything: it only reads the file, the token
// file, and the environment it is handed.

import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { MAX_YAML_ERRORS, yamlErrorText } from '../declarations/load.js';
import { z } from 'zod';
import { DEFAULT_LIMITS } from '../limits.js';
import { nearest } from '../declarations/nearest.js';
import type { Redaction } from '../runs/footprint.js';
import * as N from './names.js';
import { authRequired, type AuthConfig } from './auth.js';

export type DownstreamProtocol = 'http/protobuf' | 'http/json';

export interface HostPort {
  host: string;
  port: number;
}

export interface DownstreamConfig {
  tracesUrl: string;
  /** null: logs are read (for the join) but have nowhere to go; counted as not forwarded. */
  logsUrl: string | null;
  headers: Record<string, string>;
  protocol: DownstreamProtocol;
  compression: 'gzip' | 'none';
  timeoutMs: number;
}

export interface ServiceLimits {
  bodyBytes: number;
  spansPerBatch: number;
  conversations: number;
  callsPerConversation: number;
  bytesPerConversation: number;
  requestTimeoutMs: number;
  inFlightBatches: number;
  queuedBatches: number;
  /** Request bytes (inflated) held by batches in flight and waiting; past it, 429. */
  queuedBytes: number;
  /** Request bytes of failed batches kept so a retry re-exports the same annotated spans. */
  replayBytes: number;
  /** Open HTTP connections. Past it, the connection idle longest is closed to make room (see connections.ts). */
  connections: number;
  /** Connections past `connections` kept for health probes (and authenticated clients, with auth on) when every other one is busy. */
  reservedConnections: number;
  /** Time a connection may take to send a request's headers (slow or silent sockets), in ms. */
  headersTimeoutMs: number;
  /** Time a connection may sit with nothing sent or received before it is closed, in ms. */
  idleTimeoutMs: number;
  /** Open OTLP/gRPC connections; past it new ones are closed at once. */
  grpcConnections: number;
  /** A gRPC connection with no call for this long is closed (grpc.max_connection_idle_ms). */
  grpcIdleMs: number;
  /** gRPC keepalive ping interval (grpc.keepalive_time_ms); a peer that does not answer within 10 s is dropped. */
  grpcKeepaliveMs: number;
}

/** Where conversation state lives: this process's memory, or a shared Valkey/Redis store (issue 14). */
export type StateSetting = { kind: 'memory' } | { kind: 'valkey'; url: string };

export interface ServiceConfig {
  listen: HostPort;
  /** null: no OTLP/gRPC receiver. */
  grpcListen: HostPort | null;
  /** null: the embedded default (findings printed and kept in memory, nothing exported). */
  downstream: DownstreamConfig | null;
  /** Bearer tokens (auth.ts): one that sees every tenant, and/or tokens bound to tenants. */
  auth: AuthConfig;
  declarationsPath: string | null;
  redaction: Redaction;
  tenantAttribute: string;
  checks: boolean;
  /** Emit a gen_ai.evaluation.result log record per finding on the logs pipeline. */
  evaluations: boolean;
  limits: ServiceLimits;
  embedded: { runs: number; print: boolean };
  /** Base URL people reach this service at: when set, finding events get footprint.explain.url. */
  publicUrl: string | null;
  /**
   * Explain links with auth on (src/explain/link.ts): the HMAC secret (FOOTPRINT_LINK_SECRET; null:
   * derived from the auth tokens), how long a link in footprint.explain.url stays valid, and how
   * long a browser sign-in lasts.
   */
  explainLinks: { secret: string | null; ttlMinutes: number; sessionHours: number };
  /** Conversation state: `memory` (default) or a shared store every instance reads and writes. */
  state: StateSetting;
}

export const DEFAULT_SERVICE_LIMITS: Readonly<ServiceLimits> = Object.freeze({
  bodyBytes: 20 * 1024 * 1024,
  spansPerBatch: 10_000,
  conversations: DEFAULT_LIMITS.maxConversations,
  callsPerConversation: DEFAULT_LIMITS.maxCallsPerConversation,
  bytesPerConversation: DEFAULT_LIMITS.maxBytesPerConversation,
  requestTimeoutMs: 30_000,
  inFlightBatches: 4,
  queuedBatches: 64,
  queuedBytes: 64 * 1024 * 1024,
  replayBytes: 32 * 1024 * 1024,
  connections: 256,
  reservedConnections: 16,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  grpcConnections: 256,
  grpcIdleMs: 60_000,
  grpcKeepaliveMs: 30_000,
});

export function defaultServiceConfig(): ServiceConfig {
  return {
    listen: { host: '127.0.0.1', port: 4318 },
    // gRPC only when asked for (--grpc-listen, grpcListen, FOOTPRINT_GRPC_LISTEN): a host with a
    // collector or Jaeger already has 4317, and that must not stop the embedded default.
    grpcListen: null,
    downstream: null,
    auth: { token: null, tokens: [] },
    declarationsPath: null,
    redaction: 'quote',
    tenantAttribute: 'service.name',
    checks: true,
    evaluations: true,
    limits: { ...DEFAULT_SERVICE_LIMITS },
    embedded: { runs: 100, print: true },
    publicUrl: null,
    explainLinks: { secret: null, ttlMinutes: 60, sessionHours: 12 },
    state: { kind: 'memory' },
  };
}

const hostPort = z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):\d{1,5}$/, 'expected HOST:PORT, e.g. 127.0.0.1:4318');
const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, 'expected an http:// or https:// URL');
const posInt = z.number().int().positive();

const DownstreamFile = z.strictObject({
  endpoint: httpUrl.optional(),
  tracesEndpoint: httpUrl.optional(),
  logsEndpoint: httpUrl.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  protocol: z.enum(['http/protobuf', 'http/json']).optional(),
  compression: z.enum(['gzip', 'none']).optional(),
  timeoutMs: posInt.optional(),
});

/** auth.tokens[]: a token (or a file holding it) bound to the tenants it may see (`*`: all). */
const TokenGrantFile = z
  .strictObject({
    token: z.string().min(1).optional(),
    tokenFile: z.string().min(1).optional(),
    tenants: z.array(z.string().min(1)).min(1).max(1000),
  })
  .refine((g) => (g.token === undefined) !== (g.tokenFile === undefined), { message: 'give exactly one of token and tokenFile' });
const MAX_TOKENS = 1000;

const LimitsFile = z.strictObject({
  bodyBytes: posInt.optional(),
  spansPerBatch: posInt.optional(),
  conversations: posInt.optional(),
  callsPerConversation: posInt.optional(),
  bytesPerConversation: posInt.optional(),
  requestTimeoutMs: posInt.optional(),
  inFlightBatches: posInt.optional(),
  queuedBatches: z.number().int().nonnegative().optional(),
  queuedBytes: posInt.optional(),
  replayBytes: z.number().int().nonnegative().optional(),
  connections: posInt.optional(),
  reservedConnections: z.number().int().nonnegative().optional(),
  headersTimeoutMs: posInt.optional(),
  idleTimeoutMs: posInt.optional(),
  grpcConnections: posInt.optional(),
  grpcIdleMs: posInt.optional(),
  grpcKeepaliveMs: posInt.optional(),
});

export const ConfigFileSchema = z.strictObject({
  listen: hostPort.optional(),
  grpcListen: z.union([hostPort, z.literal('off'), z.null()]).optional(),
  downstream: DownstreamFile.optional(),
  auth: z
    .strictObject({
      token: z.string().min(1).optional(),
      tokenFile: z.string().min(1).optional(),
      tokens: z.array(TokenGrantFile).max(MAX_TOKENS).optional(),
      required: z.boolean().optional(),
    })
    .optional(),
  declarations: z.string().min(1).optional(),
  redaction: z.enum(['quote', 'hash', 'omit']).optional(),
  tenantAttribute: z.string().min(1).optional(),
  checks: z.boolean().optional(),
  evaluations: z.boolean().optional(),
  limits: LimitsFile.optional(),
  embedded: z.strictObject({ runs: posInt.optional(), print: z.boolean().optional() }).optional(),
  publicUrl: httpUrl.optional(),
  explainLinks: z.strictObject({ secret: z.string().min(16).optional(), ttlMinutes: posInt.max(7 * 24 * 60).optional(), sessionHours: posInt.max(24 * 30).optional() }).optional(),
  state: z.string().min(1).optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Valid keys at each object path, for "did you mean" messages. */
const KEYS_AT: Record<string, readonly string[]> = {
  '': Object.keys(ConfigFileSchema.shape),
  downstream: Object.keys(DownstreamFile.shape),
  limits: Object.keys(LimitsFile.shape),
  auth: ['token', 'tokenFile', 'tokens', 'required'],
  'auth.tokens': ['token', 'tokenFile', 'tenants'],
  embedded: ['runs', 'print'],
  explainLinks: ['secret', 'ttlMinutes', 'sessionHours'],
};

/** Turns zod issues into one line each, naming the key (and the nearest valid one for a typo). */
export function describeIssues(error: z.ZodError, where: string): string[] {
  const out: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const valid = KEYS_AT[path.replace(/\.\d+(?=\.|$)/g, '')] ?? [];
      for (const key of issue.keys) {
        const full = path ? `${path}.${key}` : key;
        const near = nearest(key, valid);
        out.push(`${where}: unknown key "${full}"${near ? ` (did you mean "${path ? `${path}.` : ''}${near}"?)` : ''}; valid keys here: ${valid.join(', ')}`);
      }
    } else {
      out.push(`${where}: "${path || '(root)'}": ${issue.message}`);
    }
  }
  return out;
}

export function parseHostPort(s: string): HostPort | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/.exec(s.trim());
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port > 65535) return undefined;
  const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
  return { host, port };
}

/** `k=v,k2=v2` with URL-encoded values, as OTEL_EXPORTER_OTLP_HEADERS is written. */
export function parseOtelHeaders(s: string, where: string, errors: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) {
      errors.push(`${where}: "${part.trim().slice(0, 40)}" is not key=value`);
      continue;
    }
    const key = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      /* keep the raw value */
    }
    out[key] = value;
  }
  return out;
}

/** The signal URL from a base endpoint, as the OTLP exporter spec appends it. */
export function signalUrl(base: string, signal: 'traces' | 'logs'): string {
  return `${base.endsWith('/') ? base : `${base}/`}v1/${signal}`;
}

export interface ConfigSources {
  /** Path of a YAML (or JSON) config file. */
  file?: string;
  /** Already-parsed file contents (tests, embedding); `file` wins when both are given. */
  document?: unknown;
  env?: Record<string, string | undefined>;
  /** CLI flags: applied last. */
  overrides?: { listen?: string; grpcListen?: string; declarations?: string; state?: string };
}

export type ConfigResult = { ok: true; config: ServiceConfig; warnings: string[] } | { ok: false; errors: string[] };

export function loadServiceConfig(sources: ConfigSources = {}): ConfigResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const env = sources.env ?? {};
  let doc: unknown = sources.document ?? {};
  const where = sources.file ?? 'config';
  if (sources.file) {
    let text: string;
    try {
      text = readFileSync(sources.file, 'utf8');
    } catch (e) {
      return { ok: false, errors: [`${sources.file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`] };
    }
    try {
      // Every parser error, whole: line, column, the parser's sentence and its excerpt.
      const parsed = parseDocument(text);
      if (parsed.errors.length > 0) return { ok: false, errors: parsed.errors.slice(0, MAX_YAML_ERRORS).map((e) => yamlErrorText(sources.file!, e)) };
      doc = parsed.toJS({ maxAliasCount: 100 }) ?? {};
    } catch (e) {
      return { ok: false, errors: [`${sources.file}: not valid YAML or JSON: ${(e as Error).message}`] };
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { ok: false, errors: [`${where}: the config must be a mapping of keys`] };
  const parsed = ConfigFileSchema.safeParse(doc);
  if (!parsed.success) return { ok: false, errors: describeIssues(parsed.error, where) };
  const f = parsed.data;
  const c = defaultServiceConfig();

  const listen = sources.overrides?.listen ?? env[N.ENV_LISTEN] ?? f.listen;
  if (listen !== undefined) {
    const hp = parseHostPort(listen);
    if (hp) c.listen = hp;
    else errors.push(`listen: "${listen}" is not HOST:PORT`);
  }
  const grpc = sources.overrides?.grpcListen ?? env[N.ENV_GRPC_LISTEN] ?? f.grpcListen;
  if (grpc === null || grpc === 'off') c.grpcListen = null;
  else if (grpc !== undefined) {
    const hp = parseHostPort(grpc);
    if (hp) c.grpcListen = hp;
    else errors.push(`grpcListen: "${grpc}" is not HOST:PORT (or "off")`);
  }

  // Downstream: file, then the standard OTLP exporter variables.
  const d = f.downstream ?? {};
  const endpoint = env[N.OTEL_ENDPOINT] || d.endpoint;
  const tracesEndpoint = env[N.OTEL_TRACES_ENDPOINT] || d.tracesEndpoint;
  const logsEndpoint = env[N.OTEL_LOGS_ENDPOINT] || d.logsEndpoint;
  for (const [name, v] of [[N.OTEL_ENDPOINT, env[N.OTEL_ENDPOINT]], [N.OTEL_TRACES_ENDPOINT, env[N.OTEL_TRACES_ENDPOINT]], [N.OTEL_LOGS_ENDPOINT, env[N.OTEL_LOGS_ENDPOINT]]] as const) {
    if (v && !/^https?:\/\/\S+$/.test(v)) errors.push(`${name}: "${v.slice(0, 80)}" is not an http:// or https:// URL`);
  }
  const tracesUrl = tracesEndpoint ?? (endpoint ? signalUrl(endpoint, 'traces') : undefined);
  const logsUrl = logsEndpoint ?? (endpoint ? signalUrl(endpoint, 'logs') : undefined);
  if (!tracesUrl && logsUrl) errors.push('downstream: a logs endpoint is set but no traces endpoint (set downstream.endpoint or downstream.tracesEndpoint)');
  if (tracesUrl) {
    const headers: Record<string, string> = { ...(d.headers ?? {}) };
    if (env[N.OTEL_HEADERS]) Object.assign(headers, parseOtelHeaders(env[N.OTEL_HEADERS]!, N.OTEL_HEADERS, errors));
    if (env[N.OTEL_TRACES_HEADERS]) Object.assign(headers, parseOtelHeaders(env[N.OTEL_TRACES_HEADERS]!, N.OTEL_TRACES_HEADERS, errors));
    const protoEnv = env[N.OTEL_TRACES_PROTOCOL] || env[N.OTEL_PROTOCOL];
    let protocol: DownstreamProtocol = d.protocol ?? 'http/protobuf';
    if (protoEnv) {
      if (protoEnv === 'http/protobuf' || protoEnv === 'http/json') protocol = protoEnv;
      else errors.push(`${env[N.OTEL_TRACES_PROTOCOL] ? N.OTEL_TRACES_PROTOCOL : N.OTEL_PROTOCOL}: "${protoEnv}" is not supported downstream (use http/protobuf or http/json)`);
    }
    let compression = d.compression ?? 'none';
    const compEnv = env[N.OTEL_COMPRESSION];
    if (compEnv) {
      if (compEnv === 'gzip' || compEnv === 'none') compression = compEnv;
      else errors.push(`${N.OTEL_COMPRESSION}: "${compEnv}" must be gzip or none`);
    }
    let timeoutMs = d.timeoutMs ?? 10_000;
    const tEnv = env[N.OTEL_TIMEOUT];
    if (tEnv) {
      const t = Number(tEnv);
      if (Number.isInteger(t) && t > 0) timeoutMs = t;
      else errors.push(`${N.OTEL_TIMEOUT}: "${tEnv}" must be a positive number of milliseconds`);
    }
    c.downstream = { tracesUrl, logsUrl: logsUrl ?? null, headers, protocol, compression, timeoutMs };
    if (!logsUrl) warnings.push('downstream: no logs endpoint; log records are read for the join but not forwarded (counted in footprint_log_records_rejected_total)');
  } else if (d.headers || d.protocol || d.compression || d.timeoutMs) {
    warnings.push('downstream: settings given but no endpoint; running the embedded default (nothing exported)');
  }

  // Auth: env token, env token file, file token, file token file.
  const tokenFile = env[N.ENV_AUTH_TOKEN_FILE] || f.auth?.tokenFile;
  const token = env[N.ENV_AUTH_TOKEN] || f.auth?.token;
  if (token) c.auth.token = token;
  else if (tokenFile) {
    try {
      const t = readFileSync(tokenFile, 'utf8').trim();
      if (t) c.auth.token = t;
      else errors.push(`auth.tokenFile: ${tokenFile} is empty`);
    } catch (e) {
      errors.push(`auth.tokenFile: cannot read ${tokenFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  for (const [i, g] of (f.auth?.tokens ?? []).entries()) {
    let t = g.token;
    if (g.tokenFile) {
      try {
        t = readFileSync(g.tokenFile, 'utf8').trim();
        if (!t) errors.push(`auth.tokens.${i}.tokenFile: ${g.tokenFile} is empty`);
      } catch (e) {
        errors.push(`auth.tokens.${i}.tokenFile: cannot read ${g.tokenFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
    }
    if (t) c.auth.tokens!.push({ token: t, tenants: [...new Set(g.tenants)] });
  }

  const requiredEnv = env[N.ENV_AUTH_REQUIRED];
  if (requiredEnv !== undefined && requiredEnv !== '' && !/^(1|true|0|false)$/i.test(requiredEnv)) errors.push(`${N.ENV_AUTH_REQUIRED}: "${requiredEnv.slice(0, 40)}" must be 1, true, 0 or false`);
  const required = requiredEnv ? /^(1|true)$/i.test(requiredEnv) : f.auth?.required === true;
  if (required && !authRequired(c.auth) && !errors.some((e) => e.startsWith('auth.'))) {
    errors.push(`auth: a token is required here (${requiredEnv ? N.ENV_AUTH_REQUIRED : 'auth.required'} is set; the container image sets it) and none is configured: set ${N.ENV_AUTH_TOKEN} or ${N.ENV_AUTH_TOKEN_FILE} (or auth.token / auth.tokens in the config file); senders then send "Authorization: Bearer <token>"`);
  }

  c.declarationsPath = sources.overrides?.declarations ?? env[N.ENV_DECLARATIONS] ?? f.declarations ?? null;
  const red = env[N.ENV_REDACTION] ?? f.redaction;
  if (red !== undefined) {
    if (red === 'quote' || red === 'hash' || red === 'omit') c.redaction = red;
    else errors.push(`${N.ENV_REDACTION}: "${red}" must be quote, hash or omit`);
  }
  if (f.tenantAttribute) c.tenantAttribute = f.tenantAttribute;
  if (f.checks !== undefined) c.checks = f.checks;
  if (f.evaluations !== undefined) c.evaluations = f.evaluations;
  c.limits = { ...c.limits, ...stripUndefined(f.limits ?? {}) };
  if (f.embedded?.runs) c.embedded.runs = f.embedded.runs;
  if (f.embedded?.print !== undefined) c.embedded.print = f.embedded.print;
  const publicUrl = env[N.ENV_PUBLIC_URL] ?? f.publicUrl;
  if (publicUrl) {
    if (/^https?:\/\/[^\s]+$/.test(publicUrl)) c.publicUrl = publicUrl.replace(/\/+$/, '');
    else errors.push(`${N.ENV_PUBLIC_URL}: "${publicUrl.slice(0, 80)}" must be an http:// or https:// URL`);
  }
  const linkSecret = env[N.ENV_LINK_SECRET] || f.explainLinks?.secret;
  if (linkSecret !== undefined) {
    if (linkSecret.length >= 16) c.explainLinks.secret = linkSecret;
    else errors.push(`${N.ENV_LINK_SECRET}: the link secret must be at least 16 characters`);
  }
  if (f.explainLinks?.ttlMinutes) c.explainLinks.ttlMinutes = f.explainLinks.ttlMinutes;
  if (f.explainLinks?.sessionHours) c.explainLinks.sessionHours = f.explainLinks.sessionHours;

  const state = sources.overrides?.state ?? env[N.ENV_STATE] ?? f.state;
  if (state !== undefined) {
    const parsed = parseStateSetting(state);
    if (parsed) c.state = parsed;
    else errors.push(`state: "${redactUrl(state).slice(0, 80)}" must be memory or a redis://, rediss://, valkey:// or valkeys:// URL (${N.ENV_STATE}, --state)`);
  }

  if (c.downstream && pointsAt(c.downstream.tracesUrl, c.listen)) errors.push(`downstream: ${c.downstream.tracesUrl} is this service's own listen address (a loop); point it at the collector's second receiver`);
  return errors.length ? { ok: false, errors } : { ok: true, config: c, warnings };
}

/** `memory`, or a Valkey/Redis URL with a host; undefined for anything else. */
export function parseStateSetting(s: string): StateSetting | undefined {
  const t = s.trim();
  if (t === 'memory') return { kind: 'memory' };
  if (!/^(redis|rediss|valkey|valkeys):\/\/\S+$/i.test(t)) return undefined;
  try {
    return new URL(t).hostname ? { kind: 'valkey', url: t } : undefined;
  } catch {
    return undefined;
  }
}

/** A URL with its password hidden (error messages never echo a secret). */
function redactUrl(s: string): string {
  return s.replace(/\/\/([^:/@\s]*):[^@/\s]*@/, '//$1:***@');
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function pointsAt(url: string, listen: HostPort): boolean {
  if (listen.port === 0) return false;
  try {
    const u = new URL(url);
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const local = (h: string) => h === 'localhost' || h === '127.0.0.1' || h === '::1' || h === '0.0.0.0';
    return port === listen.port && (host === listen.host || (local(host) && local(listen.host)));
  } catch {
    return false;
  }
}
