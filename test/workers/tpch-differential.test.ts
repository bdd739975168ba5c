/**
 * Multi-core results are the single-thread results: the 22 TPC-H queries at parallelism 1 and
 * at parallelism 2 with worker threads (workers: 'always', so the small tables still go to the
 * workers), SF 0.01, compared BIT-EXACTLY (no float tolerance; ORDER BY columns in sequence):
 * a partial stage's DOUBLE sums travel as exact parts and are rounded once (agg-sum-parts.ts), a
 * partitioned or co-partitioned stage adds each group's rows on one share, and a compensated sum
 * of these values is exact (rows × Σ|x| is far below the bound there), so no answer may differ
 * even in the last bit (docs/multi-core.md "Determinism"). The queries the multi-core target
 * names must really have run stages on the workers; Q18 also runs with a threshold that leaves
 * rows at this scale.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { tpchEnv, tpchSql } from './tpch-sql.js';
import { workerStats } from './helpers.js';

const SF = 0.01;
const p1 = tpchEnv(SF, { parallelism: 1 });
const p2 = tpchEnv(SF, { parallelism: 2, workers: 'always', batchSize: 4096 });
afterAll(async () => {
  await p1.close();
  await p2.close();
  expect(workerStats(p2).live).toBe(0);
});

async function same(sql: string, orderKeys: readonly string[]): Promise<number> {
  const expected = fromArrow(await p1.sql(sql).collect());
  const before = workerStats(p2).stages;
  const actual = fromArrow(await p2.sql(sql).collect());
  expectSameResult(actual, expected, { tolerance: 0, ...(orderKeys.length > 0 ? { orderKeys } : {}) });
  return workerStats(p2).stages - before;
}

const STAGED = new Set([1, 3, 6, 18]);

describe('TPC-H: parallelism 2 on worker threads = parallelism 1', { timeout: 180_000 }, () => {
  for (let n = 1; n <= 22; n++) {
    it(`Q${n}`, async () => {
      const q = tpchSql(n);
      const stages = await same(q.sql, q.orderKeys);
      if (STAGED.has(n)) expect(stages).toBeGreaterThan(0);
    });
  }

  it('Q18 with a threshold that keeps rows at SF 0.01 (stages: the IN subquery, the orders side, the outer aggregate)', async () => {
    const q = tpchSql(18);
    const sql = q.sql.replace(/>\s*300/, '> 150');
    expect(sql).not.toBe(q.sql);
    const rows = (await p1.sql(sql).collect()).numRows;
    expect(rows).toBeGreaterThan(0);
    expect(await same(sql, q.orderKeys)).toBeGreaterThanOrEqual(2);
  });

  it('aggregates that do not split shuffle their input (count DISTINCT, median), and many-group aggregates too', async () => {
    const a = await same('SELECT l_returnflag, count(DISTINCT l_suppkey) AS s, median(l_quantity) AS m FROM lineitem GROUP BY l_returnflag ORDER BY l_returnflag', ['l_returnflag']);
    const b = await same('SELECT l_orderkey, sum(l_quantity) AS q, avg(l_discount) AS d, min(l_shipdate) AS s, count(*) AS c FROM lineitem GROUP BY l_orderkey', []);
    expect(a).toBe(1);
    expect(b).toBe(1);
  });

  it('global aggregates: empty input, NULL-only input, avg over integers', async () => {
    await same('SELECT count(*) AS c, sum(l_quantity) AS s, avg(l_quantity) AS a, min(l_comment) AS m FROM lineitem WHERE l_quantity < 0', []);
    await same('SELECT count(l_x) AS c, sum(l_x) AS s, avg(l_x) AS a FROM (SELECT CASE WHEN l_quantity < 0 THEN l_quantity END AS l_x FROM lineitem)', []);
    await same('SELECT avg(l_linenumber) AS a, sum(l_linenumber) AS s, count(*) AS c FROM lineitem', []);
  });
});
