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
import { MORE_VALUE_CASES } from './values-more.js';
import { REFUSAL_ATTRIBUTION_CASES } from './refusal-asserts-absence-attribution.js';
import { MORE_ARGUMENT_CASES } from './arguments-more.js';
import { DISPLAY_VALUE_CASES } from './values-display.js';
import { DISPLAY_ARGUMENT_CASES } from './arguments-display.js';
import { REFUSAL_ARRIVAL_CASES } from './refusal-asserts-absence-arrival.js';
import { HOLDOUT_OFFER_ARGUMENT_CASES } from './holdout-offer-and-arguments.js';
import { HOLDOUT_LEDGER_CASES } from './holdout-ledger.js';
import { HOLDOUT_VALUE_CASES } from './holdout-values.js';
import { HOLDOUT_CLAIM_REFUSAL_CASES } from './holdout-claims-refusals.js';
import { HOLDOUT2_OFFER_ARGUMENT_CASES } from './holdout2-offer-arguments.js';
import { HOLDOUT2_LEDGER_CASES } from './holdout2-ledger.js';
import { HOLDOUT2_VALUE_CASES } from './holdout2-values.js';
import { HOLDOUT2_CLAIM_REFUSAL_CASES } from './holdout2-claims-refusals.js';
import { TYPED_VALUE_CASES } from './values-typed.js';
import { REAL_PATTERN_CASES } from './real-patterns.js';
import { ARGUMENT_SCHEMA_CASES } from './argument-schema.js';
import { REPEATED_CALL_CASES } from './repeated-call.js';
import { COUNT_MISMATCH_CASES } from './count-mismatch.js';
import { STATUS_CONTRADICTION_CASES } from './status-contradiction.js';
import { UNCONFIRMED_ACTION_CASES } from './unconfirmed-action.js';
import { UNKNOWN_READING_CASES } from './unknown-readings.js';
import { VALUES_AS_WRITTEN_CASES } from './values-as-written.js';

export const ALL_CASES: CaseSpec[] = [
  ...DANGLING_CASES,
  ...ARGUMENT_CASES,
  ...EMPTY_LOOKUP_CASES,
  ...COLUMN_CASES,
  ...VALUE_CASES,
  ...PRIOR_TURN_CASES,
  ...CLAIM_CASES,
  ...REFUSAL_CASES,
  ...MORE_VALUE_CASES,
  ...REFUSAL_ATTRIBUTION_CASES,
  ...MORE_ARGUMENT_CASES,
  ...DISPLAY_VALUE_CASES,
  ...DISPLAY_ARGUMENT_CASES,
  ...REFUSAL_ARRIVAL_CASES,
  // Typed grounding (issue 26): re-formatted, localised and derived values, each beside a defect.
  ...TYPED_VALUE_CASES,
  // Held-out cases (written blind, after the checks were fixed; docs/quality.md "Held-out cases").
  ...HOLDOUT_OFFER_ARGUMENT_CASES,
  ...HOLDOUT_LEDGER_CASES,
  ...HOLDOUT_VALUE_CASES,
  ...HOLDOUT_CLAIM_REFUSAL_CASES,
  // The second held-out set (written blind on 2026-12-03, after every check was at P 1 R 1 on 181 cases).
  ...HOLDOUT2_OFFER_ARGUMENT_CASES,
  ...HOLDOUT2_LEDGER_CASES,
  ...HOLDOUT2_VALUE_CASES,
  ...HOLDOUT2_CLAIM_REFUSAL_CASES,
  // Patterns read on real agent runs (test/real-traces), written for a domain of their own.
  ...REAL_PATTERN_CASES,
  // The behaviour checks of issue 28 (failed writes told as done, miscounts, contradicted states, invalid calls, loops).
  ...ARGUMENT_SCHEMA_CASES,
  ...REPEATED_CALL_CASES,
  ...COUNT_MISMATCH_CASES,
  ...STATUS_CONTRADICTION_CASES,
  ...UNCONFIRMED_ACTION_CASES,
  // Values as users write them (issue 35): times at any precision, ranges, ratings, durations.
  ...VALUES_AS_WRITTEN_CASES,
  // Issue 35: an unknown reading may suppress a finding, never raise one (each clean case beside a defect).
  ...UNKNOWN_READING_CASES,
];
