// When an empty result explains itself, so `empty-lookup` has nothing to point at: the call carried
// an optional enum-valued filter from the tool's own schema (`statuses: ["failed"]` — "no failed
// jobs" is an answer, not a broken join), or the producer's record holding the looked-up value says
// beside it that there is nothing (`job_count: 0`). Both read only the call, its declared schema and
// the producer's own result; bounded walks. And a value the user typed whole is not a cut of a
// producer's longer token (`srv-db-04` asked for, `srv-db-04-replica` listed). Must never decide
// that a result is empty, nor look anywhere else. Pure: no I/O, no clocks, no globals.

import { argumentLeaves } from './argument-leaves.js';
import { propertySchema } from './argument-identity.js';
import { occurrence } from './argument-grounds.js';

const MAX_RESULT_NODES = 10_000;
/** A numeric sibling whose name says it counts the related things: job_count, jobsCount, total_runs. */
const COUNT_KEY = /count|total/i;

function isRequired(schema: unknown, name: string): boolean {
  const required = schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>)['required'] : undefined;
  return Array.isArray(required) && required.includes(name);
}

/** True when an optional argument's value is one of its schema's enum values: a narrowing filter. */
export function enumFilterOf(args: unknown, schemas: readonly unknown[], maxLeaves: number): boolean {
  if (schemas.length === 0) return false;
  for (const leaf of argumentLeaves(args, maxLeaves).leaves) {
    if (typeof leaf.value !== 'string') continue;
    const top = leaf.path.split('.')[1] ?? '';
    for (const schema of schemas) {
      const node = propertySchema(schema, leaf.path);
      if (node && Array.isArray(node['enum']) && node['enum'].includes(leaf.value) && !isRequired(schema, top)) return true;
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

/** True when some user message holds `value` as a whole token: the user typed it, nobody cut it. */
export function userTypedWhole(userTexts: readonly string[], value: string): boolean {
  const needle = value.toLowerCase();
  return userTexts.some((t) => occurrence(t.toLowerCase(), needle)?.whole === true);
}
