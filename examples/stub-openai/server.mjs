// A stub OpenAI-compatible server on 127.0.0.1 that replays scripted Chat Completions responses,
// in order, and keeps the requests it received. A plain-JS copy of test/processor/stub-openai.ts
// (node:http only). Not a model: it never looks at the request to decide what to answer.
// It listens on loopback only, and never answers past its script (it says so with a 500).
//
//   import { startStubOpenAI } from '../stub-openai/server.mjs';
//   const stub = await startStubOpenAI(script);   // stub.baseURL: http://127.0.0.1:<port>/v1
//   ...
//   await stub.close();
//
// Run on its own (`node examples/stub-openai/server.mjs`), it serves the backup-triage script,
// prints its baseURL and stops once the whole script has been served.

import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const MAX_BODY = 8 * 1024 * 1024;

function chatCompletion(r, created) {
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

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
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

/**
 * Starts the stub on 127.0.0.1, port 0 (the OS picks one). `onServed(requests)` is called after
 * the last scripted response has been sent.
 */
export async function startStubOpenAI(script, opts = {}) {
  const queue = [...script];
  const requests = [];
  const created = opts.created ?? 1_764_460_800;
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        send(res, 404, { error: { message: `stub: no route ${req.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      let body;
      try {
        body = JSON.parse(await readBody(req));
      } catch (e) {
        send(res, 400, { error: { message: `stub: bad body (${e.message})`, type: 'invalid_request_error' } });
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
      if (queue.length === 0) res.once('finish', () => opts.onServed?.(requests));
      send(res, 200, chatCompletion(next, created));
    })().catch((e) => send(res, 500, { error: { message: `stub: ${e.message}`, type: 'server_error' } }));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = server.address().port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    /** Responses not served yet. */
    remaining: () => queue.length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { script } = await import('./backup-triage.mjs');
  const stub = await startStubOpenAI(script, { onServed: () => void stub.close().then(() => console.log('stub: script served, stopped')) });
  console.log(`stub: serving the backup-triage script (${script.length} responses) at ${stub.baseURL}`);
}
