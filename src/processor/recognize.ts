// The processor's cheap recognition tests, run on SDK objects before anything is copied: a handful
// of constant-time key tests and one scope-name compare. A superset of what the convention
// readers claim (src/conventions/registry.ts `isAgentSpan`; the core decides after the copy).
// Must never parse, copy or allocate: every ordinary span pays for this.
// The agent-key test walks the span's own (few) keys once, with a (length, first character)
// filter, rather than probing 16 keys it does not have: V8 answers a missing key quickly only at a
// load site that has seen few object shapes, and an app's spans have many. The conversation-key
// test (7 keys, at every span start) probes instead, one load site per key: free while the sites
// see few shapes (the common HTTP span), a few ns a key when they see many, and far cheaper than a
// walk over a span with enough attributes that V8 keeps them as a hash table (about 20 or more).

import { AGENT_SPAN_MARKING_KEYS } from '../conventions/agent-span-keys.js';
import { CONVERSATION_ID_KEYS } from '../conventions/conversation-keys.js';
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

/** Longest key length the filter tells apart; longer keys share its last column. */
const MAX_FILTERED_LENGTH = 63;

/**
 * A key set with two filters in front: the lengths its keys have, then a 128 x 64 table indexed
 * by (first char code, length), so most ordinary keys are rejected by one or two typed-array loads
 * (`server.port` beside `session.id`) and never reach Set.has. A non-ASCII first character always
 * passes on to the set.
 */
export interface KeySet {
  keys: ReadonlySet<string>;
  lengths: Uint8Array;
  firstCharLength: Uint8Array;
}

export function keySet(keys: Iterable<string>): KeySet {
  const set = new Set(keys);
  const lengths = new Uint8Array(MAX_FILTERED_LENGTH + 1);
  const firstCharLength = new Uint8Array(128 * (MAX_FILTERED_LENGTH + 1));
  for (const k of set) {
    const n = Math.min(k.length, MAX_FILTERED_LENGTH);
    lengths[n] = 1;
    const c = k.charCodeAt(0);
    if (c < 128) firstCharLength[c * (MAX_FILTERED_LENGTH + 1) + n] = 1;
  }
  return { keys: set, lengths, firstCharLength };
}

const AGENT_KEYS: KeySet = keySet(AGENT_SPAN_KEYS);

/** One key: its length, then its (first character, length) (or a non-ASCII first character), then the set. */
function holdsKey(ks: KeySet, k: string): boolean {
  const n = k.length < MAX_FILTERED_LENGTH ? k.length : MAX_FILTERED_LENGTH;
  if (ks.lengths[n] === 0) return false;
  const c = k.charCodeAt(0);
  return (c >= 128 || ks.firstCharLength[c * (MAX_FILTERED_LENGTH + 1) + n] === 1) && ks.keys.has(k);
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

// CONVERSATION_ID_KEYS, one name a load site (see the file's first comment).
const CONVERSATION_KEY_COUNT = 7;
const [C0, C1, C2, C3, C4, C5, C6] = CONVERSATION_ID_KEYS as readonly string[];

function probeConversationKeys(a: Readonly<Record<string, unknown>>): boolean {
  return a[C0!] !== undefined || a[C1!] !== undefined || a[C2!] !== undefined || a[C3!] !== undefined || a[C4!] !== undefined || a[C5!] !== undefined || a[C6!] !== undefined;
}

const CONVERSATION_KEYS: KeySet = keySet(CONVERSATION_ID_KEYS);

function walkConversationKeys(a: Readonly<Record<string, unknown>>): boolean {
  return hasAnyKey(a, CONVERSATION_KEYS);
}

/**
 * True when the attributes may hold a conversation id: some key of CONVERSATION_ID_KEYS has a
 * value (the caller reads which, and whether it is a usable id). Probes each key when the list
 * has the 7 keys the probe was written for, else (a key added or removed) walks the attributes.
 */
export const hasConversationKey: (attributes: Readonly<Record<string, unknown>>) => boolean =
  CONVERSATION_ID_KEYS.length === CONVERSATION_KEY_COUNT ? probeConversationKeys : walkConversationKeys;

/** Whether hasConversationKey probes (true) or walks: pinned by a test, so a changed key list is noticed. */
export const CONVERSATION_KEYS_PROBED = CONVERSATION_ID_KEYS.length === CONVERSATION_KEY_COUNT;

/** A log record that may carry LLM content: GenAI event names, or the structured content attributes. */
export function looksLikeGenAiLog(eventName: string | undefined, attributes: Readonly<Record<string, unknown>> | undefined): boolean {
  if (eventName !== undefined && eventName.startsWith('gen_ai.')) return true;
  if (!attributes) return false;
  const n = attributes['event.name'];
  if (typeof n === 'string' && n.startsWith('gen_ai.')) return true;
  return attributes['gen_ai.input.messages'] !== undefined || attributes['gen_ai.output.messages'] !== undefined;
}
