// The `error.type` of a `not_run` evaluation: a low-cardinality code for each unreachable reason
// the checks give (their sentences stay in the explanation). Any reason not listed is `_OTHER`, the
// convention's fallback, so a new reason can never make the attribute high-cardinality.
// Data and one lookup only.

import { CONTENT_NOT_CAPTURED, NO_LLM_SPANS, RESULT_NOT_CAPTURED, STATE_INCOMPLETE } from '../checks/catalog.js';
import { TOOL_DEFINITIONS_NOT_RECORDED } from '../checks/dangling-reference.js';
import * as N from '../findings/names.js';

const CODES: ReadonlyMap<string, string> = new Map([
  [CONTENT_NOT_CAPTURED, N.EVALUATION_ERROR_CONTENT_NOT_CAPTURED],
  [RESULT_NOT_CAPTURED, N.EVALUATION_ERROR_RESULT_NOT_CAPTURED],
  [NO_LLM_SPANS, N.EVALUATION_ERROR_NO_LLM_SPANS],
  [TOOL_DEFINITIONS_NOT_RECORDED, N.EVALUATION_ERROR_TOOL_DEFINITIONS_NOT_RECORDED],
  [STATE_INCOMPLETE, N.EVALUATION_ERROR_STATE_INCOMPLETE],
]);

export function evaluationErrorType(reason: string): string {
  return CODES.get(reason) ?? N.EVALUATION_ERROR_OTHER;
}
