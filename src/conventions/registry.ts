// The ordered list of convention readers and the one entry point that reads a span with them.
// The first reader whose cheap `claims` test passes reads the span; a reader's bug becomes a
// diagnostic, never an exception that loses the batch.

import type { ModelEvent } from '../model/agent.js';
import type { LogData, SpanData } from '../model/telemetry.js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import type { Limits } from '../limits.js';
import type { Convention, WindowMemo } from './types.js';
import { openInference } from './openinference.js';
import { vercelAi } from './vercel-ai.js';
import { genAi } from './genai.js';
import { mcp } from './mcp.js';
import { traceloopLangChain } from './traceloop-langchain.js';
import { tenantOfResource } from '../model/tenant.js';
import { marksAgentSpan } from './agent-span-keys.js';

/**
 * Most specific first: OpenInference and AI SDK 4–6 spans may also carry a few gen_ai.* keys, an
 * MCP tools/call span may also say `gen_ai.operation.name` execute_tool, and OpenLLMetry
 * LangChain's tool spans do (their call is in the ToolMessage they carry, not in gen_ai.tool.*).
 */
export const CONVENTIONS: readonly Convention[] = [openInference, vercelAi, mcp, traceloopLangChain, genAi];

export interface ReadSpanOptions {
  limits: Limits;
  diagnostics: DiagnosticSink;
  /** Resource attribute naming the tenant; default `service.name`. */
  tenantAttribute: string;
  logs?: readonly LogData[];
  /** The core's memo of this span's conversation's last input window (issue 11). */
  windowMemo?: WindowMemo;
}

export function tenantOf(span: SpanData, tenantAttribute: string): string {
  return tenantOfResource(span.resource, tenantAttribute);
}

/** True when some reader claims the span: the O(1) early exit for ordinary spans. */
export function isAgentSpan(span: SpanData): boolean {
  // No marking key and no marking scope: no reader claims it (agent-span-keys.ts, the service's lazy decoder's test too).
  if (!marksAgentSpan(span.attributes, span.scope.name)) return false;
  for (const c of CONVENTIONS) if (c.claims(span)) return true;
  return false;
}

export function readSpan(span: SpanData, opts: ReadSpanOptions): ModelEvent[] {
  for (const c of CONVENTIONS) {
    if (!c.claims(span)) continue;
    try {
      return c.read(span, { tenant: tenantOf(span, opts.tenantAttribute), logs: opts.logs ?? [], limits: opts.limits, diagnostics: opts.diagnostics, ...(opts.windowMemo ? { windowMemo: opts.windowMemo } : {}) });
    } catch (e) {
      opts.diagnostics.report({
        level: 'error',
        code: 'convention.reader-failed',
        message: `the ${c.id} reader failed on span "${span.name.slice(0, 80)}" (${(e as Error)?.message ?? String(e)}); the span passes unread`,
        traceId: span.traceId,
        spanId: span.spanId,
      });
      return [];
    }
  }
  return [];
}
