// Names only the service uses: HTTP paths, environment variables, Prometheus metric names and the
// gen_ai.evaluation.result log record's keys. Wire-contract names (span events and attributes)
// live in src/findings/names.ts, never here. Must never hold logic: constants only.

export const PATH_TRACES = '/v1/traces';
export const PATH_LOGS = '/v1/logs';
export const PATH_HEALTHZ = '/healthz';
export const PATH_READYZ = '/readyz';
export const PATH_METRICS = '/metrics';
export const PATH_FINDINGS = '/api/findings';

export const CONTENT_TYPE_PROTOBUF = 'application/x-protobuf';
export const CONTENT_TYPE_JSON = 'application/json';

/** Environment variables read by the service (besides the standard OTEL_EXPORTER_OTLP_* ones). */
export const ENV_AUTH_TOKEN = 'FOOTPRINT_AUTH_TOKEN';
export const ENV_AUTH_TOKEN_FILE = 'FOOTPRINT_AUTH_TOKEN_FILE';
export const ENV_LISTEN = 'FOOTPRINT_LISTEN';
export const ENV_GRPC_LISTEN = 'FOOTPRINT_GRPC_LISTEN';
export const ENV_DECLARATIONS = 'FOOTPRINT_DECLARATIONS';
export const ENV_REDACTION = 'FOOTPRINT_REDACTION';

export const OTEL_ENDPOINT = 'OTEL_EXPORTER_OTLP_ENDPOINT';
export const OTEL_TRACES_ENDPOINT = 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
export const OTEL_LOGS_ENDPOINT = 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT';
export const OTEL_HEADERS = 'OTEL_EXPORTER_OTLP_HEADERS';
export const OTEL_TRACES_HEADERS = 'OTEL_EXPORTER_OTLP_TRACES_HEADERS';
export const OTEL_LOGS_HEADERS = 'OTEL_EXPORTER_OTLP_LOGS_HEADERS';
export const OTEL_PROTOCOL = 'OTEL_EXPORTER_OTLP_PROTOCOL';
export const OTEL_TRACES_PROTOCOL = 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
export const OTEL_COMPRESSION = 'OTEL_EXPORTER_OTLP_COMPRESSION';
export const OTEL_TIMEOUT = 'OTEL_EXPORTER_OTLP_TIMEOUT';

/** Prometheus metrics (prom-client appends nothing; counters end in _total by convention). */
export const METRIC_PREFIX = 'footprint_';
export const M_SPANS_RECEIVED = 'footprint_spans_received_total';
export const M_SPANS_FORWARDED = 'footprint_spans_forwarded_total';
export const M_SPANS_REJECTED = 'footprint_spans_rejected_total';
export const M_SPANS_UNANALYSED = 'footprint_spans_unanalysed_total';
export const M_CARRIER_SPANS = 'footprint_carrier_spans_total';
export const M_LOGS_RECEIVED = 'footprint_log_records_received_total';
export const M_LOGS_FORWARDED = 'footprint_log_records_forwarded_total';
export const M_LOGS_REJECTED = 'footprint_log_records_rejected_total';
export const M_BATCHES = 'footprint_batches_total';
export const M_EXPORT_FAILURES = 'footprint_export_failures_total';
export const M_EXPORT_RETRIES = 'footprint_export_retries_total';
export const M_RETRY_RESPONSES = 'footprint_retry_responses_total';
export const M_FINDINGS = 'footprint_findings_total';
export const M_EVALUATIONS = 'footprint_evaluation_records_total';
export const M_CONVERSATIONS = 'footprint_conversations';
export const M_STATE_BYTES = 'footprint_state_bytes';
export const M_EVICTED = 'footprint_conversations_evicted';
export const M_QUEUE = 'footprint_batches_in_flight';
export const M_REQUEST_SECONDS = 'footprint_request_duration_seconds';
export const M_VALUES_NORMALISED = 'footprint_values_normalised_total';

/** GenAI semantic conventions: the evaluation result event, one log record per finding. */
export const EVAL_EVENT_NAME = 'gen_ai.evaluation.result';
export const EVAL_ATTR_NAME = 'gen_ai.evaluation.name';
export const EVAL_ATTR_SCORE_LABEL = 'gen_ai.evaluation.score.label';
export const EVAL_ATTR_EXPLANATION = 'gen_ai.evaluation.explanation';

/** "Explain this answer": the JSON and the page of one trace (the trace id follows), and the public base URL. */
export const PATH_EXPLAIN_API = '/api/explain/';
export const PATH_EXPLAIN_PAGE = '/explain/';
export const ENV_PUBLIC_URL = 'FOOTPRINT_PUBLIC_URL';
/** Signed explain links and browser sessions (src/explain/link.ts): the path, sign-in, cookie and secret. */
export const PATH_EXPLAIN_LINK = '/explain/link/';
export const PATH_EXPLAIN_LOGIN = '/explain/login';
export const EXPLAIN_COOKIE = 'footprint_explain';
export const ENV_LINK_SECRET = 'FOOTPRINT_LINK_SECRET';
// Issue 10 (connections, admission, downstream configuration).
export const M_DOWNSTREAM_MISCONFIGURED = 'footprint_downstream_misconfigured_total';
export const M_CONNECTIONS_OPEN = 'footprint_connections_open';
export const M_CONNECTIONS_CLOSED = 'footprint_connections_closed_total';
/** "1"/"true": refuse to start without a token (the container image sets it). */
export const ENV_AUTH_REQUIRED = 'FOOTPRINT_AUTH_REQUIRED';

// ---- Shared conversation-state store (issue 14) ----
export const ENV_STATE = 'FOOTPRINT_STATE';
export const M_STATE_STORE_OPS = 'footprint_state_store_operations_total';
export const M_STATE_STORE_SECONDS = 'footprint_state_store_duration_seconds';
export const M_STATE_UNAVAILABLE = 'footprint_state_unavailable_turns_total';
export const M_STATE_STORE_UP = 'footprint_state_store_up';
