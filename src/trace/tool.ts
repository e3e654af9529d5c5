// App-side helpers, part 3: `traceTool`, one `execute_tool {name}` span around a tool's code, with
// its arguments and result as JSON strings and its declarations (`argumentsFrom`, `readOnly`) as
// `footprint.tool.*` attributes, so the processor needs no separate declarations file.
// Must never change the arguments or the result, and never swallow the tool's error.

import { context, SpanKind, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import {
  GEN_AI_OPERATION_NAME,
  GEN_AI_TOOL_CALL_ARGUMENTS,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_CALL_RESULT,
  GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_TYPE,
  OP_EXECUTE_TOOL,
} from '../conventions/keys-genai.js';
import { ATTR_DECL_ARGUMENTS_FROM, ATTR_DECL_READ_ONLY } from '../findings/names.js';
import { currentTurn, helperTracer, runInSpan, turnAttributes } from './turn.js';

export interface TraceToolOptions {
  /** The model's call id (`tool_calls[i].id`): how the processor pairs this execution with the choice. */
  callId?: string;
  /** Declaration: this tool's arguments must come from these tools' results. */
  argumentsFrom?: readonly string[];
  /** Declaration: the tool only reads. */
  readOnly?: boolean;
  /** false: record no arguments or result. Default true. */
  captureContent?: boolean;
  tracer?: Tracer;
}

/** A result as the model will be shown it: strings as they are, anything else as JSON. */
export function resultText(result: unknown): string | undefined {
  if (result === undefined) return undefined;
  if (typeof result === 'string') return result;
  try {
    return JSON.stringify(result);
  } catch {
    return String(result);
  }
}

function argumentsText(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  if (typeof args === 'string') return args; // already the model's JSON text
  try {
    return JSON.stringify(args);
  } catch {
    return undefined;
  }
}

/**
 * Runs one tool: `traceTool('backup_status', args, () => backupStatus(args), { callId, argumentsFrom: ['list_machines'] })`.
 * `args` may be the parsed object or the model's JSON text. Returns `fn`'s result unchanged.
 */
export function traceTool<T>(name: string, args: unknown, fn: (span: Span) => T | Promise<T>, opts: TraceToolOptions = {}): Promise<T> {
  const attributes: Attributes = {
    [GEN_AI_OPERATION_NAME]: OP_EXECUTE_TOOL,
    [GEN_AI_TOOL_NAME]: name,
    [GEN_AI_TOOL_TYPE]: 'function',
  };
  if (opts.callId !== undefined) attributes[GEN_AI_TOOL_CALL_ID] = opts.callId;
  if (opts.captureContent !== false) {
    const a = argumentsText(args);
    if (a !== undefined) attributes[GEN_AI_TOOL_CALL_ARGUMENTS] = a;
  }
  if (opts.argumentsFrom !== undefined && opts.argumentsFrom.length > 0) attributes[ATTR_DECL_ARGUMENTS_FROM] = [...opts.argumentsFrom];
  if (opts.readOnly !== undefined) attributes[ATTR_DECL_READ_ONLY] = opts.readOnly;
  turnAttributes(currentTurn(), attributes);
  const span = helperTracer(opts.tracer).startSpan(`${OP_EXECUTE_TOOL} ${name}`, { kind: SpanKind.INTERNAL, attributes });
  const ctx = trace.setSpan(context.active(), span);
  return runInSpan(span, ctx, fn, (s, r) => {
    if (opts.captureContent === false) return;
    const text = resultText(r);
    if (text !== undefined) s.setAttribute(GEN_AI_TOOL_CALL_RESULT, text);
  });
}
