// What a shared conversation-state store (src/state/) may do with a core's conversations: name the
// conversation keys a batch can touch (before and after it is analysed), read a state, and put a
// state read from the store in place of the core's own. No I/O here: the caller does the store's
// round trips and hands states in. Must never create state for a key it was not given.

import type { LogData, SpanData } from '../model/telemetry.js';
import type { ProcessInput } from './options.js';
import { isAgentSpan } from '../conventions/registry.js';
import { tenantOf } from '../conventions/registry.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
import { conversationKey, type ConversationState, type ConversationStore } from './conversations.js';

export interface ConversationStateAccess {
  /** Conversation keys the input's agent spans and log records belong to, as far as known now. */
  keysOf(input: ProcessInput): string[];
  /** Trace ids of the input's agent spans and log records (the turns a batch concerns). */
  tracesOf(input: ProcessInput): string[];
  /** keysOf, by the trace each key was found in (a turn is marked for its own conversations' state). */
  keysByTrace(input: ProcessInput): Map<string, string[]>;
  /** Start of the input's earliest agent span or log record, in ms since the epoch (Infinity when none). */
  earliestStartMs(input: ProcessInput): number;
  peek(key: string): ConversationState | undefined;
  /** Puts `state` in place of the core's state for `key` (its byte estimate accounted). */
  hydrate(key: string, state: ConversationState): void;
}

export interface StateAccessParts {
  conversations: ConversationStore;
  /** A tenant's trace's conversation id as the core knows it (read only: never touches recency or expiry). */
  conversationOfTrace: (tenant: string, traceId: string) => string | undefined;
  tenantAttribute: string;
}

function conversationIdOn(attrs: Record<string, unknown>): string | undefined {
  for (const k of CONVERSATION_ID_KEYS) {
    const v = attrs[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

export function conversationStateAccess(p: StateAccessParts): ConversationStateAccess {
  const keysOfSpan = (span: SpanData, out: Set<string>) => {
    const tenant = tenantOf(span, p.tenantAttribute);
    const id = conversationIdOn(span.attributes) ?? p.conversationOfTrace(tenant, span.traceId);
    out.add(conversationKey(tenant, undefined, span.traceId));
    if (id) out.add(conversationKey(tenant, id, span.traceId));
  };
  const keysOfLog = (log: LogData, out: Set<string>) => {
    if (!log.traceId) return;
    const tenant = tenantOf({ resource: log.resource } as SpanData, p.tenantAttribute);
    const id = conversationIdOn(log.attributes) ?? p.conversationOfTrace(tenant, log.traceId);
    out.add(conversationKey(tenant, undefined, log.traceId));
    if (id) out.add(conversationKey(tenant, id, log.traceId));
  };
  return {
    keysOf(input) {
      const out = new Set<string>();
      for (const s of input.spans) if (isAgentSpan(s)) keysOfSpan(s, out);
      for (const l of input.logs ?? []) keysOfLog(l, out);
      return [...out];
    },
    keysByTrace(input) {
      const by = new Map<string, Set<string>>();
      const of = (traceId: string) => by.get(traceId) ?? by.set(traceId, new Set()).get(traceId)!;
      for (const s of input.spans) if (isAgentSpan(s)) keysOfSpan(s, of(s.traceId));
      for (const l of input.logs ?? []) if (l.traceId) keysOfLog(l, of(l.traceId));
      return new Map([...by].map(([t, keys]) => [t, [...keys]]));
    },
    earliestStartMs(input) {
      let min: bigint | undefined;
      for (const s of input.spans) if (isAgentSpan(s) && (min === undefined || s.startTimeUnixNano < min)) min = s.startTimeUnixNano;
      for (const l of input.logs ?? []) if (l.traceId && l.timeUnixNano > 0n && (min === undefined || l.timeUnixNano < min)) min = l.timeUnixNano;
      return min === undefined ? Infinity : Number(min / 1_000_000n);
    },
    tracesOf(input) {
      const out = new Set<string>();
      for (const s of input.spans) if (isAgentSpan(s)) out.add(s.traceId);
      for (const l of input.logs ?? []) if (l.traceId) out.add(l.traceId);
      return [...out];
    },
    peek: (key) => p.conversations.peek(key),
    hydrate: (key, state) => p.conversations.replace(key, state),
  };
}
