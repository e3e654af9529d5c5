// Composes the account of one turn from its facts (facts.ts): the verdict on top (one plain
// sentence: the reply, quoted, and what is likely wrong with it, from the main finding's row in
// kinds.ts), then the rows You asked · It answered · What is likely wrong · How sure · What it
// looked up · What it found · What it did not check · Checks that could not run, plus the windows,
// ledger, findings and disposition the page folds away for engineers. The verdict and How sure
// are one statement (both from verdictOf). Missing facts say "not recorded" / "cannot be told",
// never a guess. Every sentence comes from the template table through render.ts, with pointers.
// Pure; must never decide a finding or a standing (it states what the core wrote).

import type { LedgerRow } from '../model/ledger.js';
import type { LlmRequest } from '../model/agent.js';
import type { AttrValue } from '../model/telemetry.js';
import * as N from '../findings/names.js';
import { render } from './render.js';
import { TEMPLATE_SET_VERSION } from './templates.js';
import { pointerTo, type TurnFacts, type WrittenEvent } from './facts.js';
import { redactValue } from '../findings/quote.js';
import { marksOf } from './marks.js';
import { whySentence } from './kinds.js';
import { capitalised } from './words.js';
import type { Account, AccountRow, DispositionView, FindingView, LedgerView, Pointer, Sentence, Source, Tone, Verdict, WindowView, WitnessView } from './types.js';

const str = (v: AttrValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const lib = (value: string | number | readonly string[]): { value: string | number | readonly string[]; source: Source } => ({ value, source: 'library' });
const toolSrc = (name: string): Source => `tool:${name}`;

function eventPointer(e: WrittenEvent, attribute: string): Pointer {
  return { traceId: e.span.traceId, spanId: e.span.spanId, path: `/events/${e.index}/attributes/${attribute.replace(/~/g, '~0').replace(/\//g, '~1')}` };
}

/** The person's message of this turn: the last user text of the turn's first captured request. */
function askedOf(f: TurnFacts): { text: string; request: LlmRequest } | undefined {
  const first = f.requests.find((r) => r.inTurn && r.frame);
  if (!first) return undefined;
  const users = first.request.input.filter((m) => m.role === 'user' && m.parts.some((p) => p.type === 'text' && p.text.trim() !== ''));
  const last = users.at(-1);
  if (!last) return undefined;
  const text = last.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('\n');
  return { text, request: first.request };
}

/** The final answer: the turn's last captured request that chose no tool and wrote text. */
export function answerOf(f: TurnFacts): { text: string; request: LlmRequest } | undefined {
  const last = [...f.requests].reverse().find((r) => r.inTurn && r.frame && r.request.toolCalls.length === 0 && r.request.outputText.some((t) => t.trim() !== ''));
  return last ? { text: last.request.outputText.join('\n'), request: last.request } : undefined;
}

function toolPointer(f: TurnFacts, row: LedgerRow): Pointer {
  return pointerTo(f, row.span.traceId, row.span.spanId, row.toolName, ['attributes']);
}

function rowsPointer(row: LedgerRow): Pointer {
  return { traceId: row.span.traceId, spanId: row.span.spanId, path: '#rows' };
}

function youAsked(f: TurnFacts, asked: ReturnType<typeof askedOf>): Sentence[] {
  if (asked) {
    const p = pointerTo(f, asked.request.span.traceId, asked.request.span.spanId, asked.text);
    const shown = f.redaction === 'quote' ? asked.text : redactValue(asked.text, f.redaction, 0);
    return [render('asked.message', { message: { value: shown, source: 'person' } }, [p])];
  }
  if (f.requests.some((r) => r.inTurn)) return [render('asked.not-recorded', {}, f.requests.filter((r) => r.inTurn).slice(0, 1).map((r) => ({ ...r.request.span, path: '' })), 'not-recorded')];
  return [render('asked.no-request', {}, [], 'not-recorded')];
}

function itChecked(f: TurnFacts): Sentence[] {
  if (f.ledger.length === 0) return [render('checked.none', {}, [], f.requests.some((r) => r.inTurn) ? 'recorded' : 'not-recorded')];
  const out: Sentence[] = [];
  for (const row of f.ledger) {
    const p = toolPointer(f, row);
    out.push(render('checked.call', { tool: lib(row.toolName) }, [p]));
    for (const c of row.reading.coverage?.checked ?? []) {
      out.push(render('checked.coverage', { tool: lib(row.toolName), what: { value: f.hide(c.what), source: toolSrc(row.toolName) } }, [pointerTo(f, row.span.traceId, row.span.spanId, c.what)]));
    }
  }
  return out;
}

function itDidNotCheck(f: TurnFacts): Sentence[] {
  const out: Sentence[] = [];
  let declared = 0;
  for (const row of f.ledger) {
    const cov = row.reading.coverage;
    if (!cov) continue;
    declared++;
    const src = toolSrc(row.toolName);
    for (const c of cov.notChecked) {
      const p = [pointerTo(f, row.span.traceId, row.span.spanId, c.what)];
      out.push(c.why ? render('not-checked.item-why', { tool: lib(row.toolName), what: { value: f.hide(c.what), source: src }, why: { value: f.hide(c.why), source: src } }, p) : render('not-checked.item', { tool: lib(row.toolName), what: { value: f.hide(c.what), source: src } }, p));
    }
    for (const c of cov.cannotCover) {
      out.push(render('not-checked.cannot', { tool: lib(row.toolName), what: { value: f.hide(c.what), source: src }, why: { value: f.hide(c.why ?? ''), source: src } }, [pointerTo(f, row.span.traceId, row.span.spanId, c.what)]));
    }
  }
  if (out.length > 0) return out;
  // A claim that nothing was left unchecked needs every read to have declared its coverage.
  if (declared > 0 && declared === f.ledger.length) return [render('not-checked.none-declared-gap')];
  return [render('not-checked.undeclared', {}, [], 'not-recorded')];
}

function itFound(f: TurnFacts): Sentence[] {
  if (f.ledger.length === 0) return [render('found.nothing', {}, [], f.requests.some((r) => r.inTurn) ? 'recorded' : 'not-recorded')];
  return f.ledger.map((row) => {
    const tool = lib(row.toolName);
    const p = toolPointer(f, row);
    const r = row.reading;
    if (row.outcome === 'failed') return render('found.failed', { tool }, [p]);
    if (row.outcome === 'refused') return render('found.refused', { tool }, [p]);
    if (row.result === undefined) return render('found.not-recorded', { tool }, [p], 'not-recorded');
    if (r.emptiness === 'declared-absent') {
      return r.absence
        ? render('found.absent', { tool, lookedFor: { value: f.hide(r.absence.lookedFor), source: toolSrc(row.toolName) } }, [p, pointerTo(f, row.span.traceId, row.span.spanId, r.absence.lookedFor)])
        : render('found.absent-bare', { tool }, [p]);
    }
    if (r.emptiness === 'undeclared-empty') return render('found.empty-undeclared', { tool }, [p, rowsPointer(row)]);
    if (r.rows !== undefined) return render('found.rows', { tool, rows: { value: r.rows, source: toolSrc(row.toolName) } }, [p, rowsPointer(row)]);
    return render('found.result', { tool }, [p]);
  });
}

function standingOf(f: TurnFacts): { standing?: string; reasons: string[] } {
  const a = f.standing?.attributes;
  const reasons = a?.[N.ATTR_ANSWER_REASONS];
  return { ...(str(a?.[N.ATTR_ANSWER_STANDING]) ? { standing: str(a?.[N.ATTR_ANSWER_STANDING])! } : {}), reasons: Array.isArray(reasons) ? reasons.map(String) : [] };
}

function findingViews(f: TurnFacts): FindingView[] {
  return f.findings.map((e) => {
    const a = e.attributes;
    const value = str(a[N.ATTR_FINDING_VALUE]);
    const toolName = str(a[N.ATTR_TOOL_NAME]);
    const callId = str(a[N.ATTR_TOOL_CALL_ID]);
    const predicate = str(a[N.ATTR_FINDING_PREDICATE]);
    const grounding = str(a[N.ATTR_FINDING_GROUNDING]);
    const kind = str(a[N.ATTR_FINDING_KIND]) ?? 'unknown';
    const advisory = a[N.ATTR_FINDING_ADVISORY] === true;
    const message = f.hideText(str(a[N.ATTR_FINDING_MESSAGE]) ?? '');
    const witnesses = witnessesOf(f, str(a[N.ATTR_FINDING_WITNESSES]));
    const pointer = eventPointer(e, N.ATTR_FINDING_MESSAGE);
    const facts = { kind, advisory, message, witnesses, ...(grounding ? { grounding } : {}), ...(toolName ? { toolName } : {}), ...(predicate ? { predicate } : {}), ...(value !== undefined ? { value: f.hideText(value) } : {}) };
    return {
      id: str(a[N.ATTR_FINDING_ID]) ?? `${e.span.spanId}-${e.index}`,
      kind,
      seam: str(a[N.ATTR_FINDING_SEAM]) ?? 'unknown',
      spanId: e.subjectSpanId,
      ...(value !== undefined ? { value: f.hideText(value) } : {}),
      advisory,
      message,
      ...(predicate ? { predicate } : {}),
      ...(grounding ? { grounding } : {}),
      ...(toolName ? { toolName } : {}),
      ...(callId ? { callId } : {}),
      witnesses,
      plain: whySentence(facts, [pointer]),
      pointer,
    };
  });
}

/** The witnesses attribute the core wrote (JSON), as views; bad JSON gives none. */
function witnessesOf(f: TurnFacts, json: string | undefined): WitnessView[] {
  try {
    const parsed = JSON.parse(json ?? '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((w): w is Record<string, unknown> => w !== null && typeof w === 'object' && typeof (w as Record<string, unknown>).stratum === 'string')
      .map((w) => ({ subject: String(w.subject ?? ''), stratum: String(w.stratum), value: f.hideText(String(w.value ?? '')), provenance: f.hideText(String(w.provenance ?? '')) }));
  } catch {
    return [];
  }
}

function ran(f: TurnFacts): number {
  return dispositionView(f)?.checks.filter((c) => c.checked > 0).length ?? 0;
}

/** The standing's reasons as phrases, joined ("a lookup came back empty without saying what it searched; …"). */
function reasonsText(reasons: readonly string[]): string {
  return reasons
    .map((code) => {
      const s = render(`reason.${code}`);
      return s.template.id === 'unreadable.line' ? render('reason.other', { code: lib(code) }).text : s.text;
    })
    .join('; ');
}

/** At most this many code points of the reply are quoted in the verdict (the whole reply is its own row). */
const VERDICT_QUOTE_CHARS = 160;

function clipped(s: string): string {
  const points = Array.from(s.replace(/\s+/g, ' ').trim());
  return points.length <= VERDICT_QUOTE_CHARS ? points.join('') : `${points.slice(0, VERDICT_QUOTE_CHARS).join('')}…`;
}

const LABELS: Record<Tone, string> = { bad: 'Probably wrong', warn: 'Worth a look', ok: 'No problem found', unknown: 'Not checked' };

/**
 * The verdict and How sure, from one reading: a finding that is not advisory makes the reply
 * probably wrong; only advisories, worth a look; a `not-sure` standing, not confirmed; checks that
 * ran and found nothing (and a standing that is not `not-assessed`), no problem found.
 */
function verdictOf(f: TurnFacts, views: FindingView[], answer: ReturnType<typeof answerOf>): { verdict: Verdict; sure: Sentence[] } {
  const defects = views.filter((v) => !v.advisory);
  const advisories = views.filter((v) => v.advisory);
  const s = standingOf(f);
  const notSure = s.standing === 'not-sure' && s.reasons.length > 0;
  const standingPointers = f.standing ? [eventPointer(f.standing, N.ATTR_ANSWER_STANDING)] : [];
  // The reply is quoted only when it may be shown as it is.
  const quoted = answer && f.redaction === 'quote' ? { answer: { value: clipped(answer.text), source: 'model' as Source } } : undefined;
  const head = (tone: string) => (quoted ? render(`verdict.${tone}`, quoted) : answer ? render(`verdict.${tone}-unquoted`) : render(`verdict.${tone}-no-reply`));
  // Beside findings, only the reasons they do not already state (an unsupported value, a failed answer check).
  const besides = s.reasons.filter((r) => r !== 'value-unsupported' && r !== 'answer-check-failed');
  const also = notSure && besides.length > 0 ? [render('sure.also-not-sure', { reasons: lib(reasonsText(besides)) }, standingPointers)] : [];

  if (defects.length > 0) {
    // The main problem; a cut value on the same call says best why it went wrong.
    const first = defects[0]!;
    const cut = first.callId !== undefined ? views.find((v) => v.callId === first.callId && v.grounding === 'fragment') : undefined;
    const main = cut ?? first;
    return {
      verdict: { tone: 'bad', label: LABELS.bad, head: head('bad'), reason: main.plain },
      sure: [render('sure.bad', { problems: lib(defects.length) }, defects.slice(0, 12).map((v) => v.pointer)), ...also],
    };
  }
  if (advisories.length > 0) {
    return {
      verdict: { tone: 'warn', label: LABELS.warn, head: head('warn'), reason: advisories[0]!.plain },
      sure: [render('sure.warn', { advisories: lib(advisories.length) }, advisories.slice(0, 12).map((v) => v.pointer)), ...also],
    };
  }
  if (notSure) {
    const reasons = { reasons: lib(reasonsText(s.reasons)) };
    const h = quoted ? render('verdict.not-sure', { ...quoted, ...reasons }, standingPointers) : render('verdict.not-sure-unquoted', reasons, standingPointers);
    return { verdict: { tone: 'warn', label: 'Not confirmed', head: h }, sure: [render('sure.not-sure', reasons, standingPointers)] };
  }
  const n = ran(f);
  if (n > 0 && s.standing !== 'not-assessed' && (answer || !f.standing)) {
    const p = f.disposition ? [eventPointer(f.disposition, N.ATTR_DISPOSITION_SUMMARY)] : [];
    const h = quoted ? render('verdict.ok', { ...quoted, ran: lib(n) }, p) : render('verdict.ok-unquoted', { ran: lib(n) }, p);
    return { verdict: { tone: 'ok', label: LABELS.ok, head: h }, sure: [answer ? render('sure.ok', { ran: lib(n) }, [...standingPointers, ...p]) : render('sure.no-answer', {}, [], 'not-recorded')] };
  }
  const sure = !answer ? render('sure.no-answer', {}, [], 'not-recorded') : render('sure.not-assessed', {}, standingPointers);
  return { verdict: { tone: 'unknown', label: LABELS.unknown, head: render('verdict.unknown', {}, [], 'not-recorded') }, sure: [sure] };
}

function itAnswered(f: TurnFacts, answer: ReturnType<typeof answerOf>): Sentence[] {
  if (answer) {
    const p = pointerTo(f, answer.request.span.traceId, answer.request.span.spanId, answer.text);
    const shown = f.redaction === 'quote' ? answer.text : redactValue(answer.text, f.redaction, 0);
    return [render('answered.message', { answer: { value: shown, source: 'model' } }, [p])];
  }
  const mine = f.requests.filter((r) => r.inTurn);
  if (mine.length > 0 && mine.every((r) => !r.frame)) return [render('answered.not-recorded', {}, mine.slice(0, 1).map((r) => ({ ...r.request.span, path: '' })), 'not-recorded')];
  return [render('answered.none', {}, [], 'not-recorded')];
}

function likelyWrong(f: TurnFacts, views: FindingView[]): Sentence[] {
  if (views.length > 0) {
    // Problems first, then places to look; each in plain words.
    return [...views.filter((v) => !v.advisory), ...views.filter((v) => v.advisory)].map((v) => {
      const text = capitalised(v.plain.text);
      const parts = v.plain.parts.map((p, i) => (i === 0 && 'text' in p ? { text: capitalised(p.text) } : p));
      return { ...v.plain, text, parts };
    });
  }
  if (!f.disposition) return [render('unreachable.no-disposition', {}, [], 'not-recorded')];
  const n = ran(f);
  const p = [eventPointer(f.disposition, N.ATTR_DISPOSITION_SUMMARY)];
  return n > 0 ? [render('wrong.none', { ran: lib(n) }, p)] : [render('wrong.none-unchecked', {}, p)];
}

export function dispositionView(f: TurnFacts): DispositionView | undefined {
  if (!f.disposition) return undefined;
  const a = f.disposition.attributes;
  let checks: DispositionView['checks'] = [];
  try {
    const parsed = JSON.parse(str(a[N.ATTR_DISPOSITION_CHECKS]) ?? '[]') as unknown;
    if (Array.isArray(parsed)) {
      checks = parsed.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object').map((x) => ({
        check: String(x.check ?? ''),
        seam: String(x.seam ?? ''),
        checked: Number(x.checked ?? 0),
        findings: Number(x.findings ?? 0),
        notApplicable: Number(x.not_applicable ?? 0),
        unreachable: Number(x.unreachable ?? 0),
        reasons: x.unreachable_reasons && typeof x.unreachable_reasons === 'object' ? Object.keys(x.unreachable_reasons) : [],
      }));
    }
  } catch {
    checks = [];
  }
  return { summary: str(a[N.ATTR_DISPOSITION_SUMMARY]) ?? '', checks, pointer: eventPointer(f.disposition, N.ATTR_DISPOSITION_SUMMARY) };
}

function couldNotRun(f: TurnFacts): Sentence[] {
  const d = dispositionView(f);
  if (!d || !f.disposition) return [render('unreachable.no-disposition', {}, [], 'not-recorded')];
  const p = [eventPointer(f.disposition, N.ATTR_DISPOSITION_CHECKS)];
  const out = d.checks.filter((c) => c.unreachable > 0).map((c) => render('unreachable.check', { check: lib(c.check), why: lib(c.reasons.length ? c.reasons.join('; ') : 'no reason recorded') }, p));
  return out.length > 0 ? out : [render('unreachable.none', {}, p)];
}

function ledgerViews(f: TurnFacts): LedgerView[] {
  return f.ledger.map((row) => ({
    spanId: row.span.spanId,
    toolName: row.toolName,
    ...(row.callId ? { callId: row.callId } : {}),
    outcome: row.outcome,
    emptiness: row.result === undefined ? 'not recorded' : row.reading.emptiness,
    ...(row.reading.rows !== undefined ? { rows: row.reading.rows } : {}),
    ...(row.reading.coverage
      ? { coverage: { checked: row.reading.coverage.checked.map((c) => f.hide(c.what)), notChecked: row.reading.coverage.notChecked.map((c) => f.hide(c.what)), cannotCover: row.reading.coverage.cannotCover.map((c) => f.hide(c.what)) } }
      : {}),
    pointer: toolPointer(f, row),
  }));
}

export interface TurnPlace {
  index: number;
  count: number;
  startedAt: bigint;
}

export function composeAccount(f: TurnFacts, place: TurnPlace = { index: 1, count: 1, startedAt: 0n }): Account {
  const asked = askedOf(f);
  const answer = answerOf(f);
  const views = findingViews(f);
  const { verdict, sure } = verdictOf(f, views, answer);
  const rows: AccountRow[] = [
    { row: 'you-asked', title: 'You asked', sentences: youAsked(f, asked) },
    { row: 'it-answered', title: 'It answered', sentences: itAnswered(f, answer) },
    { row: 'likely-wrong', title: 'What is likely wrong', sentences: likelyWrong(f, views) },
    { row: 'how-sure', title: 'How sure', sentences: sure },
    { row: 'it-checked', title: 'What it looked up', sentences: itChecked(f) },
    { row: 'it-found', title: 'What it found', sentences: itFound(f) },
    { row: 'it-did-not-check', title: 'What it did not check', sentences: itDidNotCheck(f) },
    { row: 'could-not-run', title: 'Checks that could not run', sentences: couldNotRun(f) },
  ];
  const windows: WindowView[] = marksOf(f, views, asked ? { ...asked.request.span, text: asked.text } : undefined, answer ? { ...answer.request.span, text: answer.text } : undefined);
  const disposition = dispositionView(f);
  return {
    traceId: f.traceId,
    tenant: f.tenant,
    ...(f.turn?.agentName ? { turn: f.turn.agentName } : {}),
    turnIndex: place.index,
    turnCount: place.count,
    startedAt: place.startedAt > 0n ? String(place.startedAt) : '',
    templateSet: TEMPLATE_SET_VERSION,
    ...(asked ? { asked: pointerTo(f, asked.request.span.traceId, asked.request.span.spanId, asked.text) } : {}),
    ...(answer ? { answer: pointerTo(f, answer.request.span.traceId, answer.request.span.spanId, answer.text) } : {}),
    rows,
    verdict,
    windows,
    ledger: ledgerViews(f),
    findings: views,
    ...(disposition ? { disposition } : {}),
  };
}
