// Reads the content of semconv v1.26–v1.27 inference spans, which carry it as span events:
// `gen_ai.content.prompt` (attribute `gen_ai.prompt`, JSON of the request's messages) and
// `gen_ai.content.completion` (attribute `gen_ai.completion`, JSON of the response's messages or
// choices). Must never throw: unreadable JSON becomes a diagnostic and the content stays unknown.

import type { Message } from '../model/agent.js';
import { GEN_AI_COMPLETION, GEN_AI_PROMPT, SPAN_EVENT_CONTENT_COMPLETION, SPAN_EVENT_CONTENT_PROMPT } from './keys-genai.js';
import { type GenAiScope, isRecord, normaliseMessages, readArrayAttribute } from './genai-parts.js';

export interface EventContent {
  input?: Message[];
  output?: Message[];
}

/** True when one of the span's first events is a v1.26 content event (bounded look, no parsing). */
export function hasContentEvents(events: readonly { name: string }[]): boolean {
  const n = Math.min(events.length, 4);
  for (let i = 0; i < n; i++) {
    const name = events[i]!.name;
    if (name === SPAN_EVENT_CONTENT_PROMPT || name === SPAN_EVENT_CONTENT_COMPLETION) return true;
  }
  return false;
}

/** Choices (`{index, message, finish_reason}`) unwrap to their message; a missing role is assistant. */
function unwrapChoices(items: unknown[]): unknown[] {
  return items.map((item) => (isRecord(item) && isRecord(item.message) ? item.message : item));
}

export function readContentEvents(scope: GenAiScope): EventContent {
  const out: EventContent = {};
  for (const e of scope.span.events) {
    if (e.name === SPAN_EVENT_CONTENT_PROMPT && out.input === undefined) {
      const raw = readArrayAttribute(e.attributes[GEN_AI_PROMPT], `event ${SPAN_EVENT_CONTENT_PROMPT} ${GEN_AI_PROMPT}`, scope);
      if (raw !== undefined) out.input = normaliseMessages(raw, `event ${SPAN_EVENT_CONTENT_PROMPT}`, scope, { defaultRole: 'user' });
    } else if (e.name === SPAN_EVENT_CONTENT_COMPLETION && out.output === undefined) {
      const raw = readArrayAttribute(e.attributes[GEN_AI_COMPLETION], `event ${SPAN_EVENT_CONTENT_COMPLETION} ${GEN_AI_COMPLETION}`, scope);
      if (raw !== undefined) out.output = normaliseMessages(unwrapChoices(raw), `event ${SPAN_EVENT_CONTENT_COMPLETION}`, scope, { defaultRole: 'assistant' });
    }
  }
  return out;
}
