// The long reliability run: `npm run test:reliability`. The same files as in `npm test`, with
// FOOTPRINT_RELIABILITY_LONG=1: the 60 s autocannon load (20 s above the limits) and five times
// the property-based runs. Bounded like the rest: every case has its own deadline.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    env: { FOOTPRINT_RELIABILITY_LONG: '1' },
  },
});
