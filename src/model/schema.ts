// What validating a tool call's arguments against an input JSON Schema says: valid, the ways it
// breaks the schema, or that the schema itself could not be used (and why). Plain data only;
// src/runs/schema-validator.ts produces it, the `argument-schema` check reads it.

/** One way the arguments break the schema: where (a JSON pointer into the arguments) and what. */
export interface SchemaViolation {
  /** JSON pointer of the offending value in the arguments ('' for the arguments themselves). */
  path: string;
  /** The schema keyword that failed: `required`, `type`, `enum`, `additionalProperties`, … */
  keyword: string;
  /** The validator's message, e.g. "must have required property 'cabin'". */
  message: string;
  /** The keyword's parameters (the missing property, the allowed values, …). */
  params: Record<string, unknown>;
}

export type SchemaVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; violations: SchemaViolation[] }
  /** The schema itself could not be used; `firstSeen` is true the first time this schema is met while cached. */
  | { kind: 'bad-schema'; reason: string; firstSeen: boolean };
