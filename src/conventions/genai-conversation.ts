// The conversation id a GenAI-family span states about itself, under any of the keys seen in the
// field (semconv, OpenInference/OpenLLMetry session ids, AI SDK 7 runtime context), first found wins.
// Must never synthesise one (no trace ids, no hashes) and never look beyond the span's own
// attributes: propagating a turn's id to its trace is the runs layer's job.

import type { Attributes } from '../model/telemetry.js';
import {
  AI_SETTINGS_CONTEXT_CONVERSATION_ID,
  GEN_AI_CONVERSATION_ID,
  SESSION_ID,
  TRACELOOP_CONVERSATION_ID,
  TRACELOOP_SESSION_ID,
} from './keys-genai.js';

/**
 * The keys a GenAI-family span's own id is read from, in order of precedence (a subset of
 * conversation-keys.ts's CONVERSATION_ID_KEYS, which learns a trace's id from any of its spans).
 */
const GENAI_CONVERSATION_ID_PRECEDENCE: readonly string[] = [
  GEN_AI_CONVERSATION_ID,
  SESSION_ID,
  TRACELOOP_CONVERSATION_ID,
  TRACELOOP_SESSION_ID,
  AI_SETTINGS_CONTEXT_CONVERSATION_ID,
];

export function conversationIdOf(a: Attributes): string | undefined {
  for (const key of GENAI_CONVERSATION_ID_PRECEDENCE) {
    const v = a[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}
