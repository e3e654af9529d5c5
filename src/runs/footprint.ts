// FootprintCore: the one stateful core every deployment runs (processor, service, CLI). It reads
// spans and log records through the conventions, keeps bounded per-conversation state, runs the
// checks and returns what to add to which span. Never throws over bad telemetry.
// Must never do I/O: callers hand it data and apply what it returns.

import type { Attributes, LogData, SpanData, SpanEventData } from '../model/telemetry.js';
import type { Diagnostic } from '../model/diagnostics.js';
import type { Finding } from '../model/finding.js';
import type { Declarations } from '../declarations/types.js';
import type { Limits } from '../limits.js';

export type Redaction = 'quote' | 'hash' | 'omit';

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
}

export interface CoreStats {
  conversations: number;
  stateBytes: number;
  evictedConversations: number;
  findingsByKind: Record<string, number>;
}

/** Placeholder body while the analysis is written: reads nothing, annotates nothing. */
export class FootprintCore {
  constructor(readonly options: FootprintOptions = {}) {}
  process(_input: ProcessInput): ProcessResult {
    return { annotations: new Map(), carriers: [], findings: [], diagnostics: [] };
  }
  stats(): CoreStats {
    return { conversations: 0, stateBytes: 0, evictedConversations: 0, findingsByKind: {} };
  }
}
