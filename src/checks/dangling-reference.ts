// Check `dangling-reference` (seam `offer`): a tool declared to take its arguments from other
// tools' results (`argumentsFrom`) is offered in a request whose window no longer holds any
// result of one of those grounds, though an earlier request of the same conversation did: the
// ground was evicted and not fetched again, so the model could only fill the arguments from
// memory. ONE finding per request, naming every such tool and every missing ground (grouped: a
// request offering eight armed tools over one evicted list is one defect, not eight). It is a
// finding on the call when the request calls one of those tools (tool and call id of the first
// such call), and advisory when it calls none of them (nothing was passed from memory yet).
// Fences: a ground never fetched is silent (ordinary sequencing); a ground fetched again (a
// result of it in this window) is silent. Detection only: nothing is blocked or re-offered.
// Tally: each distinct offered tool is one encounter — armed tools are checked, unarmed ones not
// applicable; `findings` counts the grouped finding (at most 1). Pure function over plain data:
// no I/O, no clocks, no globals.

import { andList, orList } from '../findings/phrases.js';
import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import type { ToolDeclaration } from '../declarations/types.js';
import { sourcesInferred } from '../declarations/inferred.js';
import { armedByInference } from './arming.js';

export const DANGLING_REFERENCE = 'dangling-reference';
export const ARGUMENT_GROUND = 'argument-ground';
export const TOOL_DEFINITIONS_NOT_RECORDED = 'tool definitions were not recorded';

const NOTHING_BLOCKED = 'Nothing here blocked the offer.';

export interface OfferCheckInput {
  /** The chat span of the request the tools were offered in. */
  span: SpanRef;
  /** Names of the tools the request offered; undefined = the telemetry recorded no tool definitions. */
  offeredTools: readonly string[] | undefined;
  /** Declarations by tool name, already merged (file + span-carried). */
  declarationOf: (toolName: string) => ToolDeclaration | undefined;
  /** Tools with a result in this request's window (names recovered from call ids where needed). */
  presentResultTools: ReadonlySet<string>;
  /** Tools whose results an earlier request of the same conversation held. */
  earlierResultTools: ReadonlySet<string>;
  /** False when the request's input messages were not recorded: no window to judge. */
  inputCaptured: boolean;
  /** The calls this request chose (its response): a call to a dangling tool makes the finding non-advisory. */
  toolCalls?: readonly { id?: string; name: string }[];
}

/** An offered tool whose declared grounds left the window. */
interface DanglingTool {
  tool: string;
  grounds: string[];
  missing: string[];
}

function emptyTally(): CheckTally {
  return newTally(DANGLING_REFERENCE, 'offer');
}



export function danglingReferences(input: OfferCheckInput): CheckOutcome {
  const tally = emptyTally();
  const findings: Finding[] = [];
  if (input.offeredTools === undefined) {
    tally.unreachable = 1;
    tally.unreachableReasons[TOOL_DEFINITIONS_NOT_RECORDED] = 1;
    return { findings, tally };
  }
  const offered = [...new Set(input.offeredTools)];
  const armed = offered.filter((name) => (input.declarationOf(name)?.argumentsFrom?.length ?? 0) > 0);
  tally.notApplicable = offered.length - armed.length;
  if (armed.length === 0) return { findings, tally };
  if (!input.inputCaptured) {
    tally.unreachable = armed.length;
    tally.unreachableReasons[CONTENT_NOT_CAPTURED] = armed.length;
    return { findings, tally };
  }
  const dangling: DanglingTool[] = [];
  for (const tool of armed) {
    tally.checked++;
    const grounds = [...new Set(input.declarationOf(tool)!.argumentsFrom!)];
    const missing = grounds.filter((g) => input.earlierResultTools.has(g) && !input.presentResultTools.has(g));
    if (missing.length > 0) dangling.push({ tool, grounds, missing });
  }
  if (dangling.length === 0) return { findings, tally };
  const names = new Set(dangling.map((d) => d.tool));
  const calls = (input.toolCalls ?? []).filter((c) => names.has(c.name));
  tally.findings++;
  // Armed by inference only when every dangling tool's sources were inferred (a declared one wins).
  const inferred = dangling.map((d) => sourcesInferred(input.declarationOf(d.tool)));
  const finding = buildFinding(input.span, dangling, calls);
  findings.push(inferred.every((e) => e !== undefined) ? armedByInference(finding, [...new Set(inferred)].join('; ')) : finding);
  return { findings, tally };
}

function buildFinding(span: SpanRef, dangling: readonly DanglingTool[], calls: readonly { id?: string; name: string }[]): Finding {
  const tools = dangling.map((d) => d.tool);
  const missing = [...new Set(dangling.flatMap((d) => d.missing))];
  const witnesses: Witness[] = dangling.map((d) => ({
    subject: `tool ${d.tool}`,
    predicate: 'argumentsFrom',
    value: d.grounds.join(', '),
    stratum: 'declared' as const,
    provenance: `declared: its arguments come from the results of ${andList(d.grounds)}; offered in this request`,
  }));
  for (const g of missing) {
    witnesses.push({
      subject: `tool ${g}`,
      predicate: ARGUMENT_GROUND,
      value: g,
      stratum: 'absent',
      provenance: `results of '${g}' were held by an earlier request of this conversation and are not in this request's window: evicted, not fetched again`,
    });
  }
  for (const c of calls) {
    witnesses.push({
      subject: `tool ${c.name}`,
      predicate: 'call',
      value: c.id ?? '',
      stratum: 'chosen',
      provenance: `this request calls '${c.name}'${c.id ? ` (call ${c.id})` : ''}: its arguments could only come from memory`,
    });
  }
  const q = (xs: readonly string[]) => andList(xs.map((x) => `'${x}'`));
  const one = missing.length === 1;
  const offered =
    dangling.length === 1
      ? `'${tools[0]}' was offered to the model, but the results of ${q(dangling[0]!.missing)} it takes its arguments from are no longer in the window`
      : `${q(tools)} were offered to the model, but results they take their arguments from are no longer in the window (${dangling.map((d) => `'${d.tool}' from ${q(d.missing)}`).join('; ')})`;
  const held = `an earlier request of this conversation held ${one ? 'it and it was' : 'them and they were'} not fetched again`;
  const called = [...new Set(calls.map((c) => c.name))];
  const consequence =
    calls.length > 0
      ? `and this request calls ${q(called)}${calls[0]!.id ? ` (call ${calls[0]!.id}${calls.length > 1 ? ` and ${calls.length - 1} more` : ''})` : ''}, so the values it passes come from memory`
      : `so any value the model passes to ${dangling.length === 1 ? `'${tools[0]}'` : 'them'} would come from memory (this request does not call ${dangling.length === 1 ? 'it' : 'any of them'} yet, so this is a warning)`;
  const message = `${offered}: ${held}, ${consequence}. Have the model call ${orList(missing)} again first, or keep ${one ? 'that result' : 'those results'} in the window. ${NOTHING_BLOCKED}`;
  const toolName = calls[0]?.name ?? (dangling.length === 1 ? tools[0] : undefined);
  return {
    kind: DANGLING_REFERENCE,
    seam: 'offer',
    subjects: [...tools.map((t) => ({ kind: 'tool', id: t })), ...missing.map((g) => ({ kind: 'ground', id: g }))],
    predicate: ARGUMENT_GROUND,
    // No value: tool names are declarations, not data to quote or redact; the witnesses name them.
    message,
    witnesses,
    ...(calls.length === 0 ? { advisory: true } : {}),
    span,
    ...(toolName !== undefined ? { toolName } : {}),
    ...(calls[0]?.id ? { toolCallId: calls[0].id } : {}),
  };
}
