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

// In-process worker mode (FootprintSpanProcessor `analysis: 'worker'`): an agent span that went on
// without being analysed carries this attribute, saying why; it has no finding or disposition events.
export const ATTR_ANALYSIS_SKIPPED = 'footprint.analysis.skipped';
export const ANALYSIS_SKIPPED_QUEUE_FULL = 'not analysed: analysis queue full';
export const ANALYSIS_SKIPPED_WORKER_FAILED = 'not analysed: analysis worker failed';
export const ANALYSIS_SKIPPED_TIMED_OUT = 'not analysed: analysis timed out at flush';
