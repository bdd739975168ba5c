/**
 * CASE WHEN c THEN a ELSE b END with an INTEGER, DATE or DOUBLE result (conditional.ts
 * numericIfElse, one loop picking by c's bits): the same answers as DuckDB with NULL conditions,
 * NULL branches and values, and TPC-H Q14's promo sum.
 */
import { describe, it } from 'vitest';
import '../../../src/sql/index.js';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';

const h = useHarness();

async function same(sql: string): Promise<void> {
  expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
}

describe('numeric CASE with one WHEN', () => {
  it('matches DuckDB with NULLs in the condition, the branches and their values', async () => {
    await same(`SELECT k, CASE WHEN i > 1 THEN i ELSE -1 END AS a, CASE WHEN f THEN d ELSE 0 END AS b, CASE WHEN s LIKE 'a%' THEN b ELSE NULL END AS c FROM nulls ORDER BY k`);
    await same(`SELECT k, CASE WHEN d > 1 THEN NULL ELSE i END AS a, CASE WHEN f2 THEN dt ELSE DATE '2000-01-01' END AS b, CASE WHEN i IS NULL THEN d ELSE d * 2 END AS c FROM nulls ORDER BY k`);
    await same(`SELECT sum(CASE WHEN s LIKE 'a%' THEN d ELSE 0 END) AS x, sum(CASE WHEN i < 3 THEN i ELSE 10 END) AS y FROM nulls`);
  });

  it('TPC-H Q14 promo revenue', async () => {
    await same(`SELECT 100.00 * sum(CASE WHEN p_type LIKE 'PROMO%' THEN l_extendedprice * (1 - l_discount) ELSE 0 END) / sum(l_extendedprice * (1 - l_discount)) AS promo_revenue
      FROM lineitem, part WHERE l_partkey = p_partkey AND l_shipdate >= DATE '1995-09-01' AND l_shipdate < DATE '1995-10-01'`);
  });
});
