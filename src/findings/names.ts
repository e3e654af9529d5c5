// The wire contract's names: every event and attribute footprint-otel writes, and every
// `footprint.*` attribute it reads from app spans. This module is their only home; nothing else
// spells them out.

export const EVENT_FINDING = 'footprint.finding';
export const EVENT_DISPOSITION = 'footprint.disposition';
export const EVENT_ANSWER_STANDING = 'footprint.answer.standing';

export const ATTR_FINDING_KIND = 'footprint.finding.kind';
export const ATTR_FINDING_SEAM = 'footprint.finding.seam';
export const ATTR_FINDING_MESSAGE = 'footprint.finding.message';
export const ATTR_FINDING_ID = 'footprint.finding.id';
export const ATTR_FINDING_PREDICATE = 'footprint.finding.predicate';
export const ATTR_FINDING_VALUE = 'footprint.finding.value';
export const ATTR_FINDING_WITNESSES = 'footprint.finding.witnesses';
export const ATTR_FINDING_GROUNDING = 'footprint.finding.grounding';
/**
 * Argument-grounding values of `footprint.finding.grounding` (unsupported-argument, empty-lookup),
 * beside `assistant-only` and `nowhere`: a proper part of a served token; a value joined from
 * served tokens (a pass, never written); a date computed from a served anchor (advisory); a value
 * only a tool other than the declared producers served (advisory).
 */
export const GROUNDING_ASSISTANT_ONLY = 'assistant-only';
export const GROUNDING_NOWHERE = 'nowhere';
export const GROUNDING_FRAGMENT = 'fragment';
export const GROUNDING_COMPOSED = 'composed';
export const GROUNDING_DERIVED = 'derived';
export const GROUNDING_WRONG_PRODUCER = 'wrong-producer';
export const ATTR_FINDING_ADVISORY = 'footprint.finding.advisory';
/** How the check that filed a finding was armed: `declared` (an author said so) or `inferred` (the trace showed it). */
export const ATTR_FINDING_ARMED_BY = 'footprint.finding.armed_by';
/** For an inferred arming, the evidence it came from (`its name has the read verb 'get'`). */
export const ATTR_FINDING_ARMED_EVIDENCE = 'footprint.finding.armed_evidence';
export const ATTR_TOOL_NAME = 'footprint.tool.name';
export const ATTR_TOOL_CALL_ID = 'footprint.tool.call.id';

/** Span attribute: how many findings this span carries, so a plain tag search finds it. */
export const ATTR_FINDINGS_COUNT = 'footprint.findings.count';

/** Disposition event attributes. */
export const ATTR_DISPOSITION_CHECKS = 'footprint.disposition.checks';
export const ATTR_DISPOSITION_SUMMARY = 'footprint.disposition.summary';
export const ATTR_DISPOSITION_UNREACHABLE = 'footprint.disposition.unreachable';
export const ATTR_DISPOSITION_FINDINGS = 'footprint.disposition.findings';
/** The checks armed by inference (what the trace shows) beyond the declarations, comma-separated; absent when none. */
export const ATTR_DISPOSITION_INFERRED = 'footprint.disposition.inferred';
/** The turn's ledger rows read from execute_tool spans (written when the turn has any row). */
export const ATTR_DISPOSITION_LEDGER_SPANS = 'footprint.disposition.ledger.spans';
/** The turn's ledger rows read from the request windows: calls no execute_tool span recorded. */
export const ATTR_DISPOSITION_LEDGER_WINDOWS = 'footprint.disposition.ledger.windows';

/** Carrier spans: written when a finding's subject span has already left. */
export const CARRIER_SPAN_NAME = 'footprint.findings';
export const ATTR_CARRIER_SUBJECT_SPAN_ID = 'footprint.subject.span_id';

/** Declarations carried on app spans by footprint's helpers. */
export const ATTR_DECL_ARGUMENTS_FROM = 'footprint.tool.arguments_from';
export const ATTR_DECL_READ_ONLY = 'footprint.tool.read_only';
/** JSON array of `{value, source}`: values the app verified itself. */
export const ATTR_EXTERNAL_GROUNDS = 'footprint.external_grounds';

/** Instrumentation scope footprint-otel writes carrier spans and logs under. */
export const SCOPE_NAME = 'footprint-otel';

/** Event on a chat span: a chosen value passed only because the app asserted it (external ground). */
export const EVENT_EXTERNAL_GROUND_USED = 'footprint.external_ground_used';
export const ATTR_EXTERNAL_GROUND_SOURCE = 'footprint.external_ground.source';

/**
 * Event on the answering chat span: an answer value that passed as a derivation of served values
 * (a sum, a unit conversion, a served date shifted by the user's "the next day" …), with the steps.
 * Carries ATTR_FINDING_KIND (the check), ATTR_FINDING_PREDICATE, ATTR_FINDING_VALUE, ATTR_FINDING_GROUNDING
 * (`derived`) and ATTR_DERIVATION.
 */
export const EVENT_VALUE_DERIVED = 'footprint.value.derived';
/** The derivation's steps and where each served operand came from. */
export const ATTR_DERIVATION = 'footprint.derivation';

/** Instrumentation scope of the spans footprint's app helpers (src/trace) write. */
export const TRACE_HELPERS_SCOPE = 'footprint-otel/trace';

/** Answer-standing event attributes (the event is EVENT_ANSWER_STANDING, on the final chat span). */
export const ATTR_ANSWER_STANDING = 'footprint.answer.standing';
/** The standing's reasons (a string array attribute), in their fixed order. */
export const ATTR_ANSWER_REASONS = 'footprint.answer.reasons';
/** The statement: one clause per read of the turn, what was searched and every gap. */
export const ATTR_ANSWER_STATEMENT = 'footprint.answer.statement';

/** On each finding event, when the service has a public base URL: the finding's "Explain this answer" page. */
export const ATTR_EXPLAIN_URL = 'footprint.explain.url';
/** Beside it, with auth on: the signed link token alone ([0-9A-Za-z._-]), for UIs that URI-encode what they insert (Jaeger). */
export const ATTR_EXPLAIN_LINK = 'footprint.explain.link';

/**
 * Disposition attribute (issue 14): set when the turn's conversation state could not be read from
 * the shared state store in time (or at all), so the turn was judged with only what this instance
 * held. Its value is STATE_UNAVAILABLE.
 */
export const ATTR_DISPOSITION_STATE = 'footprint.disposition.state';
export const STATE_UNAVAILABLE = 'conversation state unavailable';
/**
 * On the disposition and the answer standing of a turn judged without conversation state it
 * should have had (issue 31): why, one of the STATE_INCOMPLETE_* sentences. Set with a shared state
 * store only; a turn that carries it may have been judged on a partial history.
 */
export const ATTR_STATE_INCOMPLETE = 'footprint.state.incomplete';
/** Another instance was analysing an earlier turn of the conversation at the same time (its write had not landed). */
export const STATE_INCOMPLETE_CONCURRENT = 'an earlier turn of this conversation was being analysed on another instance';
/** A lease older than its bound: the instance analysing an earlier turn stopped, or never reached the store, before writing. */
export const STATE_INCOMPLETE_LOST = "an earlier turn's state was never stored (the instance analysing it stopped or could not reach the store)";
/** The stored value was of another type, undecodable, of another conversation or malformed: judged without it, and it was replaced. */
export const STATE_INCOMPLETE_UNREADABLE = 'the stored conversation state was unreadable (replaced)';
/** The store was unreachable moments ago: writes other instances owe may not have landed yet. */
export const STATE_INCOMPLETE_RECOVERING = 'the state store was unreachable moments ago; other instances may not have written their turns yet';
/** The conversation's stored history has a known gap (one of the above happened to an earlier turn). */
export const STATE_INCOMPLETE_EARLIER = 'an earlier turn of this conversation lost part of its state';

// In-process worker mode (FootprintSpanProcessor `analysis: 'worker'`): an agent span that went on
// without being analysed carries this attribute, saying why; it has no finding or disposition events.
export const ATTR_ANALYSIS_SKIPPED = 'footprint.analysis.skipped';
export const ANALYSIS_SKIPPED_QUEUE_FULL = 'not analysed: analysis queue full';
export const ANALYSIS_SKIPPED_WORKER_FAILED = 'not analysed: analysis worker failed';
export const ANALYSIS_SKIPPED_TIMED_OUT = 'not analysed: analysis timed out at flush';

// ---- GenAI semantic conventions: the evaluation result (issue 30) ----
// `gen_ai.evaluation.result` (semconv-genai, Development): one per finding on the span it
// evaluates, and (evaluationEvents `all`) one per check per turn that ran clean or could not run,
// on the turn's span. Written as span events, and by `serve` also as log records with explicit
// trace and span ids. The `footprint.*` events above stay the detailed form.
export const EVENT_EVALUATION_RESULT = 'gen_ai.evaluation.result';
/** Required: `footprint.<check>` (EVALUATION_NAME_PREFIX + the registered check's id). */
export const ATTR_EVALUATION_NAME = 'gen_ai.evaluation.name';
/** Low-cardinality label: one of the EVALUATION_LABEL_* values below. */
export const ATTR_EVALUATION_SCORE_LABEL = 'gen_ai.evaluation.score.label';
/** Free-form explanation: the finding's sentence (redacted and bounded like its event's message). */
export const ATTR_EVALUATION_EXPLANATION = 'gen_ai.evaluation.explanation';
/** The evaluated completion's id, copied from the evaluated span when it carries one. */
export const ATTR_GEN_AI_RESPONSE_ID = 'gen_ai.response.id';
/** Why a check could not run (with label `not_run`): one of the EVALUATION_ERROR_* values. */
export const ATTR_ERROR_TYPE = 'error.type';
/** The log record's event name attribute, for backends that read the older form. */
export const ATTR_EVENT_NAME = 'event.name';
export const EVALUATION_NAME_PREFIX = 'footprint.';
export const EVALUATION_LABEL_FAIL = 'fail';
export const EVALUATION_LABEL_ADVISORY = 'advisory';
export const EVALUATION_LABEL_PASS = 'pass';
export const EVALUATION_LABEL_NOT_RUN = 'not_run';
/** error.type of a `not_run`: the unreachable reason's code; `_OTHER` (the convention's fallback) for any other reason. */
export const EVALUATION_ERROR_CONTENT_NOT_CAPTURED = 'content_not_captured';
export const EVALUATION_ERROR_RESULT_NOT_CAPTURED = 'result_not_captured';
export const EVALUATION_ERROR_NO_LLM_SPANS = 'no_llm_spans';
export const EVALUATION_ERROR_TOOL_DEFINITIONS_NOT_RECORDED = 'tool_definitions_not_recorded';
export const EVALUATION_ERROR_STATE_INCOMPLETE = 'state_incomplete';
export const EVALUATION_ERROR_OTHER = '_OTHER';
