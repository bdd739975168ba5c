/**
 * The differential suites with the cache on (CACHE-SEMANTICS.md C8: same
 * answers with and without the cache), each check run twice against DuckDB:
 *
 * - every deterministic subtree cached (`cacheAllSubtrees`): the first run
 *   writes an entry for every subtree, the second reads the whole query from
 *   the cache, and later queries read the subtrees they share;
 * - the same with every cache service instance killed before every run
 *   (parallelism 2, two instances): each run finds its entries lost and falls
 *   back to the original plan (C14);
 * - the same under a 64 KiB memory budget: nearly every batch spills to Arrow
 *   IPC files and is read back from disk (C11).
 *
 * The first mode runs TPC-H (with FLIP-36's `b`), the table methods,
 * expressions, aggregates and edge cases; the other two run TPC-H and the
 * table methods in `npm test` and everything under `npm run test:heavy`.
 */
import { describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { countStar, max, min } from '../../src/api/expr.js';
import { useHarness, type Harness, type HarnessOptions } from './harness.js';
import { aggregateSuite } from './suites/aggregates.js';
import { edgeCaseSuite } from './suites/edge-cases.js';
import { expressionSuite } from './suites/expressions.js';
import { tableMethodSuite } from './suites/table-methods.js';
import { FLIP36_B_SQL, flip36B, TPCH_QUERIES } from './tpch-queries.js';
import { HEAVY } from '../helpers/heavy.js';

/** TPC-H and FLIP-36's example, as cases of the harness. */
function tpchSuite(h: Harness): void {
  describe('TPC-H', () => {
    for (const q of TPCH_QUERIES) it(q.name, () => h.check(q.build(h.env), q.sql, { ordered: q.ordered }));
    it("FLIP-36's b", () => h.check(flip36B(h.env), FLIP36_B_SQL));
    it("FLIP-36's b.max(), b.min(), b.count() in one query", () => h.check(
      flip36B(h.env).select(max('revenue').as('mx'), min('revenue').as('mn'), countStar().as('n')),
      `SELECT max(revenue) AS mx, min(revenue) AS mn, count(*) AS n FROM (${FLIP36_B_SQL})`,
    ));
  });
}

const KIB = 1024;
const BUDGET = 64 * KIB;

const killAll = (env: TableEnvironment): void => { env.cacheManager.instances.forEach((i) => i.kill()); };

interface Mode {
  readonly name: string;
  readonly options: HarnessOptions;
  /** What the cache statistics must show after the mode's cases ran. */
  readonly verify: (env: TableEnvironment) => void;
  /** Runs every suite, not only TPC-H and the table methods (the slice of `npm test`). */
  readonly full: boolean;
}

const MODES: readonly Mode[] = [
  {
    name: 'every subtree cached',
    options: { env: { cache: { cacheAllSubtrees: true } }, runsPerCheck: 2 },
    full: true,
    verify: (env) => {
      const s = env.cacheManager.stats();
      expect(s.entries).toBeGreaterThan(100);
      expect(s.hits).toBeGreaterThan(100);
      expect(s.lost).toBe(0);
    },
  },
  {
    name: 'every subtree cached, every instance killed before every run',
    options: { env: { parallelism: 2, cache: { cacheAllSubtrees: true, instances: 2 } }, runsPerCheck: 2, beforeRun: killAll },
    full: HEAVY,
    verify: (env) => {
      const s = env.cacheManager.stats();
      expect(s.lost).toBeGreaterThan(50);
      expect(env.cacheManager.events().some((e) => e.kind === 'lost')).toBe(true);
    },
  },
  {
    name: `every subtree cached, ${BUDGET / KIB} KiB memory budget (spilling)`,
    options: { env: { cache: { cacheAllSubtrees: true, memoryBudgetBytes: BUDGET } }, runsPerCheck: 2 },
    full: HEAVY,
    verify: (env) => {
      const s = env.cacheManager.stats();
      expect(s.evictions).toBeGreaterThan(100);
      expect(s.diskBytes).toBeGreaterThan(0);
      expect(s.hits).toBeGreaterThan(100);
      expect(s.lost).toBe(0);
      for (const i of env.cacheManager.instances) expect(i.memoryBytes()).toBeLessThanOrEqual(i.budgetBytes);
    },
  },
];

for (const mode of MODES) {
  describe(mode.name, () => {
    const h = useHarness(mode.options);
    tpchSuite(h);
    tableMethodSuite(h);
    if (mode.full) {
      expressionSuite(h);
      aggregateSuite(h);
      edgeCaseSuite(h);
    }
    it('used the cache as this mode intends', () => mode.verify(h.env));
  });
}
