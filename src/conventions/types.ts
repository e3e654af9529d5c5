// The interface every convention reader implements: a cheap recognition test and a reader that
// maps one span (plus the log records joined to it) into model events. Readers never throw; a
// span of a broken shape yields diagnostics and whatever could be read.

import type { DiagnosticSink } from '../model/diagnostics.js';
import type { ConventionId, ModelEvent } from '../model/agent.js';
import type { LogData, SpanData } from '../model/telemetry.js';
import type { Limits } from '../limits.js';

export interface ReadContext {
  /** The tenant this span belongs to (a resource attribute, `service.name` by default). */
  tenant: string;
  /** Log records carrying this span's trace and span id, in time order. */
  logs: readonly LogData[];
  limits: Limits;
  diagnostics: DiagnosticSink;
}

export interface Convention {
  readonly id: ConventionId;
  /** O(1) test on names and a few attribute keys; no parsing. */
  claims(span: SpanData): boolean;
  /** Maps the span into model events. Returns [] for spans that are not agent spans after all. */
  read(span: SpanData, ctx: ReadContext): ModelEvent[];
}
