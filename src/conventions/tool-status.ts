// A tool execution as every convention reports it: the span's identity and times, and how it
// ended, read the same way for all: error when the span's status is ERROR (or it carries
// `error.type`), with the first message the span recorded (status message, an `exception`
// event's message, or the error type). Never guesses "ok" from silence.

import type { ConventionId, SpanToolDeclaration, ToolExecution, ToolStatus } from '../model/agent.js';
import { refOf, type SpanData } from '../model/telemetry.js';
import { ERROR_TYPE } from './keys-genai.js';

export const EXCEPTION_EVENT = 'exception';
export const EXCEPTION_MESSAGE = 'exception.message';

function nonBlank(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function exceptionMessage(span: SpanData): string | undefined {
  for (const e of span.events) {
    if (e.name !== EXCEPTION_EVENT) continue;
    const m = nonBlank(e.attributes[EXCEPTION_MESSAGE]);
    if (m) return m;
  }
  return undefined;
}

export function toolStatusOf(span: SpanData): { status: ToolStatus; errorMessage?: string } {
  const errorType = nonBlank(span.attributes[ERROR_TYPE]);
  if (span.status.code === 2 || errorType !== undefined) {
    const message = nonBlank(span.status.message) ?? exceptionMessage(span) ?? errorType;
    return { status: 'error', ...(message !== undefined ? { errorMessage: message } : {}) };
  }
  return { status: span.status.code === 1 ? 'ok' : 'unset' };
}

export interface ToolExecutionFields {
  toolName: string;
  callId?: string | undefined;
  conversationId?: string | undefined;
  /** undefined = not captured. */
  arguments: unknown;
  /** undefined = not captured. */
  result: unknown;
  declared?: SpanToolDeclaration | undefined;
}

/** The model event of one tool execution span, read by `convention`. */
export function toolExecutionOf(span: SpanData, tenant: string, convention: ConventionId, f: ToolExecutionFields): ToolExecution {
  return {
    kind: 'tool-execution',
    span: refOf(span),
    convention,
    tenant,
    ...(f.conversationId ? { conversationId: f.conversationId } : {}),
    ...(f.callId ? { callId: f.callId } : {}),
    toolName: f.toolName,
    arguments: f.arguments,
    result: f.result,
    ...toolStatusOf(span),
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    ...(f.declared ? { declared: f.declared } : {}),
  };
}
