// Check `unsupported-argument` (seam `choice`): a tool declared to take its arguments from other
// tools' results was called with a string value that nothing the run served in that request's
// window contains. Fences: non-strings and trimmed values under 4 characters are never checked;
// a case-insensitive substring of any served string passes; a declared enum value passes; an
// external ground passes but is recorded with its source. Detection only: nothing is blocked.
// Tally: `checked` counts argument leaves judged, `findings` the leaves that failed (<= checked).
// Pure function over plain data: no I/O, no clocks, no globals.

import { orList } from '../findings/phrases.js';
import type { ToolCall } from '../model/agent.js';
import type { CheckTally, Finding, Witness } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import type { ToolDeclaration } from '../declarations/types.js';
import type { Frame, ServedString } from '../model/frame.js';
import { argumentLeaves } from './argument-leaves.js';
import { schemaEnumValues } from './schema-enums.js';
import { quoteText } from '../findings/quote.js';
import { CONTENT_NOT_CAPTURED } from './catalog.js';

export const UNSUPPORTED_ARGUMENT = 'unsupported-argument';
/** Trimmed values shorter than this are never checked. */
export const MIN_CHECKED_LENGTH = 4;

/** A served string of an earlier request of the same conversation (for the "served earlier" witness). */
export interface EarlierServed extends ServedString {
  request: number;
}

export interface ChoiceCheckInput {
  /** The chat span that chose the calls. */
  span: SpanRef;
  toolCalls: readonly ToolCall[];
  frame: Frame;
  /** Declarations by tool name, already merged (file + span-carried). */
  declarationOf: (toolName: string) => ToolDeclaration | undefined;
  /** Served strings of earlier requests of this conversation that this window no longer holds. */
  earlierServed?: readonly EarlierServed[] | (() => readonly EarlierServed[]);
  /** True when calls and results were paired by name and order only. */
  idsMatchedByOrder?: boolean;
  /** False when the telemetry recorded no input messages: then nothing can be checked. */
  inputCaptured: boolean;
  maxArgumentLeaves: number;
  quotedValueChars: number;
}

export interface ExternalGroundUse {
  toolName: string;
  toolCallId?: string;
  path: string;
  value: string;
  source: string;
}

export interface ChoiceCheckOutcome {
  findings: Finding[];
  tally: CheckTally;
  externalGroundsUsed: ExternalGroundUse[];
}

export type Grounding = 'non-string' | 'short' | 'served' | 'enum' | 'external' | 'assistant-only' | 'nowhere';

const NOTHING_BLOCKED = 'Nothing here blocked the call.';

function emptyTally(): CheckTally {
  return { check: UNSUPPORTED_ARGUMENT, seam: 'choice', checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {} };
}


function describeServed(s: ServedString): string {
  if (s.source === 'tool-result') return `tool result${s.toolName ? ` of ${s.toolName}` : ''}${s.callId ? ` (call ${s.callId})` : ''}`;
  if (s.source === 'tool-schema') return `tool schema${s.toolName ? ` of ${s.toolName}` : ''}`;
  return s.source === 'system' ? 'system prompt' : 'user message';
}

/**
 * A string's lower case, without the copy when it has none to change: a string with no upper-case
 * ASCII letter and no non-ASCII character is its own lower case (JSON tool results mostly are).
 */
const MAY_CHANGE_CASE = /[A-Z\u0080-\uffff]/;
export function lowerCase(text: string): string {
  return MAY_CHANGE_CASE.test(text) ? text.toLowerCase() : text;
}

/** Only ASCII: such a needle found verbatim in a served string is in the lower-cased haystack too. */
const NON_ASCII = /[^\u0000-\u007f]/;

/** One lower-cased haystack per request: each needle is one `includes` over the served text. */
function servedHaystack(served: readonly ServedString[]): string {
  return served.map((s) => lowerCase(s.text)).join('\u0000');
}

/** Splits served text into tokens; every token is a substring of the text, so a hit is a sound pass. */
const TOKEN_SEPARATORS = /[\s"'`{}[\],;()<>=\u0000]+/;

/**
 * Substring membership over the served text, indexed once per request: a needle that is a whole
 * token is answered from a set; only the rest scan the text. Keeps many arguments against a large
 * window linear instead of arguments × window. The index is built only when scanning would cost more.
 * With few needles the lower-cased haystack is built only for a needle not found verbatim: an ASCII
 * value (or its lower case) inside one served string is inside the lower-cased haystack as well,
 * since lower-casing maps ASCII characters one to one whatever surrounds them.
 */
class ServedText {
  private haystack: string | undefined;
  private tokens: Set<string> | undefined;
  private readonly indexed: boolean;
  constructor(
    private readonly served: readonly ServedString[],
    private readonly needles: number,
  ) {
    let length = 0;
    for (const s of served) length += s.text.length + 1;
    // Many needles over a large text: the token index (and so the haystack) now, as before.
    this.indexed = needles > 64 && length * needles > 4_000_000;
    if (this.indexed) this.build();
  }
  private build(): string {
    if (this.haystack === undefined) {
      this.haystack = servedHaystack(this.served);
      if (this.needles > 64 && this.haystack.length * this.needles > 4_000_000) this.tokens = new Set(this.haystack.split(TOKEN_SEPARATORS));
    }
    return this.haystack;
  }
  /** `value` as the model chose it; `needle` its lower case. */
  contains(value: string, needle: string): boolean {
    if (!this.indexed && !NON_ASCII.test(value)) {
      for (const s of this.served) if (s.text.includes(value) || s.text.includes(needle)) return true;
    }
    const haystack = this.build();
    return this.tokens?.has(needle) === true || haystack.includes(needle);
  }
}

function countNeedles(calls: readonly ToolCall[], maxLeaves: number): number {
  let n = 0;
  for (const c of calls) for (const l of argumentLeaves(c.arguments, maxLeaves).leaves) if (typeof l.value === 'string' && l.value.trim().length >= MIN_CHECKED_LENGTH) n++;
  return n;
}

export function unsupportedArguments(input: ChoiceCheckInput): ChoiceCheckOutcome {
  const tally = emptyTally();
  const findings: Finding[] = [];
  const externalGroundsUsed: ExternalGroundUse[] = [];
  const armed = input.toolCalls.filter((c) => (input.declarationOf(c.name)?.argumentsFrom?.length ?? 0) > 0);
  tally.notApplicable += input.toolCalls.length - armed.length;
  if (armed.length === 0) return { findings, tally, externalGroundsUsed };
  if (!input.inputCaptured) {
    tally.unreachable += armed.length;
    tally.unreachableReasons[CONTENT_NOT_CAPTURED] = armed.length;
    return { findings, tally, externalGroundsUsed };
  }

  const served = new ServedText(input.frame.served, countNeedles(armed, input.maxArgumentLeaves));
  // Lower-cased when first needed: the written strings only for a finding, the grounds only for a
  // value the window did not serve.
  let writtenLower: { w: Frame['written'][number]; lower: string }[] | undefined;
  const written = () => (writtenLower ??= input.frame.written.map((w) => ({ w, lower: w.text.toLowerCase() })));
  let externalLower: { g: Frame['external'][number]; lower: string }[] | undefined;
  const external = () => (externalLower ??= input.frame.external.filter((g) => g.value.trim() !== '' && g.source.trim() !== '').map((g) => ({ g, lower: g.value.toLowerCase() })));
  const seenPaths = new Set<string>();

  for (const call of armed) {
    const declaration = input.declarationOf(call.name)!;
    const schemas: unknown[] = [];
    const offered = input.frame.toolDefinitions?.find((d) => d.name === call.name);
    if (offered?.inputSchema !== undefined) schemas.push(offered.inputSchema);
    if (declaration.inputSchema !== undefined) schemas.push(declaration.inputSchema);
    const enums = schemaEnumValues(schemas);
    const walk = argumentLeaves(call.arguments, input.maxArgumentLeaves);
    if (walk.truncated) {
      tally.unreachableReasons[`arguments had more than ${input.maxArgumentLeaves} leaves; the rest were not checked`] =
        (tally.unreachableReasons[`arguments had more than ${input.maxArgumentLeaves} leaves; the rest were not checked`] ?? 0) + 1;
    }
    let checkedLeaves = 0;
    for (const leaf of walk.leaves) {
      if (typeof leaf.value !== 'string') continue;
      const value = leaf.value;
      if (value.trim().length < MIN_CHECKED_LENGTH) continue;
      checkedLeaves++;
      tally.checked++;
      const needle = value.toLowerCase();
      if (served.contains(value, needle)) continue;
      if (enums.has(needle)) continue;
      const ground = external().find((e) => e.lower.includes(needle));
      if (ground) {
        externalGroundsUsed.push({ toolName: call.name, ...(call.id ? { toolCallId: call.id } : {}), path: leaf.path, value, source: ground.g.source });
        continue;
      }
      // One finding per (tool, argument path) per request, however many calls repeat it.
      const identity = `${call.name} ${leaf.path}`;
      if (seenPaths.has(identity)) continue;
      seenPaths.add(identity);
      tally.findings++;
      findings.push(buildFinding(input, call, leaf.path, value, declaration.argumentsFrom!, written()));
    }
    // An armed call with no string leaf long enough to check had nothing this check could judge.
    if (checkedLeaves === 0) tally.notApplicable++;
  }
  return { findings, tally, externalGroundsUsed };
}

function buildFinding(
  input: ChoiceCheckInput,
  call: ToolCall,
  path: string,
  value: string,
  argumentsFrom: readonly string[],
  written: readonly { w: Frame['written'][number]; lower: string }[],
): Finding {
  const needle = value.toLowerCase();
  const q = quoteText(value, input.quotedValueChars);
  const argName = path.startsWith('args.') ? path.slice(5) : path;
  const writtenIn = written.filter((x) => x.lower.includes(needle)).map((x) => x.w);
  const grounding: Grounding = writtenIn.length > 0 ? 'assistant-only' : 'nowhere';
  // Read only when a finding is built: the conversation's history can be long.
  const history = typeof input.earlierServed === 'function' ? input.earlierServed() : (input.earlierServed ?? []);
  const earlier = history.filter((s) => lowerCase(s.text).includes(needle));
  const callRef = call.id ? `call ${call.id}` : 'a call with no recorded id';
  const servedCount = input.frame.served.length;
  const assistantCount = new Set(input.frame.written.map((w) => w.message)).size;

  const witnesses: Witness[] = [
    { subject: `tool ${call.name}`, predicate: path, value: q, stratum: 'chosen', provenance: `${callRef}: argument '${argName}' as the model chose it` },
  ];
  for (const w of writtenIn.slice(0, 3)) {
    witnesses.push({
      subject: 'frame',
      predicate: path,
      value: q,
      stratum: 'written',
      provenance: `${w.source === 'assistant-text' ? "the model's own earlier answer" : "the model's own earlier tool-call arguments"} (message ${w.message} of this request)`,
    });
  }
  witnesses.push({
    subject: 'frame',
    predicate: path,
    value: q,
    stratum: 'absent',
    provenance: `served by nothing in the window: ${servedCount} served string(s) (system prompt, user messages, tool results${input.frame.toolDefinitions ? ', tool schemas' : ''}) and ${assistantCount} assistant message(s) in the request this call was chosen from`,
  });
  for (const e of earlier.slice(0, 3)) {
    witnesses.push({ subject: 'conversation', predicate: path, value: q, stratum: 'served', provenance: `${describeServed(e)}, served to request ${e.request} of this conversation, outside this request's window` });
  }

  const earlierClause =
    earlier.length > 0 ? ` It was served earlier in this conversation (${describeServed(earlier[0]!)}, served to request ${earlier[0]!.request}), but that is no longer in the window.` : '';
  const orderClause = input.idsMatchedByOrder ? ' (The telemetry recorded no tool-call ids; this call was matched by name and order only.)' : '';
  const message =
    grounding === 'assistant-only'
      ? `'${call.name}' was called with ${argName} = "${q}", and the only place that value appears in the request the model chose from is its own earlier answer: no system prompt, user message or tool result served it.${earlierClause} Call ${orList(argumentsFrom)} again and use a value it returns.${orderClause} ${NOTHING_BLOCKED}`
      : `'${call.name}' was called with ${argName} = "${q}", and nothing in the window the model saw served that value: no system prompt, user message, tool result or tool schema contains it.${earlierClause}${orderClause} ${NOTHING_BLOCKED}`;

  return {
    kind: UNSUPPORTED_ARGUMENT,
    seam: 'choice',
    subjects: [{ kind: 'tool', id: call.name }],
    predicate: path,
    value,
    message,
    witnesses,
    span: input.span,
    toolName: call.name,
    ...(call.id ? { toolCallId: call.id } : {}),
    grounding,
  };
}
