// The embedded default's memory: the last N runs (one run = one trace) with their findings, as
// JSON for GET /api/findings, and the one-line readable form printed per finding. Bounded in runs
// and findings per run. Values are redacted by the configured setting before they are kept.
// Every finding carries its tenant (the tenant attribute of its span's resource); a query can be
// held to a token's tenants (auth.tokens).
// Must never keep spans or raw telemetry, never print an unquoted value from telemetry, and never
// answer a tenant-held query with another tenant's finding.

import type { Finding } from '../model/finding.js';
import type { Redaction } from '../runs/footprint.js';
import { findingId, findingToEvent } from '../findings/events.js';
import { quoteText } from '../findings/quote.js';
import { ATTR_FINDING_MESSAGE, ATTR_FINDING_VALUE } from '../findings/names.js';
import { NO_TENANT } from '../model/tenant.js';

const MAX_FINDINGS_PER_RUN = 1000;
const LINE_CAP = 400;
const MAX_TENANTS_PER_RUN = 100;

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
  /** The tenant of the finding's span (tenantAttribute of its resource; "(no tenant)" when unset). */
  tenant: string;
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
  /** Tenants seen in the trace (at most MAX_TENANTS_PER_RUN). */
  tenants: string[];
  findings: FindingView[];
  /** Findings past the per-run bound, counted and not kept. */
  findingsDropped: number;
}

export interface FindingsQuery {
  traceId?: string;
  kind?: string;
  /** Only these tenants' runs and findings (a token bound to tenants); absent: every tenant. */
  tenants?: readonly string[];
}

export class FindingsStore {
  private readonly runs = new Map<string, RunView>();
  constructor(
    private readonly maxRuns: number,
    private readonly redaction: Redaction,
    private readonly quotedValueChars: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes that a trace was seen (so a run with no findings still shows as processed), and its tenants. */
  touch(traceId: string, spans: number, logRecords: number, tenants: readonly string[] = []): void {
    const run = this.run(traceId);
    run.spans += spans;
    run.logRecords += logRecords;
    for (const t of tenants) if (!run.tenants.includes(t) && run.tenants.length < MAX_TENANTS_PER_RUN) run.tenants.push(t);
  }

  /** Keeps a finding; `tenant` is its span's (undefined: the run's first tenant, or "(no tenant)"). */
  add(f: Finding, tenant?: string): FindingView {
    const run = this.run(f.span.traceId);
    const view = this.view(f, tenant ?? run.tenants[0] ?? NO_TENANT);
    if (run.tenants.length < MAX_TENANTS_PER_RUN && !run.tenants.includes(view.tenant)) run.tenants.push(view.tenant);
    if (run.findings.length < MAX_FINDINGS_PER_RUN) run.findings.push(view);
    else run.findingsDropped++;
    return view;
  }

  query(q: FindingsQuery): { runs: RunView[] } {
    const runs: RunView[] = [];
    const allowed = q.tenants ? new Set(q.tenants) : undefined;
    for (const run of [...this.runs.values()].reverse()) {
      if (q.traceId && run.traceId !== q.traceId.toLowerCase()) continue;
      if (allowed && !run.tenants.some((t) => allowed.has(t))) continue;
      let findings = allowed ? run.findings.filter((f) => allowed.has(f.tenant)) : run.findings;
      if (q.kind) findings = findings.filter((f) => f.kind === q.kind);
      if (q.kind && findings.length === 0) continue;
      runs.push({ ...run, tenants: allowed ? run.tenants.filter((t) => allowed.has(t)) : [...run.tenants], findings });
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
      run = { traceId, firstSeen: at, lastSeen: at, spans: 0, logRecords: 0, tenants: [], findings: [], findingsDropped: 0 };
    }
    this.runs.set(traceId, run);
    while (this.runs.size > this.maxRuns) {
      const oldest = this.runs.keys().next().value;
      if (oldest === undefined) break;
      this.runs.delete(oldest);
    }
    return run;
  }

  private view(f: Finding, tenant: string): FindingView {
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
      tenant,
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
