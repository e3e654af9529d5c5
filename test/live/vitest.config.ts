// The live tests (`npm run test:live`): the real agent frameworks and instrumentations of
// test/live/package.json against stub models on 127.0.0.1. Their packages live in
// test/live/node_modules, apart from the checkout's; `npm test` does not run these.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/live/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
