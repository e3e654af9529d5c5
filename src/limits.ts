// Every bound footprint-otel enforces, with its default. Inputs past a bound are clamped or
// refused with a diagnostic; state past a bound says "incomplete" instead of guessing.
// Only numbers live here; the code that enforces each bound imports it from here.

export interface Limits {
  /** Bytes of one attribute value that will be parsed as JSON. Larger values are not parsed. */
  maxJsonAttributeBytes: number;
  /** Nesting depth a parsed JSON attribute may have. */
  maxJsonDepth: number;
  /** Messages read from one LLM request's input window. */
  maxMessagesPerRequest: number;
  /** String leaves of one tool call's arguments that are checked. */
  maxArgumentLeaves: number;
  /** Conversations whose state is kept (least recently used evicted first). */
  maxConversations: number;
  /** Requests plus tool calls kept per conversation. */
  maxCallsPerConversation: number;
  /** Bytes of served text kept per conversation. */
  maxBytesPerConversation: number;
  /** Bytes of conversation state kept in all; past it, least recently used conversations are dropped. */
  maxStateBytes: number;
  /** Idle time after which a conversation's state is dropped, in milliseconds. */
  conversationIdleMs: number;
  /** Log records buffered per span while waiting for the span to end. */
  maxLogsPerSpan: number;
  /** Spans whose log records are buffered at once. */
  maxPendingLogSpans: number;
  /** Code points of a quoted value in a finding. */
  quotedValueChars: number;
  /** Bytes of any attribute footprint writes (Grafana Tempo truncates above 2,048 by default). */
  maxWrittenAttributeBytes: number;
  /** Findings written per span (the SDK's default event limit is 128). */
  maxFindingsPerSpan: number;
  /** Spans remembered as already processed, so a retried batch is annotated the same, not re-analysed. */
  maxRememberedSpans: number;
  /**
   * In-process worker mode (FootprintSpanProcessor `analysis: 'worker'`): spans held in order while
   * the worker reads them (in analysis, or ended after one still in analysis). An agent span that
   * ends with this many held is forwarded unanalysed, marked; past twice this many the oldest in
   * analysis are released unanalysed, so the hold stays bounded even when the worker stalls.
   */
  maxAnalysisQueueSpans: number;
  /** Worker mode: estimated bytes of the agent spans (and their log records) in analysis at once; past it, as above. */
  maxAnalysisQueueBytes: number;
  /** Worker mode: how long forceFlush() and shutdown() wait for the worker; then what it holds goes on unanalysed, marked. */
  analysisFlushTimeoutMs: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxJsonAttributeBytes: 4 * 1024 * 1024,
  maxJsonDepth: 64,
  maxMessagesPerRequest: 2000,
  maxArgumentLeaves: 1000,
  maxConversations: 10_000,
  maxCallsPerConversation: 2000,
  maxBytesPerConversation: 8 * 1024 * 1024,
  maxStateBytes: 256 * 1024 * 1024,
  conversationIdleMs: 30 * 60 * 1000,
  maxLogsPerSpan: 4000,
  maxPendingLogSpans: 10_000,
  quotedValueChars: 64,
  maxWrittenAttributeBytes: 2000,
  maxFindingsPerSpan: 64,
  maxRememberedSpans: 50_000,
  maxAnalysisQueueSpans: 4096,
  maxAnalysisQueueBytes: 64 * 1024 * 1024,
  analysisFlushTimeoutMs: 30_000,
});

/** Merges user limits over the defaults; a non-positive or non-finite number keeps the default. */
export function resolveLimits(partial: Partial<Limits> | undefined): Limits {
  const out: Limits = { ...DEFAULT_LIMITS };
  if (!partial) return out;
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const v = partial[key];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[key] = Math.floor(v);
  }
  return out;
}

// ---- Wire bounds of the OTLP decoders and encoders (issue 10) ----

/**
 * Arrays and kvlists nested inside one attribute value or log body, counted the same way by the
 * OTLP/JSON and protobuf decoders and the encoders. A container nested deeper is replaced by an
 * empty value at decode, and counted. Kept well below what protobuf codecs accept (protobufjs and
 * protoc stop at 100 nested messages; a span event's value sits 7 messages deep and each kvlist
 * level adds 3), so whatever the decoder accepts, every encoder can write and every OTLP receiver
 * downstream can read.
 */
export const MAX_VALUE_NESTING = 16;

/**
 * Bounds of `unsupported-value`'s search past exact tokens (canonical forms, rounding, unit
 * factors, arithmetic), fixed so a big window stays cheap: the arithmetic search is
 * O(maxSearchedNumbers × (maxPairOperands² + maxTripleOperands³)) at worst.
 */
export const VALUE_SEARCH_LIMITS = Object.freeze({
  /** Served numbers (tool results, user and system text) an answer number is compared with for rounding and unit factors. */
  maxServedNumbers: 10_000,
  /** Answer numbers per answer given the rounding and arithmetic search; past it they are unreachable, never guessed. */
  maxSearchedNumbers: 64,
  /** Distinct served numbers (latest tool results first) tried as operands of a sum, difference, product or ratio of two. */
  maxPairOperands: 32,
  /** The first of those tried as operands of a sum, difference or product of three. */
  maxTripleOperands: 12,
  /** Tool results (latest first) whose lists of records give column totals and means (src/values/aggregates.ts). */
  maxAggregatedResults: 8,
  /** Typed values (dates, times, phones, numerals) read per text. */
  maxFormsPerText: 2000,
  /** Distinct typed keys indexed per window and kind (past it the index says truncated). */
  maxFormKeys: 200_000,
  /** Served strings whose typed readings a conversation's memo keeps (least recently used dropped first). */
  maxMemoTexts: 128,
  /** Longest served string the memo keeps (longer ones are read each time they are needed). */
  maxMemoTextChars: 64 * 1024,
  /** Estimated bytes of typed readings a conversation's memo keeps (least recently used dropped first). */
  maxMemoBytes: 256 * 1024,
  /** `footprint.value.derived` events written per answer (the witnesses of values that passed as derivations). */
  maxDerivedEvents: 16,
});

/** Bounds of "Explain this answer" (src/explain): the shown map and the service's retention of traces to explain. */
export const EXPLAIN_LIMITS = Object.freeze({
  /** Serialized characters of one shown leaf; longer is withheld as `too-large`. */
  maxShownLeafChars: 2048,
  /** Serialized UTF-8 bytes of the whole shown map; past it one `#more` entry stands for the rest. */
  maxShownBytes: 64 * 1024,
  /** Traces whose spans the service keeps to explain (least recently written dropped first). */
  maxTraces: 500,
  /** Spans kept per trace to explain; past it the trace's record says so. */
  maxSpansPerTrace: 2000,
  /** Log records kept per trace to explain. */
  maxLogsPerTrace: 8000,
  /** Estimated bytes of every kept trace together. */
  maxBytes: 64 * 1024 * 1024,
  /** A kept trace is dropped this long after it was last written to, in milliseconds. */
  idleMs: 60 * 60 * 1000,
});

// ---- Window reuse across a conversation's requests (issue 11) ----

/**
 * Bounds of the per-conversation memo of the last input window read (src/runs/window-memo.ts): a
 * request whose raw window extends the last one of its conversation reads only the new suffix.
 * A cache, never a source of truth: past a bound the oldest entry goes and that conversation's
 * next request is read in full. Its bytes count in the core's stateBytes.
 */
export const WINDOW_MEMO_LIMITS = Object.freeze({
  /** Conversations whose last window is remembered. */
  maxWindows: 1000,
  /** Estimated bytes of all remembered windows (UTF-16 of the raw JSON, plus a little per message). */
  maxBytes: 32 * 1024 * 1024,
  /**
   * A window that did not extend the one before is remembered only when its read reused at least
   * this share of its items' raw JSON from the one before (else that one stays). Issue 36: a kept
   * window is promoted by the collector (its items' own copies, the messages parsed from them), so
   * it pays only when the next window repeats most of it; bench/window-read.mjs: a sliding
   * window (~90 % reused) 54 µs a request kept against 91 parsed in full, unrelated windows
   * sharing their tool results (~58 %) 88–100 kept against 56–58.
   */
  minReusedShare: 0.75,
});

/** Distinct tallies of window ledger rows shared between rows (src/runs/seams.ts); past it a row keeps its own. */
export const WINDOW_ROW_TALLY_SHAPES = 256;

/**
 * Milliseconds of synchronous work the service does before it gives the event loop a turn while
 * reading, analysing and re-encoding a large batch (src/service/time-slice.ts), so /healthz and
 * other requests are answered within about this long plus one step.
 */
export const SERVICE_SLICE_MS = 8;

// ---- Worker mode (issue 11) ----

/**
 * Answers the analysis worker puts in one message at most: a posted batch is answered in one
 * message, a burst in parts of this many, so its first spans go on before its last are read.
 */
export const WORKER_ANSWERS_PER_MESSAGE = 64;

// ---- Shared conversation-state store (issue 14) ----

/**
 * Milliseconds a batch may wait on the shared state store in all (the read before analysis plus
 * the write after it). Past it the turn is judged with what this instance holds, its disposition
 * says "conversation state unavailable", and the write, if any, finishes in the background.
 */
export const STATE_STORE_BUDGET_MS = 50;
/** Milliseconds one store command may take before the client gives up on it (background writes included). */
export const STATE_STORE_COMMAND_TIMEOUT_MS = 1000;
/** Times a write that met another instance's newer version is merged and tried again. */
export const STATE_STORE_WRITE_ATTEMPTS = 4;

/**
 * Milliseconds a batch's acknowledgement waits for its state writes (issue 31). Past it the batch
 * is still acknowledged when its leases are in the store (every reader of those conversations then
 * says its turn may lack state until the write lands) or the store is unreachable (every instance
 * says so for STATE_STORE_RECOVERY_GRACE_MS after it is back); otherwise it is answered 503 and the
 * sender's retry writes again. Writes not yet landed are retried every STATE_STORE_OWED_RETRY_MS.
 */
export const STATE_STORE_ACK_WAIT_MS = 1000;
/** How long a batch's lease on a conversation holds; one older than this whose write never came means that state was lost. */
export const STATE_STORE_LEASE_MS = 60_000;
/** After the store comes back from being unreachable, turns are said to possibly lack state for this long. */
export const STATE_STORE_RECOVERY_GRACE_MS = 5000;
/** Interval of the retry of state writes not yet landed. */
export const STATE_STORE_OWED_RETRY_MS = 1000;

// ---- Behaviour checks: argument schemas, repeated calls, counts, statuses, actions (issue 28) ----

/** Bounds of `argument-schema`'s validator (src/runs/schema-validator.ts). */
export const SCHEMA_LIMITS = Object.freeze({
  /** Compiled input schemas kept (least recently used dropped first); a schema is compiled once while kept. */
  maxCompiledSchemas: 256,
  /** UTF-8 bytes of one schema's JSON; a larger schema is not compiled (the call is unreachable, said so). */
  maxSchemaBytes: 256 * 1024,
  /** Violations named in one finding; the rest are counted. */
  maxNamedViolations: 6,
});

/** Bounds of the answer checks that read served results as rows (count-mismatch, status-contradiction). */
export const SERVED_ROWS_LIMITS = Object.freeze({
  /** Tool results read per answer (the latest first); older ones are not read. */
  maxResults: 200,
  /** UTF-8 bytes of one result text parsed as JSON; a longer one is not read as rows. */
  maxResultBytes: 1024 * 1024,
  /** Row sets (arrays, keyed maps) collected per answer. */
  maxRowSets: 2000,
  /** Objects visited per result while collecting rows and entities. */
  maxNodesPerResult: 20_000,
});
