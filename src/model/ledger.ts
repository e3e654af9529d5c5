// The negative ledger: one row per tool execution of a conversation — what was read, how it
// ended, whether its result was empty (and who said so), its rows, and the coverage the tool
// declared (what it checked and did not). Plain data, filled by src/runs from ToolExecutions and
// read by the write- and answer-seam checks. Never guessed: an unknown shape is `unknown`.

import type { SpanRef } from './telemetry.js';

export type ReadOutcome = 'ran' | 'refused' | 'failed' | 'unknown';

/**
 * Where a row was read from: the tool's own `execute_tool` span, or the request windows (the
 * model's tool call and the tool message answering it in a later request) when the app recorded
 * no span for the call. A span row always wins over a window row of the same call.
 */
export type LedgerSource = 'span' | 'window';

export type Emptiness = 'declared-absent' | 'undeclared-empty' | 'non-empty' | 'unknown';

export interface CoverageItem {
  what: string;
  why?: string;
  /** Only on not_checked: what kind of gap it is. */
  kind?: 'existence' | 'scope';
  short?: string;
}

export interface PeriodRange {
  from: string;
  to: string;
}

export type PeriodVerdict = 'covered' | 'partly-held' | 'not-held' | 'unknown';

export interface DeclaredPeriod {
  queried: PeriodRange;
  held: PeriodRange | 'unknown';
  readAt?: string;
  verdict: PeriodVerdict;
}

export interface DescribedFact {
  entity: string;
  field: string;
  value: unknown;
  measuredAt?: string;
}

/** What the one result reader found in a tool's result. */
export interface ResultReading {
  emptiness: Emptiness;
  /** Counted rows, when the result has a countable list. */
  rows?: number;
  /** Which route read it. */
  shape: 'array' | 'absence' | 'coverage' | 'described' | 'rows-at' | 'text' | 'object' | 'none';
  /**
   * The rows themselves when the result is an array of plain objects, for the column checks while
   * the row is judged; a conversation's ledger does not keep them (src/runs/seams.ts keptRow).
   */
  objectRows?: Record<string, unknown>[];
  absence?: {
    /** What was looked for: the envelope's `looked_for`, or for a not-found the call's values. */
    lookedFor: string;
    /** The tool's own not-found words (`404`, `order not found`): the absence came from a not-found, not an envelope. */
    notFound?: string;
    tryInstead?: string;
    tryInsteadTool?: { tool: string; why?: string };
  };
  coverage?: {
    checked: CoverageItem[];
    notChecked: CoverageItem[];
    cannotCover: CoverageItem[];
  };
  period?: DeclaredPeriod;
  provenance?: { source?: string; measuredAt?: string };
  facts?: DescribedFact[];
  /** Why an envelope-looking value was read as plain data instead (malformed envelope). */
  envelopeRefused?: string;
  /** The result says it was refused or failed (an error envelope, an HTTP-style 401/403/407/429/5xx, `ok: false`, …). */
  refusal?: string;
}

export interface LedgerRow {
  span: SpanRef;
  /** The trace of the turn the read belongs to. */
  traceId: string;
  /** 1-based order of the request that chose this call, within the conversation (when known). */
  request?: number;
  toolName: string;
  callId?: string;
  arguments: unknown;
  /** undefined = the result was not captured. */
  result: unknown;
  outcome: ReadOutcome;
  errorMessage?: string;
  reading: ResultReading;
  startTimeUnixNano: bigint;
  /** Read from the call's execute_tool span, or from the windows (its span is then the request whose window showed the result). */
  source: LedgerSource;
}
