// The one entry point of "Explain this answer": a trace's record in, an account per turn (turns.ts
// splits a trace that holds several) and one shown map out. Pure and deterministic (same record, same bytes); never throws over bad telemetry: a
// record with nothing readable gives an account whose rows say "not recorded".

import { gatherFacts } from './facts.js';
import { composeAccount } from './account.js';
import { showTurnLeaves } from './shown.js';
import { splitTurns } from './turns.js';
import type { ExplainOptions, ExplainRecord } from './record.js';
import type { Explanation } from './types.js';

export type { ExplainOptions, ExplainRecord, SensitiveValues } from './record.js';
export type { Explanation } from './types.js';

export function explainTrace(record: ExplainRecord, options: ExplainOptions = {}): Explanation {
  const facts = gatherFacts(record, options);
  const turns = splitTurns(facts).map((t) => ({ facts: t.facts, account: composeAccount(t.facts, t) }));
  return { traceId: facts.traceId, tenant: facts.tenant, turns: turns.map((t) => t.account), shown: showTurnLeaves(turns) };
}
