// The processor's cheap recognition tests, run on SDK objects before anything is copied: a handful
// of constant-time key lookups and one scope-name compare. A superset of what the convention
// readers claim (src/conventions/registry.ts `isAgentSpan`; the core decides after the copy).
// Must never parse, copy or allocate: every ordinary span pays for this. It walks the span's own
// (few) keys once, with a first-character filter, rather than probing 16 keys it does not have:
// V8 answers a missing keyed load slowly, an own-key walk of a small object quickly.

import { AGENT_SPAN_MARKING_KEYS } from '../conventions/agent-span-keys.js';
import { GEN_AI_CONVERSATION_ID, GEN_AI_TOOL_NAME } from '../conventions/keys-genai.js';
import { LLM_SYSTEM } from '../conventions/keys-openinference.js';
import { AI_SCOPE_NAME } from '../conventions/keys-vercel-ai.js';
import { ATTR_DECL_ARGUMENTS_FROM, ATTR_EXTERNAL_GROUNDS } from '../findings/names.js';

/**
 * Keys whose presence marks a span some convention may read: the conventions' own marking keys
 * (src/conventions/agent-span-keys.ts), and the keys the in-process path also watches for, on
 * spans that no reader claims by themselves but whose trace it should hold (tool and conversation
 * keys, OpenInference's llm.system, footprint's own helpers' declarations).
 */
const AGENT_SPAN_KEYS: readonly string[] = [
  ...AGENT_SPAN_MARKING_KEYS,
  GEN_AI_TOOL_NAME,
  GEN_AI_CONVERSATION_ID,
  LLM_SYSTEM,
  ATTR_DECL_ARGUMENTS_FROM, // footprint's own helpers
  ATTR_EXTERNAL_GROUNDS,
];

/** Scopes whose spans carry no distinguishing key on every span (AI SDK 6 writes `ai`, AI SDK 7 `gen_ai`). */
const AGENT_SCOPE_A = AI_SCOPE_NAME;
const AGENT_SCOPE_B = 'gen_ai';

/**
 * The first characters of a key set, as a 128-entry table indexed by char code (a non-ASCII first
 * character always passes on to the set): most ordinary keys are rejected by one typed-array load.
 */
export interface KeySet {
  keys: ReadonlySet<string>;
  firstChars: Uint8Array;
}

export function keySet(keys: Iterable<string>): KeySet {
  const set = new Set(keys);
  const firstChars = new Uint8Array(128);
  for (const k of set) {
    const c = k.charCodeAt(0);
    if (c < 128) firstChars[c] = 1;
  }
  return { keys: set, firstChars };
}

const AGENT_KEYS: KeySet = keySet(AGENT_SPAN_KEYS);

/** One key: its first character in the table (or non-ASCII), then the set. */
function holdsKey(ks: KeySet, k: string): boolean {
  const c = k.charCodeAt(0);
  return (c >= 128 || ks.firstChars[c] === 1) && ks.keys.has(k);
}

export function looksLikeAgentSpan(attributes: Readonly<Record<string, unknown>> | undefined, scopeName: string | undefined): boolean {
  if (scopeName === AGENT_SCOPE_A || scopeName === AGENT_SCOPE_B) return true;
  if (!attributes) return false;
  for (const k in attributes) {
    if (holdsKey(AGENT_KEYS, k) && attributes[k] !== undefined) return true;
  }
  return false;
}

/** True when the attributes hold any key of `ks` (one own-key walk; see looksLikeAgentSpan). */
export function hasAnyKey(attributes: Readonly<Record<string, unknown>>, ks: KeySet): boolean {
  for (const k in attributes) if (holdsKey(ks, k)) return true;
  return false;
}

/** A log record that may carry LLM content: GenAI event names, or the structured content attributes. */
export function looksLikeGenAiLog(eventName: string | undefined, attributes: Readonly<Record<string, unknown>> | undefined): boolean {
  if (eventName !== undefined && eventName.startsWith('gen_ai.')) return true;
  if (!attributes) return false;
  const n = attributes['event.name'];
  if (typeof n === 'string' && n.startsWith('gen_ai.')) return true;
  return attributes['gen_ai.input.messages'] !== undefined || attributes['gen_ai.output.messages'] !== undefined;
}
