// The windows the page shows, with each finding's value marked where it was chosen (the model's
// call), where it was written (the model's own earlier text), where the window served it, where
// it is absent, and where it was LAST served before (the backtrack witness: an earlier request's
// window, linked). Locates values in the frames the core's own builder made; decides nothing.
// One mark per value and place, however many findings share the value.
// Pure; must never put a value into a mark that the finding event did not already write.

import type { ToolCall } from '../model/agent.js';
import { quoteText, hashValue, OMITTED } from '../findings/quote.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { pointerTo, type RequestFact, type TurnFacts } from './facts.js';
import type { FindingView, Pointer, ValueMark, WindowMessage, WindowView } from './types.js';

/** The argument at a predicate like `args.window.days` (undefined when the call has none). */
function argumentAt(call: ToolCall, predicate: string): string | undefined {
  if (!predicate.startsWith('args.')) return undefined;
  let node: unknown = call.arguments;
  if (typeof node === 'string') {
    try {
      node = JSON.parse(node);
    } catch {
      return undefined;
    }
  }
  for (const k of predicate.slice(5).split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[k];
  }
  return typeof node === 'string' ? node : typeof node === 'number' ? String(node) : undefined;
}

interface Located {
  view: FindingView;
  raw: string;
  /** The request whose window the finding concerns. */
  request: RequestFact;
  call?: ToolCall;
}

function locateFinding(f: TurnFacts, v: FindingView, predicate: string | undefined): Located | undefined {
  const requestOfCall = v.callId ? f.requests.find((r) => r.request.toolCalls.some((c) => c.id === v.callId)) : undefined;
  const request = f.requests.find((r) => r.request.span.spanId === v.spanId && r.request.span.traceId === f.traceId) ?? requestOfCall;
  if (!request || v.value === undefined) return undefined;
  const call = v.callId ? request.request.toolCalls.find((c) => c.id === v.callId) : undefined;
  const fromArgs = call && predicate ? argumentAt(call, predicate) : undefined;
  const cap = DEFAULT_LIMITS.quotedValueChars;
  // The raw value only when it is the one the event wrote (quoted, hashed or omitted from it).
  if (fromArgs !== undefined && (quoteText(fromArgs, cap) === v.value || hashValue(fromArgs) === v.value || v.value === OMITTED)) return { view: v, raw: fromArgs, request, ...(call ? { call } : {}) };
  if (v.value !== OMITTED && !v.value.startsWith('sha256:') && !v.value.endsWith('…') && v.value.trim() !== '') return { view: v, raw: v.value, request, ...(call ? { call } : {}) };
  return undefined;
}

function servesIt(r: RequestFact, raw: string): boolean {
  return (r.frame?.served ?? []).some((s) => s.source !== 'tool-schema' && s.text.includes(raw));
}

function baseWindow(f: TurnFacts, r: RequestFact): WindowView {
  const messages: WindowMessage[] = r.request.input.map((m, index) => {
    const call = m.parts.find((p) => p.type === 'tool-call');
    const result = m.parts.find((p) => p.type === 'tool-result');
    const toolName = (result && 'name' in result ? result.name : undefined) ?? (call && 'name' in call ? call.name : undefined);
    const callId = (result && 'id' in result ? result.id : undefined) ?? (call && 'id' in call ? call.id : undefined);
    return {
      index,
      role: m.role,
      stratum: m.role === 'assistant' ? 'written' : 'served',
      ...(toolName ? { toolName } : {}),
      ...(callId ? { callId } : {}),
      marks: [],
    };
  });
  return {
    spanId: r.request.span.spanId,
    traceId: r.request.span.traceId,
    request: r.order,
    ...(r.request.model ? { model: r.request.model } : {}),
    content: r.frame ? 'captured' : 'not-captured',
    messages,
    chosen: r.request.toolCalls.map((c) => ({ toolName: c.name, ...(c.id ? { callId: c.id } : {}), marks: [] })),
    inTurn: r.inTurn,
    absent: [],
  };
}

function markWindow(w: WindowView, r: RequestFact, loc: Located, mark: 'served' | 'written' | 'both'): void {
  const frame = r.frame;
  if (!frame) return;
  const at = (message: number, m: ValueMark['mark']) => {
    const msg = w.messages[message];
    if (msg && !msg.marks.some((x) => x.value === loc.view.value && x.mark === m)) msg.marks.push({ findingId: loc.view.id, value: loc.view.value!, mark: m });
  };
  if (mark !== 'written') for (const s of frame.served) if (s.source !== 'tool-schema' && s.text.includes(loc.raw)) at(s.message, 'served');
  if (mark !== 'served') for (const s of frame.written) if (s.text.includes(loc.raw)) at(s.message, 'written');
}

export function marksOf(f: TurnFacts, views: FindingView[], asked?: { traceId: string; spanId: string; text: string }, answer?: { traceId: string; spanId: string; text: string }): WindowView[] {
  const windows = new Map<number, WindowView>();
  const windowOf = (r: RequestFact) => {
    let w = windows.get(r.order);
    if (!w) windows.set(r.order, (w = baseWindow(f, r)));
    return w;
  };
  for (const r of f.requests) if (r.inTurn) windowOf(r);

  for (const v of views) {
    const e = f.findings.find((x) => x.attributes['footprint.finding.id'] === v.id);
    const predicate = e ? (e.attributes['footprint.finding.predicate'] as string | undefined) : undefined;
    const loc = locateFinding(f, v, predicate);
    if (!loc) continue;
    const w = windowOf(loc.request);
    markWindow(w, loc.request, loc, 'both');
    if (loc.call) {
      const chosen = w.chosen.find((c) => c.callId === loc.call!.id && c.toolName === loc.call!.name);
      if (chosen && !chosen.marks.some((m) => m.value === v.value)) chosen.marks.push({ findingId: v.id, value: v.value!, mark: 'chosen' });
    }
    // One note per value and window, however many findings share it.
    const noted = (mark: ValueMark['mark']) => w.absent.some((m) => m.mark === mark && m.value === v.value);
    if (!servesIt(loc.request, loc.raw) && loc.request.frame && !noted('absent')) w.absent.push({ findingId: v.id, value: v.value!, mark: 'absent' });
    // The backtrack witness: the latest earlier window that served the value.
    const earlier = [...f.requests].reverse().find((r) => r.order < loc.request.order && servesIt(r, loc.raw));
    if (earlier) {
      const back: Pointer = { traceId: earlier.request.span.traceId, spanId: earlier.request.span.spanId, path: '' };
      if (!noted('last-served')) w.absent.push({ findingId: v.id, value: v.value!, mark: 'last-served', backtrack: back });
      markWindow(windowOf(earlier), earlier, loc, 'served');
    }
  }

  // Where the content of the turn's own message and of the final answer is (the shown map allows those two).
  const out = [...windows.values()].sort((a, b) => a.request - b.request);
  for (const w of out) {
    for (const m of w.messages) {
      if (asked && m.role === 'user' && w.spanId === asked.spanId && w.traceId === asked.traceId) {
        const req = f.requests.find((r) => r.order === w.request)!;
        const text = req.request.input[m.index]!.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('\n');
        if (text === asked.text) m.pointer = pointerTo(f, w.traceId, w.spanId, text);
      }
    }
  }
  void answer;
  return out;
}
