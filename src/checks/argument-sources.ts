// Which declared producers an argument leaf must come from. The whole-tool form
// (`argumentsFrom: [list_machines]`) judges every leaf against every listed producer; the named
// form (`argumentsFrom: { machine_id: [list_machines] }`) judges only the named arguments (and the
// leaves under them), each against its own producers, so a free-text `query` of the same tool is
// not judged. Pure: no I/O, no clocks, no globals.

import type { ToolDeclaration } from '../declarations/types.js';

/** The producers of the leaf at `path` (`args.machine_id`, `args.filters.0.id`), or undefined when it is not judged. */
export function producersOf(declaration: ToolDeclaration, path: string): readonly string[] | undefined {
  const named = declaration.argumentSources;
  if (named === undefined) return declaration.argumentsFrom;
  let best: string | undefined;
  for (const key of Object.keys(named)) {
    const at = `args.${key}`;
    if ((path === at || path.startsWith(`${at}.`)) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : named[best];
}

/** The producer list of an argument armed by inference: any served source grounds it (no producer is known). */
export const ANY_PRODUCER = '*';

/** The producers as a phrase for messages: their names, or "the tool that lists it" for an inferred arming. */
export function producersPhrase(producers: readonly string[], orList: (names: readonly string[]) => string): string {
  return producers.includes(ANY_PRODUCER) ? 'the tool that returns such values' : orList(producers);
}
