// Bounded JSON reading of attribute values: a size cap before parsing, a depth cap after, and a
// zod schema for the shape. Structured AnyValues (already objects) pass through the same gate.
// Must never throw: a bad value returns undefined and reports one diagnostic.

import { z } from 'zod';
import type { AttrValue, SpanData } from '../model/telemetry.js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import type { Limits } from '../limits.js';

/**
 * The two shapes most reads ask for, built once. readJsonAttribute answers them without running
 * zod, with the same verdicts and values: z.unknown() accepts anything as it is, and
 * z.array(z.unknown()) accepts exactly an array and returns a shallow copy of it (a fresh parse
 * needs no copy: nothing else holds it). Issue 11: zod's per-element payloads and copy were ~60 KB
 * of garbage per 41 KB window; a value that fails still goes through zod, for its message.
 */
export const ANY_VALUE = z.unknown();
export const ANY_ARRAY = z.array(z.unknown());

export interface JsonReadOptions {
  limits: Limits;
  diagnostics: DiagnosticSink;
  span: SpanData;
  key: string;
}

/** Nesting depth of a parsed value, stopping as soon as it passes `max`. */
export function depthOf(v: unknown, max: number): number {
  // Iterative, so a hostile value cannot overflow the stack; two parallel stacks (values, depths)
  // and for-in over objects, so walking a parsed window allocates nothing per node.
  if (v === null || typeof v !== 'object') return 0;
  let deepest = 0;
  const values: unknown[] = [v];
  const depths: number[] = [0];
  while (values.length > 0) {
    const x = values.pop() as object;
    const d = depths.pop()!;
    if (d > deepest) {
      deepest = d;
      if (deepest > max) return deepest;
    }
    const c = d + 1;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const child: unknown = x[i];
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(c);
        } else if (c > deepest) {
          deepest = c;
          if (deepest > max) return deepest;
        }
      }
    } else {
      const o = x as Record<string, unknown>;
      for (const k in o) {
        if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
        const child = o[k];
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(c);
        } else if (c > deepest) {
          deepest = c;
          if (deepest > max) return deepest;
        }
      }
    }
  }
  return deepest;
}

/** Parses a JSON string (or takes a structured value) and validates it against `schema`. */
export function readJsonAttribute<T>(value: AttrValue | undefined, schema: z.ZodType<T>, opts: JsonReadOptions): T | undefined {
  if (value === undefined || value === null) return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    if (value.length > opts.limits.maxJsonAttributeBytes) {
      report(opts, 'attribute.too-large', `is ${value.length} characters, over the ${opts.limits.maxJsonAttributeBytes}-byte bound for JSON attributes; not read`);
      return undefined;
    }
    try {
      parsed = JSON.parse(value);
    } catch (e) {
      report(opts, 'attribute.json-invalid', `is not valid JSON (${(e as Error).message.slice(0, 120)}); not read`);
      return undefined;
    }
  }
  if (depthOf(parsed, opts.limits.maxJsonDepth) > opts.limits.maxJsonDepth) {
    report(opts, 'attribute.too-deep', `nests deeper than ${opts.limits.maxJsonDepth} levels; not read`);
    return undefined;
  }
  if ((schema as unknown) === ANY_VALUE) return parsed as T;
  if ((schema as unknown) === ANY_ARRAY && Array.isArray(parsed)) return (typeof value === 'string' ? parsed : parsed.slice()) as T;
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    report(opts, 'attribute.shape-invalid', `does not have the expected shape (${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'invalid'}); not read`);
    return undefined;
  }
  return result.data;
}

/** Parses a JSON string if it is one; returns the input unchanged otherwise (bounded, never throws). */
export function maybeParseJson(value: unknown, limits: Limits): unknown {
  if (typeof value !== 'string' || value.length > limits.maxJsonAttributeBytes) return value;
  const t = value.trimStart();
  if (!(t.startsWith('{') || t.startsWith('['))) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return depthOf(parsed, limits.maxJsonDepth) > limits.maxJsonDepth ? value : parsed;
  } catch {
    return value;
  }
}

function report(opts: JsonReadOptions, code: string, what: string): void {
  opts.diagnostics.report({
    level: 'warn',
    code,
    message: `span "${opts.span.name.slice(0, 80)}" attribute ${opts.key} ${what}`,
    traceId: opts.span.traceId,
    spanId: opts.span.spanId,
  });
}
