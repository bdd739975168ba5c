import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files (5–30 s each on 2 cores), longest first. Without timings of its own (a fresh clone,
 * as in CI) vitest runs larger files first, and most of these are small: they ran last and left one core
 * idle for their length. They start first when vitest has no timings for them; with timings, vitest's
 * own longest-first order is used.
 */
const SLOW_FIRST = [
  'test/diff/cached.test.ts',
  'test/slt.test.ts',
  'test/workers/tpch-differential.test.ts',
  'test/workers/final-here.test.ts',
  'test/diff/library-functions.test.ts',
  'test/reliability/fuzz.test.ts',
  'test/reliability/huge-statements.test.ts',
  'test/diff/parallel.test.ts',
  'test/reliability/cache-signals.test.ts',
  'test/cli/cli.test.ts',
  'test/diff/random.test.ts',
  'test/diff/table-methods.test.ts',
  'test/cache/correctness.test.ts',
  'test/exec/kernels/case-numeric.test.ts',
  'test/iteration/table/min-label-inplace.test.ts',
  'test/workers/lifecycle.test.ts',
  'test/diff/edge-cases.test.ts',
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const path = (f: TestSpecification): string => relative(root, f.moduleId).split('\\').join('/');
    const timed = (f: TestSpecification): boolean => this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`) !== undefined;
    if (sorted.filter((f) => SLOW_FIRST.includes(path(f))).every(timed)) return sorted;
    const rank = (f: TestSpecification): number => { const i = SLOW_FIRST.indexOf(path(f)); return i < 0 ? SLOW_FIRST.length : i; };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

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
    sequence: { sequencer: SlowFirstSequencer },
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
