// Check `repeated-call` (seam `choice`, advisory): the model calls a tool again with the same
// arguments (compared with object keys sorted) within one turn, after the earlier call's result was
// already served in its window, and no call in between could have changed that result. After an
// answer the repeat adds nothing; after an error it fails the same way (a loop). Needs no
// declaration: the window shows both calls (armedBy inferred); declarations only sharpen what
// "could have changed it" means. A call in between could have changed it when it did not fail and
// is not known to be a read (declared or inferred `readOnly: true`), and either is known to be a
// write, or (its role unknown: it may write) takes no arguments or shares an argument value with
// the repeated call (a write changes what it names). Fences: the earlier call failed in a way that passes (a timeout, a rate
// limit, a 5xx, "try again") -> a retry, silent; the earlier result says the work is still going
// (pending, running, queued, in progress) or the tool is a status/poll/health tool -> polling,
// silent; the turn's user asks to look again (re-check, refresh, retry, again) -> silent;
// a call with no served result yet (two calls in one response) -> silent; arguments not
// recorded -> unreachable. One advisory finding per loop (the first repeat of a call; its later
// repeats in the turn are the same loop), naming the earlier call.
// Detection only: nothing is blocked. Pure function over plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import { canonical } from './absence-reads.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { ToolCall } from '../model/agent.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { armedByInference } from './arming.js';

export const REPEATED_CALL = 'repeated-call';

/** Quoted verbatim in every repeated-call message. */
export const REPEAT_CEILING = 'This is a place to look, not a verdict.';

const NOTHING_BLOCKED = 'Nothing here blocked the call.';

/** One call of this turn as the window shows it, with the result it was served (if any). */
export interface TurnCall {
  toolName: string;
  callId?: string;
  arguments: unknown;
  /** Index of the window message holding the call. */
  message: number;
  /** The result the window served for it; absent = none served (yet). */
  result?: unknown;
  /** How the served result says the call ended (as the ledger reads it); `unknown` when none was served. */
  ending: 'ok' | 'refused' | 'failed' | 'not-found' | 'unknown';
  /** The error or not-found words of the result, when it ended so. */
  said?: string;
}

export interface RepeatedCallInput {
  /** The chat span of the request that chose the calls. */
  span: SpanRef;
  /** The calls this request chose. */
  toolCalls: readonly ToolCall[];
  /** This turn's earlier calls, as the request's window shows them, in order. */
  turnCalls: readonly TurnCall[];
  /** A tool's role when declared or inferred: true a read, false a write, undefined unknown. */
  readOnlyOf: (toolName: string) => boolean | undefined;
  /** This turn's user message: one that asks to check again makes a repeat what was asked. */
  userMessage?: string;
  quotedValueChars: number;
}

/** A user who asks to look again (re-check, refresh, retry) asks for the repeat. */
const ASKS_AGAIN = /\b(?:re-?check|check\s+(?:it\s+|that\s+|this\s+)?(?:again|once\s+more)|again|refresh|re-?try|retry|re-?run|re-?load|re-?fetch|poll)\b/i;

/** A failure a retry may cure: the same call may well pass next time. */
const TRANSIENT =
  /\b(?:408|425|429|50[0234])\b|\btime[ds]?\s*out\b|\btimeout\b|\brate[\s_-]?limit|too\s+many\s+requests|\btemporar(?:y|ily)\b|\btry\s+again\b|\bretry\b|\bunavailable\b|\boverloaded\b|\bbusy\b|connection\s+(?:reset|refused|closed|error|lost)|\bECONN[A-Z]+\b|\bETIMEDOUT\b|deadline\s+exceeded|\bthrottl/i;
/** A result that says the work is still going: asking again later is how it is read. */
const IN_PROGRESS = /\b(?:pending|running|in[\s_-]?progress|queued|processing|not\s+(?:yet\s+)?(?:ready|finished|complete)|building|waiting|starting|initiali[sz]ing)\b/i;
/** Tool-name words of tools that are asked again by nature. */
const POLLING_WORDS: ReadonlySet<string> = new Set(['status', 'poll', 'progress', 'wait', 'health', 'ping', 'heartbeat', 'watch', 'tail', 'now', 'time', 'clock', 'random']);

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

function resultHead(result: unknown, chars = 2000): string {
  if (typeof result === 'string') return result.slice(0, chars);
  try {
    return (JSON.stringify(result) ?? '').slice(0, chars);
  } catch {
    return '';
  }
}

function parsed(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  const t = args.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return args;
  try {
    return JSON.parse(t);
  } catch {
    return args;
  }
}

/** Whether `between` could have changed what `call` answers (see the header). */
/** The argument values that name something: strings of 2+ characters (not yes/no/true/false), numbers of 3+ digits. */
function namingValues(args: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8) return into;
  if (typeof args === 'string') {
    const v = args.trim().toLowerCase();
    if (v.length >= 2 && !['yes', 'no', 'true', 'false', 'null', 'none'].includes(v)) into.add(v);
  } else if (typeof args === 'number') {
    if (Math.abs(args) >= 100) into.add(String(args));
  } else if (Array.isArray(args)) for (const a of args.slice(0, 256)) namingValues(a, into, depth + 1);
  else if (args !== null && typeof args === 'object') for (const v of Object.values(args).slice(0, 256)) namingValues(v, into, depth + 1);
  return into;
}

function takesNoArguments(args: unknown): boolean {
  const a = parsed(args);
  if (a === undefined || a === null || a === '') return true;
  return typeof a === 'object' && !Array.isArray(a) && Object.keys(a).length === 0;
}

function couldChange(between: TurnCall, callValues: ReadonlySet<string>, readOnlyOf: RepeatedCallInput['readOnlyOf']): boolean {
  if (between.ending === 'failed' || between.ending === 'refused' || between.ending === 'not-found') return false;
  const role = readOnlyOf(between.toolName);
  if (role === true) return false;
  if (role === false) return true;
  // A tool whose role is unknown may write: if it does, it changes what it names, or anything when it names nothing.
  if (takesNoArguments(between.arguments)) return true;
  for (const v of namingValues(parsed(between.arguments))) if (callValues.has(v)) return true;
  return false;
}

export function repeatedCalls(input: RepeatedCallInput): CheckOutcome {
  const tally: CheckTally = newTally(REPEATED_CALL, 'choice');
  const findings: Finding[] = [];
  const cap = input.quotedValueChars;
  const asked = input.userMessage !== undefined && ASKS_AGAIN.test(input.userMessage);
  const keys = input.turnCalls.map((c) => `${c.toolName}\u0000${canonical(c.arguments)}`);
  for (const [position, call] of input.toolCalls.entries()) {
    if (call.arguments === undefined) {
      addUnreachable(tally, CONTENT_NOT_CAPTURED);
      continue;
    }
    tally.checked++;
    const key = `${call.name}\u0000${canonical(call.arguments)}`;
    let at = -1;
    for (let i = input.turnCalls.length - 1; i >= 0; i--) {
      if (keys[i] === key && input.turnCalls[i]!.result !== undefined) {
        at = i;
        break;
      }
    }
    if (at < 0 || asked) continue;
    // One finding per loop: a call whose earlier twin was itself a repeat was reported with the first repeat.
    if (keys.slice(0, at).some((k, i) => k === key && input.turnCalls[i]!.result !== undefined)) continue;
    const earlier = input.turnCalls[at]!;
    const head = earlier.said ?? resultHead(earlier.result);
    if ((earlier.ending === 'failed' || earlier.ending === 'refused') && TRANSIENT.test(head)) continue;
    if (IN_PROGRESS.test(resultHead(earlier.result)) || nameWords(call.name).some((w) => POLLING_WORDS.has(w))) continue;
    const values = namingValues(parsed(call.arguments));
    const between = input.turnCalls.slice(at + 1);
    if (between.some((b) => couldChange(b, values, input.readOnlyOf))) continue;

    const tool = quoteText(call.name, cap);
    const callRef = call.id ? `call ${quoteText(call.id, cap)}` : `its call #${position + 1} of this response, with no recorded id`;
    const earlierRef = earlier.callId ? `call ${quoteText(earlier.callId, cap)}` : 'an earlier call with no recorded id';
    const outcome =
      earlier.ending === 'failed' || earlier.ending === 'refused'
        ? `which failed ("${quoteText(head, cap)}")`
        : earlier.ending === 'not-found'
          ? `which found nothing ("${quoteText(head, cap)}")`
          : `whose result was already served ("${quoteText(resultHead(earlier.result, 400), cap)}")`;
    const betweenNames = [...new Set(between.map((b) => b.toolName))];
    const betweenText =
      betweenNames.length === 0
        ? 'nothing was called in between'
        : `nothing called in between (${betweenNames.slice(0, 4).map((n) => `'${quoteText(n, cap)}'`).join(', ')}${betweenNames.length > 4 ? ', …' : ''}) could have changed it`;
    const advice =
      earlier.ending === 'failed' || earlier.ending === 'refused'
        ? 'a call that failed with these arguments fails the same way again: change the arguments or tell the user'
        : 'the answer is already in the window: use it';
    const witnesses: Witness[] = [
      { subject: `tool ${call.name}`, predicate: earlier.callId ?? `call#${at + 1}`, value: quoteText(resultHead(earlier.result, 400), cap), stratum: 'served', provenance: `the earlier call this turn (${earlierRef}), with the same arguments, and the result its window served` },
      { subject: `tool ${call.name}`, predicate: call.id ?? `call#${position + 1}`, value: quoteText(canonical(call.arguments), cap), stratum: 'chosen', provenance: `the repeated call (${callRef}): the same tool and arguments, keys sorted` },
    ];
    tally.findings++;
    const finding: Finding = {
      kind: REPEATED_CALL,
      seam: 'choice',
      subjects: [{ kind: 'tool', id: call.name }],
      predicate: call.id ?? `call#${position + 1}`,
      message:
        `'${tool}' is called again (${callRef}) with the same arguments as ${earlierRef} earlier this turn, ${outcome}, and ${betweenText}: ${advice}. ` +
        `${REPEAT_CEILING} ${NOTHING_BLOCKED}`,
      witnesses,
      advisory: true,
      span: input.span,
      toolName: call.name,
      ...(call.id ? { toolCallId: call.id } : {}),
    };
    findings.push(armedByInference(finding, 'the window shows the earlier call with the same arguments and the result it was served'));
  }
  return { findings, tally };
}
