// A TRUE pass-through, the service-throughput baseline, in its own process (so its CPU time is its
// own): an OTLP/HTTP receiver that forwards each request body's bytes unread to the downstream and
// answers 200 (an empty ExportTraceServiceResponse) once the downstream answered 2xx, 503
// otherwise. It never decodes a span or reads a window: what any forwarder must pay at the least
// (HTTP in, HTTP out, on the same keep-alive Node HTTP stack the service uses).
// Protocol with bench/service.mjs as service-child.mjs's: {address} on start, {cpu, memory, logs}
// on 'stats', exits on 'stop'. Must never be used for anything but the bench.
import { createServer, request, Agent } from 'node:http';

const { downstream } = JSON.parse(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const logs = [];

function forward(body) {
  return new Promise((resolve) => {
    const req = request(downstream.tracesUrl, { method: 'POST', agent, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (e) => (logs.length < 20 && logs.push(`error ${e.message}`), resolve(0)));
    req.end(body);
  });
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const status = await forward(Buffer.concat(chunks));
    const ok = status >= 200 && status < 300;
    res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/x-protobuf', 'Content-Length': '0' }).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send({ address: `http://127.0.0.1:${server.address().port}` }));
process.on('message', (m) => {
  if (m === 'stats') process.send({ cpu: process.cpuUsage(), memory: process.memoryUsage(), logs });
  if (m === 'stop') {
    server.closeAllConnections();
    server.close(() => {
      agent.destroy();
      process.send({ stopped: true });
      process.exit(0);
    });
  }
});
