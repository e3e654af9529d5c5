// Composes the account of one turn from its facts (facts.ts): the rows You asked · It checked ·
// It did not check · It found · How sure · Anything wrong · Could not run, then a one-line
// summary {sentence, tone}, plus the windows, ledger, findings and disposition the page shows.
// Missing facts say "not recorded" / "cannot be told", never a guess. Every sentence comes from
// the template table through render.ts, with pointers into the trace.
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
import type { Account, AccountRow, DispositionView, FindingView, LedgerView, Pointer, Sentence, Source, Tone, WindowView } from './types.js';

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
    out.push(row.callId ? render('checked.call', { tool: lib(row.toolName), callId: lib(row.callId) }, [p]) : render('checked.call-no-id', { tool: lib(row.toolName) }, [p]));
    for (const c of row.reading.coverage?.checked ?? []) {
      out.push(render('checked.coverage', { tool: lib(row.toolName), what: { value: c.what, source: toolSrc(row.toolName) } }, [pointerTo(f, row.span.traceId, row.span.spanId, c.what)]));
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
      out.push(c.why ? render('not-checked.item-why', { tool: lib(row.toolName), what: { value: c.what, source: src }, why: { value: c.why, source: src } }, p) : render('not-checked.item', { tool: lib(row.toolName), what: { value: c.what, source: src } }, p));
    }
    for (const c of cov.cannotCover) {
      out.push(render('not-checked.cannot', { tool: lib(row.toolName), what: { value: c.what, source: src }, why: { value: c.why ?? '', source: src } }, [pointerTo(f, row.span.traceId, row.span.spanId, c.what)]));
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
        ? render('found.absent', { tool, lookedFor: { value: r.absence.lookedFor, source: toolSrc(row.toolName) } }, [p, pointerTo(f, row.span.traceId, row.span.spanId, r.absence.lookedFor)])
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

function howSure(f: TurnFacts, answered: boolean): Sentence[] {
  const s = standingOf(f);
  if (!f.standing || !s.standing) {
    if (!answered) return [render('sure.no-answer', {}, [], 'not-recorded')];
    return [render('sure.not-assessed', {}, [])];
  }
  const p = [eventPointer(f.standing, N.ATTR_ANSWER_STANDING)];
  if (s.standing === 'not-sure') return [render('sure.not-sure', { reasons: lib(s.reasons) }, [...p, ...s.reasons.map((_, i) => ({ ...eventPointer(f.standing!, N.ATTR_ANSWER_REASONS), path: `${eventPointer(f.standing!, N.ATTR_ANSWER_REASONS).path}/${i}` }))])];
  if (s.standing === 'consistent') return [render('sure.consistent', {}, p)];
  return [render('sure.not-assessed', {}, p)];
}

function findingViews(f: TurnFacts): FindingView[] {
  return f.findings.map((e) => {
    const a = e.attributes;
    const value = str(a[N.ATTR_FINDING_VALUE]);
    const toolName = str(a[N.ATTR_TOOL_NAME]);
    const callId = str(a[N.ATTR_TOOL_CALL_ID]);
    return {
      id: str(a[N.ATTR_FINDING_ID]) ?? `${e.span.spanId}-${e.index}`,
      kind: str(a[N.ATTR_FINDING_KIND]) ?? 'unknown',
      seam: str(a[N.ATTR_FINDING_SEAM]) ?? 'unknown',
      spanId: e.subjectSpanId,
      ...(value !== undefined ? { value } : {}),
      advisory: a[N.ATTR_FINDING_ADVISORY] === true,
      message: str(a[N.ATTR_FINDING_MESSAGE]) ?? '',
      ...(toolName ? { toolName } : {}),
      ...(callId ? { callId } : {}),
      pointer: eventPointer(e, N.ATTR_FINDING_MESSAGE),
    };
  });
}

function ran(f: TurnFacts): number {
  return dispositionView(f)?.checks.filter((c) => c.checked > 0).length ?? 0;
}

function anythingWrong(f: TurnFacts, views: FindingView[]): Sentence[] {
  if (views.length > 0) {
    return views.map((v) =>
      render(v.advisory ? 'wrong.advisory' : 'wrong.finding', { kind: lib(v.kind), seam: lib(v.seam), message: lib(v.message) }, [v.pointer]),
    );
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

function summary(f: TurnFacts, views: FindingView[]): { sentence: Sentence; tone: Tone } {
  const defects = views.filter((v) => !v.advisory);
  const advisories = views.length - defects.length;
  const s = standingOf(f);
  if (defects.length > 0) return { sentence: render('summary.bad', { findings: lib(defects.length) }, defects.slice(0, 12).map((v) => v.pointer)), tone: 'bad' };
  if (s.standing === 'not-sure') return { sentence: render('summary.warn', { reasons: lib(s.reasons) }, f.standing ? [eventPointer(f.standing, N.ATTR_ANSWER_REASONS)] : []), tone: 'warn' };
  if (advisories > 0) return { sentence: render('summary.warn-advisory', { advisories: lib(advisories) }, views.slice(0, 12).map((v) => v.pointer)), tone: 'warn' };
  if (ran(f) > 0 && s.standing !== 'not-assessed') return { sentence: render('summary.ok', {}, f.disposition ? [eventPointer(f.disposition, N.ATTR_DISPOSITION_SUMMARY)] : []), tone: 'ok' };
  return { sentence: render('summary.unknown', {}, [], 'not-recorded'), tone: 'unknown' };
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
      ? { coverage: { checked: row.reading.coverage.checked.map((c) => c.what), notChecked: row.reading.coverage.notChecked.map((c) => c.what), cannotCover: row.reading.coverage.cannotCover.map((c) => c.what) } }
      : {}),
    pointer: toolPointer(f, row),
  }));
}

export function composeAccount(f: TurnFacts): Account {
  const asked = askedOf(f);
  const answer = answerOf(f);
  const views = findingViews(f);
  const rows: AccountRow[] = [
    { row: 'you-asked', title: 'You asked', sentences: youAsked(f, asked) },
    { row: 'it-checked', title: 'It checked', sentences: itChecked(f) },
    { row: 'it-did-not-check', title: 'It did not check', sentences: itDidNotCheck(f) },
    { row: 'it-found', title: 'It found', sentences: itFound(f) },
    { row: 'how-sure', title: 'How sure', sentences: howSure(f, answer !== undefined) },
    { row: 'anything-wrong', title: 'Anything wrong', sentences: anythingWrong(f, views) },
    { row: 'could-not-run', title: 'Checks that could not run', sentences: couldNotRun(f) },
  ];
  const windows: WindowView[] = marksOf(f, views, asked ? { ...asked.request.span, text: asked.text } : undefined, answer ? { ...answer.request.span, text: answer.text } : undefined);
  const disposition = dispositionView(f);
  return {
    traceId: f.traceId,
    tenant: f.tenant,
    ...(f.turn?.agentName ? { turn: f.turn.agentName } : {}),
    templateSet: TEMPLATE_SET_VERSION,
    ...(asked ? { asked: pointerTo(f, asked.request.span.traceId, asked.request.span.spanId, asked.text) } : {}),
    ...(answer ? { answer: pointerTo(f, answer.request.span.traceId, answer.request.span.spanId, answer.text) } : {}),
    rows,
    summary: summary(f, views),
    windows,
    ledger: ledgerViews(f),
    findings: views,
    ...(disposition ? { disposition } : {}),
  };
}
