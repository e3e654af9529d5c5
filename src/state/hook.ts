// What the service pipeline needs of the shared conversation-state store: a bounded read before
// the core analyses a batch, and a bounded write (plus disposition marks) after, whose outcome
// decides whether the batch may be acknowledged. StateSync (src/state/sync.ts) implements it.
// Must never throw at the pipeline.

import type { ProcessInput, ProcessResult } from '../runs/options.js';
import type { BatchStateHold, StateSettle } from './sync.js';

export interface StateHook {
  before(input: ProcessInput): Promise<BatchStateHold>;
  /** Marks the result's dispositions synchronously, then resolves when the writes are settled for the answer. */
  after(hold: BatchStateHold, input: ProcessInput, result: ProcessResult): Promise<StateSettle>;
  /** A re-send of a batch answered 503 for its state: writes again. */
  retry(hold: BatchStateHold): Promise<StateSettle>;
}
