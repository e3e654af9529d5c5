// The embedded default's memory: the last N runs (one run = one trace) with their findings, as
// JSON for GET /api/findings, and the one-line readable form printed per finding. Bounded in runs
// and findings per run. Values are redacted by the configured setting before they are kept.
// Must never keep spans or raw telemetry, and never print an unquoted value from telemetry.

import type { Finding } from '../model/finding.js';
import type { Redaction } from '../runs/footprint.js';
import { findingId, findingToEvent } from '../findings/events.js';
import { quoteText } from '../findings/quote.js';
import { ATTR_FINDING_MESSAGE, ATTR_FINDING_VALUE } from '../findings/names.js';

const MAX_FINDINGS_PER_RUN = 1000;
const LINE_CAP = 400;

export interface FindingView {
  id: string;
  kind: string;
  seam: string;
  message: string;
  predicate: string;
  value?: string;
  toolName?: string;
  toolCallId?: string;
  grounding?: string;
  advisory?: boolean;
  traceId: string;
  spanId: string;
  conversationId?: string;
  seenAt: string;
}

export interface RunView {
  traceId: string;
  firstSeen: string;
  lastSeen: string;
  spans: number;
  logRecords: number;
  findings: FindingView[];
  /** Findings past the per-run bound, counted and not kept. */
  findingsDropped: number;
}

export interface FindingsQuery {
  traceId?: string;
  kind?: string;
}

export class FindingsStore {
  private readonly runs = new Map<string, RunView>();
  constructor(
    private readonly maxRuns: number,
    private readonly redaction: Redaction,
    private readonly quotedValueChars: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes that a trace was seen (so a run with no findings still shows as processed). */
  touch(traceId: string, spans: number, logRecords: number): void {
    const run = this.run(traceId);
    run.spans += spans;
    run.logRecords += logRecords;
  }

  add(f: Finding): FindingView {
    const view = this.view(f);
    const run = this.run(f.span.traceId);
    if (run.findings.length < MAX_FINDINGS_PER_RUN) run.findings.push(view);
    else run.findingsDropped++;
    return view;
  }

  query(q: FindingsQuery): { runs: RunView[] } {
    const runs: RunView[] = [];
    for (const run of [...this.runs.values()].reverse()) {
      if (q.traceId && run.traceId !== q.traceId.toLowerCase()) continue;
      const findings = q.kind ? run.findings.filter((f) => f.kind === q.kind) : run.findings;
      if (q.kind && findings.length === 0) continue;
      runs.push({ ...run, findings });
    }
    return { runs };
  }

  get size(): number {
    return this.runs.size;
  }

  private run(traceId: string): RunView {
    const at = new Date(this.now()).toISOString();
    let run = this.runs.get(traceId);
    if (run) {
      this.runs.delete(traceId); // re-insert: most recent last
      run.lastSeen = at;
    } else {
      run = { traceId, firstSeen: at, lastSeen: at, spans: 0, logRecords: 0, findings: [], findingsDropped: 0 };
    }
    this.runs.set(traceId, run);
    while (this.runs.size > this.maxRuns) {
      const oldest = this.runs.keys().next().value;
      if (oldest === undefined) break;
      this.runs.delete(oldest);
    }
    return run;
  }

  private view(f: Finding): FindingView {
    // The same redaction as the span event (value, and every quoted sensitive value in the message).
    const e = findingToEvent(f, 0n, { redaction: this.redaction, quotedValueChars: this.quotedValueChars, maxAttributeBytes: 2000 });
    const message = String(e.attributes[ATTR_FINDING_MESSAGE] ?? '');
    const shown = e.attributes[ATTR_FINDING_VALUE] as string | undefined;
    return {
      id: findingId(f),
      kind: f.kind,
      seam: f.seam,
      message,
      predicate: quoteText(f.predicate, 200),
      ...(shown !== undefined ? { value: shown } : {}),
      ...(f.toolName ? { toolName: quoteText(f.toolName, 200) } : {}),
      ...(f.toolCallId ? { toolCallId: quoteText(f.toolCallId, 200) } : {}),
      ...(f.grounding ? { grounding: f.grounding } : {}),
      ...(f.advisory ? { advisory: true } : {}),
      traceId: f.span.traceId,
      spanId: f.span.spanId,
      ...(f.conversationId ? { conversationId: quoteText(f.conversationId, 200) } : {}),
      seenAt: new Date(this.now()).toISOString(),
    };
  }
}

/** One readable line per finding, e.g. for stdout in the embedded default. */
export function findingLine(v: FindingView): string {
  const where = [`trace=${v.traceId}`, `span=${v.spanId}`];
  if (v.toolName) where.push(`tool=${v.toolName}`);
  if (v.toolCallId) where.push(`call=${v.toolCallId}`);
  return quoteText(`footprint finding ${v.kind} (${v.seam}${v.advisory ? ', advisory' : ''}) ${where.join(' ')}: ${v.message}`, LINE_CAP);
}
