/**
 * NOT IN over nullable columns runs as a NULL-aware hash anti join
 * (planner/not-in-join.ts, hash-join.ts `nullAware`), not a nested-loop join
 * over `a = b OR a IS NULL OR b IS NULL`: same answers as DuckDB with NULLs
 * on either side, an empty subquery, and small batches at parallelism 2.
 */
import { describe, expect, it } from 'vitest';
import '../../src/sql/index.js';
import { useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';

const h = useHarness({ tpch: false, smallBatchRows: 3 });
const h2 = useHarness({ tpch: false, smallBatchRows: 2, env: { parallelism: 2, workers: 'off', parallelGraph: true } });

const CASES = [
  // A NULL in the subquery: no row qualifies.
  'SELECT k FROM nulls WHERE i NOT IN (SELECT j FROM nulls_r)',
  // No NULL in the subquery: NULL probe keys drop their row.
  'SELECT k FROM nulls WHERE i NOT IN (SELECT j FROM nulls_r WHERE j IS NOT NULL)',
  // An empty subquery: every row qualifies, NULL keys too.
  'SELECT k FROM nulls WHERE i NOT IN (SELECT j FROM nulls_r WHERE j > 100)',
  // Strings, and a subquery whose only NULL comes after its matches.
  'SELECT k FROM nulls WHERE s NOT IN (SELECT s2 FROM nulls_r WHERE w > 150)',
  'SELECT k FROM nulls WHERE s NOT IN (SELECT s2 FROM nulls_r WHERE s2 IS NOT NULL)',
  'SELECT count(*) AS c FROM nulls WHERE b NOT IN (SELECT j FROM nulls_r WHERE j <> 42)',
];

describe('NOT IN as a NULL-aware hash anti join', () => {
  it('lowers to a hash join, not a nested-loop join', async () => {
    const plan = await h.env.sql(CASES[0]!).explain();
    const physical = plan.slice(plan.indexOf('== Physical Plan'));
    expect(physical).toMatch(/HashJoin\(anti, [^\n]*build=right, null_aware/);
    expect(physical).not.toMatch(/NestedLoopJoin/);
  });

  it('matches DuckDB with NULLs on either side and an empty subquery', async () => {
    for (const sql of CASES) expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
  });

  it('matches DuckDB at parallelism 2 (one join instance sees the whole subquery)', async () => {
    for (const sql of CASES) expectSameResult(fromArrow(await h2.env.sql(sql).collect()), await h2.duck.query(sql));
  });
});
