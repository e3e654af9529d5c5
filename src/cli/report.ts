// Renders a check run for people (grouped by trace, each finding with its sentence and witnesses,
// wrapped to a width) or as one JSON object. Formatting only: it never decides what is a finding.

import { plural } from '../findings/phrases.js';
import type { Finding, CheckTally } from '../model/finding.js';
import { checksClauses, sumTallies } from '../findings/disposition.js';
import type { Diagnostic } from '../model/diagnostics.js';
import type { SpanEventData } from '../model/telemetry.js';
import * as N from '../findings/names.js';
import { conventionsRead } from './conventions-read.js';
import { DEFAULT_WIDTH, wrapText } from './wrap.js';

export interface TraceSummary {
  traceId: string;
  /** The turn's name (the invoke_agent or root span), when there is one. */
  turn?: string;
  conversationId?: string;
  llmRequests: number;
  tallies: CheckTally[];
  /** The turn's `footprint.disposition` sentence, when one was written. */
  disposition?: string;
  /** The final answer's `footprint.answer.standing`, when one was written. */
  standing?: { standing: string; reasons: string[]; statement: string };
}

export interface CheckReport {
  findings: { finding: Finding; event: SpanEventData }[];
  traces: TraceSummary[];
  diagnostics: Diagnostic[];
  spans: number;
  logs: number;
  /** Distinct trace ids in the input, with or without an LLM request. */
  inputTraces: number;
  /** Things the user should know once per run (e.g. which checks are off without declarations). */
  notes: string[];
}

function attr(e: SpanEventData, key: string): string | undefined {
  const v = e.attributes[key];
  return typeof v === 'string' ? v : undefined;
}

/** The JSON item of one finding, as written on the span (values quoted or redacted). */
export function findingJson(f: Finding, e: SpanEventData): Record<string, unknown> {
  let witnesses: unknown = [];
  try {
    witnesses = JSON.parse(attr(e, N.ATTR_FINDING_WITNESSES) ?? '[]');
  } catch {
    witnesses = [];
  }
  return {
    id: attr(e, N.ATTR_FINDING_ID),
    kind: f.kind,
    seam: f.seam,
    traceId: f.span.traceId,
    spanId: f.span.spanId,
    ...(f.conversationId ? { conversationId: f.conversationId } : {}),
    toolName: f.toolName ?? null,
    toolCallId: f.toolCallId ?? null,
    predicate: attr(e, N.ATTR_FINDING_PREDICATE) ?? f.predicate,
    value: attr(e, N.ATTR_FINDING_VALUE) ?? null,
    grounding: f.grounding ?? null,
    advisory: f.advisory === true,
    armedBy: f.armedBy ?? 'declared',
    ...(f.armedEvidence ? { armedEvidence: f.armedEvidence } : {}),
    message: attr(e, N.ATTR_FINDING_MESSAGE) ?? f.message,
    witnesses,
  };
}

export function renderJson(r: CheckReport): string {
  return JSON.stringify(
    {
      findings: r.findings.map(({ finding, event }) => findingJson(finding, event)),
      summary: summaryLine(r),
      notes: r.notes,
      traces: r.traces.map((t) => ({
        traceId: t.traceId,
        turn: t.turn ?? null,
        conversationId: t.conversationId ?? null,
        llmRequests: t.llmRequests,
        disposition: t.disposition ?? null,
        standing: t.standing ?? null,
        checks: t.tallies,
      })),
      diagnostics: r.diagnostics,
    },
    null,
    2,
  );
}


export function summaryLine(r: CheckReport): string {
  const requests = r.traces.reduce((n, t) => n + t.llmRequests, 0);
  // Nothing was recognised as an LLM request: say what is read, and do not blame the declarations.
  if (requests === 0) return `${plural(r.inputTraces, 'trace')}, no LLM request recognised (conventions read: ${conventionsRead()}).${r.findings.length ? ` ${plural(r.findings.length, 'finding')}.` : ''}`;
  const withRequests = r.traces.filter((t) => t.llmRequests > 0).length;
  const others = r.inputTraces - withRequests;
  const scope = `in ${plural(withRequests, 'trace')}${others > 0 ? ` (${others} more with no LLM request recognised)` : ''}`;
  const totals = sumTallies(r.traces.flatMap((t) => t.tallies));
  let line = checksClauses(totals, requests, { scope, idle: false });
  if (!totals.some((t) => t.checked > 0 || t.unreachable > 0)) line += ' (nothing was declared that arms a check, so nothing was checked)';
  return `${line}. ${plural(r.findings.length, 'finding')}.`;
}

/** The text report, every line wrapped at word boundaries to `width` (never cut). */
export function renderText(r: CheckReport, width: number = DEFAULT_WIDTH): string {
  const out: string[] = [summaryLine(r), ...r.notes, ''];
  for (const t of r.traces) {
    const mine = r.findings.filter((x) => x.finding.span.traceId === t.traceId);
    out.push(`trace ${t.traceId}${t.turn ? ` · ${t.turn}` : ''}${t.conversationId ? ` · conversation ${t.conversationId}` : ''}`);
    if (t.disposition) out.push(`  checked: ${t.disposition}`);
    for (const { finding, event } of mine) {
      const j = findingJson(finding, event);
      out.push(`  ${finding.kind} @ ${finding.seam}${finding.advisory ? ' (advisory)' : ''} — ${finding.toolName ?? ''} ${j.predicate as string}${finding.toolCallId ? ` (call ${finding.toolCallId})` : ''} on span ${finding.span.spanId}`);
      out.push(`    ${j.message as string}`);
      for (const w of (Array.isArray(j.witnesses) ? j.witnesses : []) as { stratum?: string; value?: string; provenance?: string; omitted?: number }[]) {
        if (w.omitted) out.push(`      … ${w.omitted} more witness(es)`);
        else out.push(`      · [${w.stratum}] "${w.value}" — ${w.provenance}`);
      }
    }
    if (t.standing) {
      out.push(`  answer standing: ${t.standing.standing}${t.standing.reasons.length ? ` (${t.standing.reasons.join(', ')})` : ''}`);
      out.push(`    ${t.standing.statement}`);
    }
    out.push('');
  }
  const warn = r.diagnostics.filter((d) => d.level !== 'info');
  if (warn.length > 0) {
    out.push(`${plural(warn.length, 'diagnostic')}:`);
    for (const d of warn.slice(0, 50)) out.push(`  ${d.level}: ${d.message}`);
    if (warn.length > 50) out.push(`  … and ${warn.length - 50} more`);
  }
  return wrapText(out.join('\n').trimEnd(), width) + '\n';
}
