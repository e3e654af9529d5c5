// Rebuilds the request windows of Mastra 1.x's `model_inference` chat spans from the evidence of
// the same agent run, so the GenAI reader can read them. Mastra writes each provider request's
// input as a text preview (`[{role, content: string}]`, tool calls as "[tool: name]", results as
// "[tool-result: name]") and its output as the text only; but every tool it executes is an
// `execute_tool` span under the same `model_step` as the inference that chose it, with the model's
// call id, arguments and result. So: step k's inference chose exactly step k's tool spans, and
// each placeholder of a later step's preview is replaced, in order and by tool name, by the call
// and result of the earlier steps' tool spans.
// Must never guess: one placeholder that does not match exactly (count, order, name), a cut value
// ("…[truncated]", "[MaxDepth]"), a finish reason that contradicts the tool spans, or a step with
// a retried inference leaves the span as it is (read as unread, with MASTRA_1X_PREVIEW_NOT_READ).
// Never throws, never changes the spans it was given (returns copies), and sees only one batch.

import { z } from 'zod';
import { spanKey, type SpanData } from '../model/telemetry.js';
import type { Limits } from '../limits.js';
import { MASTRA_SPAN_TYPE } from './mastra-export.js';
import {
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OPERATION_NAME,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_RESPONSE_FINISH_REASONS,
  GEN_AI_TOOL_CALL_ARGUMENTS,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_CALL_RESULT,
  GEN_AI_TOOL_NAME,
  OP_EXECUTE_TOOL,
} from './keys-genai.js';

/** Mastra's span types (`SpanType` in @mastra/core/observability), as `mastra.span.type` carries them. */
const MODEL_INFERENCE = 'model_inference';
const MODEL_STEP = 'model_step';
/** The tool spans Mastra itself executes (a PROVIDER_TOOL_CALL ran at the provider: not rebuilt). */
const EXECUTED_TOOL_TYPES: ReadonlySet<string> = new Set(['tool_call', 'mcp_tool_call']);
/** `mastra.model_step.step_index`: the step's place in its generation loop. */
const STEP_INDEX = 'mastra.model_step.step_index';
/** `mastra.model_step.output`: the step's `{text, toolCalls:[{toolCallId, toolName, args}], …}` (the model's chosen calls). */
const STEP_OUTPUT = 'mastra.model_step.output';
/** The AI SDK finish reason of a step that ended in tool calls. */
const FINISH_TOOL_CALLS = 'tool-calls';
/** What Mastra's bounded serializer (`deepClean`) leaves where it cut a value: such a value is not the one sent. */
const CUT_MARKERS: readonly string[] = ['…[truncated]', '[MaxDepth]', '[Circular]', '__truncated', ' more items]'];

const CALL_TOKEN = /\[tool: ([^[\]]*)\]/g;
const RESULT_TOKEN = /\[tool-result: ([^[\]]*)\]/g;
const ONLY_RESULT_TOKENS = /^(?:\s*\[tool-result: [^[\]]*\])+\s*$/;

const Preview = z.array(z.object({ role: z.string(), content: z.string() }));
const OutputMessages = z.array(z.object({ role: z.literal('assistant'), parts: z.array(z.object({ type: z.literal('text'), content: z.string() })) }));
const FinishReasons = z.array(z.string()).min(1);
const StepOutput = z.object({ toolCalls: z.array(z.unknown()).optional() }).passthrough();

/** One tool Mastra executed: the model's call as its `execute_tool` span recorded it. */
interface Execution {
  name: string;
  id: string;
  /** The raw JSON strings Mastra wrote (`gen_ai.tool.call.arguments` / `.result`). */
  args: string;
  result: string;
}

interface Step {
  inferences: SpanData[];
  /** In the order they started; undefined when one of them cannot be used (the step poisons every later window). */
  executions: Execution[] | undefined;
  index: number;
  start: bigint;
}

type SemconvPart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_call_response'; id: string; name: string; response: string };
interface SemconvMessage {
  role: string;
  parts: SemconvPart[];
}

const typeOf = (s: SpanData) => s.attributes[MASTRA_SPAN_TYPE];
const isCut = (text: string) => CUT_MARKERS.some((m) => text.includes(m));
const cmp = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);

function parseJson<T>(value: unknown, schema: z.ZodType<T>, limits: Limits): T | undefined {
  if (typeof value !== 'string' || value.length > limits.maxJsonAttributeBytes) return undefined;
  try {
    const r = schema.safeParse(JSON.parse(value));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

function executionOf(span: SpanData): Execution | undefined {
  const a = span.attributes;
  const type = typeOf(span);
  const name = a[GEN_AI_TOOL_NAME];
  const id = a[GEN_AI_TOOL_CALL_ID];
  const args = a[GEN_AI_TOOL_CALL_ARGUMENTS];
  const result = a[GEN_AI_TOOL_CALL_RESULT];
  if (typeof type !== 'string' || !EXECUTED_TOOL_TYPES.has(type)) return undefined;
  if (typeof name !== 'string' || name === '' || typeof id !== 'string' || id === '') return undefined;
  // A tool that failed has no result attribute: what the model was shown instead is not recorded.
  if (typeof args !== 'string' || typeof result !== 'string' || isCut(args) || isCut(result)) return undefined;
  return { name, id, args, result };
}

/**
 * Whether the step's own record of the model's chosen calls (its output's `toolCalls`, where
 * recorded) names exactly the call ids of its tool spans: a call the model chose that Mastra did
 * not execute (or an id cut by the serializer) makes the step unusable. No record: nothing to contradict.
 */
function agreesWithStepOutput(step: SpanData, executions: readonly Execution[], limits: Limits): boolean {
  const raw = step.attributes[STEP_OUTPUT];
  if (raw === undefined) return true;
  const output = parseJson(raw, StepOutput, limits);
  if (!output) return false;
  if (output.toolCalls === undefined) return executions.length === 0;
  const ids = output.toolCalls.map((c) => {
    if (c === null || typeof c !== 'object') return undefined;
    const o = c as { toolCallId?: unknown; payload?: { toolCallId?: unknown } };
    const id = o.toolCallId ?? o.payload?.toolCallId;
    return typeof id === 'string' ? id : undefined;
  });
  const mine = executions.map((e) => e.id);
  return ids.length === mine.length && ids.every((id) => id !== undefined && mine.includes(id)) && new Set(ids).size === ids.length;
}

/** The steps of each generation loop in this batch, keyed by the loop's span (the steps' parent). */
function stepsByRun(spans: readonly SpanData[], traces: ReadonlySet<string>, limits: Limits): Map<string, Step[]> {
  const steps = new Map<string, { span: SpanData; step: Step }>();
  for (const s of spans) {
    if (!traces.has(s.traceId) || typeOf(s) !== MODEL_STEP || s.parentSpanId === undefined) continue;
    const index = s.attributes[STEP_INDEX];
    steps.set(spanKey(s), { span: s, step: { inferences: [], executions: [], index: typeof index === 'number' ? index : -1, start: s.startTimeUnixNano } });
  }
  const tools = new Map<string, SpanData[]>();
  for (const s of spans) {
    if (!traces.has(s.traceId) || s.parentSpanId === undefined) continue;
    const parent = steps.get(`${s.traceId}/${s.parentSpanId}`);
    if (!parent) continue;
    if (typeOf(s) === MODEL_INFERENCE) parent.step.inferences.push(s);
    else if (s.attributes[GEN_AI_OPERATION_NAME] === OP_EXECUTE_TOOL) {
      const list = tools.get(spanKey(parent.span)) ?? [];
      list.push(s);
      tools.set(spanKey(parent.span), list);
    }
  }
  const runs = new Map<string, Step[]>();
  for (const [key, { span, step }] of steps) {
    const own = (tools.get(key) ?? []).sort((x, y) => cmp(x.startTimeUnixNano, y.startTimeUnixNano) || cmp(x.endTimeUnixNano, y.endTimeUnixNano) || (x.spanId < y.spanId ? -1 : 1));
    const executions = own.map(executionOf);
    step.executions = executions.every((e): e is Execution => e !== undefined) && agreesWithStepOutput(span, executions as Execution[], limits) ? executions : undefined;
    const runKey = `${span.traceId}/${span.parentSpanId}`;
    const list = runs.get(runKey) ?? [];
    list.push(step);
    runs.set(runKey, list);
  }
  for (const list of runs.values()) list.sort((x, y) => x.index - y.index || cmp(x.start, y.start));
  return runs;
}

/**
 * The preview with every placeholder replaced by the matching execution of the earlier steps, or
 * undefined when they do not match exactly: each step's calls (in the step's order, by name)
 * before its results, every step's before the next one's, and no placeholder or execution left over.
 */
export function matchPreview(preview: readonly { role: string; content: string }[], earlier: readonly (readonly Execution[])[]): SemconvMessage[] | undefined {
  const withCalls = earlier.filter((e) => e.length > 0);
  let si = 0;
  let calls: Execution[] = withCalls[0] ? [...withCalls[0]] : [];
  let results: Execution[] = [];
  const takeCall = (name: string): Execution | undefined => {
    if (calls.length === 0) {
      if (results.length > 0 || ++si >= withCalls.length) return undefined;
      calls = [...withCalls[si]!];
    }
    const i = calls.findIndex((e) => e.name === name);
    if (i < 0) return undefined;
    const [e] = calls.splice(i, 1);
    results.push(e!);
    return e;
  };
  const takeResult = (name: string): Execution | undefined => {
    const i = results.findIndex((e) => e.name === name);
    if (i < 0) return undefined;
    return results.splice(i, 1)[0];
  };
  const out: SemconvMessage[] = [];
  for (const m of preview) {
    if (isCut(m.content)) return undefined;
    if (m.role === 'system' || m.role === 'user') {
      out.push({ role: m.role, parts: [{ type: 'text', content: m.content }] });
      continue;
    }
    const parts: SemconvPart[] = [];
    if (m.role === 'assistant') {
      if (m.content.includes('[tool-result: ')) return undefined;
      let at = 0;
      for (const t of m.content.matchAll(CALL_TOKEN)) {
        const text = m.content.slice(at, t.index).trim();
        if (text !== '') parts.push({ type: 'text', content: text });
        const e = takeCall(t[1]!);
        if (!e) return undefined;
        parts.push({ type: 'tool_call', id: e.id, name: e.name, arguments: e.args });
        at = t.index + t[0].length;
      }
      const rest = m.content.slice(at).trim();
      if (rest !== '') parts.push({ type: 'text', content: rest });
    } else if (m.role === 'tool') {
      // Only placeholders: a result inlined as text (a tool's `toModelOutput`) cannot be told apart.
      if (!ONLY_RESULT_TOKENS.test(m.content)) return undefined;
      for (const t of m.content.matchAll(RESULT_TOKEN)) {
        const e = takeResult(t[1]!);
        if (!e) return undefined;
        parts.push({ type: 'tool_call_response', id: e.id, name: e.name, response: e.result });
      }
    } else return undefined;
    out.push({ role: m.role, parts });
  }
  const done = withCalls.length === 0 ? calls.length === 0 : si === withCalls.length - 1 && calls.length === 0 && results.length === 0;
  return done ? out : undefined;
}

/** Step k's response: its text and, as the chosen calls, step k's executions; undefined when the finish reason says otherwise. */
function outputOf(inference: SpanData, executions: readonly Execution[], limits: Limits): SemconvMessage[] | undefined {
  const a = inference.attributes;
  const finish = parseJson(a[GEN_AI_RESPONSE_FINISH_REASONS], FinishReasons, limits);
  if (!finish || (executions.length > 0) !== (finish[0] === FINISH_TOOL_CALLS)) return undefined;
  const raw = a[GEN_AI_OUTPUT_MESSAGES];
  const messages = raw === undefined ? [] : parseJson(raw, OutputMessages, limits);
  if (!messages) return undefined;
  const text = messages.flatMap((m) => m.parts.map((p) => p.content)).join('');
  if (isCut(text)) return undefined;
  const parts: SemconvPart[] = [
    ...(text.trim() !== '' ? [{ type: 'text' as const, content: text }] : []),
    ...executions.map((e) => ({ type: 'tool_call' as const, id: e.id, name: e.name, arguments: e.args })),
  ];
  return [{ role: 'assistant', parts }];
}

/** Whether any of these spans is a Mastra 1.x model inference (what rebuildMastraWindows rebuilds): a cheap test first. */
export function hasMastraInference(spans: readonly SpanData[]): boolean {
  for (const s of spans) if (typeOf(s) === MODEL_INFERENCE) return true;
  return false;
}

/**
 * The batch's Mastra 1.x inference spans whose window could be rebuilt exactly, as copies with
 * semconv `gen_ai.input.messages` / `gen_ai.output.messages`, keyed by span key. Empty (and one
 * pass, no parsing) for a batch without `model_inference` spans.
 */
export function rebuildMastraWindows(spans: readonly SpanData[], limits: Limits): Map<string, SpanData> {
  const out = new Map<string, SpanData>();
  const traces = new Set<string>();
  for (const s of spans) if (typeOf(s) === MODEL_INFERENCE) traces.add(s.traceId);
  if (traces.size === 0) return out;
  for (const steps of stepsByRun(spans, traces, limits).values()) {
    for (let k = 0; k < steps.length; k++) {
      const step = steps[k]!;
      if (step.inferences.length !== 1 || !step.executions) continue;
      const earlier = steps.slice(0, k).map((s) => s.executions);
      if (!earlier.every((e): e is Execution[] => e !== undefined)) continue;
      const inference = step.inferences[0]!;
      const preview = parseJson(inference.attributes[GEN_AI_INPUT_MESSAGES], Preview, limits);
      if (!preview) continue;
      const input = matchPreview(preview, earlier);
      const output = input && outputOf(inference, step.executions, limits);
      if (!input || !output) continue;
      out.set(spanKey(inference), {
        ...inference,
        attributes: { ...inference.attributes, [GEN_AI_INPUT_MESSAGES]: JSON.stringify(input), [GEN_AI_OUTPUT_MESSAGES]: JSON.stringify(output) },
      });
    }
  }
  return out;
}
