// The service under test, in its own process (so its CPU time is its own): starts startService
// with the config in argv[2] (JSON), sends {address} to the parent, answers {cpu, memory} on
// 'stats' and shuts down on 'stop'. BENCH_SERVICE_DIST: the build to run (default ../dist).
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { resolve } from 'node:path';

const dist = process.env.BENCH_SERVICE_DIST ? pathToFileURL(resolve(process.env.BENCH_SERVICE_DIST)).href : new URL('../dist', import.meta.url).href;
const { startService } = await import(`${dist}/service/serve.js`);
const { defaultServiceConfig } = await import(`${dist}/service/config.js`);

const over = JSON.parse(process.argv[2]);
const config = { ...defaultServiceConfig(), grpcListen: null, embedded: { runs: 100, print: false }, ...over, limits: { ...defaultServiceConfig().limits, ...(over.limits ?? {}) } };
const logs = [];
const svc = await startService(config, { log: (level, message) => logs.length < 20 && level !== 'info' && logs.push(`${level} ${message}`) });
process.send({ address: svc.address, grpcAddress: svc.grpcAddress });
// The thread's own stalls (what a health probe waits on, besides the machine's scheduling).
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
process.on('message', async (m) => {
  if (m === 'stats') process.send({ cpu: process.cpuUsage(), memory: process.memoryUsage(), logs, loopDelayMs: { max: Math.round(lag.max / 1e6), p99: Math.round(lag.percentile(99) / 1e6), mean: Math.round(lag.mean / 1e6) } });
  if (m === 'stop') {
    await svc.shutdown();
    process.send({ stopped: true });
    process.exit(0);
  }
});
