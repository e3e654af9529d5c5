// The unsupported-argument findings of the newer groundings: `fragment` (a proper part of a served
// token, naming the whole token and where it was served) and `wrong-producer` (advisory: only a
// tool other than the declared producers served it). Messages say what was seen and never call a
// fragment "served". (A derived date passes: unsupported-argument.ts records its arithmetic.)
// Pure: no I/O, no clocks, no globals.

import { orList } from '../findings/phrases.js';
import { producersPhrase } from './argument-sources.js';
import { quoteText } from '../findings/quote.js';
import { GROUNDING_FRAGMENT, GROUNDING_WRONG_PRODUCER } from '../findings/names.js';
import type { ToolCall } from '../model/agent.js';
import type { Finding, Witness } from '../model/finding.js';
import type { ServedString } from '../model/frame.js';
import type { SpanRef } from '../model/telemetry.js';
import type { Verdict } from './argument-grounding.js';

const KIND = 'unsupported-argument';
const NOTHING_BLOCKED = 'Nothing here blocked the call.';

/** Where a served string came from, in words. */
export function describeServed(s: ServedString): string {
  if (s.source === 'tool-result') return `tool result${s.toolName ? ` of ${s.toolName}` : ''}${s.callId ? ` (call ${s.callId})` : ''}`;
  if (s.source === 'tool-schema') return `tool schema${s.toolName ? ` of ${s.toolName}` : ''}`;
  return s.source === 'system' ? 'system prompt' : 'user message';
}

export interface GroundedFindingInput {
  span: SpanRef;
  call: ToolCall;
  path: string;
  value: string;
  producers: readonly string[];
  verdict: Extract<Verdict, { grounding: 'fragment' | 'wrong-producer' }>;
  quotedValueChars: number;
}

export function groundedFinding(input: GroundedFindingInput): Finding {
  const { call, path, value, producers, verdict } = input;
  const q = quoteText(value, input.quotedValueChars);
  const argName = path.startsWith('args.') ? path.slice(5) : path;
  const callRef = call.id ? `call ${call.id}` : 'a call with no recorded id';
  const witnesses: Witness[] = [
    { subject: `tool ${call.name}`, predicate: path, value: q, stratum: 'chosen', provenance: `${callRef}: argument '${argName}' as the model chose it` },
  ];
  let message: string;
  let grounding: string;
  let advisory = false;
  if (verdict.grounding === 'fragment') {
    grounding = GROUNDING_FRAGMENT;
    const token = quoteText(verdict.place.token ?? '', input.quotedValueChars);
    const where = describeServed(verdict.place.served);
    witnesses.push({ subject: 'frame', predicate: path, value: token, stratum: 'served', provenance: `the whole value, of which the chosen one is only a part: ${where}` });
    witnesses.push({ subject: 'frame', predicate: path, value: q, stratum: 'absent', provenance: 'served whole by nothing in the window of the request this call was chosen from' });
    message =
      `'${call.name}' was called with ${argName} = "${q}", which is only part of "${token}" (${where}): nothing in the window served "${q}" whole, so the model cut a value it was served. ` +
      `Call ${producersPhrase(producers, orList)} again and use a whole value it returns. ${NOTHING_BLOCKED}`;
  } else {
    grounding = GROUNDING_WRONG_PRODUCER;
    advisory = true;
    const where = describeServed(verdict.served);
    witnesses.push({ subject: `tool ${verdict.served.toolName ?? 'unknown'}`, predicate: path, value: q, stratum: 'served', provenance: `served by ${where}, a tool that is not a declared producer of '${argName}'` });
    witnesses.push({ subject: 'frame', predicate: path, value: q, stratum: 'absent', provenance: `served by no system prompt, user message or result of ${producersPhrase(producers, orList)} in the window` });
    message =
      `'${call.name}' was called with ${argName} = "${q}", a value only the ${where} served in this request; its arguments are declared to come from ${producersPhrase(producers, orList)}. ` +
      `The value may well be right, but it did not come from a declared producer: a place to look, not a verdict. ${NOTHING_BLOCKED}`;
  }
  return {
    kind: KIND,
    seam: 'choice',
    subjects: [{ kind: 'tool', id: call.name }],
    predicate: path,
    value,
    message,
    witnesses,
    ...(advisory ? { advisory: true } : {}),
    span: input.span,
    toolName: call.name,
    ...(call.id ? { toolCallId: call.id } : {}),
    grounding,
  };
}
