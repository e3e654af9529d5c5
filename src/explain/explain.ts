// The one entry point of "Explain this answer": a trace's record in, its account and shown map
// out. Pure and deterministic (same record, same bytes); never throws over bad telemetry: a
// record with nothing readable gives an account whose rows say "not recorded".

import { gatherFacts } from './facts.js';
import { composeAccount } from './account.js';
import { showLeaves } from './shown.js';
import type { ExplainOptions, ExplainRecord } from './record.js';
import type { Explanation } from './types.js';

export type { ExplainOptions, ExplainRecord } from './record.js';
export type { Explanation } from './types.js';

export function explainTrace(record: ExplainRecord, options: ExplainOptions = {}): Explanation {
  const facts = gatherFacts(record, options);
  const account = composeAccount(facts);
  return { account, shown: showLeaves(facts, account) };
}
