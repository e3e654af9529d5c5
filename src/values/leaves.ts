// The leaves of a served text: every string and number leaf of a JSON text with the name of the
// property holding it (an absence envelope's `looked_for`, which echoes the model's own query,
// skipped), or the text itself when it is not JSON. Pure: no I/O, no clocks.

/**
 * Every string and number leaf of a JSON text (not its keys; an absence envelope's `looked_for`
 * skipped), with the name of the property that holds it (none for array items and plain text),
 * or the text itself when it is not JSON. Stops when `visit` returns false.
 */
export function textLeaves(text: string, visit: (leaf: string | number, key?: string) => boolean): void {
  const t = text.trimStart();
  let value: unknown;
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      value = JSON.parse(t) as unknown;
    } catch {
      value = undefined;
    }
  }
  if (value === undefined) {
    visit(text);
    return;
  }
  const stack: { v: unknown; key?: string }[] = [{ v: value }];
  while (stack.length > 0) {
    const { v, key } = stack.pop()!;
    if (typeof v === 'string') {
      if (!visit(v, key)) return;
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      if (!visit(v, key)) return;
    } else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i] });
    else if (v !== null && typeof v === 'object') {
      // Absence envelopes echo the model's own query in looked_for: never a ground.
      const obj = v as Record<string, unknown>;
      const entries = Object.entries(obj);
      // Pushed last-first, so leaves are visited in document order.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (obj['af_absent'] === true && k === 'looked_for') continue;
        stack.push({ v: child, key: k });
      }
    }
  }
}
