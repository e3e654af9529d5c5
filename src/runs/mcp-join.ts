// MCP tool calls (the `mcp-semconv` reader) carry no model call id. This joins one to the model's
// call the way the MCP convention says to: by parent/child and tool name. A tools/call span whose
// parent is the app's own tool span for the same tool (footprint's traceTool, a framework's
// execute_tool) describes the same call, so only one of the two is read: the one met first (the
// parent in a batch, where spans are taken by start time; the MCP child in-process, where it ends
// first). Otherwise the call is the latest request's first call to that tool not yet executed
// (its one argument, when both sides recorded it, must agree). Pure functions over the
// conversation's state; the core keeps the bounded per-trace record of MCP calls read.

import type { ToolExecution } from '../model/agent.js';
import type { ConversationState } from './conversations.js';

/** What the core remembers of an MCP call it read, to recognise its parent span arriving later. */
export interface McpCallSeen {
  spanId: string;
  parentSpanId?: string;
  toolName: string;
}

/** The call id of the model's call this MCP execution answers, or undefined when none fits. */
export function joinMcpCall(state: ConversationState, ex: ToolExecution): string | undefined {
  const executed = new Set<string>();
  for (const r of state.ledger) if (r.callId !== undefined) executed.add(r.callId);
  const args = ex.arguments;
  let best: string | undefined;
  let bestRequest = -1;
  for (const [id, c] of state.chosen) {
    if (c.toolName !== ex.toolName || executed.has(id) || c.request <= bestRequest) continue;
    const sole = c.soleArgument;
    if (sole && args !== null && typeof args === 'object' && !Array.isArray(args) && sole.key in args) {
      const v = (args as Record<string, unknown>)[sole.key];
      if (v !== sole.value && String(v) !== String(sole.value)) continue;
    }
    best = id;
    bestRequest = c.request;
  }
  return best;
}

/** True when `ex` (not MCP) is the parent of an MCP call to the same tool that was read already. */
export function isParentOfMcpCall(ex: ToolExecution, seen: readonly McpCallSeen[] | undefined): boolean {
  return seen?.some((m) => m.parentSpanId === ex.span.spanId && m.toolName === ex.toolName) === true;
}
