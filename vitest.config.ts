import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Temporary files go to a per-run folder; leftovers fail the run (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One test file per core (vitest's default leaves one core idle): on 2 cores 253 s instead of 396 s.
    maxWorkers: Math.max(1, availableParallelism()),
  },
});
