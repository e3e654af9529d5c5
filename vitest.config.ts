import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The live tests have their own packages and config: npm run test:live.
    exclude: ['**/node_modules/**', 'test/live/**'],
    // Two cores here and in CI: keep worker count small and timeouts honest.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
