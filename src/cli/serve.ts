// `footprint-otel serve`: hands over to the service's own entry point. Kept in its own module and
// loaded only for `serve`, so `check` never loads the service's dependencies (gRPC, prom-client).

import { runServe } from '../service/serve.js';

export async function runServeCommand(argv: string[]): Promise<number> {
  return runServe(argv);
}
