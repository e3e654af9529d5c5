// The facts an account states, taken from the same places the checks take them: the convention
// readers (model events), the core's own frame and ledger-row builders (src/runs/frame.ts,
// src/runs/ledger-row.ts), and the findings, disposition and standing the core WROTE as span
// events (read back, never re-decided). Scoped to one tenant: spans of another tenant are foreign.
// Pure; must never run a check or decide a finding.

import type { AgentTurn, LlmRequest, ModelEvent, ToolExecution } from '../model/agent.js';
import type { LedgerRow } from '../model/ledger.js';
import type { Frame } from '../model/frame.js';
import type { Attributes, LogData, SpanData } from '../model/telemetry.js';
import { spanKey } from '../model/telemetry.js';
import { DiagnosticList } from '../model/diagnostics.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { NO_DECLARATIONS } from '../declarations/types.js';
import { mergeToolDeclaration } from '../declarations/load.js';
import { windowCalls, windowExecution } from '../runs/window-reads.js';
import { groupLogsBySpan } from '../conventions/log-join.js';
import { readSpan } from '../conventions/registry.js';
import { buildFrame } from '../runs/frame.js';
import { ledgerRowOf } from '../runs/ledger-row.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
import * as N from '../findings/names.js';
import { locate } from './pointer.js';
import type { Pointer } from './types.js';
import type { Redaction } from '../model/finding.js';
import { indexRecord, tenantOfSpan, type ExplainOptions, type ExplainRecord, type RecordIndex, type SpanRole } from './record.js';
import { NO_TENANT } from '../model/tenant.js';
import { redactValue, textRedactor } from '../findings/quote.js';

export interface RequestFact {
  request: LlmRequest;
  /** 1-based order among the record's requests of this tenant and conversation. */
  order: number;
  frame?: Frame;
  inTurn: boolean;
}

export interface WrittenEvent {
  span: SpanData;
  /** The event's time (0 when the core had none, e.g. on a carrier). */
  time: bigint;
  /** The span the event concerns (a carrier's subject, else the span itself). */
  subjectSpanId: string;
  index: number;
  attributes: Attributes;
}

export interface TurnFacts {
  traceId: string;
  tenant: string;
  redaction: Redaction;
  /** Tool-declared words as a reader may see them: whole, or redacted whole when they hold a finding's value. */
  hide: (s: string) => string;
  /** A sentence the core wrote (already redacted): redacted again where it still holds a value. */
  hideText: (s: string) => string;
  /** Start time of each request's and tool's span (by span key). */
  started: Map<string, bigint>;
  index: RecordIndex;
  roles: Map<string, SpanRole>;
  /** Tenant of each span key (a carrier takes its subject's). */
  tenants: Map<string, string>;
  turn?: AgentTurn;
  /** This tenant's requests of the conversation, in order; `inTurn` marks the explained trace's. */
  requests: RequestFact[];
  /** This turn's reads, in call order, built by the core's own ledger-row builder. */
  ledger: LedgerRow[];
  findings: WrittenEvent[];
  disposition?: WrittenEvent;
  /** The turn's answer standing (the last one the core wrote on the turn's spans). */
  standing?: WrittenEvent;
  /** Every answer standing the core wrote on the trace (a trace of several turns has one per answer). */
  standings: WrittenEvent[];
}

const cmp = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);

function conversationOf(span: SpanData): string | undefined {
  for (const k of CONVERSATION_ID_KEYS) {
    const v = span.attributes[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

export function gatherFacts(record: ExplainRecord, o: ExplainOptions = {}): TurnFacts {
  const tenantAttribute = o.tenantAttribute ?? 'service.name';
  const declarations = o.declarations ?? NO_DECLARATIONS;
  const diagnostics = new DiagnosticList(100);
  const logsBySpan = groupLogsBySpan(record.logs, DEFAULT_LIMITS, diagnostics);
  const index = indexRecord(record, logsBySpan);
  const traceId = record.traceId;

  const byKey = new Map(record.spans.map((s) => [spanKey(s), s]));
  const tenants = new Map<string, string>();
  for (const s of record.spans) {
    const subject = s.name === N.CARRIER_SPAN_NAME ? s.attributes[N.ATTR_CARRIER_SUBJECT_SPAN_ID] : undefined;
    const of = typeof subject === 'string' ? byKey.get(spanKey({ traceId: s.traceId, spanId: subject })) : undefined;
    tenants.set(spanKey(s), tenantOfSpan(of ?? s, tenantAttribute));
  }
  const first = record.spans.find((s) => s.traceId === traceId && s.name !== N.CARRIER_SPAN_NAME);
  const tenant = o.tenant ?? (first ? tenants.get(spanKey(first))! : NO_TENANT);
  const mine = record.spans.filter((s) => tenants.get(spanKey(s)) === tenant);

  // The conversation: a trace's own conversation id, or none (then only the trace itself).
  const convOf = new Map<string, string>();
  for (const s of mine) {
    const c = conversationOf(s);
    if (c && !convOf.has(s.traceId)) convOf.set(s.traceId, c);
  }
  const conversation = convOf.get(traceId);
  const inScope = (s: SpanData) => s.traceId === traceId || (conversation !== undefined && convOf.get(s.traceId) === conversation);

  const roles = new Map<string, SpanRole>();
  const events: ModelEvent[] = [];
  for (const s of mine) {
    if (!inScope(s)) continue;
    const evs = readSpan(s, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute, logs: logsBySpan.get(spanKey(s)) ?? [] });
    for (const ev of evs) {
      roles.set(spanKey(s), ev.kind === 'llm-request' ? 'chat' : ev.kind === 'tool-execution' ? 'tool' : 'turn');
      events.push(ev);
    }
    if (!roles.has(spanKey(s))) roles.set(spanKey(s), 'other');
  }
  events.sort((a, b) => cmp(a.startTimeUnixNano, b.startTimeUnixNano) || cmp(a.endTimeUnixNano, b.endTimeUnixNano));

  const requests: RequestFact[] = [];
  const chosenBy = new Map<string, number>();
  for (const ev of events) {
    if (ev.kind !== 'llm-request') continue;
    const order = requests.length + 1;
    const captured = ev.inputContent === 'captured' && ev.outputContent === 'captured';
    requests.push({ request: ev, order, ...(captured ? { frame: buildFrame(ev) } : {}), inTurn: ev.span.traceId === traceId });
    for (const c of ev.toolCalls) if (c.id && !chosenBy.has(c.id)) chosenBy.set(c.id, order);
  }
  const ledger = events
    .filter((e): e is ToolExecution => e.kind === 'tool-execution' && e.span.traceId === traceId)
    .map((ex) => ledgerRowOf(ex, mergeToolDeclaration(declarations, ex.toolName, ex.declared), ex.callId ? chosenBy.get(ex.callId) : undefined));
  // Calls no execute_tool span recorded (an LLM-client-only app): read from this trace's request
  // windows, as the core reads them (docs/ledger-sources.md).
  const spanCalls = new Set(ledger.map((r) => r.callId).filter((id): id is string => id !== undefined));
  for (const { request } of requests) {
    if (request.span.traceId !== traceId || request.inputContent !== 'captured') continue;
    for (const c of windowCalls(request.input)) {
      if (spanCalls.has(c.callId) || (!c.thisTurn && !chosenBy.has(c.callId))) continue;
      const toolName = c.toolName ?? request.toolCalls.find((t) => t.id === c.callId)?.name;
      if (toolName === undefined) continue;
      spanCalls.add(c.callId);
      ledger.push(ledgerRowOf(windowExecution(request, c, toolName), mergeToolDeclaration(declarations, toolName, undefined), chosenBy.get(c.callId), undefined, 'window'));
    }
  }
  const turn = events.find((e): e is AgentTurn => e.kind === 'agent-turn' && e.span.traceId === traceId);

  // What the core wrote on this trace's spans (carriers last: what they carry supersedes).
  const written = (name: string): WrittenEvent[] => {
    const out: WrittenEvent[] = [];
    for (const s of mine) {
      if (s.traceId !== traceId) continue;
      const subject = s.name === N.CARRIER_SPAN_NAME ? s.attributes[N.ATTR_CARRIER_SUBJECT_SPAN_ID] : undefined;
      s.events.forEach((e, i) => {
        if (e.name === name) out.push({ span: s, time: e.timeUnixNano, subjectSpanId: typeof subject === 'string' ? subject : s.spanId, index: i, attributes: e.attributes });
      });
    }
    return out;
  };
  const findings = written(N.EVENT_FINDING);
  const disposition = written(N.EVENT_DISPOSITION).at(-1);
  const standings = written(N.EVENT_ANSWER_STANDING);
  const standing = standings.at(-1);
  const started = new Map<string, bigint>();
  for (const ev of events) if (ev.kind !== 'agent-turn') started.set(spanKey(ev.span), ev.startTimeUnixNano);
  const redaction = o.redaction ?? 'quote';
  const r = textRedactor(o.sensitive?.values ?? [], redaction, DEFAULT_LIMITS.quotedValueChars, o.sensitive?.witnessValues ?? []);
  const unknown = redaction !== 'quote' && !o.sensitive;
  return {
    traceId,
    tenant,
    redaction,
    hide: (s) => (unknown ? redactValue(s, redaction, DEFAULT_LIMITS.quotedValueChars) : r.whole(s)),
    hideText: (s) => r.text(s),
    started,
    standings,
    index,
    roles,
    tenants,
    ...(turn ? { turn } : {}),
    requests,
    ledger,
    findings,
    ...(disposition ? { disposition } : {}),
    ...(standing ? { standing } : {}),
  };
}

/** The log records of the record, joined as the core joins them (for tests and renderers). */
export function joinedLogs(logs: readonly LogData[]): Map<string, LogData[]> {
  return groupLogsBySpan(logs, DEFAULT_LIMITS, new DiagnosticList(10));
}

/** A pointer to the first string leaf of a span equal to `text` (or the span itself). */
export function pointerTo(f: TurnFacts, traceId: string, spanId: string, text: string | undefined, under: readonly string[] = []): Pointer {
  const view = f.index.view(spanKey({ traceId, spanId }));
  const path = view && text !== undefined ? locate(view, (leaf) => leaf === text, under) : undefined;
  return { traceId, spanId, path: path ?? '' };
}

