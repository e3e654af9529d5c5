// The frame of one LLM request: what the run served it (system prompt, user messages, tool
// results, tool-schema text) versus what the model itself wrote earlier in that window (its text
// and tool-call arguments), plus app-asserted external grounds. Pure: built from the request alone.
// Must never count assistant text or tool-call arguments as served.

import type { LlmRequest, Message, ToolDefinition } from '../model/agent.js';
import type { Frame, ServedString, WrittenString } from '../model/frame.js';

export type { Frame, ServedSource, ServedString, WrittenSource, WrittenString } from '../model/frame.js';

/** The text of a tool result as the model read it: strings as they are, other values as JSON. */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  try {
    return JSON.stringify(result) ?? '';
  } catch {
    return String(result);
  }
}

function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined) return '';
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    return '';
  }
}

/**
 * The text of a part's arguments or result, once per part object: a conversation's requests share
 * the message objects of the history their windows repeat (src/conventions/genai-window.ts), so
 * the history is not re-serialised on every request. Parts are never mutated after reading
 * except for a tool result's name, which this text does not depend on.
 */
const partTexts = new WeakMap<object, string>();
function cachedText(part: object, value: unknown, text: (v: unknown) => string): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  let t = partTexts.get(part);
  if (t === undefined) {
    t = text(value);
    partTexts.set(part, t);
  }
  return t;
}

function servedFromMessage(m: Message, index: number, served: ServedString[], written: WrittenString[]): void {
  for (const part of m.parts) {
    if (part.type === 'text') {
      if (part.text === '') continue;
      if (m.role === 'system' || m.role === 'user') served.push({ source: m.role, message: index, text: part.text });
      else if (m.role === 'assistant') written.push({ source: 'assistant-text', message: index, text: part.text });
      else served.push({ source: 'tool-result', message: index, text: part.text });
    } else if (part.type === 'tool-call') {
      // Whoever the message claims to be from, a tool call is the model's own writing.
      written.push({ source: 'assistant-tool-call', message: index, text: cachedText(part, part.arguments, argumentsText), ...(part.id ? { callId: part.id } : {}) });
    } else {
      // A tool result is served by the run whatever role carries it (Responses puts it under `user`).
      served.push({
        source: 'tool-result',
        message: index,
        text: cachedText(part, part.result, resultText),
        ...(part.id ? { callId: part.id } : {}),
        ...(part.name ? { toolName: part.name } : {}),
      });
    }
  }
}

/** Tool-schema text served with the request: each tool's name and description. */
function schemaText(defs: readonly ToolDefinition[] | undefined): ServedString[] {
  if (!defs) return [];
  const out: ServedString[] = [];
  for (const d of defs) {
    const text = d.description ? `${d.name}: ${d.description}` : d.name;
    out.push({ source: 'tool-schema', message: -1, text, toolName: d.name });
  }
  return out;
}

/** Names a tool result carries no name of by the call with its id in the same window (for "which tool served it"). */
function nameResultsByCall(request: LlmRequest, served: ServedString[]): void {
  if (!served.some((s) => s.source === 'tool-result' && s.toolName === undefined && s.callId !== undefined)) return;
  const names = new Map<string, string>();
  for (const m of request.input) for (const p of m.parts) if (p.type === 'tool-call' && p.id && !names.has(p.id)) names.set(p.id, p.name);
  for (const s of served) {
    if (s.source !== 'tool-result' || s.toolName !== undefined || s.callId === undefined) continue;
    const name = names.get(s.callId);
    if (name) s.toolName = name;
  }
}

export function buildFrame(request: LlmRequest): Frame {
  const served: ServedString[] = [];
  const written: WrittenString[] = [];
  request.input.forEach((m, i) => servedFromMessage(m, i, served, written));
  nameResultsByCall(request, served);
  served.push(...schemaText(request.toolDefinitions));
  return {
    served,
    written,
    external: request.externalGrounds ?? [],
    ...(request.toolDefinitions ? { toolDefinitions: request.toolDefinitions } : {}),
  };
}
