// `footprint-otel serve`: hands over to the service's own entry point, loading declarations the
// same way `check` does. Kept apart so `check` never loads the service's dependencies.

import { loadDeclarationsFile } from '../declarations/load.js';

export async function runServeCommand(argv: string[]): Promise<number> {
  let mod: { runServe?: (argv: string[], deps: { loadDeclarations: typeof loadDeclarationsFile }) => Promise<number> };
  try {
    const entry = '../service/serve.js';
    mod = (await import(entry)) as typeof mod;
  } catch (e) {
    process.stderr.write(`footprint-otel serve: the service is not available in this build (${(e as Error).message})\n`);
    return 2;
  }
  if (typeof mod.runServe !== 'function') {
    process.stderr.write('footprint-otel serve: the service is not available in this build\n');
    return 2;
  }
  return mod.runServe(argv, { loadDeclarations: loadDeclarationsFile });
}
