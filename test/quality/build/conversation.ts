// Plays a case script into the requests an app loop would send: per turn, per LLM request, the
// window (messages carried), the response (tool calls or the answer) and the calls it ran, with
// stable call ids, timestamps and ids. Neutral form, no layout; never decides what a finding is.

import { createHash } from 'node:crypto';
import type { CaseSpec, ToolCall } from './spec.js';

export interface PlacedCall extends ToolCall {
  id: string;
  /** The result text as served to the model. */
  text: string;
  start: bigint;
  end: bigint;
  spanId: string;
}

export type Message =
  | { role: 'system' | 'user'; text: string }
  | { role: 'assistant'; text: string }
  | { role: 'assistant'; calls: PlacedCall[] }
  | { role: 'tool'; results: PlacedCall[] };

export interface PlacedRequest {
  index: number;
  responseId: string;
  window: Message[];
  response: { calls: PlacedCall[] } | { text: string };
  start: bigint;
  end: bigint;
  spanId: string;
}

export interface PlacedTurn {
  index: number;
  traceId: string;
  rootSpanId: string;
  user: string;
  /** Messages before this turn's user message (system prompt and the kept history). */
  history: Message[];
  requests: PlacedRequest[];
  calls: PlacedCall[];
  answer: string;
  start: bigint;
  end: bigint;
}

/** 2026-11-30T09:00:00Z in Unix nanoseconds: every case starts here (cases are run one by one). */
export const BASE_NANO = 1796029200000000000n;
const MS = 1_000_000n;

export function hex(seed: string, length: number): string {
  return createHash('sha256').update(seed, 'utf8').digest('hex').slice(0, length);
}

export function resultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result);
}

export function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function windowText(window: Message[]): string {
  return window.map((m) => ('text' in m ? m.text : 'calls' in m ? JSON.stringify(m.calls.map((c) => c.args)) : m.results.map((r) => r.text).join(''))).join('');
}

export function placeConversation(spec: CaseSpec): PlacedTurn[] {
  let spanCounter = 0;
  let callCounter = 0;
  let requestCounter = 0;
  const nextSpan = () => hex(`${spec.name}/span/${++spanCounter}`, 16);
  const memory = spec.memory ?? 'dialogue';
  const turns: PlacedTurn[] = [];
  let kept: Message[] = [];
  spec.turns.forEach((turn, t) => {
    const start = BASE_NANO + BigInt(t) * 300_000n * MS;
    let clock = start + 1n * MS;
    const history: Message[] = [{ role: 'system', text: spec.system }, ...kept];
    const running: Message[] = [...history, { role: 'user', text: turn.user }];
    const rootSpanId = nextSpan();
    const requests: PlacedRequest[] = [];
    const calls: PlacedCall[] = [];
    for (const step of turn.steps) {
      const reqStart = clock;
      const reqEnd = clock + 40n * MS;
      const placed: PlacedCall[] = step.calls.map((c) => ({
        ...c,
        id: `call_${hex(spec.name, 4)}_${String(++callCounter).padStart(3, '0')}`,
        text: resultText(c.result),
        start: 0n,
        end: 0n,
        spanId: '',
      }));
      requests.push({
        index: ++requestCounter,
        responseId: `chatcmpl-${spec.name}-${String(requestCounter).padStart(3, '0')}`,
        window: [...running],
        response: { calls: placed },
        start: reqStart,
        end: reqEnd,
        spanId: nextSpan(),
      });
      clock = reqEnd + 1n * MS;
      for (const c of placed) {
        c.start = clock;
        c.end = clock + 5n * MS;
        c.spanId = nextSpan();
        clock = c.end + 1n * MS;
        calls.push(c);
      }
      running.push({ role: 'assistant', calls: placed }, { role: 'tool', results: placed });
    }
    const reqStart = clock;
    const reqEnd = clock + 40n * MS;
    requests.push({
      index: ++requestCounter,
      responseId: `chatcmpl-${spec.name}-${String(requestCounter).padStart(3, '0')}`,
      window: [...running],
      response: { text: turn.answer },
      start: reqStart,
      end: reqEnd,
      spanId: nextSpan(),
    });
    turns.push({
      index: t + 1,
      traceId: hex(`${spec.name}/trace/${t + 1}`, 32),
      rootSpanId,
      user: turn.user,
      history,
      requests,
      calls,
      answer: turn.answer,
      start,
      end: reqEnd + 1n * MS,
    });
    if (memory === 'answers-only') kept = [...kept, { role: 'assistant', text: turn.answer }];
    else if (memory === 'dialogue') kept = [...kept, { role: 'user', text: turn.user }, { role: 'assistant', text: turn.answer }];
    else kept = [...running.slice(1), { role: 'assistant', text: turn.answer }];
  });
  return turns;
}
