// The quality corpus's case script: one small agent conversation (turns, tool calls, answers), the
// declarations that arm the checks, and a careful reviewer's expected findings. Plain data only;
// the shape writers (shape-*.ts) turn it into OTLP JSON in a real recorded layout. Never encodes
// what the checks do today: expectations come from the rules.

/** The recorded layouts a case can be written in (each one a real fixture used as template). */
export type Shape = 'traceloop' | 'vercel' | 'otel-logs';

export const CHECK_IDS = [
  'dangling-reference',
  'unsupported-argument',
  'empty-lookup',
  'result-columns',
  'unsupported-value',
  'prior-turn-evidence',
  'unsupported-claim',
  'refusal-asserts-absence',
  'argument-schema',
  'repeated-call',
  'count-mismatch',
  'status-contradiction',
  'unconfirmed-action',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** One finding a reviewer wants (or accepts): fields left out match anything. */
export interface Expectation {
  check: CheckId;
  /** Finding kind when it differs from the check id (result-columns: missing-column, column-type-mismatch). */
  kind?: string;
  tool?: string;
  /** Compared case-insensitively with the finding's value or predicate. */
  value?: string;
  advisory?: boolean;
}

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  /** A string is the tool's raw result text; anything else is served as its JSON. */
  result: unknown;
  /** The tool span failed (status ERROR, an exception event). */
  error?: { type: string; message: string };
}

/** One LLM request that answered with tool calls. */
export interface Step {
  calls: ToolCall[];
}

export interface Turn {
  user: string;
  steps: Step[];
  /** The final answer of the turn (the last request's text). */
  answer: string;
  /** The tools offered in this turn's requests, when not all of the case's `tools`. */
  tools?: string[];
}

export interface ToolDefinition {
  description: string;
  parameters: Record<string, unknown>;
}

export interface CaseSpec {
  name: string;
  shape: Shape;
  check: CheckId;
  /** The case class (one README line each). */
  class: string;
  kind: 'defect' | 'clean';
  note: string;
  expect: Expectation[];
  acceptable?: Expectation[];
  system: string;
  /** The tools offered to the model in every request (the definitions it sees). */
  tools: Record<string, ToolDefinition>;
  /** Written as declarations.yaml, verbatim. */
  declarations: Record<string, unknown>;
  /**
   * What the app keeps between turns: only its final answers, the user/assistant dialogue
   * (default), or the whole history with tool calls and results.
   */
  memory?: 'answers-only' | 'dialogue' | 'full';
  turns: Turn[];
}
