// "Show me": what a reader of the account may see, as a map from pointer key to leaf: {value} |
// {rows, at} (a derived count, never the rows) | {withheld: not-shown-here | not-found |
// too-large | foreign}. An allow-list by span role and path decides what leaves; the deny list
// WINS over it: tool arguments, tool results (except the tools' declared coverage words), system
// and other prompts, message history (except the person's message of the turn and the final
// answer), and anything of another tenant or another trace (foreign). Objects and arrays are
// never shown. Bounds: a leaf over 2,048 serialized characters is too-large; the map stops at
// 64 KiB of serialized UTF-8 with one `#more` entry. Redaction applies on top: under hash/omit no
// quoted content is shown. Pure; must never show a value the rules do not allow.

import { spanKey } from '../model/telemetry.js';
import { EXPLAIN_LIMITS } from '../limits.js';
import { hashValue } from '../findings/quote.js';
import type { TurnFacts } from './facts.js';
import { decodePath, pointerKey, resolvePath } from './pointer.js';
import type { SpanRole, SpanRecordView } from './record.js';
import type { Account, Pointer, ShownLeaf, ShownMap } from './types.js';

/** Path patterns: `*` one token, `**` any number of tokens, `{a,b}` one of. */
type Pattern = string;

/** The tools' declared words: shown, but under `hash`/`omit` redacted whole when they hold a finding's value. */
const COVERAGE_WORDS: readonly Pattern[] = [
  '/attributes/{gen_ai.tool.call.result,output.value,ai.toolCall.result}/**/{checked,not_checked,cannot_cover}/*/{what,why,short,kind}',
  '/attributes/{gen_ai.tool.call.result,output.value,ai.toolCall.result}/**/looked_for',
];

export const ALLOW: Readonly<Record<SpanRole | 'any', readonly Pattern[]>> = Object.freeze({
  any: [
    '/name',
    '/status/code',
    '/events/*/name',
    '/events/*/attributes/{footprint.finding.kind,footprint.finding.seam,footprint.finding.message,footprint.finding.value,footprint.finding.predicate,footprint.finding.id,footprint.finding.grounding,footprint.finding.advisory}',
    '/events/*/attributes/{footprint.tool.name,footprint.tool.call.id}',
    '/events/*/attributes/{footprint.disposition.summary,footprint.disposition.checks,footprint.disposition.unreachable,footprint.disposition.findings}',
    '/events/*/attributes/footprint.answer.standing',
    '/events/*/attributes/footprint.answer.reasons/*',
  ],
  turn: ['/attributes/{gen_ai.agent.name,gen_ai.operation.name}'],
  chat: [
    '/attributes/{gen_ai.request.model,gen_ai.response.model,gen_ai.operation.name,gen_ai.usage.input_tokens,gen_ai.usage.output_tokens}',
    '/attributes/gen_ai.response.finish_reasons/*',
    '/attributes/**/role',
    '/attributes/**/tool_calls/*/{id,type}',
    '/attributes/**/tool_calls/*/function/name',
    '/attributes/**/{tool_call_id,toolCallId,toolName}',
    '/logs/*/{eventName}',
    '/logs/*/attributes/{event.name,gen_ai.system,gen_ai.provider.name}',
    '/logs/*/body/{role,id,finish_reason,index}',
    '/logs/*/body/**/tool_calls/*/{id,type}',
    '/logs/*/body/**/tool_calls/*/function/name',
  ],
  tool: [
    '/attributes/{gen_ai.tool.name,gen_ai.tool.call.id,gen_ai.tool.type,gen_ai.operation.name}',
    '#rows',
    // The tools' declared coverage words (an exception the tool-result deny rule carves out too).
    ...COVERAGE_WORDS,
  ],
  other: [],
});

function matchTokens(tokens: readonly string[], pattern: readonly string[]): boolean {
  if (pattern.length === 0) return tokens.length === 0;
  const [head, ...rest] = pattern;
  if (head === '**') {
    for (let i = 0; i <= tokens.length; i++) if (matchTokens(tokens.slice(i), rest)) return true;
    return false;
  }
  if (tokens.length === 0) return false;
  const t = tokens[0]!;
  const ok = head === '*' || head === t || (head!.startsWith('{') && head!.endsWith('}') && head!.slice(1, -1).split(',').includes(t));
  return ok && matchTokens(tokens.slice(1), rest);
}

export function matchesPattern(path: string, pattern: Pattern): boolean {
  if (pattern.startsWith('#') || path.startsWith('#')) return pattern === path;
  const tokens = decodePath(path);
  const pat = decodePath(pattern);
  return tokens !== undefined && pat !== undefined && matchTokens(tokens, pat);
}

export type DenyRule = 'tool-arguments' | 'tool-result' | 'prompt' | 'history';

const ARG_KEYS = /^(gen_ai\.tool\.call\.arguments|arguments|args|ai\.toolCall\.args|input\.value|tool\.parameters|llm\.tools)$/;
const RESULT_KEYS = /^(gen_ai\.tool\.call\.result|result|ai\.toolCall\.result|output\.value|response|modelResult)$/;
const PROMPT_KEYS = /^(gen_ai\.system_instructions|system|instructions|system_prompt|gen_ai\.prompt|llm\.prompts|ai\.prompt)$/;
const HISTORY_KEYS = /^(gen_ai\.input\.messages|gen_ai\.output\.messages|gen_ai\.completion|messages|content|text|parts|llm\.input_messages|llm\.output_messages|ai\.prompt\.messages|ai\.response\.text|message)$/;
/** Keys of a message that say its shape (who, which call), never its words. */
const STRUCTURE_KEYS = new Set(['role', 'id', 'type', 'tool_call_id', 'toolCallId', 'toolName', 'finish_reason', 'index', 'name']);
const COVERAGE_TAIL = ['**', '{checked,not_checked,cannot_cover}', '*', '{what,why,short,kind}'];
const LOOKED_FOR_TAIL = ['**', 'looked_for'];

/** Which deny rule, if any, holds this path. The first that matches wins; coverage words are carved out of tool results. */
export function deniedBy(path: string, role: SpanRole, view: SpanRecordView | undefined, exempt: ReadonlySet<string>): DenyRule | undefined {
  if (path.startsWith('#')) return undefined;
  const tokens = decodePath(path);
  if (!tokens) return 'history';
  const inLog = tokens[0] === 'logs' ? view?.logs[Number(tokens[1])] : undefined;
  const logName = inLog ? String(inLog.eventName ?? inLog.attributes['event.name'] ?? '') : '';
  if (tokens.some((t) => ARG_KEYS.test(t))) return 'tool-arguments';
  if (tokens.some((t) => PROMPT_KEYS.test(t)) || /system|developer/.test(logName)) return 'prompt';
  const resultAt = tokens.findIndex((t) => RESULT_KEYS.test(t));
  if (resultAt >= 0 || /tool\.message|gen_ai\.tool/.test(logName)) {
    const rest = tokens.slice(Math.max(resultAt, 0) + 1);
    if (role === 'tool' && (matchTokens(rest, COVERAGE_TAIL) || matchTokens(rest, LOOKED_FOR_TAIL))) return undefined;
    return 'tool-result';
  }
  const inMessages = tokens.some((t) => HISTORY_KEYS.test(t)) || (tokens[0] === 'logs' && tokens[2] === 'body');
  const structural = STRUCTURE_KEYS.has(tokens.at(-1) ?? '') && !tokens.some((t) => t === 'content' || t === 'text');
  if (inMessages && !structural) return exempt.has(path) ? undefined : 'history';
  return undefined;
}

function allowed(path: string, role: SpanRole, exempt: ReadonlySet<string>): boolean {
  if (exempt.has(path)) return true;
  return [...ALLOW.any, ...ALLOW[role]].some((p) => matchesPattern(path, p));
}

const serializedLength = (leaf: unknown) => JSON.stringify(leaf).length;

/** The leaf one pointer shows. */
export function showLeaf(f: TurnFacts, account: Pick<Account, 'asked' | 'answer'>, p: Pointer): ShownLeaf {
  const key = spanKey(p);
  if (p.traceId !== f.traceId || (f.tenants.has(key) && f.tenants.get(key) !== f.tenant)) return { withheld: 'foreign' };
  const view = f.index.view(key);
  if (!view) return { withheld: 'not-found' };
  const role = f.roles.get(key) ?? 'other';
  // The person's message of this turn and the final answer: exact pointers, on their own spans.
  const content = [account.asked, account.answer].filter((x): x is Pointer => x !== undefined && x.spanId === p.spanId && x.traceId === p.traceId && x.path !== '');
  const exempt = new Set(content.map((x) => x.path));
  if (deniedBy(p.path, role, view, exempt)) return { withheld: 'not-shown-here' };
  if (!allowed(p.path, role, exempt)) return { withheld: 'not-shown-here' };
  if (p.path === '#rows') {
    const row = f.ledger.find((r) => r.span.spanId === p.spanId && r.span.traceId === p.traceId);
    if (!row || row.result === undefined || row.reading.rows === undefined) return { withheld: 'not-found' };
    const at = Object.keys(view.attributes).find((k) => RESULT_KEYS.test(k));
    return { rows: row.reading.rows, at: at ? `/attributes/${at.replace(/~/g, '~0').replace(/\//g, '~1')}` : '' };
  }
  const v = resolvePath(view, p.path);
  if (v === undefined) return { withheld: 'not-found' };
  if (v !== null && typeof v === 'object') return { withheld: 'not-shown-here' };
  if (typeof v === 'bigint') return { value: String(v) };
  if (exempt.has(p.path) && typeof v === 'string' && f.redaction !== 'quote') return f.redaction === 'hash' ? { value: hashValue(v) } : { withheld: 'not-shown-here' };
  const leaf = { value: typeof v === 'string' && role === 'tool' && COVERAGE_WORDS.some((c) => matchesPattern(p.path, c)) ? f.hide(v) : (v as string | number | boolean | null) };
  if (serializedLength(leaf) > EXPLAIN_LIMITS.maxShownLeafChars) return { withheld: 'too-large' };
  return leaf;
}

export const MORE_KEY = '#more';

/** Every pointer of the account, in reading order (sentences, then the page's sections). */
export function accountPointers(a: Account): Pointer[] {
  const out: Pointer[] = [];
  if (a.asked) out.push(a.asked);
  if (a.answer) out.push(a.answer);
  out.push(...a.verdict.head.pointers, ...(a.verdict.reason?.pointers ?? []));
  for (const r of a.rows) for (const s of r.sentences) out.push(...s.pointers);
  for (const w of a.windows) for (const m of w.messages) if (m.pointer) out.push(m.pointer);
  for (const l of a.ledger) out.push(l.pointer, { traceId: l.pointer.traceId, spanId: l.pointer.spanId, path: '#rows' });
  for (const x of a.findings) out.push(x.pointer);
  if (a.disposition) out.push(a.disposition.pointer);
  return out;
}

/** The shown map over the given pointers, bounded in bytes with one `#more` entry. */
export function showLeaves(f: TurnFacts, account: Account, pointers: readonly Pointer[] = accountPointers(account)): ShownMap {
  return showTurnLeaves([{ facts: f, account, pointers }]);
}

/** One shown map over the turns of a trace (each pointer judged with its own turn's message and answer). */
export function showTurnLeaves(turns: readonly { facts: TurnFacts; account: Account; pointers?: readonly Pointer[] }[]): ShownMap {
  const out: ShownMap = {};
  const more = { withheld: 'too-large' } as const;
  const entryBytes = (k: string, leaf: ShownLeaf) => Buffer.byteLength(JSON.stringify(k), 'utf8') + Buffer.byteLength(JSON.stringify(leaf), 'utf8') + 2;
  const reserve = entryBytes(MORE_KEY, more);
  let bytes = 2; // the braces
  const all = turns.flatMap((t) => (t.pointers ?? accountPointers(t.account)).map((p) => ({ p, t })));
  for (const { p, t } of all) {
    const k = pointerKey(p);
    if (Object.prototype.hasOwnProperty.call(out, k)) continue;
    const leaf = showLeaf(t.facts, t.account, p);
    const n = entryBytes(k, leaf);
    if (bytes + n + reserve > EXPLAIN_LIMITS.maxShownBytes) {
      out[MORE_KEY] = more;
      break;
    }
    out[k] = leaf;
    bytes += n;
  }
  return out;
}
