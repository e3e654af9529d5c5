// `footprint-otel check FILE...`: runs the core over exported traces (OTLP/JSON, Tempo's API
// output, JSON lines; spans and log records), prints findings, and with --write writes the same
// documents back out with the finding events added. Exit codes are exit-codes.ts' (0 ran clean,
// 1 findings per --fail-on, 2 unusable input); it must never exit non-zero for findings unasked.

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { DecodedDocument } from '../otlp/json.js';
import { readTraceFiles } from './read-traces.js';
import { encodeKeyValues } from '../otlp/anyvalue.js';
import { loadDeclarationsFile } from '../declarations/load.js';
import { unseenDeclaredTools, unseenToolSentence } from '../declarations/unseen.js';
import { FootprintCore, type Redaction } from '../runs/footprint.js';
import { spanKey, type SpanData, type SpanEventData } from '../model/telemetry.js';
import { tenantOfResource } from '../model/tenant.js';
import type { Declarations } from '../declarations/types.js';
import { renderJson, renderText, type CheckReport } from './report.js';
import { writeExplainPage } from '../explain/page.js';
import { argsErrorReason } from './args.js';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { DEFAULT_WIDTH } from './wrap.js';
import { plural } from '../findings/phrases.js';
import { sumTallies } from '../findings/disposition.js';
import { CONTENT_NOT_CAPTURED } from '../checks/catalog.js';
import { isAgentSpan, readSpan } from '../conventions/registry.js';
import { resolveLimits } from '../limits.js';
import { DiagnosticList } from '../model/diagnostics.js';
import { DEFAULT_EVALUATION_EVENTS, EVALUATION_EVENTS_VALUES, type EvaluationEvents } from '../findings/evaluation.js';
import { ATTR_ANSWER_REASONS, ATTR_ANSWER_STANDING, ATTR_ANSWER_STATEMENT, ATTR_DISPOSITION_SUMMARY, EVENT_ANSWER_STANDING, EVENT_DISPOSITION, EVENT_FINDING } from '../findings/names.js';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const CHECK_USAGE = `usage: footprint-otel check FILE... [--declarations FILE] [--format text|json] [--write FILE] [--redaction quote|hash|omit] [--fail-on findings|advisory|unchecked|never] [--html FILE] [--evaluation-events off|findings|all]
  FILE            OTLP/JSON traces or logs (ExportTraceServiceRequest / ExportLogsServiceRequest,
                  Tempo API output, or JSON lines mixing both)
                  or Jaeger JSON (UI "Download JSON", /api/traces, v2 {result:{resourceSpans}})
  --declarations  tool declarations (YAML or JSON) that arm the checks
  --format        text (default) for people, json for machines: {"findings":[...]}
  --write FILE    write the spans back out as OTLP/JSON with the finding events added
  --redaction     how finding values are written: quote (default), hash or omit
  --html FILE     write "Explain this answer" for every agent trace as one self-contained page
  --fail-on       when to exit ${EXIT.findings} (a CI gate): findings (any non-advisory finding),
                  advisory (any finding at all), unchecked (no check gave a verdict anywhere:
                  nothing declared or inferred applied, no content, no LLM span) or never (default);
                  combine with commas, e.g. --fail-on findings,unchecked; findings or advisory also
                  fail a run where no LLM request was recognised at all (nothing was checked)
  --evaluation-events
                  the gen_ai.evaluation.result events --write adds: off, findings (default: one
                  per finding) or all (also a pass / not_run per check per turn)`;

const OPTIONS = {
  declarations: { type: 'string' },
  format: { type: 'string', default: 'text' },
  write: { type: 'string' },
  redaction: { type: 'string', default: 'quote' },
  'fail-on': { type: 'string', default: 'never' },
  html: { type: 'string' },
  'evaluation-events': { type: 'string', default: DEFAULT_EVALUATION_EVENTS },
  help: { type: 'boolean', short: 'h' },
} as const;

export type FailOn = 'findings' | 'advisory' | 'unchecked' | 'never';
const FAIL_ON: readonly FailOn[] = ['findings', 'advisory', 'unchecked', 'never'];

/** The policies of a `--fail-on` value (comma-separated), or the word that is not one. */
function failOnPolicies(value: string): { ok: true; policies: Set<FailOn> } | { ok: false; bad: string } {
  const policies = new Set<FailOn>();
  for (const word of value.split(',').map((w) => w.trim())) {
    if (!FAIL_ON.includes(word as FailOn)) return { ok: false, bad: word };
    policies.add(word as FailOn);
  }
  return { ok: true, policies };
}

export interface CheckIo {
  /** Width text output wraps to (the terminal's, or 100). */
  width?: number;
}

const fail = (reason: string): CliResult => ({ exitCode: EXIT.usage, stdout: '', stderr: `footprint-otel check: ${reason}\n` });

export function runCheck(argv: string[], io: CheckIo = {}): CliResult {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (e) {
    return fail(`${argsErrorReason(e, argv, Object.keys(OPTIONS))}\n${CHECK_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { exitCode: EXIT.ok, stdout: `${CHECK_USAGE}\n\n${EXIT_CODES_HELP}\n`, stderr: '' };
  if (positionals.length === 0) return fail(`no input file given\n${CHECK_USAGE}`);
  if (values.format !== 'text' && values.format !== 'json') return fail(`--format must be text or json, not "${values.format}"`);
  if (!['quote', 'hash', 'omit'].includes(values.redaction!)) return fail(`--redaction must be quote, hash or omit, not "${values.redaction}"`);
  const parsedFailOn = failOnPolicies(values['fail-on']!);
  if (!parsedFailOn.ok) return fail(`--fail-on must be findings, advisory, unchecked or never (or several, with commas), not "${parsedFailOn.bad}"`);
  const failOn = parsedFailOn.policies;
  const evaluationEvents = values['evaluation-events'] as EvaluationEvents;
  if (!EVALUATION_EVENTS_VALUES.includes(evaluationEvents)) return fail(`--evaluation-events must be ${EVALUATION_EVENTS_VALUES.join(', ')}, not "${values['evaluation-events']}"`);

  let declarations: Declarations | undefined;
  if (values.declarations) {
    const r = loadDeclarationsFile(values.declarations);
    if (!r.ok) return fail(`declarations refused: ${r.errors.map((e) => e.replace(/\n/g, '\n  ')).join('\n  ')}`);
    declarations = r.declarations;
  }

  const read = readTraceFiles(positionals);
  if (!read.ok) return fail(read.error);
  const doc = read.doc;
  if (doc.spans.length === 0) {
    const why = doc.diagnostics.find((d) => d.level === 'error')?.message ?? 'no spans found in the input';
    return fail(doc.logs.length > 0 ? `no spans found (only ${doc.logs.length} log records): give the trace file too` : why);
  }

  const core = new FootprintCore({ ...(declarations ? { declarations } : {}), redaction: values.redaction as Redaction, evaluationEvents });
  const spans = doc.spans.map((d) => d.span);
  const result = core.process({ spans, logs: doc.logs });

  const eventsByFinding = new Map<string, SpanEventData[]>();
  for (const [key, ann] of result.annotations) eventsByFinding.set(key, ann.events.filter((e) => e.name === EVENT_FINDING));
  for (const c of result.carriers) eventsByFinding.set(spanKey({ traceId: c.traceId, spanId: c.parentSpanId ?? c.spanId }), c.events.filter((e) => e.name === EVENT_FINDING));
  const counters = new Map<string, number>();
  const findings = result.findings.map((finding) => {
    const key = spanKey(finding.span);
    const i = counters.get(key) ?? 0;
    counters.set(key, i + 1);
    return { finding, event: eventsByFinding.get(key)![i]! };
  });

  const traceIds = [...new Set(spans.map((s) => s.traceId))];
  // The core keeps each tenant's part of a trace apart (src/runs/trace-key.ts): one entry each.
  const tenantsOf = new Map<string, Set<string>>();
  for (const s of spans) (tenantsOf.get(s.traceId) ?? tenantsOf.set(s.traceId, new Set()).get(s.traceId)!).add(tenantOfResource(s.resource, core.config.tenantAttribute));
  const report: CheckReport = {
    findings,
    traces: traceIds
      .flatMap((id) => [...tenantsOf.get(id)!].map((tenant) => ({ id, tenant, info: core.traceInfoOf(id, tenant) })))
      .filter((t) => t.info !== undefined)
      .map(({ id, tenant, info }) => ({
        traceId: id,
        ...(info!.turn ? { turn: info!.turn } : {}),
        ...(info!.conversationId ? { conversationId: info!.conversationId } : {}),
        llmRequests: info!.llmRequests,
        tallies: core.talliesOf(id, tenant),
        ...turnEvents(id, spans, result.annotations, result.carriers),
      })),
    diagnostics: [...doc.diagnostics, ...result.diagnostics],
    spans: spans.length,
    logs: doc.logs.length,
    inputTraces: traceIds.length,
    notes: [],
  };
  if (!declarations) report.notes.push(...noDeclarationsNote(report, positionals));
  else report.notes.push(...unseenDeclaredTools(Object.keys(declarations.tools), core.toolNamesSeen()).map(unseenToolSentence));
  report.notes.push(...contentNotCapturedNote(report), ...noToolCallsNote(report, spans, declarations));

  // What was written, said on stderr (stdout stays the report, parseable with --format json).
  const wrote: string[] = [];
  if (values.write) {
    try {
      writeFileSync(values.write, writeBack(doc, result.annotations, result.carriers));
    } catch (e) {
      return fail(`cannot write ${values.write} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    wrote.push(`footprint-otel check: wrote ${values.write} (${plural(spans.length + result.carriers.length, 'span')}, ${plural(result.findings.length, 'finding')} as events)`);
  }
  if (values.html) {
    const why = writeExplainPage(values.html, { spans, logs: doc.logs, result, traceIds: report.traces.map((t) => t.traceId), ...(declarations ? { declarations } : {}), redaction: values.redaction as Redaction });
    if (why) return fail(why);
    wrote.push(`footprint-otel check: wrote ${values.html} (Explain this answer, ${plural(report.traces.length, 'agent trace')})`);
  }
  const said = (lines: readonly string[]) => lines.map((l) => `${l}\n`).join('');
  const stdout = values.format === 'json' ? `${renderJson(report)}\n` : renderText(report, io.width ?? DEFAULT_WIDTH);
  const failures: string[] = [];
  const counted = failOn.has('advisory') ? report.findings.length : failOn.has('findings') ? report.findings.filter((f) => f.finding.advisory !== true).length : 0;
  if (counted > 0) failures.push(`${failOn.has('advisory') ? plural(counted, 'finding') : plural(counted, 'non-advisory finding')} (--fail-on ${failOn.has('advisory') ? 'advisory' : 'findings'})`);
  const requests = report.traces.reduce((n, t) => n + t.llmRequests, 0);
  if (failOn.has('unchecked') && !report.traces.some((t) => t.tallies.some((x) => x.checked > 0))) {
    failures.push(`nothing was checked: no check gave a verdict on ${plural(requests, 'LLM request')} in ${plural(report.traces.length, 'trace')} (--fail-on unchecked)`);
  } else if ((failOn.has('findings') || failOn.has('advisory')) && requests === 0) {
    // A gate over input with no LLM request at all checked nothing: that is not a pass.
    failures.push(`no LLM request recognised in the input, so nothing was checked (--fail-on ${failOn.has('advisory') ? 'advisory' : 'findings'} does not pass it)`);
  }
  if (failures.length === 0) return { exitCode: EXIT.ok, stdout, stderr: said(wrote) };
  return { exitCode: EXIT.findings, stdout, stderr: said([...wrote, ...failures.map((f) => `footprint-otel check: ${f}: exit ${EXIT.findings}`)]) };
}

/** Said once when no declarations were given and LLM requests were seen: which checks examined nothing, and the command that drafts declarations. */
function noDeclarationsNote(r: CheckReport, files: readonly string[]): string[] {
  if (!r.traces.some((t) => t.llmRequests > 0)) return [];
  const off = sumTallies(r.traces.flatMap((t) => t.tallies)).filter((t) => t.checked === 0 && t.unreachable === 0).map((t) => t.check);
  if (off.length === 0) return [];
  const cmd = `footprint-otel declarations suggest ${files.map(shellWord).join(' ')} --out declarations.yaml`;
  return [
    `No declarations given: checks ran on what the trace itself shows (inferred), and ${plural(off.length, 'check')} found nothing ${off.length === 1 ? 'it' : 'they'} could examine (${off.join(', ')}); declarations arm them further: which tool arguments come from which tool results, result columns, claims.`,
    `\`${cmd}\` drafts them from this trace; review the draft, then pass it with --declarations declarations.yaml.`,
  ];
}

/**
 * Said when requests' content was not captured and no log records were given: the content may be
 * in a logs file the user left out (Jaeger, for one, keeps spans only).
 */
function contentNotCapturedNote(r: CheckReport): string[] {
  if (r.logs > 0) return [];
  const missing = r.traces.reduce((n, t) => n + Math.max(0, ...t.tallies.map((x) => x.unreachableReasons[CONTENT_NOT_CAPTURED] ?? 0)), 0);
  if (missing === 0) return [];
  return [
    `Message content was not captured on these spans and no log records were given: if the instrumentation writes content as log records (the official OpenAI instrumentation does), give the logs file too (\`footprint-otel check traces.json logs.json\`; Jaeger keeps spans only, so the logs come from your log pipeline); if it records no content at all, turn content capture on (docs/stacks.md).`,
  ];
}

/**
 * Said when the argument checks were armed, requests were read, and none of them recorded a tool
 * call: "nothing applicable" there means the instrumentation recorded no calls (OpenLLMetry's
 * LangChain instrumentation writes text parts only), not that nothing was declared.
 */
function noToolCallsNote(r: CheckReport, spans: readonly SpanData[], declarations: Declarations | undefined): string[] {
  const requests = r.traces.reduce((n, t) => n + t.llmRequests, 0);
  const armed = Object.values(declarations?.tools ?? {}).some((t) => (t.argumentsFrom?.length ?? 0) > 0);
  if (!armed || requests === 0) return [];
  const choice = sumTallies(r.traces.flatMap((t) => t.tallies)).find((t) => t.check === 'unsupported-argument');
  if (choice && (choice.checked > 0 || choice.unreachable > 0)) return [];
  if (toolCallsRecorded(spans)) return [];
  return [
    `None of the ${plural(requests, 'LLM request')} read recorded a tool call (in its output or its input), so the checks on tool calls had nothing to check: if the agent did call tools, its instrumentation did not record the calls (OpenLLMetry's LangChain instrumentation, for one, records them only on its execute_tool spans: give those too; docs/stacks.md).`,
  ];
}

/** True when some LLM request span, read again, holds a tool call in its output or its input. */
function toolCallsRecorded(spans: readonly SpanData[]): boolean {
  const ctx = { limits: resolveLimits({}), diagnostics: new DiagnosticList(), tenantAttribute: 'service.name' };
  for (const s of spans) {
    if (!isAgentSpan(s)) continue;
    for (const ev of readSpan(s, ctx)) {
      if (ev.kind !== 'llm-request') continue;
      if (ev.toolCalls.length > 0 || ev.input.some((m) => m.parts.some((p) => p.type === 'tool-call' || p.type === 'tool-result'))) return true;
    }
  }
  return false;
}

/** A file name as a shell word (quoted when it holds anything but safe characters). */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The disposition and standing written for one trace, read back from the events (one source of truth). */
function turnEvents(traceId: string, spans: readonly SpanData[], annotations: Map<string, { events: SpanEventData[] }>, carriers: readonly SpanData[]) {
  const events = [
    ...spans.filter((s) => s.traceId === traceId).flatMap((s) => annotations.get(spanKey(s))?.events ?? []),
    ...carriers.filter((c) => c.traceId === traceId).flatMap((c) => c.events),
  ];
  const d = events.find((e) => e.name === EVENT_DISPOSITION);
  const st = [...events].reverse().find((e) => e.name === EVENT_ANSWER_STANDING);
  const reasons = st?.attributes[ATTR_ANSWER_REASONS];
  return {
    ...(d ? { disposition: String(d.attributes[ATTR_DISPOSITION_SUMMARY] ?? '') } : {}),
    ...(st
      ? {
          standing: {
            standing: String(st.attributes[ATTR_ANSWER_STANDING] ?? ''),
            reasons: Array.isArray(reasons) ? reasons.map(String) : [],
            statement: String(st.attributes[ATTR_ANSWER_STATEMENT] ?? ''),
          },
        }
      : {}),
  };
}

function eventJson(e: SpanEventData): Record<string, unknown> {
  return { timeUnixNano: String(e.timeUnixNano), name: e.name, attributes: encodeKeyValues(e.attributes), droppedAttributesCount: 0 };
}

/** The input trace documents with finding events (and counts) added in place, as one OTLP/JSON export. */
function writeBack(doc: DecodedDocument, annotations: Map<string, { events: SpanEventData[]; attributes: Record<string, unknown> }>, carriers: SpanData[]): string {
  for (const { span, raw } of doc.spans) {
    const ann = annotations.get(spanKey(span));
    if (!ann) continue;
    const events = Array.isArray(raw.events) ? (raw.events as unknown[]) : [];
    events.push(...ann.events.map(eventJson));
    raw.events = events;
    const attrs = Array.isArray(raw.attributes) ? (raw.attributes as unknown[]) : [];
    attrs.push(...encodeKeyValues(ann.attributes as never));
    raw.attributes = attrs;
  }
  const resourceSpans: unknown[] = [];
  for (const d of doc.documents) {
    const root = (d as { trace?: unknown }).trace ?? d;
    const rs = (root as { resourceSpans?: unknown[]; batches?: unknown[] }).resourceSpans ?? (root as { batches?: unknown[] }).batches;
    if (Array.isArray(rs)) resourceSpans.push(...rs);
  }
  if (carriers.length > 0) {
    resourceSpans.push({
      resource: { attributes: encodeKeyValues(carriers[0]!.resource) },
      scopeSpans: [
        {
          scope: { name: carriers[0]!.scope.name },
          spans: carriers.map((c) => ({
            traceId: c.traceId,
            spanId: c.spanId,
            parentSpanId: c.parentSpanId,
            name: c.name,
            kind: c.kind,
            startTimeUnixNano: String(c.startTimeUnixNano),
            endTimeUnixNano: String(c.endTimeUnixNano),
            attributes: encodeKeyValues(c.attributes),
            events: c.events.map(eventJson),
            status: { code: 0 },
          })),
        },
      ],
    });
  }
  return `${JSON.stringify({ resourceSpans }, null, 2)}\n`;
}
