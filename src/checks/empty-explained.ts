// When an empty result explains itself, so `empty-lookup` has nothing to point at: the call carried
// an optional enum-valued filter from the tool's own schema (`statuses: ["failed"]` — "no failed
// jobs" is an answer, not a broken join), or the producer's record holding the looked-up value says
// beside it that there is nothing (`job_count: 0`). Both read only the call, its declared schema and
// the producer's own result; bounded walks. Must never decide that a result is empty, nor look
// anywhere else. Pure: no I/O, no clocks, no globals.

import { argumentLeaves } from './argument-leaves.js';

const MAX_SCHEMA_DEPTH = 8;
const MAX_RESULT_NODES = 10_000;
/** A numeric sibling whose name says it counts the related things: job_count, jobsCount, total_runs. */
const COUNT_KEY = /count|total/i;

type Schema = Record<string, unknown>;
const asSchema = (v: unknown): Schema | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Schema) : undefined);

/** The schema node of an argument path (`args.statuses.0`), and whether its top property is required. */
function schemaAt(root: unknown, path: string): { node: Schema; optional: boolean } | undefined {
  const parts = path.split('.').slice(1);
  let node = asSchema(root);
  let optional = false;
  for (let i = 0; i < parts.length && node; i++) {
    if (i >= MAX_SCHEMA_DEPTH) return undefined;
    const part = parts[i]!;
    const props = asSchema(node.properties);
    if (props && Object.hasOwn(props, part)) {
      const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
      if (i === 0) optional = !required.includes(part);
      node = asSchema(props[part]);
    } else if (/^\d+$/.test(part) && node.items !== undefined) {
      node = asSchema(node.items);
    } else {
      return undefined;
    }
  }
  return node ? { node, optional } : undefined;
}

/** True when an optional argument's value is one of its schema's enum values: a narrowing filter. */
export function enumFilterOf(args: unknown, schemas: readonly unknown[], maxLeaves: number): boolean {
  if (schemas.length === 0) return false;
  for (const leaf of argumentLeaves(args, maxLeaves).leaves) {
    if (typeof leaf.value !== 'string') continue;
    for (const schema of schemas) {
      const at = schemaAt(schema, leaf.path);
      if (at?.optional && Array.isArray(at.node.enum) && at.node.enum.includes(leaf.value)) return true;
    }
  }
  return false;
}

/**
 * True when the producer's result (JSON text) has a record holding `value` as a whole string field
 * and, beside it, a count field of 0: the producer itself said the lookup would find nothing.
 */
export function producerPredictedEmpty(resultText: string, value: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(resultText);
  } catch {
    return false;
  }
  const needle = value.toLowerCase();
  const stack: unknown[] = [parsed];
  let visited = 0;
  while (stack.length > 0 && visited < MAX_RESULT_NODES) {
    const node = stack.pop();
    visited++;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const x of node) stack.push(x);
      continue;
    }
    const entries = Object.entries(node as Record<string, unknown>);
    const holds = entries.some(([, v]) => typeof v === 'string' && v.toLowerCase() === needle);
    if (holds && entries.some(([k, v]) => v === 0 && COUNT_KEY.test(k))) return true;
    for (const [, v] of entries) if (v !== null && typeof v === 'object') stack.push(v);
  }
  return false;
}
