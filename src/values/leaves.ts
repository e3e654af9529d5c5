// The leaves of a served text: every string and number leaf of a JSON text or a YAML dump
// (structured.ts) with the name of the property holding it (an absence envelope's `looked_for`,
// which echoes the model's own query, skipped), or the text itself when it is neither. Pure: no
// I/O, no clocks.

import { readStructured } from './structured.js';

/**
 * Every string and number leaf of a JSON text or YAML dump (not its keys; an absence envelope's `looked_for`
 * skipped), with the name of the property that holds it (none for array items and plain text),
 * or the text itself when it is not JSON. Stops when `visit` returns false.
 */
export function textLeaves(text: string, visit: (leaf: string | number, key?: string) => boolean): void {
  const value = readStructured(text)?.value;
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
