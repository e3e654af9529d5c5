// Check `dangling-reference` (seam `offer`): a tool declared to take its arguments from other
// tools' results (`argumentsFrom`) is offered in a request whose window no longer holds any
// result of one of those grounds, though an earlier request of the same conversation did: the
// ground was evicted and not fetched again, so the model could only fill the arguments from
// memory. Fences: a ground never fetched is silent (ordinary sequencing); a ground fetched again
// (a result of it in this window) is silent. Detection only: nothing is blocked or re-offered.
// Tally: each distinct offered tool is one encounter — armed tools are checked (pass or fail),
// unarmed ones not applicable. Pure function over plain data: no I/O, no clocks, no globals.

import { andList, orList } from '../findings/phrases.js';
import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import type { ToolDeclaration } from '../declarations/types.js';

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
}

function emptyTally(): CheckTally {
  return { check: DANGLING_REFERENCE, seam: 'offer', checked: 0, findings: 0, notApplicable: 0, unreachable: 0, unreachableReasons: {} };
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
  for (const tool of armed) {
    tally.checked++;
    const grounds = [...new Set(input.declarationOf(tool)!.argumentsFrom!)];
    const missing = grounds.filter((g) => input.earlierResultTools.has(g) && !input.presentResultTools.has(g));
    if (missing.length === 0) continue;
    tally.findings++;
    findings.push(buildFinding(input.span, tool, grounds, missing));
  }
  return { findings, tally };
}

function buildFinding(span: SpanRef, tool: string, grounds: readonly string[], missing: readonly string[]): Finding {
  const witnesses: Witness[] = [
    {
      subject: `tool ${tool}`,
      predicate: 'argumentsFrom',
      value: grounds.join(', '),
      stratum: 'declared',
      provenance: `declared: its arguments come from the results of ${andList(grounds)}; offered in this request`,
    },
  ];
  for (const g of missing) {
    witnesses.push({
      subject: `tool ${g}`,
      predicate: ARGUMENT_GROUND,
      value: g,
      stratum: 'absent',
      provenance: `results of '${g}' were held by an earlier request of this conversation and are not in this request's window: evicted, not fetched again`,
    });
  }
  const quoted = missing.map((g) => `'${g}'`);
  const them = missing.length === 1 ? 'it' : 'them';
  const message =
    `'${tool}' was offered to the model, but the results of ${andList(quoted)} it takes its arguments from are no longer in the window: ` +
    `an earlier request of this conversation held ${them} and ${them === 'it' ? 'it was' : 'they were'} not fetched again, so any value the model passes to '${tool}' now comes from memory. ` +
    `Have the model call ${orList(missing)} again first, or keep ${missing.length === 1 ? 'that result' : 'those results'} in the window. ${NOTHING_BLOCKED}`;
  return {
    kind: DANGLING_REFERENCE,
    seam: 'offer',
    subjects: [{ kind: 'tool', id: tool }, ...missing.map((g) => ({ kind: 'ground', id: g }))],
    predicate: ARGUMENT_GROUND,
    // No value: tool names are declarations, not data to quote or redact; the witnesses name them.
    message,
    witnesses,
    span,
    toolName: tool,
  };
}
