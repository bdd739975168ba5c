import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files that replace modules with vi.mock need a module registry of their own.
const MOCKING = ['test/planner/rules/simplify-expressions.test.ts', 'test/iteration/failover-more.test.ts'];

const shared = {
  // Temporary files go to a per-run folder; leftovers fail the run (test/global-setup.ts).
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // One test file per core (vitest's default leaves one core idle): on 2 cores 253 s instead of 396 s.
    maxWorkers: Math.max(1, availableParallelism()),
    projects: [
      {
        test: {
          ...shared,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: MOCKING,
          // Files of one worker share loaded modules: importing the engine (Arrow, the SQL grammar) cost
          // ~1.2 s per file, ~60% of the whole run. Tests must not depend on a fresh module state.
          isolate: false,
        },
      },
      { test: { ...shared, name: 'isolated', include: MOCKING } },
    ],
  },
});
