// Every string in any `enum` array anywhere in a tool's input JSON Schema, lower-cased, as one
// flat set (not per field): declared vocabulary counts as served. Walks to a fixed depth.
// Pure: no I/O, no clocks, no globals.

const MAX_SCHEMA_DEPTH = 8;

export function schemaEnumValues(schemas: readonly unknown[]): Set<string> {
  const out = new Set<string>();
  const stack: [unknown, number][] = schemas.map((s) => [s, 0]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object' || depth > MAX_SCHEMA_DEPTH) continue;
    if (Array.isArray(node)) {
      for (const x of node) stack.push([x, depth + 1]);
      continue;
    }
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (k === 'enum' && Array.isArray(v)) {
        for (const e of v) if (typeof e === 'string') out.add(e.toLowerCase());
      } else if (v !== null && typeof v === 'object') {
        stack.push([v, depth + 1]);
      }
    }
  }
  return out;
}
