// The interface every convention reader implements: a cheap recognition test and a reader that
// maps one span (plus the log records joined to it) into model events. Readers never throw; a
// span of a broken shape yields diagnostics and whatever could be read.

import type { DiagnosticSink } from '../model/diagnostics.js';
import type { ConventionId, Message, ModelEvent } from '../model/agent.js';
import type { LogData, SpanData } from '../model/telemetry.js';
import type { Limits } from '../limits.js';

export interface ReadContext {
  /** The tenant this span belongs to (a resource attribute, `service.name` by default). */
  tenant: string;
  /** Log records carrying this span's trace and span id, in time order. */
  logs: readonly LogData[];
  limits: Limits;
  diagnostics: DiagnosticSink;
  /** The last input window read for this span's conversation, kept by the core (absent: read in full). */
  windowMemo?: WindowMemo;
}

/**
 * A request's input window as read, for the next request of the same conversation: a message whose
 * raw JSON is one of `items` is not parsed again (src/conventions/genai-window.ts). Only windows
 * read with no diagnostic are remembered, so a reuse reports exactly what a full read would.
 */
export interface PriorWindow {
  /**
   * The raw JSON array up to (not including) its closing `]`, kept with `bounds` for a window that
   * was its conversation's first or extended the one before: a next window that starts with it and
   * a comma extends it (its prefix is then taken whole).
   */
  body?: string;
  /** With `body`: where each item's raw JSON starts and ends in it (2 numbers an item). */
  bounds?: Int32Array;
  /** Without `body`: each item's raw JSON, in order, each its own string (not a slice of a raw window). */
  items?: readonly string[];
  /** Each item as normaliseMessages read it (one per item); its tool results named by the last window that read them (nameToolResults names them again). */
  messages: readonly Message[];
}

/** One conversation's slot of the core's window memo. */
export interface WindowMemo {
  prior(): PriorWindow | undefined;
  remember(w: PriorWindow): void;
}

export interface Convention {
  readonly id: ConventionId;
  /** O(1) test on names and a few attribute keys; no parsing. */
  claims(span: SpanData): boolean;
  /** Maps the span into model events. Returns [] for spans that are not agent spans after all. */
  read(span: SpanData, ctx: ReadContext): ModelEvent[];
}
