// The account of one turn ("Explain this answer") as plain data: typed sentence parts with their
// sources, the voucher of each sentence, pointers into the trace, the rows in their fixed order,
// and the "show me" leaves. Types only; src/explain/account.ts builds it. Must never hold HTML:
// parts are data, renderers escape them.

/** Who a fact comes from. Order of trust: person > library > tool > model > app. */
export type Source = 'person' | 'library' | `tool:${string}` | 'model' | 'app';

/** A place in the trace: a span, and an RFC 6901 path into its record view (see record.ts). */
export interface Pointer {
  traceId: string;
  spanId: string;
  /** RFC 6901 path into `{name, status, attributes, events, logs}`; '' is the span itself; `#rows` a derived count. */
  path: string;
}

export type Part =
  | { text: string }
  | { code: string; source: Source }
  | { quote: string; source: Source }
  | { label: string; source: Source };

export interface TemplateRef {
  id: string;
  version: number;
}

export type SentenceStatus = 'recorded' | 'not-recorded' | 'not-applicable';

export interface Sentence {
  text: string;
  parts: Part[];
  template: TemplateRef;
  /** The weakest truth-deciding source of the sentence (its template's and its vars'). */
  source: Source;
  status: SentenceStatus;
  pointers: Pointer[];
}

export type RowName = 'you-asked' | 'it-answered' | 'likely-wrong' | 'how-sure' | 'it-checked' | 'it-found' | 'it-did-not-check' | 'could-not-run';

export interface AccountRow {
  row: RowName;
  title: string;
  sentences: Sentence[];
}

export type Tone = 'ok' | 'warn' | 'bad' | 'unknown';

/**
 * The turn's verdict, one statement: `bad` with a finding that is not advisory, `warn` with only
 * advisories or an answer that cannot be confirmed, `ok` when checks ran and found nothing, else
 * `unknown`. The sentence is the plain one on top of the page: the head (the reply, quoted) and,
 * when something is wrong, the main finding's plain sentence.
 */
export interface Verdict {
  tone: Tone;
  /** The badge: "Probably wrong", "Worth a look", "Not confirmed", "No problem found", "Not checked". */
  label: string;
  head: Sentence;
  reason?: Sentence;
}

/** A witness as the finding event wrote it (values quoted or redacted). */
export interface WitnessView {
  subject: string;
  stratum: string;
  value: string;
  provenance: string;
}

/** One message of an LLM request's window, as the page lists it (content only through the shown map). */
export interface WindowMessage {
  index: number;
  role: string;
  /** served (system, user, tool result) or written (the model's own text or calls). */
  stratum: 'served' | 'written';
  toolName?: string;
  callId?: string;
  /** Where its content is (the shown map decides whether it is seen). */
  pointer?: Pointer;
  /** Marks of the turn's findings' values in this message. */
  marks: ValueMark[];
}

export interface ValueMark {
  findingId: string;
  /** The value as the finding event wrote it (quoted, hashed or omitted). */
  value: string;
  mark: 'chosen' | 'written' | 'served' | 'last-served' | 'absent';
  /** For last-served: the earlier span's section. */
  backtrack?: Pointer;
}

export interface WindowView {
  spanId: string;
  traceId: string;
  /** 1-based order of the request within the account's record. */
  request: number;
  model?: string;
  content: 'captured' | 'not-captured';
  messages: WindowMessage[];
  /** Tool calls the model chose in this request. */
  chosen: { toolName: string; callId?: string; pointer?: Pointer; marks: ValueMark[] }[];
  /** Whether this request belongs to the explained turn (else an earlier turn of the conversation). */
  inTurn: boolean;
  /** Values of the turn's findings absent from every served string of this window. */
  absent: ValueMark[];
}

export interface LedgerView {
  spanId: string;
  toolName: string;
  callId?: string;
  outcome: string;
  emptiness: string;
  rows?: number;
  coverage?: { checked: string[]; notChecked: string[]; cannotCover: string[] };
  pointer: Pointer;
}

export interface FindingView {
  id: string;
  kind: string;
  seam: string;
  spanId: string;
  value?: string;
  advisory: boolean;
  message: string;
  predicate?: string;
  grounding?: string;
  toolName?: string;
  callId?: string;
  witnesses: WitnessView[];
  /** The finding in plain words (kinds.ts), for the list of what is likely wrong. */
  plain: Sentence;
  pointer: Pointer;
}

export interface DispositionView {
  summary: string;
  checks: { check: string; seam: string; checked: number; findings: number; notApplicable: number; unreachable: number; reasons: string[] }[];
  pointer: Pointer;
}

export interface Account {
  traceId: string;
  tenant: string;
  /** The agent's name (its invoke_agent span), when recorded. */
  turn?: string;
  /** 1-based position of this turn among the trace's turns, and how many the trace holds. */
  turnIndex: number;
  turnCount: number;
  /** When the turn's first request started (Unix ns, as a decimal string; '' when unknown): pages order turns by it. */
  startedAt: string;
  templateSet: number;
  /** Where the person's message of this turn is (shown through the shown map). */
  asked?: Pointer;
  /** Where the final answer is (shown through the shown map). */
  answer?: Pointer;
  rows: AccountRow[];
  verdict: Verdict;
  windows: WindowView[];
  ledger: LedgerView[];
  findings: FindingView[];
  disposition?: DispositionView;
}

export type Withheld = 'not-shown-here' | 'not-found' | 'too-large' | 'foreign';

export type ShownLeaf = { value: string | number | boolean | null } | { rows: number; at: string } | { withheld: Withheld };

export type ShownMap = Record<string, ShownLeaf>;

/** One trace explained: an account per turn (a trace may hold several), in the order they happened. */
export interface Explanation {
  traceId: string;
  tenant: string;
  turns: Account[];
  shown: ShownMap;
}
