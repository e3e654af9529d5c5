// Walks a tool call's arguments into leaves with dot-paths (`args.filters.0.id`), arrays indexed
// numerically. Iterative and bounded, so hostile arguments cannot overflow the stack or run away.
// Pure: no I/O, no clocks, no globals.

export interface ArgumentLeaf {
  path: string;
  value: unknown;
}

export interface LeafWalk {
  leaves: ArgumentLeaf[];
  /** True when the bound cut the walk short. */
  truncated: boolean;
}

export function argumentLeaves(args: unknown, maxLeaves: number, root = 'args'): LeafWalk {
  const leaves: ArgumentLeaf[] = [];
  const stack: [string, unknown][] = [[root, args]];
  while (stack.length > 0) {
    const [path, v] = stack.pop()!;
    if (v !== null && typeof v === 'object') {
      const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v as Record<string, unknown>);
      // Push in reverse so leaves come out in document order.
      for (let i = entries.length - 1; i >= 0; i--) stack.push([`${path}.${entries[i]![0]}`, entries[i]![1]]);
      continue;
    }
    if (leaves.length >= maxLeaves) return { leaves, truncated: true };
    leaves.push({ path, value: v });
  }
  return { leaves, truncated: false };
}
