// How a tool result says the call was refused or failed, or that the thing asked for is not there
// (a not-found), read from the result's shape only: an error envelope (error-type keys and no
// entity data), an HTTP-style status, a GraphQL `data: null` with `errors[]`, `ok`/`success`
// false, an MCP `isError`, text that begins like "403 Forbidden" or "timed out", or the shape a
// tool's declaration states (`errorShape`). A field such as `status: "failed"` beside entity data
// is data, never a refusal. It reads, it never guesses: anything else is neither. Must never
// interpret prose beyond the head of a short text, never throw, and never do I/O.

import type { ErrorShapeDeclaration } from '../declarations/types.js';

/** What a result says about how the call ended, when it says anything. */
export type EndingVerdict = { kind: 'refusal'; said: string } | { kind: 'not-found'; said: string };

/** Keys an error envelope is made of; an object with only these (and no entity data) is an envelope. */
export const ERROR_KEYS: ReadonlySet<string> = new Set(['error', 'errors', 'detail', 'message', 'code', 'status']);

/** Keys of an HTTP-style response or an error body that are not entity data either. */
export const RESPONSE_KEYS: ReadonlySet<string> = new Set([
  'statuscode', 'status_code', 'statustext', 'status_text', 'reason', 'ok', 'success', 'iserror', 'error_code', 'errorcode',
  'error_message', 'errormessage', 'error_description', 'error_type', 'errortype', 'type', 'title', 'instance', 'details', 'hint',
  'request_id', 'requestid', 'trace_id', 'traceid', 'timestamp', 'path', 'method', 'url', 'headers', 'body', 'retry_after',
  'retryafter', 'documentation_url', 'help', 'kind', 'content', 'extensions',
]);

/** Status words (case-insensitive) that, in an envelope, mean refused or failed. */
export const REFUSAL_STATUS_WORDS: ReadonlySet<string> = new Set([
  'denied', 'invalid', 'failure', 'failed', 'error', 'refused', 'forbidden', 'unauthorized', 'unauthorised', 'permission_denied',
  'unauthenticated', 'rate_limited', 'ratelimited', 'too_many_requests', 'timeout', 'timed_out', 'unavailable', 'internal',
  'deadline_exceeded', 'resource_exhausted', 'not_authed', 'access_denied',
]);

/** Status words that, in an envelope, say the thing asked for is not there. */
export const NOT_FOUND_STATUS_WORDS: ReadonlySet<string> = new Set(['not_found', 'notfound', 'not found', 'no_such', 'does_not_exist', 'gone', 'missing']);

/** Text that begins like one of these is a refusal or failure (after an optional "Error:"/"HTTP"/"The request" lead). */
const REFUSAL_TEXT =
  /^\s*(?:(?:tool\s+)?error\s*[:\-–]\s*|http(?:\/\d(?:\.\d)?)?\s+|(?:the\s+)?request\s+|status\s*:?\s*|api\s+)?(?:(?:401|403|407|429|5\d\d)\b|access\s+(?:is\s+)?denied|permission\s+denied|unauthori[sz]ed|forbidden|not\s+authori[sz]ed|rate[\s_-]?limit|too\s+many\s+requests|timed?\s*out\b|timeout\b|(?:is\s+)?refused|service\s+unavailable|internal\s+server\s+error|bad\s+gateway|gateway\s+time|not\s+authenticated|unauthenticated|authentication\s+(?:failed|required)|invalid\s+(?:api\s+)?(?:key|token|credentials)|connection\s+(?:refused|reset|timed\s+out)|(?:tool\s+)?(?:execution|call)\s+failed|quota\s+exceeded)/i;

/** Prefixes that have always meant refused or failed ("refused: …", "Error: …", an exception's name: "ValueError: …"). */
const PREFIX_TEXT = /^\s*(?:refused|error|[a-z]\w{0,40}(?:error|exception))\s*:/i;

/**
 * A short text that says the thing is not there ("Order A-17 not found", "404", "No such machine"),
 * after an optional error or exception name ("Error:", "ValueError:"); and an error whose words
 * say nothing was found ("ValueError: No events found"): the tool's own word that it looked and
 * found nothing, never a refusal. Prose alone ("No jobs found for srv-db-04.") stays unknown.
 */
const NOT_FOUND_TEXT =
  /^\s*(?:(?:[a-z]*(?:error|exception)\s*[:\-–]\s*)?(?:404|410)\b|(?:[a-z]*(?:error|exception)\s*[:\-–]\s*)?no\s+such\b|[a-z]*(?:error|exception)\s*[:\-–]\s*no\s+(?:[\w'-]+\s+){0,4}?(?:(?:was|were)\s+)?(?:found|matched|exists?)\b|(?:[a-z]*(?:error|exception)\s*[:\-–]\s*)?(?:'[^'\n]{0,80}'|"[^"\n]{0,80}"|[^.!?\n;,'"]){0,80}?\b(?:not[\s_-]?found|does\s+not\s+exist|doesn['’]t\s+exist|do\s+not\s+exist|no\s+longer\s+exists)\b)/i;

/** Code points of the head of a text that is read for these words; past it the text is prose. */
export const VERDICT_TEXT_CHARS = 200;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The verdict of a text on its own: refusal first (a "403 … not found" page is a refusal), then not-found. */
export function textVerdict(s: string): EndingVerdict | undefined {
  const head = s.trimStart().slice(0, VERDICT_TEXT_CHARS);
  if (REFUSAL_TEXT.test(head)) return { kind: 'refusal', said: s.trim() };
  // One short line only: a not-found is a tool's answer, not a sentence inside a report.
  const firstLine = head.split(/\r?\n/)[0] ?? '';
  const short = s.trim().length <= VERDICT_TEXT_CHARS && !/\r?\n/.test(s.trim());
  if (short && NOT_FOUND_TEXT.test(firstLine)) return { kind: 'not-found', said: s.trim() };
  if (PREFIX_TEXT.test(head)) return { kind: 'refusal', said: s.trim() };
  return undefined;
}

function httpCode(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v >= 100 && v <= 599 ? v : undefined;
  if (typeof v === 'string' && /^\s*[1-5]\d\d\s*$/.test(v)) return Number(v.trim());
  return undefined;
}

/** 404/410 → not-found; other 4xx and 5xx → refusal; else nothing. */
function codeVerdict(code: number | undefined): EndingVerdict['kind'] | undefined {
  if (code === undefined || code < 400) return undefined;
  return code === 404 || code === 410 ? 'not-found' : 'refusal';
}

function wordVerdict(v: unknown): EndingVerdict['kind'] | undefined {
  const w = text(v)?.toLowerCase();
  if (w === undefined) return undefined;
  if (NOT_FOUND_STATUS_WORDS.has(w) || /(?:^|_)not_?found$|^no_such_|_not_found(?:_|$)/.test(w)) return 'not-found';
  if (REFUSAL_STATUS_WORDS.has(w)) return 'refusal';
  return undefined;
}

/** A value that holds nothing: null, blank, an empty list or object. */
function holdsNothing(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}

/** The leaf values of the call's arguments, for telling an echo of the query from entity data. */
function argumentValues(args: unknown, into = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8) return into;
  if (typeof args === 'string' || typeof args === 'number') into.add(String(args).trim().toLowerCase());
  else if (Array.isArray(args)) for (const a of args) argumentValues(a, into, depth + 1);
  else if (isPlainObject(args)) for (const v of Object.values(args)) argumentValues(v, into, depth + 1);
  return into;
}

/** Keys of `o` that carry entity data: not error or response keys, not empty, not an echo of an argument. */
function entityKeys(o: Record<string, unknown>, args: unknown): string[] {
  const echoes = argumentValues(args);
  return Object.keys(o).filter((k) => {
    const lower = k.toLowerCase();
    if (ERROR_KEYS.has(lower) || RESPONSE_KEYS.has(lower)) return false;
    const v = o[k];
    if (holdsNothing(v)) return false;
    if ((typeof v === 'string' || typeof v === 'number') && echoes.has(String(v).trim().toLowerCase())) return false;
    return true;
  });
}

/** The words an error object states: a message, a detail, a reason, an error string. */
function wordsOf(o: Record<string, unknown>): string | undefined {
  const err = o['error'];
  return (
    text(err) ??
    (isPlainObject(err) ? (text(err['message']) ?? text(err['detail']) ?? text(err['status'])) : undefined) ??
    text(o['message']) ??
    text(o['detail']) ??
    text(o['reason']) ??
    text(o['error_description']) ??
    text(o['title'])
  );
}

function firstError(errors: unknown): Record<string, unknown> | undefined {
  return Array.isArray(errors) ? errors.find(isPlainObject) : undefined;
}

function describe(kind: EndingVerdict['kind'], lead: string, words: string | undefined): EndingVerdict {
  return { kind, said: words !== undefined && words !== lead ? `${lead}: ${words}` : lead };
}

/** The words of an envelope's verdict, in the reading's long-standing form: `status "denied": …`, `error: …`. */
function saidOf(o: Record<string, unknown>, kind: EndingVerdict['kind'], lead: string, words: string | undefined): EndingVerdict {
  const status = typeof o['status'] === 'string' ? text(o['status']) : undefined;
  if (status !== undefined && wordVerdict(status) !== undefined) return describe(kind, `status "${status}"`, words);
  const err = o['error'];
  const errorSignal = (typeof err === 'string' && err.trim() !== '') || isPlainObject(err) || err === true;
  if (errorSignal && words !== undefined) return { kind, said: `error: ${words}` };
  if (o['isError'] === true) return describe(kind, 'isError: true', words);
  return describe(kind, lead, words);
}

/** The verdict an object's own fields state, when every non-empty field is an error or response field. */
function envelopeVerdict(o: Record<string, unknown>): EndingVerdict | undefined {
  const words = wordsOf(o);
  const err = o['error'];
  const errObj = isPlainObject(err) ? err : undefined;
  const gqlError = o['data'] === null ? firstError(o['errors']) : undefined;

  // The strongest signals first: codes, then status words, then the words themselves.
  const codeKeys: [string, unknown][] = [
    ['status', o['status']], ['statusCode', o['statusCode'] ?? o['status_code']], ['code', o['code']],
    ['error.code', errObj?.['code']], ['error.status', errObj?.['status']],
  ];
  for (const [where, v] of codeKeys) {
    const kind = codeVerdict(httpCode(v));
    if (kind) return saidOf(o, kind, `${where} ${httpCode(v)}`, words);
  }
  const wordKeys: [string, unknown][] = [
    ['status', o['status']], ['code', o['code']], ['error', typeof err === 'string' && /^[A-Za-z_]+$/.test(err) ? err : undefined],
    ['error.status', errObj?.['status']], ['error.code', errObj?.['code']],
    ['errors[0].extensions.code', isPlainObject(gqlError?.['extensions']) ? gqlError['extensions']['code'] : undefined],
  ];
  for (const [where, v] of wordKeys) {
    const kind = wordVerdict(v);
    if (kind) return saidOf(o, kind, `${where} "${text(v)}"`, words);
  }
  if (gqlError !== undefined) {
    const msg = text(gqlError['message']);
    const t = msg !== undefined ? textVerdict(msg) : undefined;
    return describe(t?.kind === 'not-found' ? 'not-found' : 'refusal', 'data null with errors', msg);
  }
  if (o['ok'] === false || o['success'] === false || o['isError'] === true) {
    const lead = o['ok'] === false ? 'ok: false' : o['success'] === false ? 'success: false' : 'isError: true';
    const said = words ?? mcpText(o);
    const t = said !== undefined ? textVerdict(said) : undefined;
    return saidOf(o, t?.kind === 'not-found' ? 'not-found' : 'refusal', lead, words);
  }
  const errorSignal = (typeof err === 'string' && err.trim() !== '') || errObj !== undefined || (err === true && words !== undefined) || (Array.isArray(o['errors']) && o['errors'].length > 0);
  if (words !== undefined) {
    const t = textVerdict(words);
    if (t) return saidOf(o, t.kind, 'message', words);
  }
  if (errorSignal) {
    const gq = firstError(o['errors']);
    const said = words ?? (gq ? text(gq['message']) : undefined);
    // An error object with nothing to say (`{"error": {"code": 0}}`) says nothing.
    if (said === undefined) return undefined;
    return saidOf(o, 'refusal', 'error', said);
  }
  return undefined;
}

function mcpText(o: Record<string, unknown>): string | undefined {
  const content = o['content'];
  if (!Array.isArray(content)) return undefined;
  for (const part of content) if (isPlainObject(part) && part['type'] === 'text' && text(part['text'])) return text(part['text']);
  return undefined;
}

function at(o: unknown, path: string): unknown {
  let cur: unknown = o;
  for (const key of path.split('.')) {
    if (!isPlainObject(cur) || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function matchesValue(v: unknown, listed: readonly (string | number)[] | undefined): boolean {
  if (listed === undefined || v === undefined || v === null) return false;
  const s = String(v).trim().toLowerCase();
  return listed.some((l) => String(l).trim().toLowerCase() === s);
}

function startsWithAny(s: string, listed: readonly (string | number)[] | undefined): boolean {
  const head = s.trimStart().toLowerCase();
  return (listed ?? []).some((l) => String(l).trim() !== '' && head.startsWith(String(l).trim().toLowerCase()));
}

/** The verdict a tool's declared error shape gives, or undefined when it does not decide. */
export function declaredVerdict(result: unknown, shape: ErrorShapeDeclaration | undefined): EndingVerdict | undefined {
  if (!shape) return undefined;
  if (shape.field === undefined) {
    if (typeof result !== 'string') return undefined;
    if (startsWithAny(result, shape.notFound)) return { kind: 'not-found', said: result.trim() };
    if (startsWithAny(result, shape.refused)) return { kind: 'refusal', said: result.trim() };
    return undefined;
  }
  const v = at(result, shape.field);
  const words = shape.message !== undefined ? text(at(result, shape.message)) : undefined;
  if (matchesValue(v, shape.notFound)) return describe('not-found', `${shape.field} ${JSON.stringify(v)}`, words);
  if (matchesValue(v, shape.refused)) return describe('refusal', `${shape.field} ${JSON.stringify(v)}`, words);
  return undefined;
}

/**
 * What an object result says about how its call ended. An object with entity data beside its
 * error-type fields is data (a job whose `status` is "failed"); an argument echoed back
 * (`{"order_id": "A-17", "error": "not found"}`) is not entity data.
 */
export function objectVerdict(o: Record<string, unknown>, args?: unknown): EndingVerdict | undefined {
  if (entityKeys(o, args).length > 0) return undefined;
  return envelopeVerdict(o);
}
