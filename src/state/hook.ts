// What the service pipeline needs of the shared conversation-state store: a bounded read before
// the core analyses a batch, and a bounded write (plus disposition marks) after. StateSync
// (src/state/sync.ts) implements it. Must never throw at the pipeline.

import type { ProcessInput, ProcessResult } from '../runs/options.js';
import type { BatchStateHold } from './sync.js';

export interface StateHook {
  before(input: ProcessInput): Promise<BatchStateHold>;
  after(hold: BatchStateHold, input: ProcessInput, result: ProcessResult): Promise<void>;
}
