// Per-conversation state, scoped by tenant: how many requests it has had and the strings earlier
// requests were served, kept only as far as the byte and call bounds allow. Past a bound the state
// is marked incomplete, so a check that reads it says so instead of guessing.

import type { Limits } from '../limits.js';
import { BoundedMap } from './bounded-map.js';
import type { EarlierServed } from '../checks/unsupported-argument.js';
import type { ServedString } from './frame.js';

export interface ConversationState {
  key: string;
  requests: number;
  /** Served strings of earlier requests, first sighting of each text only. */
  served: EarlierServed[];
  servedTexts: Set<string>;
  bytes: number;
  incomplete: boolean;
}

export function conversationKey(tenant: string, conversationId: string | undefined, traceId: string): string {
  // Without a conversation id, state is scoped to the trace: never merged across traces by guess.
  return conversationId ? `${tenant}\u0000conv\u0000${conversationId}` : `${tenant}\u0000trace\u0000${traceId}`;
}

export class ConversationStore {
  private readonly map: BoundedMap<ConversationState>;
  evicted = 0;
  private totalBytes = 0;

  constructor(private readonly limits: Limits, now: () => number) {
    this.map = new BoundedMap<ConversationState>({
      maxEntries: limits.maxConversations,
      idleMs: limits.conversationIdleMs,
      now,
      onEvict: (_k, v) => {
        this.evicted++;
        this.totalBytes -= v.bytes;
      },
    });
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): ConversationState {
    let s = this.map.get(key);
    if (!s) {
      s = { key, requests: 0, served: [], servedTexts: new Set(), bytes: 0, incomplete: false };
      this.map.set(key, s);
    }
    return s;
  }

  /** Records a request's served strings after it was checked. */
  recordServed(state: ConversationState, request: number, served: readonly ServedString[]): void {
    for (const s of served) {
      if (s.source === 'tool-schema' || state.servedTexts.has(s.text)) continue;
      const size = s.text.length * 2 + 64;
      if (state.bytes + size > this.limits.maxBytesPerConversation || state.served.length >= this.limits.maxCallsPerConversation) {
        state.incomplete = true;
        continue;
      }
      state.servedTexts.add(s.text);
      state.served.push({ ...s, request });
      state.bytes += size;
      this.totalBytes += size;
    }
  }

  /**
   * A trace's conversation became known after some of its requests were kept under the trace:
   * their state moves into the conversation's, in order, so later turns can see it.
   */
  adopt(traceKey: string, convKey: string): void {
    const orphan = this.map.peek(traceKey);
    if (!orphan || traceKey === convKey) return;
    this.map.delete(traceKey);
    const into = this.get(convKey);
    for (const s of orphan.served) {
      if (into.servedTexts.has(s.text)) continue;
      into.servedTexts.add(s.text);
      into.served.push({ ...s, request: into.requests + s.request });
      into.bytes += s.text.length * 2 + 64;
    }
    into.requests += orphan.requests;
    into.incomplete ||= orphan.incomplete;
  }

  clear(): void {
    this.map.clear();
    this.totalBytes = 0;
  }
}
