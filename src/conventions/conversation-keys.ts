// Every attribute key under which some convention records a conversation (or session) id, most
// standard first. Used to learn a trace's conversation from whichever of its spans carries one.
// Never synthesises an id: no key, no conversation (state is then scoped to the trace).

import { AI_SETTINGS_CONTEXT_CONVERSATION_ID, GEN_AI_CONVERSATION_ID, SESSION_ID, TRACELOOP_CONVERSATION_ID, TRACELOOP_SESSION_ID } from './keys-genai.js';
import { AI_METADATA_CONVERSATION_ID, AI_METADATA_SESSION_ID } from './keys-vercel-ai.js';

export const CONVERSATION_ID_KEYS: readonly string[] = [
  GEN_AI_CONVERSATION_ID,
  SESSION_ID,
  TRACELOOP_CONVERSATION_ID,
  TRACELOOP_SESSION_ID,
  AI_METADATA_CONVERSATION_ID,
  AI_METADATA_SESSION_ID,
  AI_SETTINGS_CONTEXT_CONVERSATION_ID,
];
