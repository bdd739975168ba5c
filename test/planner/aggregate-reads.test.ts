/**
 * An aggregate reads its input by position (planner/lower-columns.ts aggregateReads): a Project
 * below it that only renames its input's columns (all of them, in order) lowers to no vertex — a
 * cached entry grouped by its columns reads the cache source directly. Projects that compute,
 * reorder or drop columns stay. Answers against DuckDB, at parallelism 1 and through a cache.
 */
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/sql/index.js';
import { useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';

const h = useHarness();
const physical = (text: string): string => text.slice(text.indexOf('== Physical Plan'));

describe('an aggregate over a renaming projection', () => {
  afterAll(async () => { await h.env.executeSql('UNCACHE TABLE IF EXISTS agg_reads_b'); });

  it('a cached entry grouped by its columns: no Project vertex between the aggregate and the cache source', async () => {
    await h.env.executeSql(`CACHE TABLE agg_reads_b AS SELECT l_shipmode, l_extendedprice * (1 - l_discount) AS revenue FROM lineitem`);
    const sql = 'SELECT l_shipmode, sum(revenue) AS revenue, count(*) AS lines FROM agg_reads_b GROUP BY l_shipmode ORDER BY l_shipmode';
    const text = await h.env.sql(sql).explain();
    // The optimized plan keeps the renaming Project (names are the plan's); lowering skips it.
    expect(text.slice(0, text.indexOf('== Physical Plan'))).toMatch(/Project\(exprs=\[l_shipmode, revenue\], names=\[l_shipmode, __arg1\]\)/);
    expect(physical(text)).toMatch(/HashAggregate\([^\n]*\n\s+CacheSource\(/);
    const want = await h.duck.query(`SELECT l_shipmode, sum(l_extendedprice * (1 - l_discount)) AS revenue, count(*) AS lines FROM lineitem GROUP BY l_shipmode ORDER BY l_shipmode`);
    expectSameResult(fromArrow(await h.env.sql(sql).collect()), want);
  });

  it('a Project that reorders or computes stays a vertex, with the same answers', async () => {
    const sql = 'SELECT n_regionkey, count(*) AS c, sum(n_nationkey) AS s FROM (SELECT n_regionkey, n_nationkey FROM nation) GROUP BY n_regionkey ORDER BY 1';
    expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
    const computed = 'SELECT k, sum(v) AS s FROM (SELECT n_regionkey AS k, n_nationkey * 2 AS v FROM nation) GROUP BY k ORDER BY 1';
    expect(physical(await h.env.sql(computed).explain())).toMatch(/HashAggregate[^\n]*\n\s+Project\(/);
    expectSameResult(fromArrow(await h.env.sql(computed).collect()), await h.duck.query(computed));
  });
});
