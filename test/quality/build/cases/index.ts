// Every case script of the quality corpus, in a stable order (by check, then as written).

import type { CaseSpec } from '../spec.js';
import { DANGLING_CASES } from './dangling-reference.js';
import { ARGUMENT_CASES } from './unsupported-argument.js';
import { EMPTY_LOOKUP_CASES } from './empty-lookup.js';
import { COLUMN_CASES } from './result-columns.js';
import { VALUE_CASES } from './unsupported-value.js';
import { PRIOR_TURN_CASES } from './prior-turn-evidence.js';
import { CLAIM_CASES } from './unsupported-claim.js';
import { REFUSAL_CASES } from './refusal-asserts-absence.js';

export const ALL_CASES: CaseSpec[] = [
  ...DANGLING_CASES,
  ...ARGUMENT_CASES,
  ...EMPTY_LOOKUP_CASES,
  ...COLUMN_CASES,
  ...VALUE_CASES,
  ...PRIOR_TURN_CASES,
  ...CLAIM_CASES,
  ...REFUSAL_CASES,
];
