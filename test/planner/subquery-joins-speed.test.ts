/**
 * Subqueries at join speed: semi and anti joins build a left side estimated
 * much smaller than the right (EXISTS / NOT EXISTS over a big table, TPC-H
 * Q21 and Q22) and pass it to the right side's scan as a runtime filter; an
 * uncorrelated [NOT] EXISTS needs only the first row of its subquery, and a
 * NOT EXISTS of a non-empty subquery never computes the outer side.
 */
import { describe, expect, it } from 'vitest';
import '../../src/sql/index.js';
import { useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';

// Assumes parallelism 1 (the default is the machine's cores): the join sides of a p1 plan.
const h = useHarness({ env: { parallelism: 1 } });

async function same(sql: string): Promise<void> {
  expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
}

const physical = async (sql: string, analyze = false): Promise<string> => {
  const t = await h.env.sql(sql).explain(analyze ? { analyze: true } : undefined);
  return t.slice(t.indexOf('== Physical Plan'));
};

describe('semi and anti joins building their small left side', () => {
  const EXISTS = `SELECT k, i FROM nulls WHERE EXISTS (SELECT 1 FROM lineitem WHERE l_linenumber = nulls.i AND l_quantity > nulls.k * 3)`;
  const NOT_EXISTS = EXISTS.replace('WHERE EXISTS', 'WHERE NOT EXISTS');

  it('build the left side and filter the right side\'s scan by its keys', async () => {
    expect(await physical(EXISTS)).toMatch(/HashJoin\(semi, [^\n]*build=left, runtime_filter=rf1\(lineitem\.l_linenumber\)(, unused=\[[^\]]*\])?\)/);
    const anti = await physical(NOT_EXISTS, true);
    expect(anti).toMatch(/HashJoin\(anti, [^\n]*build=left, runtime_filter=rf1\(lineitem\.l_linenumber\)(, unused=\[[^\]]*\])?\)/);
    // nulls.i holds 1, 2, 4, 7, 9 and others no lineitem has: the scan keeps lines 1, 2, 4 and 7 only.
    const rows = Number(anti.match(/Scan\(lineitem[^\n]*\] {2}rows=(\d+)/)![1]);
    expect(rows).toBeLessThan(h.tpch.lineitem.numRows * 0.75);
    expect(rows).toBeGreaterThan(0);
  });

  it('match DuckDB with NULL keys, residuals and duplicates', async () => {
    await same(EXISTS);
    await same(NOT_EXISTS);
    await same('SELECT n_name FROM nation WHERE n_nationkey IN (SELECT c_nationkey FROM customer WHERE c_acctbal > 9000)');
    await same('SELECT n_name FROM nation WHERE NOT EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal > 9990)');
  });

  it('TPC-H Q21 and Q22 shapes: the correlated EXISTS / NOT EXISTS build the outer rows', async () => {
    const q22ish = `SELECT count(*) AS c FROM customer WHERE c_acctbal > 9000 AND NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)`;
    expect(await physical(q22ish)).toMatch(/HashJoin\(anti, \(o_custkey = c_custkey\), build=left, runtime_filter=rf1\(orders\.o_custkey\)(, unused=\[[^\]]*\])?\)/);
    await same(q22ish);
  });
});

describe('uncorrelated [NOT] EXISTS', () => {
  const NONEMPTY = 'SELECT 1 FROM orders WHERE o_totalprice > 1000';
  const EMPTY = 'SELECT 1 FROM orders WHERE o_totalprice < 0';

  it('NOT EXISTS of a non-empty subquery stops the outer side at once', async () => {
    const sql = `SELECT count(*) AS c FROM lineitem WHERE NOT EXISTS (${NONEMPTY})`;
    const p = await physical(sql, true);
    expect(p).toMatch(/NestedLoopJoin\(anti, true\)/);
    // The subquery's first batch decides; the outer scan is never pulled.
    expect(p).toMatch(/Scan\(lineitem[^\n]*  rows=0 batches=0 /);
    await same(sql);
  });

  it('EXISTS keeps every outer row, each paired with one subquery row only; an empty subquery flips both', async () => {
    await same(`SELECT count(*) AS c FROM lineitem WHERE EXISTS (${NONEMPTY})`);
    await same(`SELECT count(*) AS c FROM lineitem WHERE NOT EXISTS (${EMPTY})`);
    await same(`SELECT count(*) AS c FROM lineitem WHERE EXISTS (${EMPTY})`);
    await same(`SELECT k FROM nulls WHERE NOT EXISTS (SELECT 1 FROM nulls_r WHERE j IS NULL) OR k > 11`);
  }, 20_000);
});
