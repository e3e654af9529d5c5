// Issue 31 item 4: the downstream export's timeout measures the downstream, not this process's
// event loop. A downstream that answers at once, while the thread is then kept busy (as decoding
// other large batches keeps it), had its answer lost to the timer that fired first: the batch was
// answered 503 "downstream export failed" and the sender's retry delivered it twice. Now the answer
// wins (200, delivered once); and a downstream that really does not answer, while the thread was
// busy too, is timed out on its own time and the answer says how long the thread was busy.
// The sink runs in this process on 127.0.0.1, so blocking its handler blocks the service's thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService, type RunningService } from '../../src/service/serve.js';
import { OtlpTypes } from '../../src/otlp/otlp-schema.js';
import { readAll, retraced, testConfig, silentLog } from './helpers.js';
import { protoBody } from '../reliability/helpers.js';

/** Keeps the thread busy, as a synchronous decode of a large batch does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* spin */
  }
}

let server: Server;
let url = '';
let mode: 'answer-then-busy' | 'busy-no-answer' = 'answer-then-busy';
let delivered = 0;
let svc: RunningService;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    await readAll(req);
    delivered++;
    if (mode === 'answer-then-busy') {
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
      busy(700);
    } else {
      busy(700);
      // No answer: the socket is left open until the service gives up.
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  svc = await startService(testConfig({ downstream: { tracesUrl: `${url}/v1/traces`, logsUrl: null, headers: {}, protocol: 'http/protobuf', compression: 'none', timeoutMs: 200 } }), { log: silentLog });
});
afterAll(async () => {
  await svc?.shutdown();
  server?.closeAllConnections();
  await new Promise<void>((r) => server?.close(() => r()));
});

const post = (body: Uint8Array) => fetch(`${svc.address}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body });

describe('the export timeout measures the downstream, not the event loop', () => {
  it('an answer that arrived while the thread was busy past the timeout wins: 200, delivered once', async () => {
    mode = 'answer-then-busy';
    delivered = 0;
    const r = await post(protoBody(retraced('openinference-openai').spans));
    const text = r.status === 200 ? '' : Buffer.from(await r.arrayBuffer()).toString('utf8');
    expect({ status: r.status, text }).toEqual({ status: 200, text: '' });
    expect(delivered).toBe(1);
  });

  it("a downstream that does not answer is timed out on its own time; the answer says the service's thread was busy too", async () => {
    mode = 'busy-no-answer';
    const r = await post(protoBody(retraced('openinference-openai').spans));
    expect(r.status).toBe(503);
    const status = OtlpTypes.Status.decode(new Uint8Array(await r.arrayBuffer())) as unknown as { message: string };
    expect(status.message).toMatch(/no answer within 200 ms \(this service's thread was also busy for \d+ ms meanwhile, not counted\)/);
  });
});
