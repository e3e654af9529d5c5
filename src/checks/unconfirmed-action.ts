// Check `unconfirmed-action` (seam `answer`): a clause of the final answer says an action was done
// ("one checked bag has been added", "I've cancelled reservation ABC123"; action-clauses.ts), and
// the write call that would have done it failed this turn, was refused, found nothing, or was never
// made. Write calls are the tools known as writes: declared `readOnly: false`, or inferred so from
// the tool's MCP annotations, name or description (armedBy says which, with the evidence). The
// clause is attributed to the writes its words name: a noun of the tool's name the clause shares
// (a noun every write shares, like "reservation" in five of them, weighs little), and its verb's
// family (add, update, cancel, …). Verdicts, for the writes the clause names best: a call of one
// succeeded this turn -> pass; calls of them this turn all failed, were refused or found nothing
// (and none succeeded after) -> a finding quoting the error; no call of them this turn and none
// earlier in the conversation succeeded -> a finding (never made). When the clause names no write,
// it stands for the turn's writes: a finding only if this turn's writes all failed, or none was
// made this turn nor earlier. A clause that names a served value (an id) is judged by the calls
// whose arguments hold it. Fences: no write known -> not applicable; answer not captured ->
// unreachable. One finding per clause. Detection only: nothing is blocked. Pure function over
// plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { ArmedBy, CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { armedByInference } from './arming.js';
import { foldWord } from './absence-clauses.js';
import { actionClauses, type ActionClause } from './action-clauses.js';
import { known, unknown, type Known } from '../model/known.js';
import { readNumbers } from '../values/read.js';
import { fieldNumber } from '../values/aggregates.js';

export const UNCONFIRMED_ACTION = 'unconfirmed-action';

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

/**
 * A tool that may have done an action: one known as a write (how that is known: "declared
 * readOnly: false", "its name has the write verb 'cancel'"), or one whose role is unknown (nothing
 * says it only reads). Tools known to only read are never given.
 */
export interface ActionTool {
  name: string;
  role: 'write' | 'unknown';
  armedBy: ArmedBy;
  evidence: string;
}

/** A tool known to be a write. */
export type WriteTool = ActionTool & { role: 'write' };

/** A call of the conversation, with how its result says it ended. */
export interface ActionCall {
  toolName: string;
  callId?: string;
  arguments: unknown;
  ending: 'ok' | 'refused' | 'failed' | 'not-found' | 'unknown';
  /** The error or not-found words, when it ended so. */
  said?: string;
  /** Made in this turn. */
  thisTurn: boolean;
}

export interface UnconfirmedActionInput {
  span: SpanRef;
  answerText: string | undefined;
  /** The tools (offered, declared or called) not known to only read: known writes and tools of unknown role; asked for only when the answer says an action was done. */
  tools: () => readonly ActionTool[];
  /** The conversation's calls up to this answer, in order; asked for likewise. */
  calls: () => readonly ActionCall[];
  quotedValueChars: number;
}

/** Verb families: an action said with one verb is done by a tool named with another of its family. */
const FAMILIES: readonly (readonly string[])[] = [
  ['cancel', 'void', 'delete', 'remove', 'refund'],
  ['book', 'reserve', 'purchase', 'create', 'place', 'schedule', 'register', 'submit', 'post', 'file', 'open'],
  ['update', 'change', 'modify', 'edit', 'upgrade', 'downgrade', 'set', 'reset', 'rename', 'replace', 'schedule', 'reschedule', 'patch', 'put'],
  ['add', 'create', 'insert', 'append', 'issue', 'attach'],
  ['send', 'issue', 'email', 'credit', 'notify', 'post'],
  ['transfer', 'escalate', 'assign', 'handoff'],
  ['refund', 'credit', 'reimburse'],
  ['pay', 'charge', 'bill'],
];

/** Words of a tool name that are no noun of what it acts on. */
const TOOL_NOISE: ReadonlySet<string> = new Set(['to', 'the', 'a', 'an', 'for', 'of', 'on', 'by', 'all', 'new', 'api', 'tool', 'v1', 'v2', 'detail', 'details', 'info', 'data', 'do', 'make', 'perform', 'execute', 'run']);

function toolWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => foldWord(w))
    .filter((w) => w !== '' && !TOOL_NOISE.has(w));
}

function family(verb: string): Set<string> {
  const out = new Set<string>([verb]);
  for (const f of FAMILIES) if (f.includes(verb)) for (const v of f) out.add(v);
  return out;
}

/** A clause's noun and a tool's noun name the same thing: equal, or one a 3+ letter start of the other ("bag" / "baggage"). */
function sameNoun(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 3 && long.startsWith(short) && long.length - short.length <= 4;
}

/** Verbs of money moving or work finishing: the side effect of many writes, named by none unless one carries the verb. */
const CONSEQUENCE_VERBS: ReadonlySet<string> = new Set(['refund', 'credit', 'charge', 'pay', 'process', 'complete', 'apply', 'waive', 'reimburse']);

/** Which writes a clause names, and whether it names them with certainty (src/model/known.ts). */
interface Attribution {
  /** The known writes the clause names best (empty: it names none). */
  named: WriteTool[];
  /** How well its nouns name them (nounScore), the verbs of its family, and how many writes' names have each word. */
  score: number;
  verbs: ReadonlySet<string>;
  df: ReadonlyMap<string, number>;
  /**
   * Known (`noun`): a noun of the clause names them, with their verb (or a verb of its family), or
   * no other write's name has a noun of the clause as well. Known (`verb`): no noun names a write,
   * and exactly one write's name has the clause's own verb. Unknown: the clause is judged against
   * every tool that may have done it.
   */
  certain: Known<'noun' | 'verb'>;
}

/**
 * The writes a clause names best. The verb first: writes named with the clause's own verb, else
 * with a verb of its family, else all of them; then, among those, the nouns they share with the
 * clause (a noun every write shares weighs little). A clause that only says money moved or work
 * finished ("refunded", "processed") names no write unless one carries that verb.
 */
function attribute(clause: ActionClause, writes: readonly WriteTool[]): Attribution {
  const verbs = family(clause.verb);
  const words = writes.map((w) => toolWords(w.name));
  const df = new Map<string, number>();
  for (const ws of words) for (const w of new Set(ws)) df.set(w, (df.get(w) ?? 0) + 1);
  const none: Attribution = { named: [], score: 0, verbs, df, certain: unknown('the clause names no write') };
  if (writes.length === 0) return none;
  const exact = writes.map((_, i) => i).filter((i) => words[i]!.includes(clause.verb));
  if (exact.length === 0 && CONSEQUENCE_VERBS.has(clause.verb)) return none;
  const related = writes.map((_, i) => i).filter((i) => words[i]!.some((w) => verbs.has(w)));
  const pool = exact.length > 0 ? exact : related.length > 0 ? related : writes.map((_, i) => i);
  const byVerb = exact.length > 0 || related.length > 0;
  let best = 0;
  const scored = pool.map((i) => {
    const score = nounScore(clause, words[i]!, verbs, df);
    best = Math.max(best, score);
    return { tool: writes[i]!, score };
  });
  if (!byVerb && best <= 0) return none;
  const named = scored.filter((s) => s.score === best).map((s) => s.tool);
  const rivals = writes.filter((w, i) => !named.includes(w) && nounScore(clause, words[i]!, verbs, df) >= best);
  const list = named.map((t) => `'${t.name}'`).join(', ');
  let certain: Known<'noun' | 'verb'>;
  if (best > 0 && (byVerb || rivals.length === 0)) certain = known('noun', `the clause's ${byVerb ? 'verb and ' : ''}nouns name ${list}`);
  else if (best <= 0 && exact.length === 1) certain = known('verb', `${list} is the only write whose name has the verb '${clause.verb}'`);
  else certain = unknown(best > 0 ? 'its nouns name other writes as well' : 'only a verb several writes share, or one of its family, names a write');
  return { named, score: best, verbs, df, certain };
}

/** How well the clause's nouns name a tool's words (a noun every write shares weighs little); verbs do not count. */
function nounScore(clause: ActionClause, words: readonly string[], verbs: ReadonlySet<string>, df: ReadonlyMap<string, number>): number {
  let score = 0;
  for (const w of new Set(words)) if (!verbs.has(w) && clause.words.some((c) => sameNoun(c, w))) score += 1 / (df.get(w) ?? 1);
  return score;
}

function leafValues(v: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8) return into;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        return leafValues(JSON.parse(t), into, depth + 1);
      } catch {
        // plain text
      }
    }
    if (t.length >= 3) into.add(t.toLowerCase());
  } else if (typeof v === 'number' && Math.abs(v) >= 100) into.add(String(v));
  else if (Array.isArray(v)) for (const x of v.slice(0, 256)) leafValues(x, into, depth + 1);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v).slice(0, 256)) leafValues(x, into, depth + 1);
  return into;
}

/** The argument names of a call, at any depth (`participants`, `flights.date`), as words. */
function argumentWords(v: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 4 || v === null || typeof v !== 'object') return into;
  if (Array.isArray(v)) {
    for (const x of v.slice(0, 32)) argumentWords(x, into, depth + 1);
    return into;
  }
  for (const [k, x] of Object.entries(v).slice(0, 64)) {
    for (const w of toolWords(k)) into.add(w);
    argumentWords(x, into, depth + 1);
  }
  return into;
}

/** The clause's tokens that may be values (ids, e-mail addresses, names), lower-cased. */
function clauseTokens(clause: ActionClause): Set<string> {
  return new Set(clause.clause.toLowerCase().match(/[\p{L}\p{N}](?:[\p{L}\p{N}_\-.@]*[\p{L}\p{N}])?/gu) ?? []);
}

/** The calls among `calls` whose arguments hold a value the clause names (its identifiers), when any does. */
function namedCalls(clause: ActionClause, calls: readonly ActionCall[]): ActionCall[] {
  const tokens = clauseTokens(clause);
  const named = calls.filter((c) => [...leafValues(c.arguments)].some((v) => tokens.has(v) && /\d|_|-|@/.test(v)));
  return named.length > 0 ? named : [...calls];
}

/**
 * Whether a call that went through may be the action the clause describes in other words: its
 * tool's name has the clause's verb and one of its nouns; or its name and its arguments' names
 * name the clause's nouns at least as well as the named writes' names do (a noun every write
 * shares weighing little: `create_event(participants=…)` for "added James as a participant"); or
 * its arguments hold a value the clause names (an e-mail address, an id, an amount it states:
 * "I sent 50.00" and a scheduled transaction of 50.0). Used only to suppress.
 */
function mayDescribe(clause: ActionClause, call: ActionCall, namedScore: number, verbs: ReadonlySet<string>, df: ReadonlyMap<string, number>): boolean {
  const name = toolWords(call.toolName);
  if (name.includes(clause.verb) && nounScore(clause, name, verbs, df) > 0) return true;
  const score = nounScore(clause, [...name, ...argumentWords(call.arguments)], verbs, df);
  if (score > 0 && score >= namedScore) return true;
  const tokens = clauseTokens(clause);
  if ([...leafValues(call.arguments)].some((v) => tokens.has(v) && /\d|_|-|@/.test(v))) return true;
  const amounts = clauseAmounts(clause);
  return amounts.length > 0 && leafNumbers(call.arguments).some((n) => amounts.some((a) => Math.abs(a - n) < 1e-9 * Math.max(1, Math.abs(n))));
}

/**
 * The amounts a clause states as data (typed readings, src/values: `50.00`, `1,100`, `€12.5`): a
 * number with decimals or of three digits or more; a bare small count ("2 messages") is none.
 */
function clauseAmounts(clause: ActionClause): number[] {
  const out: number[] = [];
  for (const v of readNumbers(clause.clause, 16)) {
    for (const r of v.numbers ?? []) if (r.decimals > 0 || Math.abs(r.value) >= 100) out.push(Math.abs(r.value));
  }
  return out;
}

/** A call's numeric argument values (numbers, or strings that are plain numerals), at any depth. */
function leafNumbers(v: unknown, into: number[] = [], depth = 0): number[] {
  if (depth > 4 || into.length >= 256) return into;
  const n = fieldNumber(v);
  if (n !== undefined) into.push(Math.abs(n));
  else if (Array.isArray(v)) for (const x of v.slice(0, 64)) leafNumbers(x, into, depth + 1);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v).slice(0, 64)) leafNumbers(x, into, depth + 1);
  return into;
}

const failed = (c: ActionCall) => c.ending === 'failed' || c.ending === 'refused' || c.ending === 'not-found';
const wentThrough = (c: ActionCall) => c.ending === 'ok' || c.ending === 'unknown';

export function unconfirmedActions(input: UnconfirmedActionInput): CheckOutcome {
  const tally: CheckTally = newTally(UNCONFIRMED_ACTION, 'answer');
  const findings: Finding[] = [];
  if (input.answerText === undefined) {
    addUnreachable(tally, CONTENT_NOT_CAPTURED);
    return { findings, tally };
  }
  const clauses = actionClauses(input.answerText);
  const tools = clauses.length > 0 ? input.tools() : [];
  const writes = tools.filter((t): t is WriteTool => t.role === 'write');
  // Armed by a tool known as a write; tools of unknown role only ever suppress.
  if (writes.length === 0) {
    tally.notApplicable = 1;
    return { findings, tally };
  }
  const calls = input.calls();
  const cap = input.quotedValueChars;
  const actionNames = new Set(tools.map((t) => t.name));
  const actionCalls = calls.filter((c) => actionNames.has(c.toolName));
  for (const clause of clauses) {
    tally.checked++;
    const { named, certain, score, verbs, df } = attribute(clause, writes);
    // The tools the clause may be about: the writes it names with certainty, and any call that went
    // through and may describe it in other words; else (uncertain) every tool that may have done it.
    let judged: ActionCall[];
    if (certain.known) {
      const names = new Set(named.map((t) => t.name));
      const roleOf = new Map(tools.map((t) => [t.name, t.role]));
      // Another call that went through and may be it; with only a verb naming the write, also any
      // of this turn's calls of a tool whose role (and so whose verb's meaning) is unknown.
      const others = actionCalls.filter(
        (c) => !names.has(c.toolName) && wentThrough(c) && (mayDescribe(clause, c, score, verbs, df) || (certain.value === 'verb' && c.thisTurn && roleOf.get(c.toolName) === 'unknown')),
      );
      if (others.length > 0) continue;
      judged = namedCalls(clause, actionCalls.filter((c) => names.has(c.toolName)));
    } else judged = namedCalls(clause, actionCalls);
    const thisTurn = judged.filter((c) => c.thisTurn);
    if (thisTurn.some(wentThrough)) continue;
    let verdict: { how: 'failed' | 'never'; calls: ActionCall[] } | undefined;
    if (thisTurn.length > 0 && thisTurn.every(failed)) verdict = { how: 'failed', calls: thisTurn };
    else if (thisTurn.length === 0 && !judged.some((c) => !c.thisTurn && wentThrough(c))) verdict = { how: 'never', calls: [] };
    if (!verdict) continue;
    // The write the finding names: the one called (and failed) when it is a known write, else the best-named one.
    const last = verdict.calls[verdict.calls.length - 1];
    const tool = writes.find((w) => w.name === last?.toolName) ?? named[0] ?? writes.find((w) => verdict!.calls.some((c) => c.toolName === w.name)) ?? writes[0]!;
    const said = quoteText(clause.said, cap);
    const clauseText = quoteText(clause.clause, cap * 2);
    const list = (ts: readonly { name: string }[]) => ts.slice(0, 4).map((t) => `'${quoteText(t.name, cap)}'`).join(', ') + (ts.length > 4 ? `, and ${ts.length - 4} more` : '');
    const arming = `${tool.armedBy === 'declared' ? 'declared' : 'inferred'}: ${quoteText(tool.evidence, cap * 2)}`;
    let why: string;
    if (verdict.how === 'failed') {
      const errors = verdict.calls.slice(-2).map((c) => `${c.callId ? `call ${quoteText(c.callId, cap)}` : 'a call'} ${c.ending === 'not-found' ? 'found nothing' : c.ending}${c.said ? ` ("${quoteText(c.said, cap)}")` : ''}`);
      const who = certain.known ? `the write that would do it, '${quoteText(tool.name, cap)}',` : "this turn's calls of every tool that could have done it";
      why = `${who} ${verdict.calls.length === 1 ? 'was called once this turn and' : `were called ${verdict.calls.length} times this turn and every call`} did not succeed (${errors.join('; ')}): the action was not done`;
    } else {
      why = certain.known
        ? `no call of ${list(named)}, the write${named.length === 1 ? '' : 's'} that would do it, succeeded in this conversation (none was made this turn), and no other call that went through is about it: nothing shows the action was done`
        : `no call of any tool that could have done it (${list(tools)}) was made this turn, and none succeeded earlier in the conversation: nothing shows the action was done`;
    }
    const witnesses: Witness[] = [
      { subject: 'answer final', predicate: 'action', value: said, stratum: 'chosen', provenance: `the final answer says "${clauseText}"` },
      ...verdict.calls.slice(-3).map((c): Witness => ({ subject: `tool ${c.toolName}`, predicate: c.callId ?? 'call', value: c.said !== undefined ? quoteText(c.said, cap) : c.ending, stratum: 'result', provenance: `this turn's call of the write, which ${c.ending === 'not-found' ? 'found nothing' : c.ending}` })),
    ];
    if (verdict.how === 'never') witnesses.push({ subject: `tool ${tool.name}`, predicate: 'calls', value: 'none', stratum: 'absent', provenance: `no successful call of ${certain.known ? list(named) : list(tools)} in the conversation's recorded calls` });
    witnesses.push({ subject: `tool ${tool.name}`, predicate: 'readOnly', value: 'false', stratum: tool.armedBy === 'declared' ? 'declared' : 'served', provenance: `a write (${arming})` });
    tally.findings++;
    const finding: Finding = {
      kind: UNCONFIRMED_ACTION,
      seam: 'answer',
      subjects: [{ kind: 'tool', id: tool.name }],
      predicate: clause.verb,
      value: clause.said,
      message: `The answer says "${clauseText}", but ${why}; say what happened instead, or make the call again. ${NOTHING_BLOCKED}`,
      witnesses,
      span: input.span,
      toolName: tool.name,
      ...(last?.callId ? { toolCallId: last.callId } : {}),
      grounding: verdict.how,
      armedBy: 'declared',
    };
    findings.push(tool.armedBy === 'inferred' ? armedByInference(finding, `'${quoteText(tool.name, cap)}' is a write because ${quoteText(tool.evidence, cap * 2)}`) : finding);
  }
  return { findings, tally };
}
