// Recognises Mastra's own OpenTelemetry export (`@mastra/otel-exporter`, scope `@mastra/otel`) on
// a span the GenAI reader claimed, and says why its content cannot be read, in words that are true
// for Mastra: the content is there, but in a shape that holds no request window. 0.x: the `chat`
// span is one per turn (`gen_ai.prompt` = the turn's opening prompt), the step spans' request body is
// cut at "[MaxDepth]" and tool spans carry no call id. 1.x with MODEL_INFERENCE spans: the window is
// Mastra's text preview (tool calls as "[tool: name]", results as "[tool-result: name]") and the
// output keeps the text only, not the chosen tool calls; mastra-1x.ts rebuilds such a window from
// the run's execute_tool spans where they match exactly, and only a rebuilt window is read here.
// Must never guess a window from either shape, never throw, and never claim a span that is not
// Mastra's (keys: `mastra.span.type`).

import type { AttrValue, SpanData } from '../model/telemetry.js';
import { GEN_AI_INPUT_MESSAGES } from './keys-genai.js';

/** Set on every span Mastra's exporter converts (0.x and 1.x). */
export const MASTRA_SPAN_TYPE = 'mastra.span.type';
/** Mastra 0.x's per-turn prompt JSON on its `chat` span (`{messages:[…]}`). */
const MASTRA_LEGACY_PROMPT = 'gen_ai.prompt';
/** The Mastra 1.x span type of one provider request (the `chat` span when the feature is on). */
const MODEL_INFERENCE = 'model_inference';
/** The Mastra 1.x span type of one generate/stream call (the `chat` span on older pairings). */
const MODEL_GENERATION = 'model_generation';

/** The reason for a Mastra 0.x `chat` span (one per turn, no per-request window). */
export const MASTRA_0X_NOT_READ =
  "Mastra 0.x's export holds no request window: its chat span is one per turn (gen_ai.prompt), its step spans cut the request body at \"[MaxDepth]\" and its tool spans carry no call id";

/** The reason for a Mastra 1.x `chat` span that stands for a whole generate call (older pairings). */
export const MASTRA_1X_TURN_NOT_READ =
  "Mastra's chat span here is one per turn, not per request: gen_ai.input.messages is the turn's opening prompt and gen_ai.output.messages its final text";

/** The reason for a Mastra 1.x `chat` span whose window is Mastra's text preview. */
export const MASTRA_1X_PREVIEW_NOT_READ =
  "Mastra 1.x's export holds a preview, not the request: tool calls and results in gen_ai.input.messages are \"[tool: name]\" / \"[tool-result: name]\" placeholders and gen_ai.output.messages keeps the text only; here they could not be matched exactly to the run's execute_tool spans (in the same batch, with call id, arguments and an uncut result), so the window was not rebuilt";

/**
 * True for a semconv window (every message has `parts`): what mastra-1x.ts rebuilds from the run's
 * tool spans. Anything else Mastra writes on a MODEL_INFERENCE span is its `normalizeMessages`
 * preview (a flat [{role, content: string}] list), or that list cut by its serializer.
 */
function isSemconvWindow(value: AttrValue | undefined): boolean {
  if (typeof value !== 'string') return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return false;
  }
  return Array.isArray(parsed) && parsed.every((m) => m !== null && typeof m === 'object' && Array.isArray((m as { parts?: unknown }).parts));
}

/**
 * Why this Mastra span's content cannot be read, or undefined when the span is not Mastra's or its
 * content can be read as semconv. Called only on spans the GenAI reader reads as inference.
 */
export function mastraContentNote(span: SpanData): string | undefined {
  const a = span.attributes;
  const type = a[MASTRA_SPAN_TYPE];
  if (typeof type !== 'string') return undefined;
  const input = a[GEN_AI_INPUT_MESSAGES];
  if (type === MODEL_GENERATION) return input === undefined && a[MASTRA_LEGACY_PROMPT] !== undefined ? MASTRA_0X_NOT_READ : MASTRA_1X_TURN_NOT_READ;
  // Every MODEL_INFERENCE input is a preview; even one without tool traffic comes with an output
  // that has lost the chosen calls, so the request is not read unless mastra-1x.ts rebuilt it.
  if (type === MODEL_INFERENCE && input !== undefined && !isSemconvWindow(input)) return MASTRA_1X_PREVIEW_NOT_READ;
  return undefined;
}
