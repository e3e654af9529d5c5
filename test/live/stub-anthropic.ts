// A stub Anthropic Messages server on 127.0.0.1 that replays scripted responses (text or
// `tool_use` content blocks), in order, and keeps the requests it received. Not a model: it never
// looks at a request to decide what to answer. Must never listen beyond loopback, and never
// answer past its script (it says so with a 500).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, send, type ReceivedRequest, type ScriptedResponse } from '../processor/stub-openai.js';

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
      if (body.stream === true) {
        send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'stub: streaming is not scripted' } });
        return;
      }
      const next = queue.shift();
      if (!next) {
        send(res, 500, { type: 'error', error: { type: 'api_error', message: `stub: script exhausted after ${requests.length - 1} responses` } });
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
