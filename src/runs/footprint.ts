// FootprintCore: the one stateful core every deployment runs (processor, service, CLI). It reads
// spans and log records through the conventions, keeps bounded per-conversation state, runs the
// checks and returns what to add to which span. Never throws over bad telemetry.
// Must never do I/O: callers hand it data and apply what it returns.

import { spanKey, type LogData, type SpanData } from '../model/telemetry.js';
import { NO_TENANT, tenantOfResource } from '../model/tenant.js';
import { DiagnosticList } from '../model/diagnostics.js';
import type { CheckTally, Finding } from '../model/finding.js';
import type { ModelEvent, SpanToolDeclaration, ToolDefinition, ToolExecution } from '../model/agent.js';
import { armedChecks } from '../declarations/armed.js';
import { effectiveDeclaration, sourcesFromSchema, type EffectiveDeclaration, type ToolEvidence } from '../declarations/inferred.js';
import { mergeToolDeclaration } from '../declarations/load.js';
import { isAgentSpan, readSpan, tenantOf } from '../conventions/registry.js';
import { groupLogsBySpan } from '../conventions/log-join.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
import { CHECK_CATALOG, CONTENT_NOT_CAPTURED, NO_LLM_SPANS, checkOfKind } from '../checks/catalog.js';
import { checkExecution, checkRequest, unreachableAll, type SeamContext } from './seams.js';
import { applyTiers } from './tiers.js';
import { dispositionRows } from '../findings/disposition.js';
import { DispositionCache } from './disposition-cache.js';
import { BoundedMap } from './bounded-map.js';
import { ConversationStore, conversationKey, type ConversationState } from './conversations.js';
import { findingIdentity, findingToEvent, fitBytes } from '../findings/events.js';
import { findingEvaluation, turnEvaluations } from '../findings/evaluation.js';
import { evaluationErrorType } from './evaluation-errors.js';
import { GEN_AI_RESPONSE_ID } from '../conventions/keys-genai.js';
import { redactValue } from '../findings/quote.js';
import {
  ATTR_DISPOSITION_INFERRED,
  ATTR_EXTERNAL_GROUND_SOURCE,
  ATTR_FINDING_PREDICATE,
  ATTR_FINDING_VALUE,
  ATTR_FINDINGS_COUNT,
  ATTR_TOOL_CALL_ID,
  ATTR_TOOL_NAME,
  EVENT_EVALUATION_RESULT,
  EVENT_EXTERNAL_GROUND_USED,
  EVENT_FINDING,
} from '../findings/names.js';
import { resolveOptions, type FootprintOptions, type ProcessInput, type ProcessResult, type SpanAnnotation, type CoreStats, type ResolvedOptions } from './options.js';
import { carrierSpan } from './carrier.js';
import { WindowMemos } from './window-memo.js';
import { traceChunks } from './trace-chunks.js';
import { hasMastraInference, rebuildMastraWindows } from '../conventions/mastra-1x.js';
import { choiceNotRecorded, isLcChatSpan, lcCallsOf, rebuildLcWindow, recordsLcCalls } from '../conventions/traceloop-langchain.js';
import { LangChainCalls } from './langchain-calls.js';

import { conversationStateAccess, type ConversationStateAccess } from './state-access.js';
import { retainedBytes } from './retained-bytes.js';
import { isParentOfMcpCall, joinMcpCall, type McpCallSeen } from './mcp-join.js';
import { splitTraceKey, tenantSpanKey, traceKey } from './trace-key.js';
import { TRACE_RECORD_BYTES, TraceRecord, addTally, countWritten, dispositionKey, negated, noteFinding, talliesOfRecord, traceRecordPartsBytes } from './trace-record.js';

export type { Redaction, FootprintOptions, SpanAnnotation, ProcessInput, ProcessResult, CoreStats, ResolvedOptions, EvaluationEvents } from './options.js';
export { resolveOptions } from './options.js';

export interface TraceInfo {
  llmRequests: number;
  turn?: string;
  conversationId?: string;
  /** The turn's span (invoke_agent), where its disposition goes. */
  turnSpan?: string;
}

/** What the core remembers of an inference span that arrived without its content (logs may follow). */
interface AwaitingContent {
  span: SpanData;
  /** The tenant its records are joined by (joinTenant of the span's). */
  tenant: string;
}

/** Spans of one id waiting for their records, one per tenant (a span of another tenant under the same ids waits beside it, never in its place). */
const MAX_AWAITING_TENANTS_PER_SPAN = 8;

export class FootprintCore {
  readonly config: ResolvedOptions;
  /** Whether the declarations file arms any tool's arguments (fixed at construction). */
  private readonly fileArmsArguments: boolean;
  /** The checks inference arms beyond the declarations, as the disposition names them ('' when none). */
  private readonly inferredChecks: string;
  private readonly conversations: ConversationStore;
  /**
   * tenant + trace id (trace-key.ts) -> what the core keeps of that tenant's part of the trace
   * (trace-record.ts): its conversation id, requests read, turn, findings written and the tallies
   * of the turn not yet reported. Another tenant's spans under the same trace id have their own.
   */
  private readonly traces: BoundedMap<TraceRecord>;
  /**
   * span key -> log records that arrived before their span (of any tenant: the span's own tenant's
   * join it, the others' are refused when it arrives).
   */
  private readonly pendingLogs: BoundedMap<LogData[]>;
  /**
   * span key -> the inference spans of that id that passed with no content (their log records may
   * still come), one per tenant (joinTenant): another tenant's span with the same ids waits beside
   * the first, never in its place.
   */
  private readonly awaitingContent: BoundedMap<AwaitingContent[]>;
  /**
   * tenant + span key -> the "content not captured" tallies such a span added to its trace: taken
   * back if its content arrives after all, so the turn is not counted twice.
   */
  private readonly provisionalTallies: BoundedMap<CheckTally[]>;
  /** Tenant + span keys of spans re-read in the current call because their content came late. */
  private lateInCall: ReadonlySet<string> = new Set();
  /** The current call's spans: span key -> parent span id (for MCP calls' parent/child join). */
  private parentsInCall: ReadonlyMap<string, string | undefined> = new Map();
  /** The current call's tool executions not read from MCP spans, by span key. */
  private toolSpansInCall: ReadonlyMap<string, string> = new Map();
  /** The current call's diagnostics (set by processPart). */
  private callDiagnostics: DiagnosticList | undefined;
  /** tenant + trace id -> the MCP tools/call spans read in it (mcp-join.ts), so their parent tool span is not read again. */
  private readonly mcpCalls: BoundedMap<McpCallSeen[]>;
  /**
   * tenant + span key -> what the core added to it. A span seen again (an exporter's retry after a
   * failed downstream export) gets the same additions and is not analysed twice: re-reading it
   * would count its requests twice in the conversation's state. Keyed by tenant too, so another
   * tenant sending a span with the same ids first cannot pass for it.
   */
  private readonly processedSpans: BoundedMap<SpanAnnotation | null>;
  /** tenant + tool name -> declarations carried on spans by footprint's helpers. */
  private readonly spanDeclarations: BoundedMap<SpanToolDeclaration>;
  /** What requests' tool definitions recorded about each tenant's tools, for inference (the description's opening only). */
  private readonly toolEvidence: BoundedMap<ToolEvidence>;
  /**
   * Each tool's effective declaration, made again only when what it is made of changed (the
   * span's declaration or the tool's evidence, by identity): every call and row asks for it.
   */
  private readonly effectiveDeclarations: BoundedMap<{ spanDeclaration: SpanToolDeclaration | undefined; evidence: ToolEvidence | undefined; declaration: EffectiveDeclaration | undefined }>;
  /** Each conversation's last input window, so a request that extends it reads only what is new. */
  private readonly windows: WindowMemos;
  /** The calls OpenLLMetry's LangChain instrumentation recorded, for the text-only windows of later chat spans (langchain-calls.ts). */
  private readonly lcCalls: LangChainCalls;
  /** Tool names the traces named (offered, chosen or executed), for "declared but never seen" warnings. Capped. */
  private readonly seenTools = new Set<string>();
  /** Disposition attributes by tally signature: most turns of an app repeat the same few. */
  private readonly dispositions = new DispositionCache();
  private readonly findingsByKind: Record<string, number> = {};
  /**
   * Estimated bytes held by the caches above that grow with their values (remembered annotations,
   * waiting log records and spans, the parts of trace records); trace records themselves and span
   * declarations are counted in stats() by number. They share limits.maxStateBytes with the
   * conversations.
   */
  private cacheBytes = 0;
  /** Spans and records waiting for each other dropped by the byte bound (boundCaches). */
  private waitingEvicted = 0;

  constructor(options: FootprintOptions & { now?: () => number } = {}) {
    this.config = resolveOptions(options);
    this.fileArmsArguments = Object.values(this.config.declarations.tools).some((t) => (t.argumentsFrom?.length ?? 0) > 0);
    this.inferredChecks = armedChecks(this.config.declarations).inferred.join(', ');
    const { limits, now } = this.config;
    this.conversations = new ConversationStore(limits, now, () => this.cachesBytes());
    this.traces = new BoundedMap({ maxEntries: limits.maxConversations, idleMs: limits.conversationIdleMs, now, onEvict: (_k, rec) => (this.cacheBytes -= traceRecordPartsBytes(rec)) });
    this.pendingLogs = new BoundedMap({ maxEntries: limits.maxPendingLogSpans, idleMs: limits.conversationIdleMs, now, onEvict: (_k, v) => (this.cacheBytes -= logsBytes(v)) });
    this.provisionalTallies = new BoundedMap({ maxEntries: limits.maxPendingLogSpans, idleMs: limits.conversationIdleMs, now });
    this.awaitingContent = new BoundedMap({ maxEntries: limits.maxPendingLogSpans, idleMs: limits.conversationIdleMs, now, onEvict: (_k, v) => (this.cacheBytes -= awaitingBytes(v)) });
    this.spanDeclarations = new BoundedMap({ maxEntries: 10_000, idleMs: limits.conversationIdleMs, now });
    this.toolEvidence = new BoundedMap({ maxEntries: 10_000, idleMs: limits.conversationIdleMs, now });
    this.effectiveDeclarations = new BoundedMap({ maxEntries: 10_000, idleMs: limits.conversationIdleMs, now });
    this.processedSpans = new BoundedMap({ maxEntries: limits.maxRememberedSpans, idleMs: limits.conversationIdleMs, now, onEvict: (k, v) => (this.cacheBytes -= rememberedBytes(k, v)) });
    this.windows = new WindowMemos(limits.conversationIdleMs, now);
    this.lcCalls = new LangChainCalls(limits.maxConversations, limits.conversationIdleMs, now);
    this.mcpCalls = new BoundedMap({ maxEntries: limits.maxConversations, idleMs: limits.conversationIdleMs, now, onEvict: (_k, v) => (this.cacheBytes -= v.length * MCP_CALL_BYTES) });
  }

  /** The conversations, for a shared state store (src/state/): keys of a batch, read, hydrate. */
  stateAccess(): ConversationStateAccess {
    return conversationStateAccess({ conversations: this.conversations, conversationOfTrace: (tenant, traceId) => this.traces.peek(traceKey(tenant, traceId))?.conversationId, tenantAttribute: this.config.tenantAttribute });
  }

  /** Cheap: true when some convention would read this span. Non-agent spans need no other work. */
  isAgentSpan(span: SpanData): boolean {
    return isAgentSpan(span);
  }

  /** Learns a trace's conversation id as early as possible (an agent span's start, in-process). */
  noteSpanStart(span: SpanData): void {
    const id = conversationIdOnSpan(span);
    if (id) this.setTraceConversation(tenantOf(span, this.config.tenantAttribute), span.traceId, id);
  }

  /** Records a tenant's trace's conversation id (refreshing its record's recency and expiry, never expiring it). */
  private setTraceConversation(tenant: string, traceId: string, conversationId: string): void {
    const key = traceKey(tenant, traceId);
    const rec = this.traces.peek(key) ?? new TraceRecord();
    rec.conversationId = conversationId;
    this.traces.set(key, rec);
  }

  /** The tenant's record of the trace, made when it has none (or its record had expired); marked as just used. */
  private traceRecord(tenant: string, traceId: string): TraceRecord {
    const key = traceKey(tenant, traceId);
    const rec = this.traces.get(key) ?? new TraceRecord();
    this.traces.set(key, rec);
    return rec;
  }

  /**
   * The tenant a log record's join and the spans waiting for their records are keyed by: its own
   * with logJoin `own-tenant` (the service), one for all with `any-tenant` (in-process and the CLI,
   * where every record may join every span).
   */
  private joinTenant(tenant: string): string {
    return this.config.logJoin === 'any-tenant' ? '' : tenant;
  }

  process(input: ProcessInput): ProcessResult {
    const diagnostics = new DiagnosticList();
    const result: ProcessResult = { annotations: new Map(), carriers: [], findings: [], diagnostics: diagnostics.items };
    try {
      this.processInto(input, result, diagnostics);
    } catch (e) {
      // A bug here must not lose the batch: the caller forwards spans as they are.
      diagnostics.report({ level: 'error', code: 'core.failed', message: `analysis failed on this batch (${(e as Error)?.message ?? String(e)}); spans pass unannotated` });
      result.annotations.clear();
      result.carriers.length = 0;
    } finally {
      // No request is being checked now: what the batch evicted gives its history's stores back.
      this.conversations.releaseEvicted();
    }
    return result;
  }

  stats(): CoreStats {
    return {
      conversations: this.conversations.size,
      stateBytes: this.conversations.bytes + this.cachesBytes(),
      evictedConversations: this.conversations.evicted,
      waitingEvicted: this.waitingEvicted,
      findingsByKind: { ...this.findingsByKind },
    };
  }

  /** Bytes of every cache besides the conversations (estimates, like the conversations' own). */
  private cachesBytes(): number {
    return this.cacheBytes + this.traces.size * TRACE_RECORD_BYTES + this.spanDeclarations.size * SPAN_DECLARATION_BYTES + this.toolEvidence.size * TOOL_EVIDENCE_BYTES + this.windows.bytes + this.lcCalls.bytes;
  }

  /**
   * Keeps the caches within their share of the state bound: oldest remembered spans go first, then
   * the oldest records waiting for their span and spans waiting for their records (their content
   * is then not joined: the turn keeps its "content not captured"), each counted in cacheEvictions.
   */
  private boundCaches(diagnostics?: DiagnosticList): void {
    const share = this.config.limits.maxStateBytes / 4;
    while (this.cacheBytes > share && this.processedSpans.evictOldest()) {
      /* onEvict subtracts */
    }
    let waiting = 0;
    while (this.cacheBytes > share && (this.pendingLogs.evictOldest() || this.awaitingContent.evictOldest())) waiting++;
    if (waiting > 0) {
      this.waitingEvicted += waiting;
      diagnostics?.report({ level: 'warn', code: 'state.waiting-evicted', message: `${waiting} span(s) waiting for their log records (or records waiting for their span) were dropped to keep the caches within limits.maxStateBytes / 4 (${share} bytes); their content will not be joined` });
    }
    this.conversations.enforceTotal();
  }

  /** Tool names the traces named so far (offered, chosen or executed); at most MAX_SEEN_TOOLS. */
  toolNamesSeen(): ReadonlySet<string> {
    return this.seenTools;
  }

  private noteToolNames(ev: ModelEvent): void {
    if (ev.kind === 'tool-execution') this.seenTools.add(ev.toolName);
    else if (ev.kind === 'llm-request') {
      for (const d of ev.toolDefinitions ?? []) this.seenTools.add(d.name);
      for (const c of ev.toolCalls) this.seenTools.add(c.name);
    }
  }

  /** Drops all state (shutdown, forceFlush of an owner that owns it). */
  reset(): void {
    this.cacheBytes = 0;
    this.conversations.clear();
    this.traces.clear();
    this.pendingLogs.clear();
    this.awaitingContent.clear();
    this.provisionalTallies.clear();
    this.spanDeclarations.clear();
    this.toolEvidence.clear();
    this.processedSpans.clear();
    this.windows.clear();
    this.lcCalls.clear();
    this.mcpCalls.clear();
    this.seenTools.clear();
  }

  /** Reads the input trace by trace (trace-chunks.ts), each part as a call of its own, into one result. */
  private processInto(input: ProcessInput, result: ProcessResult, diagnostics: DiagnosticList): void {
    // One span and no log records (every in-process call): its own part, as traceChunks would make it.
    if (input.spans.length <= 1 && (input.logs === undefined || input.logs.length === 0)) {
      this.processPart(input, result, diagnostics);
      return;
    }
    const parts = traceChunks(input);
    if (parts.length <= 1) {
      this.processPart(input, result, diagnostics);
      return;
    }
    for (const part of parts) {
      const r: ProcessResult = { annotations: new Map(), carriers: [], findings: [], diagnostics: result.diagnostics };
      this.processPart(part, r, diagnostics);
      for (const [key, ann] of r.annotations) {
        const before = result.annotations.get(key);
        if (!before) {
          result.annotations.set(key, ann);
          continue;
        }
        // Two parts annotating one span (not expected: a part is a whole trace): both kept.
        before.events.push(...ann.events);
        Object.assign(before.attributes, ann.attributes);
        if (before.attributes[ATTR_FINDINGS_COUNT] !== undefined) before.attributes[ATTR_FINDINGS_COUNT] = before.events.filter((e) => e.name === EVENT_FINDING).length;
      }
      for (const c of r.carriers) result.carriers.push(c);
      for (const f of r.findings) result.findings.push(f);
      if (r.foreignLogs) result.foreignLogs = [...(result.foreignLogs ?? []), ...r.foreignLogs];
    }
  }

  private processPart(input: ProcessInput, result: ProcessResult, diagnostics: DiagnosticList): void {
    const { limits, tenantAttribute } = this.config;
    this.lateInCall = NO_KEYS;
    this.callDiagnostics = diagnostics;
    const inBatch = new Map<string, SpanData>();
    const fresh: SpanData[] = [];
    for (const s of input.spans) {
      const key = spanKey(s);
      inBatch.set(key, s);
      if (!this.config.rememberSpans) {
        fresh.push(s);
        continue;
      }
      const before = this.processedSpans.get(this.rememberKey(s));
      if (before === undefined) fresh.push(s);
      else if (before !== null) result.annotations.set(key, { events: [...before.events], attributes: { ...before.attributes } });
    }

    // 1. Log records: joined to spans of this batch, to spans that passed earlier without content
    //    (re-read now, findings go on carrier spans), or kept until their span arrives. With
    //    logJoin `own-tenant` (the service), only ever to a span of their own tenant: a record
    //    naming a span of another tenant is refused for the join (result.foreignLogs), whichever
    //    came first.
    const logsBySpan = input.logs === undefined || input.logs.length === 0 ? NO_LOGS : groupLogsBySpan(input.logs, limits, diagnostics);
    const foreign: LogData[] = [];
    /** The records of `tenant` among `logs`; the others are refused. */
    const ownOf = (logs: readonly LogData[], tenant: string): LogData[] => {
      if (this.config.logJoin === 'any-tenant') return logs as LogData[];
      const own = logs.filter((l) => this.tenantOfLog(l) === tenant);
      if (own.length < logs.length) for (const l of logs) if (this.tenantOfLog(l) !== tenant) foreign.push(l);
      return own;
    };
    const lateSpans: SpanData[] = [];
    const lateLogs = new Map<string, LogData[]>();
    for (const [key, logs] of logsBySpan) {
      if (inBatch.has(key)) continue;
      // Spans of this id waiting for their records: each takes its own tenant's (with any-tenant, all).
      const waiting = this.awaitingContent.get(key);
      if (waiting) {
        const left: AwaitingContent[] = [];
        const joined = new Set<LogData>();
        for (const w of waiting) {
          const own = this.config.logJoin === 'any-tenant' ? logs : logs.filter((l) => this.tenantOfLog(l) === w.tenant);
          if (own.length === 0) {
            left.push(w);
            continue;
          }
          for (const l of own) joined.add(l);
          this.cacheBytes -= approxBytes(w.span);
          lateSpans.push(w.span);
          lateLogs.set(tenantSpanKey(tenantOf(w.span, tenantAttribute), key), own);
        }
        if (left.length > 0) this.awaitingContent.set(key, left);
        else this.awaitingContent.delete(key);
        // Records of a tenant none of whose spans waits here: refused for the join.
        for (const l of logs) if (!joined.has(l)) foreign.push(l);
        continue;
      }
      const pending = this.pendingLogs.get(key) ?? [];
      // The bound on records per span holds per tenant: another tenant's records cannot crowd out the span's own.
      const tenantKey = (l: LogData) => (this.config.logJoin === 'any-tenant' ? '' : this.tenantOfLog(l));
      const held = new Map<string, number>();
      for (const l of pending) held.set(tenantKey(l), (held.get(tenantKey(l)) ?? 0) + 1);
      const added: LogData[] = [];
      for (const l of logs) {
        const t = tenantKey(l);
        const n = held.get(t) ?? 0;
        if (n >= limits.maxLogsPerSpan) continue;
        held.set(t, n + 1);
        added.push(l);
      }
      pending.push(...added);
      this.cacheBytes += logsBytes(added);
      this.pendingLogs.set(key, pending);
    }

    // 2. Read every agent span into model events. Mastra 1.x chat spans are read as rebuilt from
    //    their run's tool spans in this batch, where those match exactly (conventions/mastra-1x.ts).
    const events: ModelEvent[] = [];
    const agentSpanKeys = new Set<string>();
    //    OpenLLMetry LangChain chat spans are read with their text-only windows rebuilt from the
    //    calls its tool spans recorded, this batch's and earlier ones' (conventions/traceloop-langchain.ts).
    const rebuilt = hasMastraInference(fresh) ? rebuildMastraWindows(fresh, limits) : NO_SPANS;
    for (const s of fresh) {
      if (recordsLcCalls(s)) this.lcCalls.add(tenantOf(s, tenantAttribute), s, lcCallsOf(s, limits));
      // A conversation id on a span no reader reads (the app's own root span): its trace's, as the
      // in-process processor learns it when that span starts (noteSpanStart).
      else if (!isAgentSpan(s) && this.traces.peek(traceKey(tenantOf(s, tenantAttribute), s.traceId))?.conversationId === undefined) {
        const id = conversationIdOnSpan(s);
        if (id) this.setTraceConversation(tenantOf(s, tenantAttribute), s.traceId, id);
      }
    }
    const read = (span: SpanData, logs: readonly LogData[]) => {
      if (!isAgentSpan(span)) return;
      agentSpanKeys.add(spanKey(span));
      const asRead = rebuilt.get(spanKey(span)) ?? (isLcChatSpan(span) ? rebuildLcWindow(span, this.lcCalls.finder(tenantOf(span, tenantAttribute), span), limits) : span);
      const evs = readSpan(asRead, { limits, diagnostics, tenantAttribute, logs, windowMemo: this.windowSlot(span) });
      for (const ev of evs) {
        if (ev.kind === 'llm-request' && ev.toolCalls.length === 0 && ev.outputContent === 'captured' && choiceNotRecorded(span)) ev.choiceNotRecorded = true;
        if (ev.kind === 'llm-request' && ev.inputContent === 'not-captured' && ev.contentNote === undefined && logs.length === 0) {
          const key = spanKey(span);
          const tenant = this.joinTenant(ev.tenant);
          const waiting = (this.awaitingContent.peek(key) ?? []).filter((w) => {
            if (w.tenant !== tenant) return true;
            this.cacheBytes -= approxBytes(w.span);
            return false;
          });
          if (waiting.length < MAX_AWAITING_TENANTS_PER_SPAN) {
            waiting.push({ span, tenant });
            this.cacheBytes += approxBytes(span);
          }
          this.awaitingContent.set(key, waiting);
        }
        events.push(ev);
      }
    };
    for (const span of fresh) {
      const key = spanKey(span);
      const tenant = tenantOf(span, tenantAttribute);
      let logs = ownOf(logsBySpan.get(key) ?? [], tenant);
      const pending = this.pendingLogs.peek(key);
      if (pending) {
        this.pendingLogs.delete(key);
        this.cacheBytes -= logsBytes(pending);
        logs = [...ownOf(pending, tenant), ...logs];
      }
      read(span, logs);
    }
    if (lateSpans.length > 0) this.lateInCall = new Set(lateSpans.map((s) => tenantSpanKey(tenantOf(s, tenantAttribute), spanKey(s))));
    for (const span of lateSpans) read(span, lateLogs.get(tenantSpanKey(tenantOf(span, tenantAttribute), spanKey(span))) ?? []);
    if (foreign.length > 0) {
      result.foreignLogs = [...(result.foreignLogs ?? []), ...foreign];
      diagnostics.report({ level: 'warn', code: 'logs.span-of-another-tenant', message: `${foreign.length} log record(s) name a span of another tenant (resource attribute ${tenantAttribute}); they are not joined to it` });
    }
    if (events.some((ev) => ev.kind === 'tool-execution' && ev.convention === 'mcp-semconv')) {
      this.parentsInCall = new Map([...fresh, ...lateSpans].map((s) => [spanKey(s), s.parentSpanId]));
      this.toolSpansInCall = new Map(events.flatMap((ev) => (ev.kind === 'tool-execution' && ev.convention !== 'mcp-semconv' ? [[spanKey(ev.span), ev.toolName] as const] : [])));
    } else {
      this.parentsInCall = NO_PARENTS;
      this.toolSpansInCall = NO_TOOL_SPANS;
    }

    // 3. Conversation ids: from the event itself, else from any span of its trace.
    for (const ev of events) {
      if (!ev.conversationId) continue;
      if (this.traces.peek(traceKey(ev.tenant, ev.span.traceId))?.conversationId !== ev.conversationId) {
        this.conversations.adopt(conversationKey(ev.tenant, undefined, ev.span.traceId), conversationKey(ev.tenant, ev.conversationId, ev.span.traceId));
      }
      this.setTraceConversation(ev.tenant, ev.span.traceId, ev.conversationId);
    }
    // The record's conversation id is already the trace's (set just above, or earlier): an event
    // without its own takes it. (One field serves both: the last id the trace's events carry.)
    for (const ev of events) {
      const rec = this.traceRecord(ev.tenant, ev.span.traceId);
      if (!ev.conversationId && rec.conversationId) ev.conversationId = rec.conversationId;
      if (ev.kind === 'tool-execution' && ev.declared) this.spanDeclarations.set(`${ev.tenant}\u0000${ev.toolName}`, ev.declared);
      if (this.seenTools.size < MAX_SEEN_TOOLS) this.noteToolNames(ev);
      if (ev.kind === 'llm-request' && ev.toolDefinitions && this.config.declarations.inference !== false) this.rememberToolEvidence(ev.tenant, ev.toolDefinitions);
      rec.llmRequests ??= 0;
      if (ev.kind === 'llm-request' && !this.lateInCall.has(tenantSpanKey(ev.tenant, spanKey(ev.span)))) rec.llmRequests++;
      if (ev.kind === 'agent-turn') {
        if (ev.agentName) rec.turn = ev.agentName;
        rec.turnSpanId = ev.span.spanId;
      }
    }

    // 4. Checks, in the order the requests were made.
    // By start time; ties (instrumentations with millisecond clocks start a tool and the next
    // request in the same millisecond) by end time: the tool ends before the request it feeds.
    const cmp = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);
    const ordered = events.length <= 1 ? events : [...events].sort((a, b) => cmp(a.startTimeUnixNano, b.startTimeUnixNano) || cmp(a.endTimeUnixNano, b.endTimeUnixNano));
    const findings: Finding[] = [];
    if (this.config.checks) {
      for (const ev of ordered) findings.push(...this.check(ev, result));
    }

    // 5. Findings onto their spans (or carrier spans), deduplicated per trace.
    const o = { redaction: this.config.redaction, quotedValueChars: limits.quotedValueChars, maxAttributeBytes: limits.maxWrittenAttributeBytes };
    const lateKeys = lateSpans.length === 0 ? NO_KEYS : new Set(lateSpans.map(spanKey));
    for (const f of findings) {
      const rec = this.traceRecord(f.tenant ?? NO_TENANT, f.span.traceId);
      const identity = findingIdentity(f);
      if (rec.findings?.has(identity)) continue;
      this.cacheBytes += noteFinding(rec, identity);
      const key = spanKey(f.span);
      const subject = inBatch.get(key);
      const ann = annotationFor(result, key);
      // The bound counts footprint's own events; the evaluation events mirroring them are extra.
      if (ann.events.filter((e) => e.name !== EVENT_EVALUATION_RESULT).length >= limits.maxFindingsPerSpan) {
        diagnostics.report({ level: 'warn', code: 'findings.over-bound', message: `more than ${limits.maxFindingsPerSpan} findings on one span; the rest are counted, not written`, traceId: f.span.traceId, spanId: f.span.spanId });
        continue;
      }
      const time = subject?.endTimeUnixNano ?? (lateKeys.has(key) ? this.lateSpanEnd(lateSpans, key) : 0n);
      const event = findingToEvent(f, time, o);
      ann.events.push(event);
      if (this.config.evaluationEvents !== 'off') {
        const evaluated = subject ?? lateSpans.find((s) => spanKey(s) === key);
        const responseId = evaluated?.attributes[GEN_AI_RESPONSE_ID];
        ann.events.push(findingEvaluation(f, event, checkOfKind(f.kind), typeof responseId === 'string' && responseId !== '' ? fitBytes(responseId, limits.maxWrittenAttributeBytes) : undefined));
      }
      ann.attributes[ATTR_FINDINGS_COUNT] = ann.events.filter((e) => e.name === EVENT_FINDING).length;
      result.findings.push(f);
      this.findingsByKind[f.kind] = (this.findingsByKind[f.kind] ?? 0) + 1;
      this.cacheBytes += countWritten(rec, checkOfKind(f.kind));
    }

    // 6. The turn's disposition: on its invoke_agent span, else on the trace's root span.
    if (this.config.checks) this.addDispositions(events, fresh, result);

    // 7. Remember what each fresh agent span got (and spans that got something), for a retry of
    //    the same batch. Ordinary spans are never analysed, so there is nothing to remember.
    for (const span of this.config.rememberSpans ? fresh : []) {
      const key = spanKey(span);
      const ann = result.annotations.get(key);
      const remembered = ann ? { events: [...ann.events], attributes: { ...ann.attributes } } : agentSpanKeys.has(key) ? null : undefined;
      if (remembered === undefined) continue;
      const rk = this.rememberKey(span);
      const before = this.processedSpans.peek(rk);
      if (before !== undefined) this.cacheBytes -= rememberedBytes(rk, before);
      this.processedSpans.set(rk, remembered);
      this.cacheBytes += rememberedBytes(rk, remembered);
    }
    this.boundCaches(diagnostics);

    // 8. Annotations for spans not in this batch become carrier spans in the same trace.
    for (const [key, ann] of result.annotations) {
      if (inBatch.has(key)) continue;
      result.annotations.delete(key);
      const [traceId, spanId] = key.split('/') as [string, string];
      const subject = lateSpans.find((s) => s.spanId === spanId && s.traceId === traceId);
      result.carriers.push(carrierSpan(traceId, spanId, ann, subject));
    }
  }

  private addDispositions(events: readonly ModelEvent[], spans: readonly SpanData[], result: ProcessResult): void {
    // No turn, no request, no root and nothing late (a tool span, most often): no disposition to write.
    if (this.lateInCall.size === 0 && !events.some((ev) => ev.kind === 'agent-turn' || ev.kind === 'llm-request') && spans.every((s) => s.parentSpanId && !s.parentIsRemote)) return;
    const { limits, tenantAttribute } = this.config;
    // By tenant + trace id (trace-key.ts): each tenant's part of a trace gets its own disposition, on its own span.
    const targets = new Map<string, { key: string; time: bigint }>();
    for (const ev of events) {
      const k = traceKey(ev.tenant, ev.span.traceId);
      if (ev.kind === 'agent-turn' && !targets.has(k)) targets.set(k, { key: spanKey(ev.span), time: ev.endTimeUnixNano });
    }
    const tracesWithRequests = new Set(events.filter((e) => e.kind === 'llm-request').map((e) => traceKey(e.tenant, e.span.traceId)));
    for (const s of spans) {
      const k = traceKey(tenantOf(s, tenantAttribute), s.traceId);
      if ((s.parentSpanId && !s.parentIsRemote) || targets.has(k)) continue;
      // The trace's root: its home when the trace has no turn span, also when it ends alone, in a
      // later batch than the requests it holds (in-process, the root ends last).
      const rec = tracesWithRequests.has(k) ? undefined : this.traces.peek(k);
      if (tracesWithRequests.has(k) || (rec !== undefined && (rec.llmRequests ?? 0) > 0 && rec.turnSpanId === undefined)) targets.set(k, { key: spanKey(s), time: s.endTimeUnixNano });
    }
    // A turn whose content came late, or whose request ended after its turn span (some apps end
    // invoke_agent before the last chat span), gets its disposition again, on a carrier as its
    // turn span has gone on: the one written before is superseded.
    const afterTurn = new Set([...this.lateInCall].map((k) => k.slice(0, k.lastIndexOf('/'))));
    for (const k of tracesWithRequests) afterTurn.add(k);
    for (const k of afterTurn) {
      if (targets.has(k)) continue;
      const { traceId } = splitTraceKey(k);
      const turnSpanId = this.traces.peek(k)?.turnSpanId;
      if (turnSpanId !== undefined && !spans.some((s) => s.traceId === traceId && s.spanId === turnSpanId)) targets.set(k, { key: spanKey({ traceId, spanId: turnSpanId }), time: 0n });
    }
    for (const [k, target] of targets) {
      const { tenant, traceId } = splitTraceKey(k);
      const rec = this.traces.peek(k);
      const written = rec?.written;
      const llmRequests = rec?.llmRequests ?? 0;
      // A turn with no LLM request span at all: the LLM instrumentation recorded nothing (it is
      // not registered, or silently unsupported, as openai@7 is for two of them). Say so, rather
      // than letting every request-reading check read as "nothing applicable".
      if (llmRequests === 0) {
        const tallies = CHECK_CATALOG.filter((x) => x.readsContent && x.seam !== 'write').map((c) => ({ check: c.id, seam: c.seam, checked: 0, findings: 0, notApplicable: 0, unreachable: 1, unreachableReasons: { [NO_LLM_SPANS]: 1 } }));
        this.addTallies(tenant, traceId, tallies);
      }
      // `findings` counts findings written (one per defect per trace), not re-detections.
      let rows: CheckTally[] | undefined;
      const rowsOf = () => (rows ??= dispositionRows(CHECK_CATALOG, this.talliesOf(traceId, tenant)).map((r) => ({ ...r, findings: written?.get(r.check) ?? 0 })));
      const ledger = { spans: rec?.ledgerFromSpans ?? 0, windows: rec?.ledgerFromWindows ?? 0 };
      // A turn like one seen before (most are) is answered without making its rows.
      const key = `k${dispositionKey(rec, CHECK_CATALOG, llmRequests, limits.maxWrittenAttributeBytes, ledger, written)}`;
      const ev = this.dispositions.eventByKey(key, rowsOf, llmRequests, target.time, limits.maxWrittenAttributeBytes, ledger);
      // How the checks were armed: those inference armed beyond the declarations are named.
      if (this.inferredChecks !== '') ev.attributes[ATTR_DISPOSITION_INFERRED] = this.inferredChecks;
      const ann = annotationFor(result, target.key);
      ann.events.push(ev);
      if (this.config.evaluationEvents === 'all') ann.events.push(...turnEvaluations(rowsOf(), target.time, evaluationErrorType, limits.maxWrittenAttributeBytes));
    }
  }

  /** The processedSpans key of a span: its tenant and its ids. */
  private rememberKey(span: SpanData): string {
    return `${tenantOf(span, this.config.tenantAttribute)}\u0000${spanKey(span)}`;
  }

  private tenantOfLog(log: LogData): string {
    return tenantOfResource(log.resource, this.config.tenantAttribute);
  }

  /** The window memo slot of a span's conversation (by its id, else its trace's, else the trace). */
  private windowSlot(span: SpanData) {
    const tenant = tenantOf(span, this.config.tenantAttribute);
    const conversation = conversationIdOnSpan(span) ?? this.traces.peek(traceKey(tenant, span.traceId))?.conversationId;
    return this.windows.slot(conversation !== undefined ? `${tenant}\u0000conv\u0000${conversation}` : `${tenant}\u0000trace\u0000${span.traceId}`);
  }

  private lateSpanEnd(lateSpans: readonly SpanData[], key: string): bigint {
    return lateSpans.find((s) => spanKey(s) === key)?.endTimeUnixNano ?? 0n;
  }

  private anyArgumentsFrom(tenant: string): boolean {
    if (this.fileArmsArguments) return true;
    for (const [key, d] of this.spanDeclarations.pairs()) if (key.startsWith(`${tenant}\u0000`) && (d.argumentsFrom?.length ?? 0) > 0) return true;
    return false;
  }

  private declarationOf(tenant: string, toolName: string): EffectiveDeclaration | undefined {
    const key = `${tenant}\u0000${toolName}`;
    const spanDeclaration = this.spanDeclarations.peek(key);
    const evidence = this.toolEvidence.peek(key);
    const made = this.effectiveDeclarations.peek(key);
    if (made !== undefined && made.spanDeclaration === spanDeclaration && made.evidence === evidence) return made.declaration;
    const declared = mergeToolDeclaration(this.config.declarations, toolName, spanDeclaration);
    const infer = this.config.declarations.inference !== false;
    const declaration = infer ? effectiveDeclaration(declared, evidence ?? { name: toolName }, true) : declared;
    this.effectiveDeclarations.set(key, { spanDeclaration, evidence, declaration });
    return declaration;
  }

  /** Keeps what inference reads of each offered tool: its name, its description's opening, its annotations. */
  private rememberToolEvidence(tenant: string, definitions: readonly ToolDefinition[]): void {
    const kept = definitions.slice(0, MAX_TOOL_EVIDENCE_PER_REQUEST);
    const offered = kept.map((d) => d.name);
    for (const d of kept) {
      const key = `${tenant}\u0000${d.name}`;
      if (this.toolEvidence.peek(key)) continue;
      const sources = sourcesFromSchema(d.name, d.inputSchema, offered);
      const schemaChars = d.inputSchema !== undefined ? (JSON.stringify(d.inputSchema)?.length ?? 0) : 0;
      this.toolEvidence.set(key, {
        ...(schemaChars > 0 && schemaChars <= TOOL_EVIDENCE_SCHEMA_CHARS ? { inputSchema: d.inputSchema } : {}),
        name: d.name,
        ...(d.description ? { description: d.description.slice(0, TOOL_EVIDENCE_DESCRIPTION_CHARS) } : {}),
        ...(d.annotations ? { annotations: d.annotations } : {}),
        ...(sources ? { sources } : {}),
      });
    }
  }

  /** The seams' context for one tenant's event (its turn's tallies are that tenant's): one per tenant, made once (it holds only fixed parts and bound methods). */
  private readonly seams = new Map<string, SeamContext>();
  private seamContext(tenant: string): SeamContext {
    const made = this.seams.get(tenant);
    if (made) return made;
    const ctx: SeamContext = {
      limits: this.config.limits,
      conversations: this.conversations,
      declarations: this.config.declarations,
      redaction: this.config.redaction,
      declarationOf: (tenant, name) => this.declarationOf(tenant, name),
      anyArgumentsFrom: (tenant) => this.anyArgumentsFrom(tenant),
      talliesOf: (traceId) => this.talliesOf(traceId, tenant),
    };
    if (this.seams.size < MAX_SEAM_CONTEXTS) this.seams.set(tenant, ctx);
    return ctx;
  }

  /** Runs the seam checks of one event and records tallies and side events; returns its findings. */
  private check(ev: ModelEvent, result: ProcessResult): Finding[] {
    if (ev.kind === 'agent-turn') return [];
    if (ev.kind === 'llm-request') {
      const key = tenantSpanKey(ev.tenant, spanKey(ev.span));
      const joinTenant = this.joinTenant(ev.tenant);
      // Content came late: take back what the content-less pass counted, then judge it for real.
      const earlier = this.provisionalTallies.peek(key);
      if (earlier && this.lateInCall.has(key)) {
        this.provisionalTallies.delete(key);
        this.addTallies(ev.tenant, ev.span.traceId, earlier.map(negated));
      }
      // No content yet, and its log records may still come: counted as not captured for now,
      // without taking a place in the conversation's request order.
      if (this.awaitingContent.peek(spanKey(ev.span))?.some((w) => w.tenant === joinTenant) && !this.lateInCall.has(key)) {
        const tallies = unreachableAll(CONTENT_NOT_CAPTURED);
        this.addTallies(ev.tenant, ev.span.traceId, tallies);
        this.provisionalTallies.set(key, tallies);
        return [];
      }
    }
    const state = this.conversations.get(conversationKey(ev.tenant, ev.conversationId, ev.span.traceId));
    if (ev.kind === 'tool-execution' && !this.admitToolExecution(ev, state)) return [];
    const outcome = ev.kind === 'llm-request' ? checkRequest(this.seamContext(ev.tenant), state, ev) : checkExecution(this.seamContext(ev.tenant), state, ev);
    // Each check's tier, and the user's setting of it (tiers.ts): advisory, or withheld with the reason.
    outcome.findings = applyTiers(outcome.findings, outcome.tallies, this.config.declarations.checks);
    // What the checks read into the conversation's value memo counts in its state, within maxStateBytes.
    this.conversations.chargeMemo(state);
    if (ev.kind === 'llm-request') this.conversations.recordRequestId(state, spanKey(ev.span));
    this.addTallies(ev.tenant, ev.span.traceId, outcome.tallies);
    for (const d of outcome.diagnostics ?? []) if (result.diagnostics.length < MAX_SEAM_DIAGNOSTICS) result.diagnostics.push(d);
    for (const change of outcome.ledger) {
      const rec = this.traceRecord(ev.tenant, change.traceId);
      if (change.source === 'window') rec.ledgerFromWindows += change.rows;
      else rec.ledgerFromSpans += change.rows;
    }
    if (ev.conversationId) for (const f of outcome.findings) f.conversationId = ev.conversationId;
    for (const f of outcome.findings) f.tenant = ev.tenant;
    const { limits } = this.config;
    if (outcome.events.length > 0) annotationFor(result, spanKey(ev.span)).events.push(...outcome.events);
    if (outcome.externalGroundsUsed.length > 0) {
      const ann = annotationFor(result, spanKey(ev.span));
      for (const use of outcome.externalGroundsUsed) {
        ann.events.push({
          name: EVENT_EXTERNAL_GROUND_USED,
          timeUnixNano: ev.endTimeUnixNano,
          attributes: {
            [ATTR_TOOL_NAME]: use.toolName,
            ...(use.toolCallId ? { [ATTR_TOOL_CALL_ID]: use.toolCallId } : {}),
            [ATTR_FINDING_PREDICATE]: use.path,
            [ATTR_FINDING_VALUE]: redactValue(use.value, this.config.redaction, limits.quotedValueChars),
            [ATTR_EXTERNAL_GROUND_SOURCE]: fitBytes(use.source, limits.maxWrittenAttributeBytes),
          },
        });
      }
    }
    return outcome.findings;
  }

  /**
   * MCP tool calls (mcp-join.ts): false for a tool span that describes a call already read from
   * its parent or child span (one of the two is read); an MCP call without a call id is given the
   * model's call it answers, by tool name.
   */
  private admitToolExecution(ev: ToolExecution, state: ConversationState): boolean {
    const traceId = ev.span.traceId;
    const mcpKey = traceKey(ev.tenant, traceId);
    if (ev.convention !== 'mcp-semconv') {
      if (!isParentOfMcpCall(ev, this.mcpCalls.peek(mcpKey))) return true;
      this.sameCall(ev, 'its MCP tools/call child span was read already');
      return false;
    }
    const parentSpanId = this.parentsInCall.get(spanKey(ev.span));
    if (parentSpanId !== undefined && this.toolSpansInCall.get(spanKey({ traceId, spanId: parentSpanId })) === ev.toolName) {
      this.sameCall(ev, 'its parent tool span, read in the same batch, is the same call');
      return false;
    }
    const seen = this.mcpCalls.get(mcpKey) ?? [];
    if (seen.length < MAX_MCP_CALLS_PER_TRACE) {
      seen.push({ spanId: ev.span.spanId, ...(parentSpanId !== undefined ? { parentSpanId } : {}), toolName: ev.toolName });
      this.mcpCalls.set(mcpKey, seen);
      this.cacheBytes += MCP_CALL_BYTES;
    }
    if (ev.callId === undefined) {
      const joined = joinMcpCall(state, ev);
      if (joined !== undefined) ev.callId = joined;
    }
    return true;
  }

  private sameCall(ev: ToolExecution, why: string): void {
    this.callDiagnostics?.report({ level: 'info', code: 'mcp.same-call', message: `tool span for ${ev.toolName} not read: ${why}`, traceId: ev.span.traceId, spanId: ev.span.spanId });
  }

  /** Adds tallies to the tenant's record of the trace (trace-record.ts keeps them packed). */
  private addTallies(tenant: string, traceId: string, tallies: readonly CheckTally[]): void {
    if (tallies.length === 0) return;
    const rec = this.traceRecord(tenant, traceId);
    for (const t of tallies) this.cacheBytes += addTally(rec, t);
  }

  /** Tallies accumulated for a tenant's part of a trace so far (the disposition reads these). */
  talliesOf(traceId: string, tenant: string): CheckTally[] {
    return talliesOfRecord(this.traces.peek(traceKey(tenant, traceId)));
  }

  /** What the core has seen of a tenant's part of a trace, or undefined when it saw no agent span of it. */
  traceInfoOf(traceId: string, tenant: string): Readonly<TraceInfo> | undefined {
    const rec = this.traces.peek(traceKey(tenant, traceId));
    if (rec?.llmRequests === undefined) return undefined;
    const info: TraceInfo = { llmRequests: rec.llmRequests };
    if (rec.turn !== undefined) info.turn = rec.turn;
    if (rec.conversationId !== undefined) info.conversationId = rec.conversationId;
    if (rec.turnSpanId !== undefined) info.turnSpan = spanKey({ traceId, spanId: rec.turnSpanId });
    return info;
  }
}

/** Shared empty collections for the common call (one span, no log records, no late content, no MCP): never written to. */
const NO_KEYS: ReadonlySet<string> = new Set();
/** Tenants whose seam context is kept (one object each); past it a context is made per event. */
const MAX_SEAM_CONTEXTS = 256;
const NO_LOGS: ReadonlyMap<string, LogData[]> = new Map();
const NO_SPANS: ReadonlyMap<string, SpanData> = new Map();
const NO_PARENTS: ReadonlyMap<string, string | undefined> = new Map();
const NO_TOOL_SPANS: ReadonlyMap<string, string> = new Map();

/** Diagnostics the seams' checks add to one batch's result (a bad tool schema is reported once while cached). */
const MAX_SEAM_DIAGNOSTICS = 1000;
/** Estimated bytes of one remembered MCP call (ids, tool name, slot), and the most kept per trace. */
const MCP_CALL_BYTES = 160;
const MAX_MCP_CALLS_PER_TRACE = 256;
/** Distinct tool names remembered for the "declared but never seen" warning. */
const MAX_SEEN_TOOLS = 4096;

/** Estimated bytes of one span declaration entry (its key, the map slot; the declaration is shared). */
const SPAN_DECLARATION_BYTES = 256;
/** Estimated bytes of one tool's evidence: its name, description opening, annotations, sources and (up to 8 KiB of) schema. */
const TOOL_EVIDENCE_BYTES = 2_048;
/** Tool definitions of one request that inference remembers (the rest are read by name alone). */
const MAX_TOOL_EVIDENCE_PER_REQUEST = 256;
/** A recorded input schema longer than this (as JSON) is not kept for inference. */
const TOOL_EVIDENCE_SCHEMA_CHARS = 8_192;
/** Characters of a tool's description inference keeps: it reads only the opening verb. */
const TOOL_EVIDENCE_DESCRIPTION_CHARS = 80;

/** Bytes a cached value holds (retained-bytes.ts: every value walked, no cap). */
const approxBytes = retainedBytes;

function awaitingBytes(waiting: readonly AwaitingContent[]): number {
  let n = 0;
  for (const w of waiting) n += approxBytes(w.span);
  return n;
}

function logsBytes(logs: readonly LogData[]): number {
  let n = 0;
  for (const l of logs) n += approxBytes(l);
  return n;
}

/** A remembered span: its key and map slot, plus the annotation it got (null: it got nothing). */
function rememberedBytes(key: string, v: SpanAnnotation | null): number {
  return key.length * 2 + 96 + (v ? approxBytes(v) : 0);
}

function annotationFor(result: ProcessResult, key: string): SpanAnnotation {
  let ann = result.annotations.get(key);
  if (!ann) {
    ann = { events: [], attributes: {} };
    result.annotations.set(key, ann);
  }
  return ann;
}

/** A conversation id on the span's own attributes, by any convention's key. */
function conversationIdOnSpan(span: SpanData): string | undefined {
  for (const k of CONVERSATION_ID_KEYS) {
    const v = span.attributes[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

