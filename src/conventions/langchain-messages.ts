// Reads messages as LangChain.js serialises them (`{lc: 1, type: "constructor", id: [...,
// "SystemMessage" | "HumanMessage" | "AIMessage" | "ToolMessage"], kwargs: {content, tool_calls,
// tool_call_id, status}}`), which `@arizeai/openinference-instrumentation-langchain` records whole
// in `input.value` (`{messages: [[...]]}`) / `output.value` (`{generations: [[{message}]]}`) of LLM
// spans and `output.value` (`{output: ToolMessage}`) of TOOL spans. The flattened OpenInference
// keys of those spans drop every tool-call id; these bodies keep them, so the model's calls join
// their executions. Validated with zod, bounded by the caller's message bound; must never throw,
// never read a message class it does not know (skipped), and never guess an id.

import { z } from 'zod';
import type { Message, Part, Role, ToolCall } from '../model/agent.js';

const LcToolCall = z.looseObject({ name: z.string(), args: z.unknown().optional(), id: z.string().optional().nullable() });
const LcKwargs = z.looseObject({
  content: z.union([z.string(), z.array(z.unknown())]).optional().nullable(),
  tool_calls: z.array(z.unknown()).optional().nullable(),
  tool_call_id: z.string().optional().nullable(),
  name: z.string().optional().nullable(),
  status: z.string().optional().nullable(),
  id: z.string().optional().nullable(),
});
const LcMessage = z.looseObject({ lc: z.number(), type: z.literal('constructor'), id: z.array(z.string()).min(1), kwargs: LcKwargs });
const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });

/** LangChain message classes and the role each is (chunks read as their message). */
const ROLE_OF: Readonly<Record<string, Role>> = {
  SystemMessage: 'system',
  HumanMessage: 'user',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  ToolMessage: 'tool',
};

/** The LLM span's `input.value`: `{messages: [[message, ...]]}` (one list per prompt). */
export const LcLlmInputJson = z.looseObject({ messages: z.array(z.array(z.unknown())).min(1) });
/** The LLM span's `output.value`: `{generations: [[{text, message}]]}`. */
export const LcLlmOutputJson = z.looseObject({ generations: z.array(z.array(z.looseObject({ text: z.string().optional(), message: z.unknown().optional() }))).min(1) });
/** The TOOL span's `output.value`: `{output: ToolMessage}`. */
export const LcToolOutputJson = z.looseObject({ output: z.unknown() });

interface Read {
  role: Role;
  texts: string[];
  toolCalls: ToolCall[];
  toolCallId?: string;
  name?: string;
  status?: string;
  /** The message's own id (an AIMessage's is the provider's response id). */
  id?: string;
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return content === '' ? [] : [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const b of content) {
    const t = TextBlock.safeParse(b);
    if (t.success && t.data.text !== '') out.push(t.data.text);
  }
  return out;
}

/** One serialised message, or undefined when it is not one (or of a class not read). */
export function readLcMessage(raw: unknown): Read | undefined {
  const m = LcMessage.safeParse(raw);
  if (!m.success) return undefined;
  const role = ROLE_OF[m.data.id[m.data.id.length - 1]!];
  if (!role) return undefined;
  const k = m.data.kwargs;
  const toolCalls: ToolCall[] = [];
  for (const tc of k.tool_calls ?? []) {
    const c = LcToolCall.safeParse(tc);
    if (c.success) toolCalls.push({ ...(c.data.id ? { id: c.data.id } : {}), name: c.data.name, arguments: c.data.args });
  }
  return {
    role,
    texts: textsOf(k.content),
    toolCalls,
    ...(k.tool_call_id ? { toolCallId: k.tool_call_id } : {}),
    ...(k.name ? { name: k.name } : {}),
    ...(k.status ? { status: k.status } : {}),
    ...(k.id ? { id: k.id } : {}),
  };
}

function toMessage(r: Read): Message {
  const parts: Part[] = [];
  if (r.role === 'tool') {
    parts.push({ type: 'tool-result', ...(r.toolCallId ? { id: r.toolCallId } : {}), ...(r.name ? { name: r.name } : {}), result: r.texts.join('\n') });
  } else {
    for (const text of r.texts) parts.push({ type: 'text', text });
    for (const c of r.toolCalls) parts.push({ type: 'tool-call', ...(c.id ? { id: c.id } : {}), name: c.name, arguments: c.arguments });
  }
  return { role: r.role, parts };
}

export interface LcWindow {
  messages: Message[];
  /** Serialised messages that were not read (unknown class or shape). */
  skipped: number;
  clipped: number;
}

/** The window of the first prompt of an LLM span's input (LangChain sends one per call). */
export function lcWindowOf(input: z.infer<typeof LcLlmInputJson>, bound: number): LcWindow {
  const messages: Message[] = [];
  let skipped = 0;
  let clipped = 0;
  for (const raw of input.messages[0]!) {
    if (messages.length >= bound) {
      clipped++;
      continue;
    }
    const r = readLcMessage(raw);
    if (r) messages.push(toMessage(r));
    else skipped++;
  }
  return { messages, skipped, clipped };
}

/** The first generation's answer: its text and its tool calls (with their ids). */
export function lcOutputOf(output: z.infer<typeof LcLlmOutputJson>): { texts: string[]; toolCalls: ToolCall[]; id?: string } | undefined {
  const gen = output.generations[0]?.[0];
  if (!gen) return undefined;
  const r = readLcMessage(gen.message);
  if (r) return { texts: r.texts, toolCalls: r.toolCalls, ...(r.id ? { id: r.id } : {}) };
  return gen.text !== undefined ? { texts: textsOf(gen.text), toolCalls: [] } : undefined;
}

/** A TOOL span's ToolMessage: the call id, what the model was shown, and whether LangChain marked it an error. */
export function lcToolOutputOf(output: z.infer<typeof LcToolOutputJson>): { callId?: string; result: string; error: boolean } | undefined {
  const r = readLcMessage(output.output);
  if (!r || r.role !== 'tool') return undefined;
  return { ...(r.toolCallId ? { callId: r.toolCallId } : {}), result: r.texts.join('\n'), error: r.status === 'error' };
}
