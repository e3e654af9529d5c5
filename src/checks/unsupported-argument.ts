// Check `unsupported-argument` (seam `choice`): a tool declared to take its arguments from other
// tools' results was called with a value that nothing the run served in that request's window
// holds. Fences: trimmed strings under 4 characters, booleans, null and integers that are not
// identifiers are never checked; identifier-like values must be a WHOLE served token (a proper
// part of one is a `fragment` finding); free-text phrases pass as a case-insensitive substring;
// phones compare by digits; a declared enum value passes; an external ground passes but is
// recorded; a join of whole served tokens passes as `composed`; a phone, an identifier in another
// writing and a date in another form pass by their typed values (src/values); a date or month
// derived from a served date and the user's or system's relative words passes as `derived`, with
// the arithmetic as witness; a value only a non-producer tool served is advisory
// (`wrong-producer`); example values of a tool description are not served. Detection only: nothing is blocked.
// Tally: `checked` counts argument leaves judged, `findings` the leaves that failed (<= checked;
// advisory findings are not failures). Pure function over plain data: no I/O, no clocks, no globals.

import { orList } from '../findings/phrases.js';
import type { ToolCall } from '../model/agent.js';
import type { CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import type { ToolDeclaration } from '../declarations/types.js';
import type { Frame, ServedString } from '../model/frame.js';
import { argumentLeaves } from './argument-leaves.js';
import { schemaEnumValues } from './schema-enums.js';
import { quoteText } from '../findings/quote.js';
import { CONTENT_NOT_CAPTURED } from './catalog.js';
import { identifierArgumentEvidence, judgedValue, MIN_CHECKED_LENGTH } from './argument-identity.js';
import { ANY_PRODUCER, producersOf, producersPhrase } from './argument-sources.js';
import { armedByInference } from './arming.js';
import { sourcesInferred } from '../declarations/inferred.js';
import { FrameGrounds } from './argument-grounding.js';
import type { ValueMemo } from '../values/served.js';
import { exampleClauses } from '../values/examples.js';
import { describeServed, groundedFinding } from './argument-findings.js';
import {
  GROUNDING_ASSISTANT_ONLY,
  GROUNDING_COMPOSED,
  GROUNDING_DERIVED,
  GROUNDING_FRAGMENT,
  GROUNDING_NOWHERE,
  GROUNDING_WRONG_PRODUCER,
} from '../findings/names.js';

export const UNSUPPORTED_ARGUMENT = 'unsupported-argument';
export { MIN_CHECKED_LENGTH };

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
  /**
   * Served strings of earlier requests of this conversation that this window no longer holds. As a
   * function it is given the lower-cased value a finding looks for, and may leave out strings whose
   * lower case cannot hold it (the finding reads only those that do).
   */
  earlierServed?: readonly EarlierServed[] | ((needle?: string) => readonly EarlierServed[]);
  /** True when calls and results were paired by name and order only. */
  idsMatchedByOrder?: boolean;
  /** False when the telemetry recorded no input messages: then nothing can be checked. */
  inputCaptured: boolean;
  maxArgumentLeaves: number;
  quotedValueChars: number;
  /** The conversation's memo of served strings' typed readings (a fresh one when not given). */
  memo?: ValueMemo;
  /**
   * Also judge, in calls of tools nobody declared `argumentsFrom` for, the arguments the trace shows
   * are identifiers (argument-identity.ts `identifierArgumentEvidence`): any served source grounds
   * them, and their findings say they were armed by inference. Default false.
   */
  inferIdentifiers?: boolean;
}

export interface ExternalGroundUse {
  toolName: string;
  toolCallId?: string;
  path: string;
  value: string;
  source: string;
}

/** A value that passed as a join of whole served tokens, with each part's witness. */
export interface ComposedUse {
  toolName: string;
  toolCallId?: string;
  path: string;
  value: string;
  parts: { part: string; provenance: string }[];
}

export interface ChoiceCheckOutcome {
  findings: Finding[];
  tally: CheckTally;
  externalGroundsUsed: ExternalGroundUse[];
  /** Values that passed as `composed` (not written to spans; for reports and tests). */
  composed: ComposedUse[];
  /** Values that passed as derivations of served values (`footprint.value.derived` events), with the arithmetic. */
  derived: DerivedUse[];
}

/** A value that passed as a date derived from a served one and the user's or system's words. */
export interface DerivedUse {
  toolName: string;
  toolCallId?: string;
  path: string;
  value: string;
  formula: string;
  from: string;
}

export type Grounding =
  | 'non-string'
  | 'short'
  | 'served'
  | 'enum'
  | 'external'
  | typeof GROUNDING_ASSISTANT_ONLY
  | typeof GROUNDING_NOWHERE
  | typeof GROUNDING_FRAGMENT
  | typeof GROUNDING_COMPOSED
  | typeof GROUNDING_DERIVED
  | typeof GROUNDING_WRONG_PRODUCER;

const NOTHING_BLOCKED = 'Nothing here blocked the call.';

function emptyTally(): CheckTally {
  return newTally(UNSUPPORTED_ARGUMENT, 'choice');
}

function schemasOf(frame: Frame, toolName: string, declaration: ToolDeclaration | undefined): unknown[] {
  const schemas: unknown[] = [];
  const offered = frame.toolDefinitions?.find((d) => d.name === toolName);
  if (offered?.inputSchema !== undefined) schemas.push(offered.inputSchema);
  if (declaration?.inputSchema !== undefined) schemas.push(declaration.inputSchema);
  return schemas;
}

interface JudgedLeaf {
  path: string;
  producers: readonly string[];
  value: NonNullable<ReturnType<typeof judgedValue>>;
  /** Set when the leaf is judged by inference: why it is an identifier. */
  inferred?: string;
}

/** Whether a tool's declaration arms this check (it names producers for its arguments). */
function declaredArmed(declaration: ToolDeclaration | undefined): boolean {
  return (declaration?.argumentsFrom?.length ?? 0) > 0;
}

/** One call's leaves this check judges, walked once (their count sizes the served-text index). */
function judgedLeaves(input: ChoiceCheckInput, call: ToolCall, declaration: ToolDeclaration | undefined, schemas: readonly unknown[]): { leaves: JudgedLeaf[]; truncated: boolean } {
  const walk = argumentLeaves(call.arguments, input.maxArgumentLeaves);
  const leaves: JudgedLeaf[] = [];
  const declared = declaredArmed(declaration);
  const sourcesEvidence = sourcesInferred(declaration);
  for (const l of walk.leaves) {
    if (declared) {
      const producers = producersOf(declaration!, l.path);
      if (producers) {
        const value = judgedValue(l.path, l.value, schemas);
        if (value) leaves.push({ path: l.path, producers, value, ...(sourcesEvidence !== undefined ? { inferred: sourcesEvidence } : {}) });
        continue;
      }
      // A declared named form judges only its named arguments; an inferred one leaves the rest to
      // the identifier inference below.
      if (sourcesEvidence === undefined || input.inferIdentifiers !== true) continue;
    }
    const evidence = identifierArgumentEvidence(l.path, l.value, schemas);
    if (evidence === undefined) continue;
    const value = judgedValue(l.path, l.value, schemas);
    if (value && value.form === 'identifier') leaves.push({ path: l.path, producers: [ANY_PRODUCER], value, inferred: evidence });
  }
  return { leaves, truncated: walk.truncated };
}

export function unsupportedArguments(input: ChoiceCheckInput): ChoiceCheckOutcome {
  const tally = emptyTally();
  const findings: Finding[] = [];
  const externalGroundsUsed: ExternalGroundUse[] = [];
  const composed: ComposedUse[] = [];
  const derived: DerivedUse[] = [];
  const armed = input.toolCalls.filter((c) => declaredArmed(input.declarationOf(c.name)) || input.inferIdentifiers === true);
  tally.notApplicable += input.toolCalls.length - armed.length;
  if (armed.length === 0) return { findings, tally, externalGroundsUsed, composed, derived };
  if (!input.inputCaptured) {
    tally.unreachable += armed.length;
    tally.unreachableReasons[CONTENT_NOT_CAPTURED] = armed.length;
    return { findings, tally, externalGroundsUsed, composed, derived };
  }

  const prepared = armed.map((call) => {
    const declaration = input.declarationOf(call.name);
    const schemas = schemasOf(input.frame, call.name, declaration);
    return { call, schemas, ...judgedLeaves(input, call, declaration, schemas) };
  });
  const grounds = new FrameGrounds(input.frame, prepared.reduce((n, p) => n + p.leaves.length, 0), input.memo);
  // Lower-cased when first needed: the written strings only for a finding.
  let writtenLower: { w: Frame['written'][number]; lower: string }[] | undefined;
  const written = () => (writtenLower ??= input.frame.written.map((w) => ({ w, lower: w.text.toLowerCase() })));
  const seenPaths = new Set<string>();

  for (const { call, schemas, leaves, truncated } of prepared) {
    const enums = schemaEnumValues(schemas);
    if (truncated) {
      tally.unreachableReasons[`arguments had more than ${input.maxArgumentLeaves} leaves; the rest were not checked`] =
        (tally.unreachableReasons[`arguments had more than ${input.maxArgumentLeaves} leaves; the rest were not checked`] ?? 0) + 1;
    }
    let checkedLeaves = 0;
    for (const { path, producers, value: judged, inferred } of leaves) {
      const mark = (f: Finding) => (inferred !== undefined ? armedByInference(f, inferred) : f);
      const leaf = { path };
      checkedLeaves++;
      tally.checked++;
      const verdict = grounds.ground(judged, producers, enums, fieldName(leaf.path));
      if (verdict.grounding === 'served' || verdict.grounding === 'enum') continue;
      if (verdict.grounding === 'external') {
        externalGroundsUsed.push({ toolName: call.name, ...(call.id ? { toolCallId: call.id } : {}), path: leaf.path, value: judged.text, source: verdict.ground.source });
        continue;
      }
      if (verdict.grounding === 'composed') {
        composed.push({
          toolName: call.name,
          ...(call.id ? { toolCallId: call.id } : {}),
          path: leaf.path,
          value: judged.text,
          parts: verdict.parts.map((p) => ({ part: p.part, provenance: describeServed(p.served) })),
        });
        continue;
      }
      if (verdict.grounding === 'derived') {
        derived.push({
          toolName: call.name,
          ...(call.id ? { toolCallId: call.id } : {}),
          path: leaf.path,
          value: judged.text,
          formula: verdict.derived.arithmetic,
          from: `${verdict.derived.anchor.date}, served by the ${describeServed(verdict.derived.anchor.served)}`,
        });
        continue;
      }
      // One finding per (tool, argument path) per request, however many calls repeat it.
      const identity = `${call.name} ${leaf.path}`;
      if (seenPaths.has(identity)) continue;
      seenPaths.add(identity);
      if (verdict.grounding === 'unserved') {
        tally.findings++;
        findings.push(mark(buildFinding(input, call, leaf.path, judged.text, producers, written())));
        continue;
      }
      const finding = mark(groundedFinding({ span: input.span, call, path: leaf.path, value: judged.text, producers, verdict, quotedValueChars: input.quotedValueChars }));
      // Advisory findings are places to look: they are not failed leaves.
      if (!finding.advisory) tally.findings++;
      findings.push(finding);
    }
    // An armed call with no leaf this check could judge had nothing to check.
    if (checkedLeaves === 0) tally.notApplicable++;
  }
  return { findings, tally, externalGroundsUsed, composed, derived };
}

/** The argument's own field name: the last segment of its path that is not an index (`payment_id` of `args.payment_methods.0.payment_id`). */
function fieldName(path: string): string | undefined {
  const segments = path.split('.');
  for (let i = segments.length - 1; i > 0; i--) if (!/^\d+$/.test(segments[i]!)) return segments[i];
  return undefined;
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
  const history = typeof input.earlierServed === 'function' ? input.earlierServed(needle) : (input.earlierServed ?? []);
  const earlier = history.filter((s) => s.text.toLowerCase().includes(needle));
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
  const example = input.frame.served.find((s) => s.source === 'tool-schema' && exampleClauses(s.text).some((c) => c.toLowerCase().includes(needle)));
  if (example) {
    witnesses.push({
      subject: `tool ${example.toolName ?? 'schema'}`,
      predicate: path,
      value: q,
      stratum: 'absent',
      provenance: `appears only as an example in the description of ${example.toolName ?? 'a tool'}: an example is not a value the run served`,
    });
  }
  for (const e of earlier.slice(0, 3)) {
    witnesses.push({ subject: 'conversation', predicate: path, value: q, stratum: 'served', provenance: `${describeServed(e)}, served to request ${e.request} of this conversation, outside this request's window` });
  }

  const earlierClause =
    earlier.length > 0 ? ` It was served earlier in this conversation (${describeServed(earlier[0]!)}, served to request ${earlier[0]!.request}), but that is no longer in the window.` : '';
  const exampleClause = example ? ` The description of '${example.toolName ?? 'a tool'}' offers it only as an example, and an example is not a value the run served.` : '';
  const orderClause = input.idsMatchedByOrder ? ' (The telemetry recorded no tool-call ids; this call was matched by name and order only.)' : '';
  const message =
    grounding === 'assistant-only'
      ? `'${call.name}' was called with ${argName} = "${q}", and the only place that value appears in the request the model chose from is its own earlier answer: no system prompt, user message or tool result served it.${earlierClause} Call ${producersPhrase(argumentsFrom, orList)} again and use a value it returns.${orderClause} ${NOTHING_BLOCKED}`
      : `'${call.name}' was called with ${argName} = "${q}", and nothing in the window the model saw served that value: no system prompt, user message, tool result or tool schema contains it.${exampleClause}${earlierClause}${orderClause} ${NOTHING_BLOCKED}`;

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
