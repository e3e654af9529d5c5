// Drafts declarations from what an agent did, for `footprint-otel declarations suggest`: every
// tool seen, its input schema where the telemetry recorded one, and the observed data flow —
// which tools' result values reappear in which tools' arguments, counted. A DRAFT for a person to
// review: nothing here is ever consulted at check time, and nothing is decided for the user
// (readOnly, answers). Pure: model events in, plain data out; no I/O, no clocks. Bounded walks.

import type { LlmRequest, ModelEvent, ToolExecution } from '../model/agent.js';
import { sourcesFromSchema } from './inferred.js';

export interface ToolSeen {
  name: string;
  /** The recorded input schema (from the first request whose tool definitions carried one). */
  inputSchema?: unknown;
  /** The recorded description (first seen), for the role inference reads from it. */
  description?: string;
  /** MCP annotations, when a definition carried them. */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
  /** The tools the schema's argument descriptions name as their source (inference), if any. */
  schemaSources?: { byArgument: Record<string, string[]>; evidence: string };
  /** Tool calls the model chose (and executions not joined to a chosen call). */
  calls: number;
  /** Distinct results seen (in input windows or on tool-execution spans). */
  results: number;
}

export interface ObservedFlow {
  /** The tool whose argument it was. */
  target: string;
  /** The argument's path, array indices as `[]` (`args.filters[].id`). */
  path: string;
  /** The tool whose earlier result held the value. */
  source: string;
  /** Calls whose value equalled a value of that result. */
  exact: number;
  /** Calls whose value was only a part of one (`db-primary-full` in `nightly-db-primary-full`). */
  fragment: number;
  /** One value seen, and the result value it matched. */
  example: { value: string; matched: string };
}

/** An argument path one of whose values no earlier tool result held: the user's or a fixed vocabulary's. */
export interface UnsourcedArgument {
  target: string;
  path: string;
  /** Calls with such a value at this path. */
  calls: number;
  example: string;
}

export interface DeclarationsDraft {
  tools: ToolSeen[];
  flows: ObservedFlow[];
  unsourced: UnsourcedArgument[];
  llmRequests: number;
  /** Requests that ended in a text answer (no tool call). */
  answers: number;
  /** Whether any request recorded its tool definitions. */
  toolDefinitionsRecorded: boolean;
}

export interface DraftBounds {
  /** String leaves walked per argument or result value. */
  maxLeaves: number;
  /** Characters of a result string parsed as JSON. */
  maxJsonChars: number;
}

const MIN_VALUE_CHARS = 3;

interface Result {
  source: string;
  time: bigint;
  leaves: string[];
}

interface Call {
  name: string;
  args: unknown;
  time: bigint;
  scope: string;
}

/** String and number leaves of a value, with their paths; iterative and bounded. */
function leavesOf(v: unknown, max: number, root = 'args'): { path: string; value: string; text: boolean }[] {
  const out: { path: string; value: string; text: boolean }[] = [];
  const stack: [string, unknown][] = [[root, v]];
  while (stack.length > 0 && out.length < max) {
    const [path, x] = stack.pop()!;
    if (x !== null && typeof x === 'object') {
      const entries: [string, unknown][] = Array.isArray(x) ? x.map((e) => ['[]', e]) : Object.entries(x as Record<string, unknown>).map(([k, e]) => [`.${k}`, e]);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([`${path}${entries[i]![0]}`, entries[i]![1]]);
    } else if (typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x))) out.push({ path, value: String(x), text: typeof x === 'string' });
  }
  return out;
}

function resultLeaves(result: unknown, bounds: DraftBounds): string[] {
  let v = result;
  if (typeof v === 'string' && v.length <= bounds.maxJsonChars) {
    try {
      v = JSON.parse(v);
    } catch {
      // plain text: the whole text is one value
    }
  }
  return leavesOf(v, bounds.maxLeaves, '').map((l) => l.value);
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** True when `part` occurs in `whole` bounded by non-word characters (or the ends). */
function occursAsPart(part: string, whole: string): boolean {
  let i = whole.indexOf(part);
  while (i >= 0) {
    if (!isWordChar(whole[i - 1]) && !isWordChar(whole[i + part.length])) return true;
    i = whole.indexOf(part, i + 1);
  }
  return false;
}

const scopeOf = (e: { tenant: string; conversationId?: string; span: { traceId: string } }): string => `${e.tenant}\u0000${e.conversationId ?? e.span.traceId}`;

/** Drafts the declarations the events suggest. Events may come from many traces and conversations. */
export function draftDeclarations(events: readonly ModelEvent[], bounds: DraftBounds): DeclarationsDraft {
  const tools = new Map<string, ToolSeen>();
  const tool = (name: string): ToolSeen => {
    let t = tools.get(name);
    if (!t) tools.set(name, (t = { name, calls: 0, results: 0 }));
    return t;
  };
  const requests = events.filter((e): e is LlmRequest => e.kind === 'llm-request').sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
  const executions = events.filter((e): e is ToolExecution => e.kind === 'tool-execution');

  const results = new Map<string, Result[]>();
  const seenResult = new Set<string>();
  const calls: Call[] = [];
  const chosenIds = new Set<string>();
  const addResult = (scope: string, source: string, time: bigint, value: unknown, id: string) => {
    const key = `${scope}\u0000${source}\u0000${id}`;
    if (seenResult.has(key)) return;
    seenResult.add(key);
    tool(source).results++;
    let list = results.get(scope);
    if (!list) results.set(scope, (list = []));
    list.push({ source, time, leaves: resultLeaves(value, bounds) });
  };

  let toolDefinitionsRecorded = false;
  let answers = 0;
  for (const req of requests) {
    const scope = scopeOf(req);
    if (req.toolDefinitions) toolDefinitionsRecorded = true;
    const offered = (req.toolDefinitions ?? []).map((d) => d.name);
    for (const d of req.toolDefinitions ?? []) {
      const t = tool(d.name);
      if (t.inputSchema === undefined && d.inputSchema !== undefined) t.inputSchema = d.inputSchema;
      if (t.description === undefined && d.description !== undefined) t.description = d.description;
      if (t.annotations === undefined && d.annotations !== undefined) t.annotations = d.annotations;
      if (t.schemaSources === undefined) {
        const sources = sourcesFromSchema(d.name, d.inputSchema, offered);
        if (sources) t.schemaSources = sources;
      }
    }
    const nameById = new Map<string, string>();
    req.input.forEach((m, mi) =>
      m.parts.forEach((p, pi) => {
        if (p.type === 'tool-call' && p.id) nameById.set(p.id, p.name);
        if (p.type !== 'tool-result') return;
        const name = p.name ?? (p.id ? nameById.get(p.id) : undefined);
        if (name) addResult(scope, name, req.startTimeUnixNano, p.result, p.id ?? `${mi}.${pi}:${JSON.stringify(p.result)?.slice(0, 200)}`);
      }),
    );
    for (const c of req.toolCalls) {
      tool(c.name).calls++;
      if (c.id) chosenIds.add(c.id);
      calls.push({ name: c.name, args: c.arguments, time: req.endTimeUnixNano, scope });
    }
    if (req.outputContent === 'captured' && req.toolCalls.length === 0 && req.outputText.some((t) => t.trim() !== '')) answers++;
  }
  for (const ex of executions) {
    const scope = scopeOf(ex);
    if (ex.result !== undefined) addResult(scope, ex.toolName, ex.endTimeUnixNano, ex.result, ex.callId ?? `${ex.span.spanId}`);
    if (ex.callId && chosenIds.has(ex.callId)) continue;
    tool(ex.toolName).calls++;
    calls.push({ name: ex.toolName, args: ex.arguments, time: ex.startTimeUnixNano, scope });
  }

  const flows = new Map<string, ObservedFlow>();
  const unsourced = new Map<string, UnsourcedArgument>();
  for (const call of calls) {
    // One count per call, whichever of its values matched.
    const earlier = (results.get(call.scope) ?? []).filter((r) => r.time <= call.time && r.source !== call.name);
    const counted = new Set<string>();
    const unsourcedHere = new Set<string>();
    for (const leaf of leavesOf(call.args, bounds.maxLeaves)) {
      if (leaf.value.trim() === '') continue;
      const short = leaf.value.trim().length < MIN_VALUE_CHARS;
      let matchedAny = short && earlier.some((r) => r.leaves.includes(leaf.value));
      for (const r of short ? [] : earlier) {
        const exact = r.leaves.includes(leaf.value);
        const matched = exact ? leaf.value : r.leaves.find((w) => w.length > leaf.value.length && occursAsPart(leaf.value, w));
        if (matched === undefined) continue;
        matchedAny = true;
        const key = `${call.name}\u0000${leaf.path}\u0000${r.source}`;
        if (counted.has(key)) continue;
        counted.add(key);
        let f = flows.get(key);
        if (!f) flows.set(key, (f = { target: call.name, path: leaf.path, source: r.source, exact: 0, fragment: 0, example: { value: leaf.value, matched } }));
        if (exact) f.exact++;
        else f.fragment++;
      }
      if (!matchedAny && leaf.text && !unsourcedHere.has(leaf.path)) {
        unsourcedHere.add(leaf.path);
        const key = `${call.name}\u0000${leaf.path}`;
        const u = unsourced.get(key);
        if (u) u.calls++;
        else unsourced.set(key, { target: call.name, path: leaf.path, calls: 1, example: leaf.value });
      }
    }
  }
  return {
    tools: [...tools.values()].sort((a, b) => a.name.localeCompare(b.name)),
    flows: [...flows.values()].sort((a, b) => a.target.localeCompare(b.target) || b.exact + b.fragment - (a.exact + a.fragment) || a.source.localeCompare(b.source)),
    unsourced: [...unsourced.values()].sort((a, b) => a.target.localeCompare(b.target) || a.path.localeCompare(b.path)),
    llmRequests: requests.length,
    answers,
    toolDefinitionsRecorded,
  };
}
