/**
 * Late materialization in lowering (planner/lower.ts): Filter → [Project] fused into the hash
 * aggregate at parallelism 1 and into FilterProject otherwise; filters and hash joins skip the
 * columns nothing above reads (`unused=[...]`). Plans by EXPLAIN, answers against DuckDB at
 * parallelism 1 and 2, and a cached join whose entry must keep every column.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/sql/index.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { registerNullTables, useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';

// Assumes parallelism 1 (the default is the machine's cores): the plans checked here are p1's (p2 has its own environment).
const h = useHarness({ env: { parallelism: 1 } });
let p2: TableEnvironment;
beforeAll(async () => {
  p2 = TableEnvironment.create({ parallelism: 2, parallelGraph: true }); // the parallel graph (a stageless plan otherwise runs, and EXPLAIN shows, the p1 graph)
  p2.registerTpch(0.01);
  await registerNullTables(p2);
});
afterAll(async () => { await p2.close(); });

const physical = (text: string): string => text.slice(text.indexOf('== Physical Plan'));

async function sameAtBoth(sql: string): Promise<void> {
  const want = await h.duck.query(sql);
  expectSameResult(fromArrow(await h.env.sql(sql).collect()), want);
  expectSameResult(fromArrow(await p2.sql(sql).collect()), want);
}

const Q1ISH = `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS q, sum(l_extendedprice * (1 - l_discount)) AS r, avg(l_discount) AS d, count(*) AS c, min(l_tax) AS t
  FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus`;

const Q3ISH = `SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
  FROM customer, orders, lineitem
  WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
    AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
  GROUP BY l_orderkey, o_orderdate, o_shippriority`;

describe('late materialization: plans', () => {
  it('parallelism 1: the filter and projection run inside the hash aggregate', async () => {
    const p = physical(await h.env.sql(Q1ISH).explain());
    expect(p).toMatch(/HashAggregate\(group=\[l_returnflag, l_linestatus\][^\n]*; fused: Project\([^\n]*\), Filter\(\(l_shipdate <= DATE '1998-09-02'\)\)\) \[p=1\]/);
    expect(p).not.toMatch(/\n\s+Filter\(/);
  });

  it('parallelism 2: the aggregate takes a hash exchange, so the filter fuses with the projection only', async () => {
    const p = physical(await p2.sql(Q1ISH).explain());
    expect(p).toMatch(/FilterProject\(filter=\(l_shipdate <= DATE '1998-09-02'\), exprs=\[[^\n]*\) \[p=\d\] <- hash/);
    expect(p).toMatch(/HashAggregate\(group=\[l_returnflag, l_linestatus\], aggs=\[[^\n]*\]\) \[p=2\]  est/);
  });

  it('filters and joins below a projection skip the columns nothing above reads', async () => {
    const p = physical(await h.env.sql(Q3ISH).explain());
    expect(p).toMatch(/Filter\(\(c_mktsegment = 'BUILDING'\), unused=\[c_mktsegment\]\)/);
    expect(p).toMatch(/Filter\(\(l_shipdate > DATE '1995-03-15'\), unused=\[l_shipdate\]\)/);
    expect(p).toMatch(/HashJoin\(inner, \(l_orderkey = o_orderkey\)[^\n]*unused=\[[^\]]*c_mktsegment[^\]]*l_shipdate\]\)/);
  });

  it('the query output keeps every column', async () => {
    const p = physical(await h.env.sql('SELECT * FROM orders JOIN customer ON o_custkey = c_custkey WHERE c_acctbal > 0').explain());
    expect(p).not.toContain('unused=');
  });
});

describe('late materialization: answers (parallelism 1 and 2)', () => {
  it('TPC-H Q1 and Q3 shapes', async () => {
    await sameAtBoth(Q1ISH);
    await sameAtBoth(Q3ISH);
  });

  it('dense and sparse selections, filters that drop every row, NULL inputs', async () => {
    await sameAtBoth('SELECT g, sum(d) AS sd, count(i) AS ci, avg(i) AS ai, min(s) AS ms FROM nulls WHERE k > 1 GROUP BY g');
    await sameAtBoth('SELECT g, sum(d * 2) AS sd, count(*) AS c FROM nulls WHERE k = 3 GROUP BY g');
    await sameAtBoth('SELECT sum(l_quantity) AS q, count(*) AS c FROM lineitem WHERE l_quantity > 1000');
    await sameAtBoth('SELECT g, count(*) AS c FROM nulls WHERE k < 0 GROUP BY g');
  });

  it('outer, semi and anti joins with residuals and a projection above', async () => {
    await sameAtBoth('SELECT k, w FROM nulls LEFT JOIN nulls_r ON i = j AND k < 5');
    await sameAtBoth('SELECT k, w FROM nulls FULL JOIN nulls_r ON i = j');
    await sameAtBoth('SELECT k FROM nulls WHERE EXISTS (SELECT 1 FROM nulls_r WHERE j = i AND w IS NOT NULL)');
    await sameAtBoth('SELECT k, s FROM nulls WHERE NOT EXISTS (SELECT 1 FROM nulls_r WHERE j = i)');
    await sameAtBoth(`SELECT o_orderpriority, count(*) AS c FROM orders, lineitem
      WHERE o_orderkey = l_orderkey AND l_commitdate < l_receiptdate AND o_orderdate >= DATE '1993-07-01' GROUP BY o_orderpriority`);
  });
});

describe('late materialization and the cache', () => {
  it('a cached join keeps every column: a later query reads columns the first one did not', async () => {
    const env = TableEnvironment.create();
    try {
      env.registerTpch(0.01);
      const join = "orders JOIN customer ON o_custkey = c_custkey WHERE o_orderdate < DATE '1993-01-01'";
      env.registerTable('oc', env.sql(`SELECT * FROM ${join}`).cache());
      const first = await env.sql('SELECT o_orderkey FROM oc WHERE c_acctbal > 0').explain();
      expect(first).toContain('CacheSink');
      expectSameResult(fromArrow(await env.sql('SELECT o_orderkey FROM oc WHERE c_acctbal > 0').collect()), await h.duck.query(`SELECT o_orderkey FROM ${join} AND c_acctbal > 0`));
      const second = await env.sql('SELECT c_name, o_totalprice FROM oc WHERE c_acctbal > 0').explain();
      expect(second).toContain('CacheSource');
      expectSameResult(fromArrow(await env.sql('SELECT c_name, o_totalprice FROM oc WHERE c_acctbal > 0').collect()), await h.duck.query(`SELECT c_name, o_totalprice FROM ${join} AND c_acctbal > 0`));
    } finally {
      await env.close();
    }
  });
});
