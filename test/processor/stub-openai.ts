// A stub OpenAI-compatible server on 127.0.0.1 that replays scripted Chat Completions responses,
// in order, and keeps the requests it received. Self-contained (node:http only) so examples/ can
// ship a copy. Not a model: it never looks at the request to decide what to answer.
// Must never listen beyond loopback, and never answer past its script (it says so with a 500).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface ScriptedResponse {
  /** The response id, e.g. `chatcmpl-backup-triage-004`. */
  id: string;
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default `gpt-4o-mini-2024-07-18`. */
  model?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface ReceivedRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface StubOpenAI {
  /** e.g. `http://127.0.0.1:41234/v1`: the `baseURL` for the openai client and @ai-sdk/openai. */
  baseURL: string;
  port: number;
  readonly requests: ReceivedRequest[];
  /** Responses not served yet. */
  remaining(): number;
  close(): Promise<void>;
}

const MAX_BODY = 8 * 1024 * 1024;

function chatCompletion(r: ScriptedResponse, created: number): Record<string, unknown> {
  const toolCalls = r.toolCalls?.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) } }));
  const usage = r.usage ?? { prompt_tokens: 100, completion_tokens: 20 };
  return {
    id: r.id,
    object: 'chat.completion',
    created,
    model: r.model ?? 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_stub',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: r.text ?? null, refusal: null, ...(toolCalls && toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: toolCalls && toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** Answers `body` as JSON (shared by the stubs). */
export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The request body as text, refused past MAX_BODY (shared by the stubs). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the stub on 127.0.0.1, port 0 (the OS picks one). */
export async function startStubOpenAI(script: readonly ScriptedResponse[], opts: { created?: number } = {}): Promise<StubOpenAI> {
  const queue = [...script];
  const requests: ReceivedRequest[] = [];
  const created = opts.created ?? 1_764_460_800;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        send(res, 404, { error: { message: `stub: no route ${req.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch (e) {
        send(res, 400, { error: { message: `stub: bad body (${(e as Error).message})`, type: 'invalid_request_error' } });
        return;
      }
      requests.push({ path, body });
      if (body.stream === true) {
        send(res, 400, { error: { message: 'stub: streaming is not scripted', type: 'invalid_request_error' } });
        return;
      }
      const next = queue.shift();
      if (!next) {
        send(res, 500, { error: { message: `stub: script exhausted after ${requests.length - 1} responses`, type: 'server_error' } });
        return;
      }
      send(res, 200, chatCompletion(next, created));
    })().catch((e) => send(res, 500, { error: { message: `stub: ${(e as Error).message}`, type: 'server_error' } }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
