// Reads a request's input window (a JSON messages attribute) reusing what the previous request of
// the same conversation already read: when the raw JSON starts with that window's raw JSON (up to
// its closing `]`) followed by a comma, only the new suffix is parsed and normalised (issue 11).
// Must give exactly what readMessagesAttribute gives, diagnostics included: any mismatch (edited or
// truncated history, another conversation's window, a bound crossed) falls back to the full read,
// and only windows read with no diagnostic at all are remembered. The memo keeps a window's
// messages only when it is the first or extended the one before (the memo's rule).

import type { Message } from '../model/agent.js';
import type { AttrValue } from '../model/telemetry.js';
import type { Diagnostic, DiagnosticSink } from '../model/diagnostics.js';
import type { PriorWindow, WindowMemo } from './types.js';
import { depthOf } from './json-attribute.js';
import { normaliseMessages, readMessagesAttribute, type GenAiScope } from './genai-parts.js';

const COMMA = 0x2c;

/** Passes every diagnostic on, counting them. */
class CountingSink implements DiagnosticSink {
  count = 0;
  constructor(private readonly to: DiagnosticSink) {}
  report(d: Diagnostic): void {
    this.count++;
    this.to.report(d);
  }
}

/** True when `value` is `prior` (a raw window up to its closing `]`) followed by a comma and more. */
function extendsBody(value: string, prior: string): boolean {
  const n = prior.length;
  if (value.length <= n + 1 || value.charCodeAt(n) !== COMMA) return false;
  // A flat compare (memcmp), not startsWith (a character loop in V8).
  return value.slice(0, n) === prior;
}

/** The window's messages, from the prior window's messages plus the parsed suffix (`value` extends its body); undefined when they cannot be reused. */
function extendPrior(value: string, key: string, scope: GenAiScope, memo: WindowMemo, prior: PriorWindow): Message[] | undefined {
  const { limits } = scope;
  if (!prior.messages || value.length > limits.maxJsonAttributeBytes) return undefined;
  const n = prior.body.length;
  let parsed: unknown;
  try {
    // `[A` was a complete run of items, so `[A,B]` is valid exactly when `[B]` is.
    parsed = JSON.parse(`[${value.slice(n + 1)}`);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  // Both bounds judged on the whole window: past either, the full read reports it.
  if (prior.messages.length + parsed.length > limits.maxMessagesPerRequest) return undefined;
  if (depthOf(parsed, limits.maxJsonDepth) > limits.maxJsonDepth) return undefined;
  const sink = new CountingSink(scope.diagnostics);
  const added = normaliseMessages(parsed, key, { ...scope, diagnostics: sink });
  const messages = prior.messages.concat(added);
  // The prior window had no diagnostic, so the suffix's are the whole window's, in the same order.
  if (sink.count === 0 && added.length === parsed.length) memo.remember({ body: value.slice(0, value.lastIndexOf(']')), messages }, true);
  return messages;
}

/** readMessagesAttribute for a request's input window, with the conversation's memo when there is one. */
export function readWindowAttribute(value: AttrValue | undefined, key: string, scope: GenAiScope, memo: WindowMemo | undefined): Message[] | undefined {
  if (memo === undefined || typeof value !== 'string') return readMessagesAttribute(value, key, scope);
  const prior = memo.prior();
  const extendsPrior = prior !== undefined && extendsBody(value, prior.body);
  const reused = extendsPrior && extendPrior(value, key, scope, memo, prior);
  if (reused) return reused;
  const sink = new CountingSink(scope.diagnostics);
  const messages = readMessagesAttribute(value, key, { ...scope, diagnostics: sink });
  if (messages !== undefined && messages.length > 0 && sink.count === 0) {
    const end = value.lastIndexOf(']');
    // Only a window whose items all became messages (none skipped, so a count check holds).
    if (end > 0) memo.remember({ body: value.slice(0, end), messages }, extendsPrior);
  }
  return messages;
}
