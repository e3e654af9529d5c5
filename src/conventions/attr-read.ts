// Small readers shared by the convention modules: a span-scoped diagnostic, attribute values as
// strings or ids, and JSON that the convention says is JSON (parsed through the one bounded
// reader, the raw string kept when it is not). Never throws.

import type { DiagnosticLevel } from '../model/diagnostics.js';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import type { ReadContext } from './types.js';
import { ANY_VALUE, readJsonAttribute } from './json-attribute.js';

export function reportSpan(span: SpanData, ctx: ReadContext, level: DiagnosticLevel, code: string, what: string): void {
  ctx.diagnostics.report({ level, code, message: `span "${span.name.slice(0, 80)}" ${what}`, traceId: span.traceId, spanId: span.spanId });
}

export function str(v: AttrValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** An id: a non-empty string, or a finite number written as one. */
export function idString(v: AttrValue | undefined): string | undefined {
  if (typeof v === 'string') return v !== '' ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** A value the instrumentation wrote as JSON text: parsed when valid; the raw value (and a diagnostic) otherwise. */
export function parseJsonOrRaw(raw: AttrValue, span: SpanData, ctx: ReadContext, key: string): unknown {
  if (typeof raw !== 'string') return raw;
  const parsed = readJsonAttribute(raw, ANY_VALUE, { limits: ctx.limits, diagnostics: ctx.diagnostics, span, key });
  return parsed === undefined ? raw : parsed;
}
