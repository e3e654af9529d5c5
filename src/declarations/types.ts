// Declarations: what a tool's author says about it (declared, never inferred). A check examines a
// tool only when something is declared about it. Plain data; validation lives in schema.ts.

export type ColumnType = 'number' | 'string' | 'boolean' | 'date';

export interface ColumnDeclaration {
  type: ColumnType;
  nullable?: boolean;
}

export interface ClaimDeclaration {
  entity: string;
  field: string;
  /** Compare strings exactly (case and surrounding blanks count); by default they are trimmed and case-folded. */
  exact?: boolean;
}

/**
 * How a tool says a call was refused or found nothing, when its results fit none of the shapes
 * the reader knows (error envelopes, HTTP-style codes, `ok: false`, "403 Forbidden" text).
 */
export interface ErrorShapeDeclaration {
  /** Dotted path of the field that says how the call ended; omitted = the result is text, read by its start. */
  field?: string;
  /** Values of that field (or text prefixes) that mean refused or failed. Compared trimmed, case-insensitively. */
  refused?: (string | number)[];
  /** Values of that field (or text prefixes) that mean the tool looked and the thing is not there. */
  notFound?: (string | number)[];
  /** Dotted path of the field holding the error's words, quoted in findings. */
  message?: string;
}

export interface ToolDeclaration {
  /** Its arguments must come from these tools' results. Arms unsupported-argument, dangling-reference, empty-lookup. */
  argumentsFrom?: string[];
  /**
   * The named form (`argumentsFrom: { machine_id: [list_machines] }`): argument name (or dot-path
   * under `args`) -> its producers. Only these arguments are judged; `argumentsFrom` then holds the
   * union of their producers, so whole-tool readers keep working.
   */
  argumentSources?: Record<string, string[]>;
  readOnly?: boolean;
  /**
   * Its data moves on its own (a balance, a queue, a parcel's scan): an answer that restates an
   * earlier turn's result of it without reading again is a place to look (prior-turn-evidence).
   */
  volatile?: boolean;
  /** The tool's input JSON Schema; its `enum` values are served vocabulary. */
  inputSchema?: unknown;
  /** Declared result columns, checked over every row of an array-of-objects result. */
  resultColumns?: Record<string, ColumnDeclaration>;
  /** Where an object result's rows are: a key, a dotted path (`data.items`) or a JSON pointer (`/data/items`). */
  rowsAt?: string;
  /** How its results say refused or not found, when no known shape does. */
  errorShape?: ErrorShapeDeclaration;
}

export interface AnswerDeclaration {
  /**
   * Every data token (ids, numbers of 4+ digits) of the final answer must come from a tool result
   * the answering request held. Arms unsupported-value and prior-turn-evidence.
   */
  checkValues?: boolean;
}

export interface Declarations {
  tools: Record<string, ToolDeclaration>;
  /** Answer field path -> the settled fact it claims (a structured-output answer). Arms unsupported-claim. */
  claims?: Record<string, ClaimDeclaration>;
  answers?: AnswerDeclaration;
  /**
   * false: arm checks only by what is declared here (agentfootprint's "declared, never inferred").
   * Default true: what the trace itself shows (a tool's name, description, MCP annotations) arms
   * checks too, always below a declaration and always said (`armedBy: inferred`).
   */
  inference?: boolean;
  /**
   * Per check, how its findings ship, over its tier (docs/checks.md#tiers): `on` (reported as the
   * check files them: turns an opt-in check on, a tiered-advisory one back to findings), `advisory`
   * (every finding marked advisory), `off` (not reported; the disposition says so).
   */
  checks?: Record<string, CheckSetting>;
}

/** A user's setting of one check (Declarations.checks). */
export type CheckSetting = 'on' | 'advisory' | 'off';

export const NO_DECLARATIONS: Declarations = Object.freeze({ tools: {} }) as Declarations;
