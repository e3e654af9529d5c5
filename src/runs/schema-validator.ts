// The JSON Schema validator `argument-schema` judges calls with: ajv (draft-07, and 2020-12 for a
// schema that says so) with ajv-formats, each distinct schema compiled once and kept in a bounded
// least-recently-used cache (SCHEMA_LIMITS). A schema that cannot be compiled (unknown draft,
// unresolvable $ref, malformed keyword, too large) is a verdict with the reason, reported once
// while cached, never a throw. Owns the only ajv instances; the check itself stays a pure function
// of the verdicts it is given. No I/O, no clocks.

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SCHEMA_LIMITS } from '../limits.js';
import type { SchemaVerdict, SchemaViolation } from '../model/schema.js';

export type { SchemaVerdict, SchemaViolation } from '../model/schema.js';

export interface SchemaValidator {
  validate(schema: unknown, value: unknown): SchemaVerdict;
  /** Schemas compiled (or refused) and kept now. */
  readonly size: number;
}

type Compiled = { ok: true; fn: ValidateFunction } | { ok: false; reason: string };

// ajv-formats is CommonJS with a `default` beside the function itself.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_2019 = /^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/;

function ajvOptions() {
  // strict off: schemas in the wild carry `examples`, vendor keywords and loose unions; they are
  // judged by the keywords ajv knows. No type coercion, no defaults written into the arguments.
  return { allErrors: true, strict: false, validateFormats: true, logger: false as const, coerceTypes: false, useDefaults: false, messages: true } as const;
}

/** Creates a validator whose cache holds at most `maxCompiled` schemas. */
export function createSchemaValidator(maxCompiled: number = SCHEMA_LIMITS.maxCompiledSchemas, maxSchemaBytes: number = SCHEMA_LIMITS.maxSchemaBytes): SchemaValidator {
  let draft07: Ajv | undefined;
  let draft2020: Ajv | undefined;
  const cache = new Map<string, Compiled>();
  // A declared schema is one object for every call: its key is computed once.
  const keys = new WeakMap<object, string>();

  const instanceFor = (schema: unknown): Ajv | string => {
    const declared = schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>)['$schema'] : undefined;
    if (typeof declared === 'string' && DRAFT_2019.test(declared)) return 'the schema declares draft 2019-09, which is not supported (draft-07 and 2020-12 are)';
    if (typeof declared === 'string' && DRAFT_2020.test(declared)) return (draft2020 ??= addFormats(new Ajv2020(ajvOptions()) as unknown as Ajv));
    return (draft07 ??= addFormats(new Ajv(ajvOptions())));
  };

  const compile = (key: string, schema: unknown): Compiled => {
    if (Buffer.byteLength(key, 'utf8') > maxSchemaBytes) return { ok: false, reason: `the schema is larger than ${maxSchemaBytes} bytes (SCHEMA_LIMITS.maxSchemaBytes)` };
    if (typeof schema === 'boolean') return { ok: true, fn: Object.assign(() => schema, { errors: null }) as unknown as ValidateFunction };
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return { ok: false, reason: 'the schema is not a JSON object' };
    const ajv = instanceFor(schema);
    if (typeof ajv === 'string') return { ok: false, reason: ajv };
    try {
      // $id is dropped: two tools may reuse one id for different schemas, and ajv keeps ids globally.
      const { $id: _id, ...rest } = schema as Record<string, unknown>;
      return { ok: true, fn: ajv.compile(rest) };
    } catch (e) {
      return { ok: false, reason: oneLine((e as Error)?.message ?? String(e)) };
    }
  };

  return {
    get size() {
      return cache.size;
    },
    validate(schema: unknown, value: unknown): SchemaVerdict {
      let key: string | undefined = schema !== null && typeof schema === 'object' ? keys.get(schema) : undefined;
      if (key === undefined) {
        try {
          key = JSON.stringify(schema) ?? 'undefined';
        } catch {
          return { kind: 'bad-schema', reason: 'the schema cannot be serialised (a cycle?)', firstSeen: false };
        }
        if (schema !== null && typeof schema === 'object') keys.set(schema, key);
      }
      let compiled = cache.get(key);
      let firstSeen = false;
      if (compiled) {
        cache.delete(key);
        cache.set(key, compiled);
      } else {
        compiled = compile(key, schema);
        firstSeen = true;
        cache.set(key, compiled);
        while (cache.size > maxCompiled) cache.delete(cache.keys().next().value!);
      }
      if (!compiled.ok) return { kind: 'bad-schema', reason: compiled.reason, firstSeen };
      let ok: boolean;
      try {
        ok = compiled.fn(value) === true;
      } catch (e) {
        // A compiled schema that throws on a value (a pathological pattern) judges nothing.
        return { kind: 'bad-schema', reason: `validation failed: ${oneLine((e as Error)?.message ?? String(e))}`, firstSeen: false };
      }
      if (ok) return { kind: 'valid' };
      return { kind: 'invalid', violations: (compiled.fn.errors ?? []).map(violationOf) };
    },
  };
}

function violationOf(e: ErrorObject): SchemaViolation {
  return { path: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword, params: { ...(e.params as Record<string, unknown>) } };
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}
