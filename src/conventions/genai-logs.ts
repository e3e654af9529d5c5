// Reads the content of an inference span from the log records joined to it (the official
// @opentelemetry/instrumentation-openai keeps content only there): the per-message events of
// semconv v1.28–v1.36 (`gen_ai.{system,user,assistant,tool}.message`, `gen_ai.choice`) and the
// v1.37+ `gen_ai.client.inference.operation.details` event with structured messages. The event
// name is read from the LogRecord `eventName` field or the `event.name` attribute; a per-message
// record with no body (the Python instrumentation, capture off) is one without content.
// Must never throw, and never report "empty" where the records held no content (capture off).

import type { Message, Role, ToolDefinition } from '../model/agent.js';
import type { LogData } from '../model/telemetry.js';
import {
  EVENT_NAME_ATTR,
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_SYSTEM_INSTRUCTIONS,
  GEN_AI_TOOL_DEFINITIONS,
  LOG_ASSISTANT_MESSAGE,
  LOG_CHOICE,
  LOG_INFERENCE_DETAILS,
  LOG_SYSTEM_MESSAGE,
  LOG_TOOL_MESSAGE,
  LOG_USER_MESSAGE,
} from './keys-genai.js';
import {
  type GenAiScope,
  ShapeProblems,
  isRecord,
  openAiFormParts,
  readMessagesAttribute,
  readSystemInstructions,
  readToolDefinitions,
  reportOn,
} from './genai-parts.js';

export interface LogContent {
  /** undefined: no input records, or records with their content left out (capture off). */
  input?: Message[];
  /** undefined: no output records. */
  output?: Message[];
  /** True when the output records hold only ids, names and finish reasons (capture off). */
  outputWithoutContent?: boolean;
  systemInstructions?: string[];
  toolDefinitions?: ToolDefinition[];
}

const MESSAGE_EVENT_ROLES: ReadonlyMap<string, Role> = new Map([
  [LOG_SYSTEM_MESSAGE, 'system'],
  [LOG_USER_MESSAGE, 'user'],
  [LOG_ASSISTANT_MESSAGE, 'assistant'],
  [LOG_TOOL_MESSAGE, 'tool'],
]);

/** The record's event name: the LogRecord field (newer SDKs) or the `event.name` attribute (older). */
export function eventNameOf(log: LogData): string | undefined {
  if (log.eventName) return log.eventName;
  const a = log.attributes[EVENT_NAME_ATTR];
  return typeof a === 'string' && a !== '' ? a : undefined;
}

/** True when a per-message body carries content (not only ids, names and roles). */
function carriesContent(body: Record<string, unknown>): boolean {
  if (body.content !== undefined && body.content !== null) return true;
  const calls = body.tool_calls;
  if (Array.isArray(calls))
    for (const c of calls) if (isRecord(c) && isRecord(c.function) && c.function.arguments !== undefined && c.function.arguments !== null) return true;
  return false;
}

/** Reads every GenAI log record joined to one span. Records of other events are ignored. */
export function readLogContent(logs: readonly LogData[], scope: GenAiScope): LogContent {
  const out: LogContent = {};
  const input: Message[] = [];
  let inputRecords = 0;
  let inputContent = false;
  const choices: { index: number; order: number; message: Message }[] = [];
  let outputContent = false;
  const problems = new ShapeProblems();
  let detailsInput: Message[] | undefined;
  let detailsOutput: Message[] | undefined;

  for (const log of logs) {
    const name = eventNameOf(log);
    if (name === undefined) continue;
    const role = MESSAGE_EVENT_ROLES.get(name);
    if (role !== undefined) {
      inputRecords++;
      // Some emitters write the bare content as a string body; Python's writes none at all when
      // there is no content to record (capture off: `body=None`), which is not a broken record.
      const body = typeof log.body === 'string' ? { content: log.body } : (log.body ?? {});
      if (!isRecord(body)) {
        problems.add(`a ${name} record whose body is not a map`);
        continue;
      }
      if (carriesContent(body)) inputContent = true;
      if (input.length >= scope.limits.maxMessagesPerRequest) {
        problems.add(`messages past the bound of ${scope.limits.maxMessagesPerRequest}`);
        continue;
      }
      input.push({ role, parts: openAiFormParts(body, role, scope, `log ${name}`, problems) });
    } else if (name === LOG_CHOICE) {
      const body = log.body;
      if (!isRecord(body)) {
        problems.add('a gen_ai.choice record whose body is not a map');
        continue;
      }
      const message = isRecord(body.message) ? body.message : {};
      if (carriesContent(message)) outputContent = true;
      const index = typeof body.index === 'number' ? body.index : choices.length;
      choices.push({ index, order: choices.length, message: { role: 'assistant', parts: openAiFormParts(message, 'assistant', scope, 'log gen_ai.choice', problems) } });
    } else if (name === LOG_INFERENCE_DETAILS) {
      const a = log.attributes;
      const where = `log ${LOG_INFERENCE_DETAILS}`;
      if (a[GEN_AI_INPUT_MESSAGES] !== undefined && detailsInput === undefined)
        detailsInput = readMessagesAttribute(a[GEN_AI_INPUT_MESSAGES], `${where} ${GEN_AI_INPUT_MESSAGES}`, scope);
      if (a[GEN_AI_OUTPUT_MESSAGES] !== undefined && detailsOutput === undefined)
        detailsOutput = readMessagesAttribute(a[GEN_AI_OUTPUT_MESSAGES], `${where} ${GEN_AI_OUTPUT_MESSAGES}`, scope, { defaultRole: 'assistant' });
      if (a[GEN_AI_SYSTEM_INSTRUCTIONS] !== undefined && out.systemInstructions === undefined) {
        const si = readSystemInstructions(a[GEN_AI_SYSTEM_INSTRUCTIONS], `${where} ${GEN_AI_SYSTEM_INSTRUCTIONS}`, scope);
        if (si !== undefined) out.systemInstructions = si;
      }
      if (a[GEN_AI_TOOL_DEFINITIONS] !== undefined && out.toolDefinitions === undefined) {
        const defs = readToolDefinitions(a[GEN_AI_TOOL_DEFINITIONS], `${where} ${GEN_AI_TOOL_DEFINITIONS}`, scope);
        if (defs !== undefined) out.toolDefinitions = defs;
      }
    }
  }
  problems.flush(scope, 'log records');

  // The details event is the newer, whole form; per-message records are the fallback.
  if (detailsInput !== undefined) out.input = detailsInput;
  else if (inputRecords > 0 && inputContent) out.input = input;
  else if (inputRecords > 0) reportOn(scope, 'info', 'content.not-captured', `has ${inputRecords} input message record(s) with no content (content capture is off)`);

  if (detailsOutput !== undefined) out.output = detailsOutput;
  else if (choices.length > 0) {
    choices.sort((x, y) => x.index - y.index || x.order - y.order);
    // Without content the choices still name the chosen calls (ids and names), so they are kept;
    // the caller marks the output not captured.
    out.output = choices.map((c) => c.message);
    if (!outputContent) out.outputWithoutContent = true;
  }
  return out;
}
