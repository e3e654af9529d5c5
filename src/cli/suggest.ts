// `footprint-otel declarations suggest TRACE... [--out FILE]`: reads exported traces (any shape
// `check` reads), and writes a DRAFT declarations file for a person to review: every tool seen,
// recorded input schemas, argumentsFrom proposed from observed data flow (and from the schema's own
// words, "as returned by X") with the counts as comments, readOnly as inference concluded it (with
// its evidence) where it did, and answers.checkValues left commented for the user to decide: the
// draft is the inference made permanent, for review.
// Must never overwrite an existing file, and never write a draft that would not load.

import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { readTraceFiles } from './read-traces.js';
import type { DecodedDocument } from '../otlp/json.js';
import { isAgentSpan, readSpan } from '../conventions/registry.js';
import { groupLogsBySpan } from '../conventions/log-join.js';
import { DiagnosticList } from '../model/diagnostics.js';
import { spanKey } from '../model/telemetry.js';
import type { ModelEvent } from '../model/agent.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { draftDeclarations, type DeclarationsDraft, type ObservedFlow } from '../declarations/draft.js';
import { validateDeclarations } from '../declarations/schema.js';
import { inferRole } from '../declarations/inferred.js';
import type { CliResult } from './check.js';

export const SUGGEST_USAGE = `usage: footprint-otel declarations suggest TRACE... [--out FILE]
  TRACE      exported traces and logs, in any shape \`check\` reads (OTLP/JSON, Tempo, Jaeger)
  --out FILE write the draft there (refused if FILE exists); default: standard output
  The draft is for review: nothing in it is in force until you pass it as --declarations.`;

const fail = (reason: string): CliResult => ({ exitCode: 2, stdout: '', stderr: `footprint-otel declarations suggest: ${reason}\n` });

/** `footprint-otel declarations <subcommand>`; only `suggest` exists. */
export function runDeclarations(argv: string[]): CliResult {
  const [sub, ...rest] = argv;
  if (sub === 'suggest') return runSuggest(rest);
  if (sub === '--help' || sub === '-h' || sub === 'help') return { exitCode: 0, stdout: `${SUGGEST_USAGE}\n`, stderr: '' };
  return { exitCode: 2, stdout: '', stderr: `footprint-otel declarations: ${sub ? `unknown subcommand "${sub}"` : 'no subcommand given'}\n${SUGGEST_USAGE}\n` };
}

export function runSuggest(argv: string[]): CliResult {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    return fail(`${(e as Error).message}\n${SUGGEST_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { exitCode: 0, stdout: `${SUGGEST_USAGE}\n`, stderr: '' };
  if (positionals.length === 0) return fail(`no trace file given\n${SUGGEST_USAGE}`);
  if (values.out && existsSync(values.out)) return fail(`${values.out} exists; the draft never overwrites a file (remove it or choose another name)`);

  const read = readTraceFiles(positionals);
  if (!read.ok) return fail(read.error);
  const doc = read.doc;
  if (doc.spans.length === 0) return fail(doc.diagnostics.find((d) => d.level === 'error')?.message ?? 'no spans found in the input');

  const events = readEvents(doc);
  const draft = draftDeclarations(events, { maxLeaves: DEFAULT_LIMITS.maxArgumentLeaves, maxJsonChars: DEFAULT_LIMITS.maxJsonAttributeBytes });
  if (draft.tools.length === 0) return fail(`no tool was seen in ${doc.spans.length} spans (${draft.llmRequests} LLM requests read): nothing to draft`);
  const text = renderDraft(draft, positionals, new Set(doc.spans.map((s) => s.span.traceId)).size);

  // The draft must load as declarations once saved; a draft that does not is a bug, said so.
  const check = validateDeclarations(parseYaml(text));
  if (!check.ok) return { exitCode: 1, stdout: '', stderr: `footprint-otel declarations suggest: internal error, the draft does not validate (${check.errors.join('; ')})\n` };

  if (values.out) {
    try {
      writeFileSync(values.out, text, { flag: 'wx' });
    } catch (e) {
      return fail(`cannot write ${values.out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    return { exitCode: 0, stdout: '', stderr: `footprint-otel declarations suggest: wrote a draft for ${draft.tools.length} tools to ${values.out}; review it before passing it as --declarations\n` };
  }
  return { exitCode: 0, stdout: text, stderr: '' };
}

/** Model events of every agent span, log records joined, conversation ids spread over their traces. */
function readEvents(doc: DecodedDocument): ModelEvent[] {
  const diagnostics = new DiagnosticList();
  const logs = groupLogsBySpan(doc.logs, DEFAULT_LIMITS, diagnostics);
  const events: ModelEvent[] = [];
  for (const { span } of doc.spans) {
    if (!isAgentSpan(span)) continue;
    events.push(...readSpan(span, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute: 'service.name', logs: logs.get(spanKey(span)) ?? [] }));
  }
  const conversationOfTrace = new Map<string, string>();
  for (const e of events) if (e.conversationId && !conversationOfTrace.has(e.span.traceId)) conversationOfTrace.set(e.span.traceId, e.conversationId);
  return events.map((e) => (e.conversationId || !conversationOfTrace.has(e.span.traceId) ? e : { ...e, conversationId: conversationOfTrace.get(e.span.traceId)! }));
}

const yamlKey = (s: string): string => (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(s) ? s : JSON.stringify(s));
const oneLine = (s: string, max = 60): string => {
  const t = s.replace(/\s+/g, ' ');
  return JSON.stringify(t.length > max ? `${t.slice(0, max)}…` : t);
};
const times = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

function flowComment(f: ObservedFlow, calls: number): string {
  const kinds = [f.exact ? `${f.exact} equal to a value` : '', f.fragment ? `${f.fragment} only a part of one (${oneLine(f.example.value, 40)} in ${oneLine(f.example.matched, 40)}: review)` : ''].filter(Boolean).join(', ');
  return `    # observed: ${f.path} held a value of an earlier ${f.source} result in ${f.exact + f.fragment} of ${times(calls, 'call')} (${kinds})${f.exact ? `; e.g. ${oneLine(f.example.value, 40)}` : ''}`;
}

/** The draft as YAML with comments: loads as declarations, and says what each line rests on. */
export function renderDraft(draft: DeclarationsDraft, files: readonly string[], traces: number): string {
  const lines: string[] = [
    `# footprint-otel declarations: a DRAFT from ${times(draft.llmRequests, 'LLM request')} in ${times(traces, 'trace')}`,
    `# (${files.map((f) => f.split('/').pop()).join(', ')}). Nothing here is in force until you review it and pass it`,
    '# as --declarations. Declarations are the tools\' authors\' word: keep only what is true of the tool.',
    '# argumentsFrom is proposed from observed data flow: a value of an earlier result of the named',
    '# tool reappeared in this tool\'s argument. Remove a source when the value may come from the user;',
    '# add the tools the traces did not show. Each line below says what it rests on.',
  ];
  const entries: string[][] = [];
  for (const t of draft.tools) {
    const flows = draft.flows.filter((f) => f.target === t.name);
    const sources = [...new Set(flows.map((f) => f.source))];
    const live: string[] = [];
    const notes: string[] = [`    # seen: ${times(t.calls, 'call')}, ${times(t.results, 'result')}`];
    for (const f of flows) notes.push(flowComment(f, t.calls));
    for (const u of draft.unsourced.filter((x) => x.target === t.name))
      notes.push(
        `    # not seen in any earlier tool result: ${u.path} (${times(u.calls, 'call')}, e.g. ${oneLine(u.example, 40)}), given by the user or a fixed vocabulary${sources.length > 0 && t.inputSchema === undefined ? '; with argumentsFrom, declare a vocabulary as an enum in inputSchema or its values are flagged' : ''}`,
      );
    // What inference concluded from the schema's own words joins what the data flow showed.
    const schemaSources = [...new Set(Object.values(t.schemaSources?.byArgument ?? {}).flat())];
    if (t.schemaSources) notes.push(`    # inferred: ${t.schemaSources.evidence}`);
    const all = [...new Set([...sources, ...schemaSources])];
    if (all.length > 0) live.push(`    argumentsFrom: [${all.map(yamlKey).join(', ')}]`);
    else if (t.calls > 0) notes.push('    # argumentsFrom: no argument value of it was seen in an earlier tool result');
    const role = inferRole({ name: t.name, ...(t.description ? { description: t.description } : {}), ...(t.annotations ? { annotations: t.annotations } : {}) });
    if (role) live.push(`    readOnly: ${role.readOnly}    # inferred (in force already, by inference): ${role.evidence}; correct it if it is wrong`);
    else notes.push('    # readOnly: true    # yours to decide: nothing in the trace says whether the tool only reads (its name and description have no read or write verb)');
    if (t.inputSchema !== undefined) {
      live.push('    # inputSchema: as the telemetry recorded it (its enum values are served vocabulary)');
      live.push(...stringifyYaml({ inputSchema: t.inputSchema }, { indent: 2 }).trimEnd().split('\n').map((l) => `    ${l}`));
    } else notes.push(`    # inputSchema: ${draft.toolDefinitionsRecorded ? 'not among the recorded tool definitions' : 'not recorded by this instrumentation'}; add the tool's JSON Schema to fence enum arguments`);
    entries.push(live.length > 0 ? [`  ${yamlKey(t.name)}:`, ...notes, ...live] : [`  # ${yamlKey(t.name)}:   (nothing proposed; uncomment what is true)`, ...notes.map((n) => n.replace(/^ {4}# /, '  #   '))]);
  }
  const anyLive = entries.some((e) => !e[0]!.startsWith('  #'));
  lines.push(anyLive ? 'tools:' : 'tools: {}', ...entries.flat());
  lines.push(
    '# answers:',
    `#   checkValues: true   # every data token (ids, numbers of 4+ digits) of a final answer must come from a tool result the answering request held; arms unsupported-value and prior-turn-evidence (${times(draft.answers, 'final answer')} seen)`,
  );
  return `${lines.join('\n')}\n`;
}
