// The core's configuration (with its documented defaults) and the shapes it returns: what to add
// to which span, carriers, findings, diagnostics. Types and one pure resolver; no behaviour.

import type { Attributes, LogData, SpanData, SpanEventData } from '../model/telemetry.js';
import type { Diagnostic } from '../model/diagnostics.js';
import type { Finding, Redaction } from '../model/finding.js';
import { NO_DECLARATIONS, type Declarations } from '../declarations/types.js';
import { resolveLimits, type Limits } from '../limits.js';
import { DEFAULT_EVALUATION_EVENTS, EVALUATION_EVENTS_VALUES, type EvaluationEvents } from '../findings/evaluation.js';

export type { Redaction } from '../model/finding.js';
export type { EvaluationEvents } from '../findings/evaluation.js';

export interface FootprintOptions {
  /** Tool declarations (validated). Default: none, so no check is armed. */
  declarations?: Declarations;
  /** Bounds; unset ones keep DEFAULT_LIMITS. */
  limits?: Partial<Limits>;
  /** How finding values are written: quoted (default), hashed, or omitted. */
  redaction?: Redaction;
  /** Resource attribute that names the tenant. Default `service.name`. */
  tenantAttribute?: string;
  /** false: read and forward only, run no check (pass-through, for comparison). Default true. */
  checks?: boolean;
  /**
   * false: do not remember what each span got for an exporter's retry of the same batch. For a
   * caller that never hands the core a span twice (the in-process SpanProcessor: the SDK ends each
   * span once). Default true.
   */
  rememberSpans?: boolean;
  /**
   * Which log records may join a span: `own-tenant`, only those whose resource names the span's
   * tenant (the service: one tenant's records can never join, and so change, another's analysis);
   * `any-tenant` (default), any record carrying the span's ids (one application in process, whose
   * LoggerProvider may have another resource than its TracerProvider; an exported file).
   */
  logJoin?: 'own-tenant' | 'any-tenant';
  /**
   * Standard `gen_ai.evaluation.result` span events beside the footprint.* ones: `off`; `findings`
   * (default) one per finding, on its span; `all` also, per turn, one `pass` or `not_run` per check
   * on the turn's span.
   */
  evaluationEvents?: EvaluationEvents;
}

/** What to add to one span: events and span attributes. */
export interface SpanAnnotation {
  events: SpanEventData[];
  attributes: Attributes;
}

export interface ProcessInput {
  spans: readonly SpanData[];
  logs?: readonly LogData[];
}

export interface ProcessResult {
  /** Keyed by `spanKey(span)`: additions for spans of this call's input. */
  annotations: Map<string, SpanAnnotation>;
  /**
   * New spans to forward in the same trace: they carry findings whose subject span was passed on
   * in an earlier call (e.g. a chat span that arrived before the log records holding its content).
   */
  carriers: SpanData[];
  findings: Finding[];
  diagnostics: Diagnostic[];
  /**
   * Log records refused for the join in this call because they name a span of another tenant
   * (of this call's input, or waiting since an earlier one); absent when none.
   */
  foreignLogs?: LogData[];
}

export interface CoreStats {
  conversations: number;
  stateBytes: number;
  evictedConversations: number;
  /** Spans waiting for their log records, or records for their span, dropped to keep the caches' byte bound. */
  waitingEvicted?: number;
  findingsByKind: Record<string, number>;
}

/** The whole configuration a core runs with, defaults applied. */
export interface ResolvedOptions {
  declarations: Declarations;
  limits: Limits;
  redaction: Redaction;
  tenantAttribute: string;
  checks: boolean;
  rememberSpans: boolean;
  logJoin: 'own-tenant' | 'any-tenant';
  evaluationEvents: EvaluationEvents;
  now: () => number;
}

/** Applies the defaults: no declarations, DEFAULT_LIMITS, `quote`, `service.name`, checks on, evaluation events for findings. */
export function resolveOptions(o: FootprintOptions & { now?: () => number }): ResolvedOptions {
  return {
    declarations: o.declarations ?? NO_DECLARATIONS,
    limits: resolveLimits(o.limits),
    redaction: o.redaction === 'hash' || o.redaction === 'omit' ? o.redaction : 'quote',
    tenantAttribute: typeof o.tenantAttribute === 'string' && o.tenantAttribute !== '' ? o.tenantAttribute : 'service.name',
    checks: o.checks !== false,
    rememberSpans: o.rememberSpans !== false,
    logJoin: o.logJoin === 'own-tenant' ? 'own-tenant' : 'any-tenant',
    evaluationEvents: EVALUATION_EVENTS_VALUES.includes(o.evaluationEvents as EvaluationEvents) ? (o.evaluationEvents as EvaluationEvents) : DEFAULT_EVALUATION_EVENTS,
    now: o.now ?? Date.now,
  };
}

