// App-side helpers, part 1: the agent turn (`invoke_agent` span) and the turn state its children
// read from the context (conversation id, external grounds the app asserted), plus the shared
// span runner. Depends on @opentelemetry/api only, so any SDK (or none) can sit under it.
// Must never swallow the app's exceptions or change its return values, and never record a
// value the app did not hand over.

import { context, createContextKey, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ATTR_EXTERNAL_GROUNDS, TRACE_HELPERS_SCOPE } from '../findings/names.js';
import {
  ERROR_TYPE,
  GEN_AI_AGENT_NAME,
  GEN_AI_CONVERSATION_ID,
  GEN_AI_OPERATION_NAME,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  OP_INVOKE_AGENT,
} from '../conventions/keys-genai.js';

export interface ExternalGround {
  value: string;
  source: string;
}

/** What a turn's child spans inherit: carried in the context, not in globals. */
export interface TurnState {
  conversationId?: string;
  grounds: ExternalGround[];
  span: Span;
}

const TURN_KEY = createContextKey('footprint-otel.turn');

export function currentTurn(ctx: Context = context.active()): TurnState | undefined {
  return ctx.getValue(TURN_KEY) as TurnState | undefined;
}

/** The helpers' tracer: the global provider's, unless the caller passes one. */
export function helperTracer(tracer?: Tracer): Tracer {
  return tracer ?? trace.getTracer(TRACE_HELPERS_SCOPE, '0.1.0');
}

/** Caps the external grounds one turn records (each a JSON item on every later span of the turn). */
const MAX_GROUNDS_PER_TURN = 64;
/** Code units of one asserted value or source kept. */
const MAX_GROUND_CHARS = 512;

export function groundsJson(grounds: readonly ExternalGround[]): string {
  return JSON.stringify(grounds);
}

function errorType(e: unknown): string {
  if (e && typeof e === 'object') {
    const name = (e as { constructor?: { name?: string } }).constructor?.name;
    if (typeof name === 'string' && name !== '' && name !== 'Object') return name;
  }
  return '_OTHER';
}

/**
 * Runs `fn` inside `span` (made active), ends the span when `fn` settles, records an error status
 * (and rethrows) when it fails. `onResult` may add attributes from the result before the span ends.
 */
export async function runInSpan<T>(span: Span, ctx: Context, fn: (span: Span) => T | Promise<T>, onResult?: (span: Span, result: T) => void): Promise<T> {
  try {
    const result = await context.with(ctx, () => fn(span));
    if (onResult) {
      try {
        onResult(span, result);
      } catch {
        // describing the result must never fail the app's call
      }
    }
    return result;
  } catch (e) {
    span.recordException(e instanceof Error ? e : String(e));
    span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message.slice(0, 500) : String(e).slice(0, 500) });
    span.setAttribute(ERROR_TYPE, errorType(e));
    throw e;
  } finally {
    span.end();
  }
}

export interface AgentTurnOptions {
  /** `gen_ai.agent.name`, and the span name `invoke_agent {agentName}`. */
  agentName: string;
  /** `gen_ai.conversation.id`: ties this turn to earlier ones (each turn is usually its own trace). */
  conversationId?: string;
  /** `gen_ai.request.model`, when the turn uses one model. */
  model?: string;
  /** `gen_ai.provider.name`, e.g. `openai`. */
  provider?: string;
  /** Extra attributes for the turn span. */
  attributes?: Attributes;
  tracer?: Tracer;
}

/**
 * One agent turn: an `invoke_agent {agentName}` span (INTERNAL) around `fn`. Chat and tool spans
 * started inside it by these helpers carry its conversation id and the external grounds asserted
 * during it.
 */
export function traceAgentTurn<T>(opts: AgentTurnOptions, fn: (span: Span) => T | Promise<T>): Promise<T> {
  const attributes: Attributes = { ...opts.attributes, [GEN_AI_OPERATION_NAME]: OP_INVOKE_AGENT, [GEN_AI_AGENT_NAME]: opts.agentName };
  if (opts.conversationId !== undefined) attributes[GEN_AI_CONVERSATION_ID] = opts.conversationId;
  if (opts.model !== undefined) attributes[GEN_AI_REQUEST_MODEL] = opts.model;
  if (opts.provider !== undefined) attributes[GEN_AI_PROVIDER_NAME] = opts.provider;
  const span = helperTracer(opts.tracer).startSpan(`${OP_INVOKE_AGENT} ${opts.agentName}`, { kind: SpanKind.INTERNAL, attributes });
  const state: TurnState = { grounds: [], span };
  if (opts.conversationId !== undefined) state.conversationId = opts.conversationId;
  const ctx = trace.setSpan(context.active(), span).setValue(TURN_KEY, state);
  return runInSpan(span, ctx, fn);
}

/**
 * Records that the app itself verified `value` (e.g. a row a person clicked), and where it came
 * from. The value grounds later tool-call arguments of this turn: it is written as
 * `footprint.external_grounds` (JSON `[{value, source}]`, cumulative for the turn) on the active
 * span now and on every chat/tool span these helpers start later in the turn. Returns `value`.
 */
export function assertExternalGround<V extends string | number>(value: V, source: string): V {
  const ground: ExternalGround = { value: String(value).slice(0, MAX_GROUND_CHARS), source: String(source).slice(0, MAX_GROUND_CHARS) };
  if (ground.value.trim() === '' || ground.source.trim() === '') return value;
  const turn = currentTurn();
  const active = trace.getActiveSpan();
  if (turn) {
    if (turn.grounds.length < MAX_GROUNDS_PER_TURN && !turn.grounds.some((g) => g.value === ground.value && g.source === ground.source)) turn.grounds.push(ground);
    const json = groundsJson(turn.grounds);
    turn.span.setAttribute(ATTR_EXTERNAL_GROUNDS, json);
    if (active && active !== turn.span) active.setAttribute(ATTR_EXTERNAL_GROUNDS, json);
  } else if (active) {
    active.setAttribute(ATTR_EXTERNAL_GROUNDS, groundsJson([ground]));
  }
  return value;
}

/** Attributes every child span of a turn inherits. */
export function turnAttributes(turn: TurnState | undefined, into: Attributes): Attributes {
  if (!turn) return into;
  if (turn.conversationId !== undefined && into[GEN_AI_CONVERSATION_ID] === undefined) into[GEN_AI_CONVERSATION_ID] = turn.conversationId;
  if (turn.grounds.length > 0) into[ATTR_EXTERNAL_GROUNDS] = groundsJson(turn.grounds);
  return into;
}
