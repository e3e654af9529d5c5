// Reads an Anthropic Messages request body (`{system, messages:[{role, content: string | blocks}]}`,
// as `@arizeai/openinference-instrumentation-anthropic` records it whole in `input.value`) into the
// model's window: the top-level `system` as a system message, `text` blocks as text, `tool_use`
// blocks as tool calls, and every `tool_result` block (which Anthropic sends inside a *user*
// message) as a tool result of its own. The flattened OpenInference keys lose the system prompt
// and all but the last tool_result of a message; this body does not. Bounded by the caller's
// message bound; validated with zod; must never throw, never guess a block it does not know (an
// image or document block is skipped, not read as text).

import { z } from 'zod';
import type { Message, Part } from '../model/agent.js';

const Block = z.looseObject({ type: z.string() });
const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const ToolUseBlock = z.looseObject({ type: z.literal('tool_use'), id: z.string().optional(), name: z.string(), input: z.unknown().optional() });
// `is_error` is not read here: the window has no place for it; how a call ended is read from its
// execute_tool span (status ERROR) and from what the result's own text says (runs/refusal-reading.ts).
const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().optional(),
  content: z.union([z.string(), z.array(z.unknown())]).optional().nullable(),
  is_error: z.boolean().optional(),
});
const MessageJson = z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(z.unknown())]) });

/** The body's shape: a Messages request, told apart from Chat Completions by content blocks or a top-level system. */
export const AnthropicRequestJson = z.looseObject({
  model: z.string().optional(),
  system: z.union([z.string(), z.array(z.unknown())]).optional().nullable(),
  messages: z.array(z.unknown()),
});
export type AnthropicRequest = z.infer<typeof AnthropicRequestJson>;

function blockTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const b of content) {
    const t = TextBlock.safeParse(b);
    if (t.success) out.push(t.data.text);
  }
  return out;
}

/** A tool_result's content as the model was shown it: the string, or its text blocks joined. */
function resultOf(content: unknown): string | undefined {
  if (content === undefined || content === null) return undefined;
  if (typeof content === 'string') return content;
  const texts = blockTexts(content);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

export interface AnthropicWindow {
  messages: Message[];
  /** Messages past the bound, not read. */
  clipped: number;
}

/** The window of one Messages request body; the caller has validated it with AnthropicRequestJson. */
export function anthropicWindowOf(body: AnthropicRequest, bound: number): AnthropicWindow {
  const messages: Message[] = [];
  const system = blockTexts(body.system ?? undefined);
  if (system.length > 0) messages.push({ role: 'system', parts: system.map((text) => ({ type: 'text', text })) });
  let clipped = 0;
  for (const raw of body.messages) {
    if (messages.length >= bound) {
      clipped++;
      continue;
    }
    const m = MessageJson.safeParse(raw);
    if (!m.success) continue;
    if (typeof m.data.content === 'string') {
      messages.push({ role: m.data.role, parts: [{ type: 'text', text: m.data.content }] });
      continue;
    }
    const parts: Part[] = [];
    const results: Message[] = [];
    for (const b of m.data.content) {
      if (!Block.safeParse(b).success) continue;
      const text = TextBlock.safeParse(b);
      if (text.success) {
        parts.push({ type: 'text', text: text.data.text });
        continue;
      }
      const use = ToolUseBlock.safeParse(b);
      if (use.success) {
        parts.push({ type: 'tool-call', ...(use.data.id ? { id: use.data.id } : {}), name: use.data.name, arguments: use.data.input });
        continue;
      }
      const res = ToolResultBlock.safeParse(b);
      if (res.success) {
        const result = resultOf(res.data.content);
        if (result !== undefined) results.push({ role: 'tool', parts: [{ type: 'tool-result', ...(res.data.tool_use_id ? { id: res.data.tool_use_id } : {}), result, ...(res.data.is_error === true ? { isError: true as const } : {}) }] });
      }
    }
    // A user message's tool_result blocks are tool results, one message each (as the wire had one
    // block each); any text beside them stays the user's.
    messages.push(...results);
    if (parts.length > 0) messages.push({ role: m.data.role, parts });
  }
  if (messages.length > bound) {
    clipped += messages.length - bound;
    messages.length = bound;
  }
  return { messages, clipped };
}
