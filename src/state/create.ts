// Builds the shared conversation-state store and its per-batch hook from the service config: none
// for `state: memory` (today's behaviour, no overhead), a Valkey/Redis store otherwise. Must never
// connect here (start() does, bounded) and never throw at the factory: a core that cannot expose
// its conversations gets no store, with a warning.

import { Gauge, type Registry } from 'prom-client';
import * as N from '../service/names.js';
import type { ServiceConfig } from '../service/config.js';
import type { ConversationStateAccess } from '../runs/state-access.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { ValkeyStateStore } from './valkey-store.js';
import { StateMetrics } from './metrics.js';
import { StateSync } from './sync.js';
import type { ConversationStateStore } from './store.js';

type Log = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface SharedState {
  store: ConversationStateStore;
  sync: StateSync;
}

/** A core that can hand its conversations to a shared store (FootprintCore can). */
export function hasStateAccess(core: unknown): core is { stateAccess(): ConversationStateAccess } {
  return typeof (core as { stateAccess?: unknown } | null)?.stateAccess === 'function';
}

export function createSharedState(config: ServiceConfig, core: unknown, registry: Registry, log: Log): SharedState | null {
  if (config.state.kind === 'memory') return null;
  if (!hasStateAccess(core)) {
    log('warn', 'state: the core in use cannot expose its conversations; conversation state stays in memory');
    return null;
  }
  const idleMs = DEFAULT_LIMITS.conversationIdleMs;
  const store = new ValkeyStateStore({ url: config.state.url, ttlMs: idleMs, log });
  const metrics = new StateMetrics(registry, () => store.ready().ok);
  const sync = new StateSync({ store, access: core.stateAccess(), metrics, maxSnapshotBytes: config.limits.bytesPerConversation, maxConversations: config.limits.conversations, idleMs, log });
  new Gauge({ name: N.M_STATE_OWED, help: 'Conversation state writes acknowledged but not landed in the store yet (retried until they land).', registers: [registry], collect() { this.set(sync.owedWrites); } });
  return { store, sync };
}
