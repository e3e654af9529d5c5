// A trace may hold several turns (an app that keeps a whole session in one trace): this splits a
// trace's facts into one TurnFacts per turn. A turn ends with a final answer (a captured request
// that called no tool and wrote text); the requests after the last answer are a turn of their own.
// Reads, findings and standings go to the turn whose requests chose or hold them (a read by its
// call id, else by when it started; a finding by its subject span, else by its time; a standing by
// the answer's span). Earlier turns of the same trace count as earlier in the conversation (for
// the backtrack witness); later ones are left out. A trace whose requests cannot be told apart
// (content not captured) is one turn. Pure; must never move a fact to a turn it did not happen in.

import { spanKey } from '../model/telemetry.js';
import type { RequestFact, TurnFacts, WrittenEvent } from './facts.js';

/** Whether a request is a final answer: captured, no tool call, some text. */
export function isFinalAnswer(r: RequestFact): boolean {
  return r.frame !== undefined && r.request.toolCalls.length === 0 && r.request.outputText.some((t) => t.trim() !== '');
}

/** The trace's own requests grouped into turns, in order. */
function groups(f: TurnFacts): RequestFact[][] {
  const mine = f.requests.filter((r) => r.inTurn);
  const out: RequestFact[][] = [];
  let current: RequestFact[] = [];
  for (const r of mine) {
    current.push(r);
    if (isFinalAnswer(r)) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

export interface SplitTurn {
  facts: TurnFacts;
  index: number;
  count: number;
  /** When the turn's first request started (0n when it has none). */
  startedAt: bigint;
}

export function splitTurns(f: TurnFacts): SplitTurn[] {
  const turns = groups(f);
  if (turns.length <= 1) return [{ facts: f, index: 1, count: 1, startedAt: turns[0]?.[0] ? f.started.get(spanKey(turns[0][0].request.span)) ?? 0n : 0n }];
  const startOf = (g: RequestFact[]) => f.started.get(spanKey(g[0]!.request.span)) ?? 0n;
  const starts = turns.map(startOf);
  const turnOfTime = (t: bigint): number => {
    let at = 0;
    for (let i = 0; i < starts.length; i++) if (t >= starts[i]!) at = i;
    return at;
  };
  // Which turn each span of the trace belongs to: its requests, and the reads they chose.
  const spanTurn = new Map<string, number>();
  const callTurn = new Map<string, number>();
  turns.forEach((g, i) => {
    for (const r of g) {
      spanTurn.set(r.request.span.spanId, i);
      for (const c of r.request.toolCalls) if (c.id && !callTurn.has(c.id)) callTurn.set(c.id, i);
    }
  });
  const rowTurn = f.ledger.map((row) => {
    const byCall = row.callId !== undefined ? callTurn.get(row.callId) : undefined;
    const t = byCall ?? turnOfTime(f.started.get(spanKey(row.span)) ?? 0n);
    spanTurn.set(row.span.spanId, t);
    return t;
  });
  const eventTurn = (e: WrittenEvent): number => spanTurn.get(e.subjectSpanId) ?? (e.time > 0n ? turnOfTime(e.time) : turns.length - 1);

  return turns.map((g, i) => {
    const own = new Set(g.map((r) => r.order));
    const last = g[g.length - 1]!.order;
    const standing = f.standings.filter((e) => eventTurn(e) === i).at(-1);
    const facts: TurnFacts = {
      ...f,
      // Earlier turns (of this trace or earlier traces) are history; later ones are not this turn's.
      requests: f.requests.filter((r) => r.order <= last).map((r) => ({ ...r, inTurn: own.has(r.order) })),
      ledger: f.ledger.filter((_, k) => rowTurn[k] === i),
      findings: f.findings.filter((e) => eventTurn(e) === i),
      standings: f.standings.filter((e) => eventTurn(e) === i),
    };
    delete facts.standing;
    if (standing) facts.standing = standing;
    return { facts, index: i + 1, count: turns.length, startedAt: starts[i]! };
  });
}
