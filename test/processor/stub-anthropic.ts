// A stub Anthropic Messages server on 127.0.0.1 that replays scripted responses (text or
// `tool_use` content blocks), in order, as JSON or, for `stream: true`, as the API's server-sent
// events, and keeps the requests it received. Not a model: it never
// looks at a request to decide what to answer. Must never listen beyond loopback, and never
// answer past its script (it says so with a 500).

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, send, type ReceivedRequest, type ScriptedResponse } from './stub-openai.js';

export interface StubAnthropic {
  /** e.g. `http://127.0.0.1:41234`: the `baseURL` for `@anthropic-ai/sdk`. */
  baseURL: string;
  readonly requests: ReceivedRequest[];
  remaining(): number;
  close(): Promise<void>;
}

export const ANTHROPIC_MODEL = 'claude-haiku-4-5';

/** A Messages API response: every scripted tool call is one `tool_use` block (several = parallel tool use). */
export function anthropicMessage(r: ScriptedResponse): Record<string, unknown> {
  const toolUse = (r.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments }));
  const content = toolUse.length > 0 ? [...(r.text ? [{ type: 'text', text: r.text }] : []), ...toolUse] : [{ type: 'text', text: r.text ?? '' }];
  return {
    id: r.id,
    type: 'message',
    role: 'assistant',
    model: r.model ?? ANTHROPIC_MODEL,
    content,
    stop_reason: toolUse.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: r.usage?.prompt_tokens ?? 100, output_tokens: r.usage?.completion_tokens ?? 20 },
  };
}


/**
 * A Messages response as the API streams it (server-sent events): message_start, then per block
 * content_block_start (a tool_use starts with `input: {}`), its deltas (text_delta, or the input's
 * JSON as input_json_delta pieces), content_block_stop, then message_delta and message_stop.
 */
function sendStream(res: ServerResponse, message: Record<string, unknown>): void {
  const events: Record<string, unknown>[] = [];
  const usage = message.usage as { input_tokens: number; output_tokens: number };
  events.push({ type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } });
  (message.content as Record<string, unknown>[]).forEach((block, index) => {
    if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      const json = JSON.stringify(block.input);
      const cut = Math.ceil(json.length / 2);
      for (const piece of [json.slice(0, cut), json.slice(cut)]) events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: String(block.text ?? '') } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  events.push({ type: 'message_stop' });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
}

/** Starts the stub on 127.0.0.1, port 0 (the OS picks one). */
export async function startStubAnthropic(script: readonly ScriptedResponse[]): Promise<StubAnthropic> {
  const queue = [...script];
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
        send(res, 404, { type: 'error', error: { type: 'not_found_error', message: `stub: no route ${req.method} ${path}` } });
        return;
      }
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      requests.push({ path, body });
      const next = queue.shift();
      if (!next) {
        send(res, 500, { type: 'error', error: { type: 'api_error', message: `stub: script exhausted after ${requests.length - 1} responses` } });
        return;
      }
      if (body.stream === true) {
        sendStream(res, anthropicMessage(next));
        return;
      }
      send(res, 200, anthropicMessage(next));
    })().catch((e) => send(res, 500, { type: 'error', error: { type: 'api_error', message: `stub: ${(e as Error).message}` } }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
