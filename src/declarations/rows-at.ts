// Where a tool's rows are inside an object result (`rowsAt`): one key (`items`), a dotted path
// (`data.items`, `data.0.items`) or a JSON pointer (RFC 6901: `/data/items`, `~1` for "/", `~0`
// for "~"). Parses the declaration and walks a parsed result to the list. Pure: no I/O, never
// throws, never reads inherited properties.

/** The steps of a `rowsAt` declaration, or undefined when it is not a usable path (a blank step). */
export function rowsAtSteps(rowsAt: string): string[] | undefined {
  const steps = rowsAt.startsWith('/') ? rowsAt.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')) : rowsAt.split('.');
  return steps.length > 0 && steps.every((s) => s.trim() !== '') ? steps : undefined;
}

function own(o: unknown, key: string): unknown {
  if (Array.isArray(o)) return /^\d+$/.test(key) ? o[Number(key)] : undefined;
  if (o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, key)) return (o as Record<string, unknown>)[key];
  return undefined;
}

/**
 * The value at `rowsAt` in an object result, or undefined when a step is missing. A top-level key
 * spelled exactly like the declaration (`"data.items"` as one key) wins over the path it reads as.
 */
export function valueAtRowsAt(result: Record<string, unknown>, rowsAt: string): unknown {
  const literal = own(result, rowsAt);
  if (literal !== undefined) return literal;
  const steps = rowsAtSteps(rowsAt);
  if (!steps) return undefined;
  let v: unknown = result;
  for (const step of steps) {
    v = own(v, step);
    if (v === undefined) return undefined;
  }
  return v;
}
